"""The analysis in words: every reason the judge gives has its own sentence in both languages,
naming cards by their faces and suits by name, never a card's code."""

from __future__ import annotations

import ast
import inspect
import re

import pytest
from django.utils import translation

from games.engine.bots import analysis as judge_module
from games.words import analysis as words

from .refusals import ENGLISH_LEFT, RAW_CARD

FALLBACK = {"en": "The Master's move was worth more here.", "ro": "Aici mutarea Maestrului valora mai mult."}
# One decision for each reason code, as the judge stores it.
EXAMPLES = {
    "continue_trick": ({"type": "end"}, {"type": "play", "card": "7S"}, {"card": "7S"}),
    "end_trick": ({"type": "play", "card": "TD"}, {"type": "end"}, {"card": "TD"}),
    "cut_trick": ({"type": "pass"}, {"type": "play", "card": "XR"}, {"card": "XR"}),
    "pass_trick": ({"type": "play", "card": "AH"}, {"type": "pass"}, {"card": "AH"}),
    "keep_cutter": ({"type": "play", "card": "7C"}, {"type": "play", "card": "9H"}, {"card": "9H", "chosen": "7C"}),
    "use_cutter": ({"type": "play", "card": "9H"}, {"type": "play", "card": "7C"}, {"card": "7C", "chosen": "9H"}),
    "keep_points": ({"type": "play", "card": "TS"}, {"type": "play", "card": "8D"}, {"card": "8D", "chosen": "TS"}),
    "other_card": ({"type": "play", "card": "QS"}, {"type": "play", "card": "KD"}, {"card": "KD", "chosen": "QS"}),
    "americana_could_play": ({"type": "draw"}, {"type": "play", "card": "5H"}, {"card": "5H"}),
    "americana_better_to_draw": ({"type": "play", "card": "2C"}, {"type": "draw"}, {"card": "2C"}),
    "americana_other_suit": ({"type": "play", "card": "7D", "suit": "S"}, {"type": "play", "card": "7D", "suit": "H"},
                             {"suit": "H", "chosen_suit": "S"}),
    "americana_other_card": ({"type": "play", "card": "KC"}, {"type": "play", "card": "JC"},
                             {"card": "JC", "chosen": "KC"}),
}


def codes_the_judge_gives() -> set[str]:
    """Every code `why` returns, read from its source."""
    tree = ast.parse(inspect.getsource(judge_module.why))
    return {node.value.elts[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)
            and isinstance(node.value.elts[0], ast.Constant)}


def entry(code: str) -> dict:
    chosen, best, params = EXAMPLES[code]
    return {"chosen": chosen, "best": best, "cost": 1.25, "reason": {"code": code, "params": params}}


def test_every_code_of_the_judge_has_an_example_here():
    assert codes_the_judge_gives() == set(EXAMPLES)


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_each_reason_has_its_own_sentence_with_the_cards_as_faces(code, language):
    with translation.override(language):
        said = words.why(entry(code))
        cost = words.cost(entry(code), "americana" if code.startswith("americana") else "septica")

    assert said != FALLBACK[language] and said.endswith(".")
    assert not RAW_CARD.search(said), said
    cards = [value for key, value in EXAMPLES[code][2].items() if key in ("card", "chosen")]
    for card in cards:
        if card[0] == "X":
            assert "joker" in said, said
        else:
            assert ("10" if card[0] == "T" else card[0]) + {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[card[1]] in said
    assert re.search(r"1[.,]3", cost) or re.search(r"1[.,]2", cost), cost  # one decimal, the reader's separator
    if language == "ro":
        assert not ENGLISH_LEFT.search(said), said


def test_a_reason_it_cannot_word_falls_back_to_a_sentence_not_an_error():
    with translation.override("en"):
        assert words.why({"chosen": {"type": "draw"}, "best": {"type": "pass"},
                          "reason": {"code": "other_card", "params": {"card": None, "chosen": None}}}) == FALLBACK["en"]
        assert words.why({"chosen": {}, "best": {}, "reason": {"code": "new_code", "params": {}}}) == FALLBACK["en"]


def test_points_in_each_language_and_unit():
    with translation.override("en"):
        assert words.points(1.0, "septica") == "1.0 point"
        assert words.points(2.46, "familie") == "2.5 points"
        assert words.points(6.04, "americana") == "6.0 penalty points"
    with translation.override("ro"):
        assert words.points(2.46, "septica") == "2,5 puncte"
