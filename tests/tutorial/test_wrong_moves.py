"""A wrong move in the tutorial is explained by what the player did: the card they tapped
(or the button), and why it is wrong there; never another move's advice."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import IllegalMove
from tests.words.refusals import ENGLISH_LEFT, RAW_CARD, ZERO_SEAT
from tutorial import lesson
from tutorial.scripts import GAMES

pytestmark = pytest.mark.django_db

FACES = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# What a sentence about each button says it did, in each language.
ACTION_WORDS = {
    "en": {"draw": r"\bdr[ae]w|\btak(e|ing)\b", "pass": r"\bpass|\bsit", "end": r"\bGata\b", "take": r"\btak(e|ing)\b"},
    "ro": {"draw": r"\btra[gs]|\biei\b", "pass": r"\bpas\b|\bstai\b", "end": r"\bGata\b", "take": r"\biei\b|\bia\b"},
}


def face(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + FACES[code[1]]


def post(client, game, number, done, move, language="en"):
    response = client.post(reverse("tutorial_move", args=[game, number]), json.dumps({"done": done, "move": move}),
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.content
    return response.json()


def wrong_moves(position: lesson.Position) -> list[dict]:
    """Every move a learner can make at this turn that the step does not accept: a card of the hand
    the rules refuse, or a legal card or button the step is not about."""
    turn, legal = position.turn, position.game.legal_moves()
    tries = [move for move in legal if not turn.accepts(move)]
    tries += [{"type": "play", "card": code} for code in position.view()["hand"]
              if not any(move.get("card") == code for move in legal)]
    return tries


def every_wrong_move():
    """(game, step number, moves done, a wrong move) along the path the first fitting move takes."""
    for game, steps in GAMES.items():
        for number, step in enumerate(steps, start=1):
            done, position = [], lesson.start(step)
            while not position.done:
                for move in wrong_moves(position):
                    yield pytest.param(game, number, list(done), move,
                                       id=f"{game}-{number}-{len(done)}-{move.get('card', move['type'])}"
                                          f"{move.get('suit', '')}")
                move = position.fits()[0]
                done.append(move)
                position = lesson.apply(position, move)


def test_americana_step_1_tapping_the_king_of_clubs_says_why_the_king_does_not_fit(client):
    answer = post(client, "americana", 1, [], {"type": "play", "card": "KC"})

    assert answer["accepted"] is False
    assert "K♣" in answer["explanation"] and "9♥" in answer["explanation"]
    assert "Drawing" not in answer["explanation"] and "draw" not in answer["explanation"].lower()


def test_americana_step_6_tapping_the_six_of_clubs_does_not_talk_of_the_seven(client):
    answer = post(client, "americana", 6, [], {"type": "play", "card": "6C"})

    assert answer["accepted"] is False
    assert "6♣" in answer["explanation"] and "5♥" in answer["explanation"]
    assert "seven" not in answer["explanation"].lower()


def test_americana_step_6_playing_the_seven_too_early_is_told_to_keep_it(client):
    answer = post(client, "americana", 6, [], {"type": "play", "card": "7S", "suit": "H"})

    assert "7♠" in answer["explanation"] and "Keep the seven for last" in answer["explanation"]


def test_americana_step_1_drawing_while_a_card_fits_is_told_it_drew(client):
    answer = post(client, "americana", 1, [], {"type": "draw"})

    assert "Drawing is for when nothing fits" in answer["explanation"]


def test_a_card_tapped_while_the_trick_waits_to_be_taken_names_the_card_and_no_seat_number(client):
    done = [{"type": "play", "card": "KH"}]
    for language in ("en", "ro"):
        answer = post(client, "septica", 1, done, {"type": "play", "card": "9C"}, language)
        assert "9♣" in answer["explanation"]
        assert not ZERO_SEAT.search(answer["explanation"]) and not re.search(r"\b(seat|locul) \d", answer["explanation"])


def test_a_seven_naming_the_wrong_suit_names_the_suit_it_named(client):
    answer = post(client, "americana", 2, [], {"type": "play", "card": "7D", "suit": "S"})
    assert "7♦" in answer["explanation"] and "spades" in answer["explanation"]
    answer = post(client, "americana", 2, [], {"type": "play", "card": "7D", "suit": "S"}, "ro")
    assert "7♦" in answer["explanation"] and "pică" in answer["explanation"]


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize(("game", "number", "done", "move"), list(every_wrong_move()))
def test_every_wrong_move_is_explained_by_what_the_player_did(client, game, number, done, move, language):
    answer = post(client, game, number, done, move, language)
    explanation = answer["explanation"]

    assert answer["accepted"] is False and explanation
    if "card" in move:
        assert face(move["card"]) in explanation, explanation
    else:
        assert re.search(ACTION_WORDS[language][move["type"]], explanation, re.I), explanation
    assert not RAW_CARD.search(explanation) and not ZERO_SEAT.search(explanation), explanation
    if language == "ro":
        assert not ENGLISH_LEFT.search(explanation), explanation


def test_the_sweep_meets_refused_cards_and_legal_wrong_moves_of_both_games():
    met = {(param.values[0], "card" in param.values[3]) for param in every_wrong_move()}
    assert met == {("septica", True), ("americana", True), ("americana", False), ("septica", False)}
    refused = 0
    for param in every_wrong_move():
        game, number, done, move = param.values
        position = lesson.replay(GAMES[game][number - 1], done)
        try:
            position.game.play(move)
        except IllegalMove:
            refused += 1
    assert refused > 20
