"""Every code the rules engine can refuse a move with has words on the site, in English and in Romanian.

The codes are read from the engine's source, so a new refusal there fails
here until games/words/refusals.py words it and the .po says it in Romanian.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.engine import IllegalMove
from games.words.refusals import WORDS, Refusal, refusal_in_words

from .refusals import ENGLISH_LEFT, RAW_CARD, ZERO_SEAT, codes_raised_in, engine_codes

CODES = sorted(engine_codes())
# Every param any refusal carries, with values a real table could have.
PARAMS = {"card": "QH", "top": "8D", "suit": "D", "seat": 1, "count": 2, "ranks": ["K", "7"], "led_rank": "Q",
          "types": ["draw", "pass", "play"], "type": "play", "key": "colour",
          "option": "teams", "known": ["eights_cut", "match", "teams"], "rules": "septica", "low": 2, "high": 6,
          "players": 7, "formats": ["points-8", "best-of-3"], "value": "'red'"}
NAMES = {0: "Alice", 1: "Bob"}
API_WORDS = re.compile(r"„[^”]*”|\"[^\"]*\"")  # the keys and values a script sends stay as they are


def said(code: str, language: str, **refusal) -> str:
    with translation.override(language):
        return WORDS[code](Refusal(PARAMS, **refusal))


def test_the_engine_source_is_read():
    assert {"match-over", "card-not-held", "cannot-continue", "does-not-cut", "does-not-follow"} <= set(CODES)


def test_a_code_that_is_not_written_out_fails_the_reading(tmp_path):
    source = tmp_path / "hidden.py"
    source.write_text('CODE = "new"\n\n\ndef why():\n    return IllegalMove("New.", CODE)\n')
    with pytest.raises(AssertionError, match="not written out"):
        list(codes_raised_in(source))


def test_a_refusal_without_a_code_is_the_default_code(tmp_path):
    source = tmp_path / "plain.py"
    source.write_text('def why():\n    raise IllegalMove("No.")\n')
    assert [code for code, _where in codes_raised_in(source)] == ["illegal-move"]


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_words(code):
    assert code in WORDS, f"{code} (raised at {', '.join(engine_codes()[code])}) has no words in games/words/refusals.py"


@pytest.mark.parametrize("code", CODES)
def test_every_code_reads_in_romanian_with_faces_and_names(code):
    for refusal in ({"names": NAMES, "reader": 0}, {"names": NAMES, "reader": 1}, {}):
        english, romanian = said(code, "en", **refusal), said(code, "ro", **refusal)
        assert romanian != english, f"{code} has no Romanian"
        assert not ENGLISH_LEFT.search(API_WORDS.sub("", romanian)), romanian
        for text in (english, romanian):
            assert not RAW_CARD.search(text) and not ZERO_SEAT.search(text), text


def test_a_seat_is_you_its_players_name_or_its_number_from_one():
    refusal = IllegalMove("The trick is over: seat 1 won it and must take it first.", "trick-must-be-taken", {"seat": 1})
    with translation.override("en"):
        assert refusal_in_words(refusal, NAMES, reader=1) == "The trick is over and it is yours: take it (Ia) first."
        assert refusal_in_words(refusal, NAMES, reader=0) == "The trick is over: Bob won it and must take it first."
        assert refusal_in_words(refusal) == "The trick is over: seat 2 won it and must take it first."
    with translation.override("ro"):
        assert refusal_in_words(refusal, NAMES, reader=0) == (
            "Levata s-a terminat: Bob a câștigat-o și trebuie s-o ia mai întâi.")
        assert refusal_in_words(refusal, {1: None}) == (
            "Levata s-a terminat: locul 2 a câștigat-o și trebuie s-o ia mai întâi.")


def test_cards_are_faces_and_jokers_are_named():
    not_held = IllegalMove("You do not hold XR.", "card-not-held", {"seat": 0, "card": "XR"})
    ten = IllegalMove("Seat 0 does not hold TS.", "card-not-held", {"seat": 0, "card": "TS"})
    with translation.override("en"):
        assert refusal_in_words(not_held) == "You do not hold the red joker."
        assert refusal_in_words(ten) == "You do not hold 10♠."
    with translation.override("ro"):
        assert refusal_in_words(not_held) == "Nu ai jokerul roșu în mână."


def test_ranks_and_suits_are_words_in_the_readers_language():
    refusal = IllegalMove("9C follows neither the suit in force (D) nor the rank on top (8D).", "does-not-follow",
                          {"card": "9C", "suit": "D", "top": "8D"})
    cut = IllegalMove("that card does not cut", "does-not-cut", {"card": "9C", "led_rank": "Q"})
    with translation.override("en"):
        assert refusal_in_words(refusal) == "You cannot play 9♣ on 8♦: play a card of diamonds, or one of the same rank."
        assert refusal_in_words(cut) == "You cannot cut with 9♣: play a queen, a seven or a joker, or pass."
    with translation.override("ro"):
        assert refusal_in_words(refusal) == (
            "Nu poți pune 9♣ peste 8♦: joacă o carte de caro sau una de aceeași valoare.")
        assert refusal_in_words(cut) == "Nu poți tăia cu 9♣: joacă o damă, un șapte sau un joker, ori spune pas."


def test_a_refusal_without_words_reads_as_the_engines_sentence():
    options = ValueError("Teams play only with 4 or 6 players, not with 3.")  # the options' refusals carry no code
    unknown = IllegalMove("Something new.", "something-new")
    broken = IllegalMove("You do not hold 9C.", "card-not-held", {})
    with translation.override("ro"):
        assert [refusal_in_words(error) for error in (options, unknown, broken)] == [
            str(options), "Something new.", "You do not hold 9C."]
