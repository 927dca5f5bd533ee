"""The tutorial's answers to each move (hints, explanations of a wrong move,
the engine's reason, what a step taught, the news of the other players'
moves) read in Romanian on a Romanian page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tutorial import lesson
from tutorial.scripts import GAMES

from .untranslated import looks_english

pytestmark = pytest.mark.django_db
SAID = ("explanation", "rule", "hint", "learned")


def answers(client, game: str, number: int, done: list, move: dict) -> tuple[dict, dict]:
    url = reverse("tutorial_move", args=[game, number])
    body = {"done": done, "move": move}
    pair = [client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language).json()
            for language in ("en", "ro")]
    return pair[0], pair[1]


def english_left(english: dict, romanian: dict) -> list[str]:
    left = [f"{key}: {romanian[key]!r}" for key in SAID
            if romanian.get(key) and romanian[key] == english.get(key) and looks_english(romanian[key])]
    left += [f"news: {line!r}" for line in romanian.get("news", []) if line in english.get("news", []) and looks_english(line)]
    return left


def wrong_move(position) -> dict | None:
    fitting = position.fits()
    for card in position.view()["hand"]:
        if not any(move.get("card") == card for move in fitting):
            return {"type": "play", "card": card} if card[0] != "7" or position.step.rules != "americana" else {
                "type": "play", "card": card, "suit": "H"}
    return None


@pytest.mark.parametrize(("game", "number"), [(game, n) for game, steps in GAMES.items() for n in range(1, len(steps) + 1)])
def test_every_answer_of_a_tutorial_step_is_in_romanian(client, game, number):
    step = GAMES[game][number - 1]
    done, left, position = [], [], lesson.replay(step, [])
    while not position.done:
        wrong = wrong_move(position)
        if wrong is not None:
            english, romanian = answers(client, game, number, done, wrong)
            assert romanian["accepted"] is False
            left += english_left(english, romanian)
        move = position.fits()[0]
        english, romanian = answers(client, game, number, done, move)
        assert romanian["accepted"] is True, romanian
        left += english_left(english, romanian)
        done.append(move)
        position = lesson.replay(step, done)

    assert left == []
