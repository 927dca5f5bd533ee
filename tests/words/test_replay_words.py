"""The replay page reads in words: its header names the game and its options as the rule set says
them (never "eights_cut: False"), and its moves show cards as faces and seats by name."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.models import Move
from tests.play import deal_again_from, finished_match, play_moves, seated_table

from .refusals import RAW_CARD, ZERO_SEAT

pytestmark = pytest.mark.django_db

SEVEN_DEAL = 3  # an americana deal whose random match (seed 1) plays a seven
OPTION_KEYS = re.compile(r"eights_cut|teams|match:|points-\d|jacks_draw|jokers:|pairs:|target:|\bTrue\b|\bFalse\b")


def replay_page(match, language="en") -> str:
    response = Client().get(f"/tables/{match.pk}/replay/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def header(html: str) -> str:
    return re.sub(r"\s+", " ", re.search(r'<p class="muted replay-options">(.*?)</p>', html, re.S).group(1)).strip()


def move_list(html: str) -> list[str]:
    found = re.search(r'<details class="replay-moves">(.*?)</details>', html, re.S).group(1)
    items = re.findall(r"<li[^>]*>(.*?)</li>", found, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).strip() for item in items]


def test_the_header_of_a_septica_replay_says_the_game_and_its_options_in_words(alice, bob):
    match = finished_match(alice, [bob], rules="septica", options={"match": "points-8"})

    english, romanian = header(replay_page(match)), header(replay_page(match, "ro"))

    assert english == "Șeptică · 2 players · to 8 points"
    assert romanian == "Șeptică · 2 jucători · până la 8 puncte"


def test_the_header_of_an_americana_replay_names_its_options(alice, bob):
    match = finished_match(alice, [bob], rules="americana", options={"target": 101, "jokers": True})

    said = header(replay_page(match))

    assert said == "Șeptică americană · 2 players · to 101 points, with jokers"
    assert not OPTION_KEYS.search(said)


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_the_move_list_shows_cards_as_faces_and_seats_by_name(alice, bob, rules, language):
    match = finished_match(alice, [bob], rules=rules)
    html = replay_page(match, language)

    lines = move_list(html)
    assert len(lines) == Move.objects.filter(match=match).count()
    assert all(line.startswith(("Alice ", "Bob ")) for line in lines), lines[:3]
    for line in lines:
        assert not RAW_CARD.search(line) and not ZERO_SEAT.search(line), line
    assert any(re.search(r"(10|[2-9JQKA])[♣♦♥♠]", line) for line in lines)
    assert not OPTION_KEYS.search(header(html))


def test_a_seven_in_the_move_list_names_its_suit_in_words(alice, bob):
    # A known deal: with the table's own random one, some matches play no seven at all.
    table = seated_table(alice, [bob], rules="americana")
    deal_again_from(table, seed=SEVEN_DEAL)
    match = play_moves(table, seed=1)
    sevens = [move for move in Move.objects.filter(match=match) if move.move.get("suit")]
    assert sevens, f"deal {SEVEN_DEAL} plays no seven; pick another"

    lines = move_list(replay_page(match))

    said = lines[sevens[0].seq]
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[sevens[0].move["suit"]]
    assert said.endswith(f"names {suit}"), said


def test_the_replay_script_is_given_the_card_names(alice, bob):
    match = finished_match(alice, [bob], rules="familie")
    html = replay_page(match, "ro")

    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
                      .group(1))
    cards = data["words"]["cards"]
    assert cards["card_name"] == "%(rank)s de %(suit)s" and cards["suit_names"]["H"] == "cupă"
    assert cards["red_joker"] == "jokerul roșu"
