"""The Master is a level a table seats: through the API and the New table form, in both languages,
with its published rating in its badge, and it answers a person's move on the worker."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from games import actions
from games.models import Actor, Move, Seat
from players.bot_ratings import published_rating
from tests.play import pick_move

from .conftest import log_replays, match_of, wait_for

pytestmark = pytest.mark.django_db


def client_for(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_table_made_through_the_api_seats_a_master_with_its_rating_in_its_badge(alice):
    response = client_for(alice).post(
        "/api/tables", data=json.dumps({"rules": "septica", "players": 2, "bots": [{"seat": 1, "level": "master"}]}),
        content_type="application/json")

    assert response.status_code == 201, response.content
    bot = response.json()["seats"][1]["bot"]
    rating = published_rating("septica", "master")
    assert rating > published_rating("septica", "expert")
    assert (bot["level"], bot["style"], bot["rating"]) == ("master", "balanced", rating)
    assert bot["badge"] == f"Master ≈ {rating}, balanced"
    assert Seat.objects.get(table_id=response.json()["id"], number=1).bot_level == "master"


def test_the_creator_seats_a_master_in_a_waiting_table(alice):
    table = actions.create_table(alice, rules="familie", players=3)

    response = client_for(alice).post(f"/api/tables/{table.pk}/bot", data=json.dumps({"seat": 2, "level": "master"}),
                                      content_type="application/json")

    assert response.status_code == 200, response.content
    assert response.json()["seats"][2]["bot"]["level"] == "master"


@pytest.mark.parametrize(("language", "label"), [("en", "Master"), ("ro", "Maestru")])
def test_the_new_table_form_offers_the_master_in_the_readers_language(alice, language, label):
    page = client_for(alice, language).get("/play/new/").content.decode()

    assert f'<option value="master">{label}</option>' in page


@pytest.mark.django_db(transaction=True)
def test_a_master_answers_a_persons_move_on_the_worker(running_worker, alice):
    table = actions.create_table(alice, rules="septica", players=2,
                                 bots=[actions.BotSpec(seat=1, level="master", style="balanced")])
    match = match_of(table)

    actions.play_move(table.pk, alice, match.seq, pick_move(match.game().view(0), random.Random(1)))

    assert wait_for(lambda: match_of(table).to_move in (0, None), timeout=30), "the Master never moved"
    bot_moves = Move.objects.filter(match_id=table.pk, seat=1)
    assert bot_moves.exists() and set(bot_moves.values_list("actor", flat=True)) == {Actor.BOT}
    assert log_replays(table)
