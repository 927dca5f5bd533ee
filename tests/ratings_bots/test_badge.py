"""A bot's badge carries its level's published rating for the table's rule set, wherever the badge shows."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import actions
from players.bot_ratings import published_rating

pytestmark = pytest.mark.django_db


def table_with_bot(creator, rules="septica", level="expert", style="aggressive", players=3):
    return actions.create_table(creator, rules=rules, players=players,
                                bots=[actions.BotSpec(seat=1, level=level, style=style)])


def bot_seat(client, table) -> dict:
    return client.get(f"/api/tables/{table.pk}").json()["seats"][1]


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
@pytest.mark.parametrize("level", ["beginner", "medium", "expert"])
def test_the_api_gives_each_bot_its_levels_rating_for_the_tables_rule_set(client, alice, rules, level):
    table = table_with_bot(alice, rules=rules, level=level, style="balanced")

    bot = bot_seat(client, table)["bot"]

    rating = published_rating(rules, level)
    assert bot["rating"] == rating
    assert bot["badge"] == f"{level.capitalize()} ≈ {rating}, balanced"


def test_the_same_level_shows_another_figure_under_other_rules(client, alice):
    septica, americana = table_with_bot(alice, rules="septica"), table_with_bot(alice, rules="americana")

    badges = {bot_seat(client, table)["bot"]["badge"] for table in (septica, americana)}

    assert badges == {f"Expert ≈ {published_rating(rules, 'expert')}, aggressive" for rules in ("septica", "americana")}


def test_the_lobby_and_my_matches_show_the_rating_beside_the_badge(client, alice, bob):
    table_with_bot(alice)
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).content.decode()
    client.force_login(alice)
    mine = client.get(reverse("my_matches")).content.decode()

    shown = f"Expert ≈ {published_rating('septica', 'expert')}, aggressive"
    assert shown in lobby and shown in mine


def test_the_table_page_hands_its_script_the_rated_badge(client, alice):
    table = table_with_bot(alice)
    client.force_login(alice)

    page = client.get(reverse("table", args=[table.pk])).content.decode()

    data = json.loads(re.search(r'<script id="table-data" type="application/json">(.*?)</script>', page, re.S)[1])
    assert data["seats"][1]["bot"]["badge"] == f"Expert ≈ {published_rating('septica', 'expert')}, aggressive"


def test_the_badge_keeps_its_rating_in_romanian(alice):
    table = table_with_bot(alice, level="medium", style="cautious")

    bot = bot_seat(Client(HTTP_ACCEPT_LANGUAGE="ro"), table)["bot"]

    assert f" ≈ {published_rating('septica', 'medium')}, " in bot["badge"]
    assert not bot["badge"].startswith("Medium")  # the level itself is in Romanian


def test_a_person_seat_has_no_rating_in_its_place(client, alice):
    table = table_with_bot(alice)

    me = client.get(f"/api/tables/{table.pk}").json()["seats"][0]

    assert me["kind"] == "person" and me["bot"] is None
