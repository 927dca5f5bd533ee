"""Rated or casual, chosen when a table is made; a bot at the table always makes it casual."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import actions
from games.models import Table
from tests.play import play_moves, start_table
from tests.web.test_lobby import form_data

pytestmark = pytest.mark.django_db


def post_table(client, **body):
    return client.post("/api/tables", data=json.dumps({"rules": "septica", "players": 2, **body}),
                       content_type="application/json")


def test_a_table_of_people_is_rated_unless_asked_for_casual(alice):
    assert actions.create_table(alice, rules="septica", players=2).rated
    assert not actions.create_table(alice, rules="septica", players=3, rated=False).rated


def test_a_bot_seat_makes_a_table_casual_even_when_rated_was_asked_for(alice):
    table = actions.create_table(alice, rules="septica", players=2, bots=[actions.BotSpec(seat=1)], rated=True)
    assert not table.rated


def test_a_bot_added_to_a_waiting_table_makes_it_casual(alice, bob):
    table = actions.create_table(alice, rules="septica", players=3)
    actions.join_table(table.pk, bob)
    actions.add_bot(table.pk, alice)

    assert not Table.objects.get(pk=table.pk).rated


def test_a_rematch_is_rated_as_its_match_was(alice, bob):
    rated = start_table(alice, [bob], options={"match": "points-8"}, min_reliability=80)
    casual = start_table(alice, [bob], options={"match": "points-8"}, rated=False)
    play_moves(rated)
    play_moves(casual)

    again = actions.rematch(rated.pk, bob)
    assert (again.rated, again.min_reliability) == (True, 80)
    assert not actions.rematch(casual.pk, bob).rated


def test_the_api_takes_rated_and_the_least_reliability(client, alice):
    client.force_login(alice)
    answer = post_table(client, rated=False, min_reliability=90).json()

    assert (answer["rated"], answer["min_reliability"]) == (False, 90)
    assert answer["words"]["rated"] == "Casual · reliability 90% or more to join"
    default = post_table(client).json()
    assert (default["rated"], default["min_reliability"], default["words"]["rated"]) == (True, None, "Rated")
    with_bot = post_table(client, rated=True, bots=[{"seat": 1}]).json()
    assert with_bot["rated"] is False


@pytest.mark.parametrize("body", [
    {"rated": "yes"}, {"rated": 1}, {"min_reliability": 101}, {"min_reliability": -1},
    {"min_reliability": "90"}, {"min_reliability": 50.5}, {"min_reliability": True},
])
def test_the_api_refuses_a_bad_rated_choice_or_reliability_and_makes_nothing(client, alice, body):
    client.force_login(alice)
    answer = post_table(client, **body)

    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["error"]
    assert not Table.objects.exists()


def test_the_form_offers_rated_checked_and_says_a_bot_makes_it_casual(client, alice):
    client.force_login(alice)
    page = client.get(reverse("create_table"))
    html = page.content.decode()

    assert page.context["form"]["rated"].value() is True
    assert "A bot at the table makes it casual." in html
    assert 'name="min_reliability"' in html and ">95%<" in html


def test_the_form_makes_a_rated_table_for_people_with_a_least_reliability(client, alice):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table")))
    data.update(seat_1="person", min_reliability="70")
    client.post(reverse("create_table"), data)

    table = Table.objects.get()
    assert (table.rated, table.min_reliability) == (True, 70)


def test_the_form_with_rated_unticked_or_a_bot_makes_a_casual_table(client, alice):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table")))
    assert data["seat_1"] == "bot"
    client.post(reverse("create_table"), data)
    data.pop("rated")
    data.update(seat_1="person", private="on")
    client.post(reverse("create_table"), data)

    assert list(Table.objects.order_by("pk").values_list("rated", "min_reliability")) == [
        (False, None), (False, None)]


def test_the_lobby_and_my_matches_say_rated_or_casual(client, alice, bob):
    actions.create_table(alice, rules="septica", players=2)
    client.force_login(bob)

    assert "· Rated</p>" in client.get(reverse("lobby")).content.decode()
    client.force_login(alice)
    assert "· Rated</p>" in client.get(reverse("my_matches")).content.decode()

