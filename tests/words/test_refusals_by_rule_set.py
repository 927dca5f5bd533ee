"""Every refusal each rule set's engine can give, met in real matches, reads in words: cards as faces or
names, suits in words, seats by the players' names or counted from 1; never a card code or "seat 0".

The codes of each rule set are read from its engine module (and the move reader all share), so a new
refusal there fails here until it is met in play and worded. The sentences issue 16 saw are checked too.
"""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.engine import IllegalMove, rules_for
from games.words.refusals import WORDS, refusal_in_words

from .refusals import ENGINE, ENGLISH_LEFT, RAW_CARD, ZERO_SEAT, codes_raised_in

TABLES = {
    "septica": [(2, {}), (3, {"eights_cut": True}), (4, {"teams": True})],
    "familie": [(2, {}), (4, {})],
    "americana": [(2, {}), (3, {"jokers": True, "pairs": True, "jacks_draw": True})],
}
# Moves a script might send that are not moves at all (the shape refusals every rule set shares).
MALFORMED = [None, {"card": "KH"}, {"type": "fly"}, {"type": "play"}, {"type": "play", "card": "ZZ"},
             {"type": "play", "card": "KH", "colour": "red"}, {"type": "play", "card": "7H", "suit": "Z"}]
# Codes a rule set's module raises that no move of that rule set can meet (the options' refusals:
# the create form meets them, and tests/words/test_every_code_has_words.py words them).
NOT_MOVES = {"options-not-object", "unknown-option", "players-not-a-number", "player-count", "option-not-boolean",
             "eights-cut-player-count", "teams-player-count", "unknown-match-format", "target-not-allowed"}
# The shared reader's refusals a rule set's moves cannot meet: no septica or familie move carries a suit.
UNREACHABLE = {"septica": {"not-a-suit"}, "familie": {"not-a-suit"}, "americana": set()}
NAMES = {0: "Alice", 1: "Bob", 2: "Charlie", 3: "Daphne"}
API_WORDS = re.compile(r"„[^”]*”|\"[^\"]*\"")  # the keys and values a script sends stay as they are


def codes_of(rules: str) -> set[str]:
    """What the rule set's module and the shared move reader can refuse a move with."""
    paths = [ENGINE / f"{rules}.py", ENGINE / "base.py"]
    codes = {code for path in paths for code, _where in codes_raised_in(path)}
    return codes - NOT_MOVES - UNREACHABLE[rules] - {"illegal-move"}


def tries(game) -> list:
    view = game.view(game.to_move)
    hand = view["hand"]
    moves = [{"type": kind} for kind in ("take", "end", "pass", "draw")]
    moves += [{"type": "play", "card": card} for card in [*hand, "8C", "XR"]]
    moves += [{"type": "play", "card": card, "suit": "H"} for card in hand]
    return [*moves, *MALFORMED]


def refusals_met(rules: str, seeds: range) -> dict[str, tuple[IllegalMove, int | None]]:
    """One refusal of each code met along random matches of the rule set, with the seat that tried it."""
    met: dict[str, tuple[IllegalMove, int | None]] = {}
    for players, options in TABLES[rules]:
        for seed in seeds:
            rng = random.Random(seed)
            game = rules_for(rules).new_game(players=players, options=options, seed=seed)
            while True:
                legal = game.legal_moves()
                for move in tries(game):
                    if move in legal:
                        continue
                    try:
                        game.play(move)
                    except IllegalMove as refusal:
                        met.setdefault(refusal.code, (refusal, game.to_move))
                if game.finished:
                    break
                game = game.play(rng.choice(legal))
    return met


@pytest.fixture(scope="module")
def met_in_play() -> dict[str, dict[str, tuple[IllegalMove, int | None]]]:
    return {rules: refusals_met(rules, range(6)) for rules in TABLES}


@pytest.mark.parametrize("rules", sorted(TABLES))
def test_matches_of_each_rule_set_meet_every_refusal_its_engine_has(met_in_play, rules):
    assert codes_of(rules) - set(met_in_play[rules]) == set()


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize("rules", sorted(TABLES))
def test_every_refusal_of_the_rule_set_reads_with_faces_and_names(met_in_play, rules, language):
    for code, (refusal, seat) in sorted(met_in_play[rules].items()):
        with translation.override(language):
            said = [refusal_in_words(refusal, NAMES, reader=seat), refusal_in_words(refusal, NAMES, reader=None),
                    refusal_in_words(refusal)]  # the mover, someone else reading, and no names known
        assert code in WORDS, f"{code} has no words"
        for text in said:
            assert not RAW_CARD.search(text), f"{code}: {text}"
            assert not ZERO_SEAT.search(text), f"{code}: {text}"
            if language == "ro":
                assert not ENGLISH_LEFT.search(API_WORDS.sub("", text)), f"{code}: {text}"


@pytest.mark.parametrize(("refusal", "english", "romanian"), [
    (IllegalMove("AH cannot continue the trick: continue with a king or a seven, or end it.", "cannot-continue",
                 {"card": "AH", "ranks": ["K", "7"]}),
     "You cannot continue the trick with A♥: continue with a king or a seven, or end it (Gata).",
     "Nu poți continua levata cu A♥: continuă cu un rege sau un șapte, ori închide levata (Gata)."),
    (IllegalMove("9C follows neither the suit in force (D) nor the rank on top (QD).", "does-not-follow",
                 {"card": "9C", "suit": "D", "top": "QD"}),
     "You cannot play 9♣ on Q♦: play a card of diamonds, or one of the same rank.",
     "Nu poți pune 9♣ peste Q♦: joacă o carte de caro sau una de aceeași valoare."),
    (IllegalMove("that card does not cut: play the led rank, a 7 or a joker, or pass", "does-not-cut",
                 {"card": "QS", "led_rank": "9"}),
     "You cannot cut with Q♠: play a nine, a seven or a joker, or pass.",
     "Nu poți tăia cu Q♠: joacă un nouă, un șapte sau un joker, ori spune pas."),
    (IllegalMove("The trick is over: seat 0 won it and must take it first.", "trick-must-be-taken", {"seat": 0}),
     "The trick is over: seat 1 won it and must take it first.",
     "Levata s-a terminat: locul 1 a câștigat-o și trebuie s-o ia mai întâi."),
])
def test_the_sentences_issue_16_saw_read_in_words(refusal, english, romanian):
    for language, expected in (("en", english), ("ro", romanian)):
        with translation.override(language):
            assert refusal_in_words(refusal) == expected


def test_a_seat_with_a_name_is_named_and_the_readers_own_is_you():
    refusal = IllegalMove("The trick is over: seat 0 won it and must take it first.", "trick-must-be-taken",
                          {"seat": 0})
    with translation.override("en"):
        assert refusal_in_words(refusal, {0: "Ilinca", 1: "Bob"}, reader=1) == (
            "The trick is over: Ilinca won it and must take it first.")
        assert refusal_in_words(refusal, {0: "Ilinca"}, reader=0) == (
            "The trick is over and it is yours: take it (Ia) first.")


def test_each_rule_set_has_its_own_codes_read_from_its_module():
    assert {"cannot-continue"} <= codes_of("septica") and {"does-not-cut"} <= codes_of("familie")
    assert {"does-not-follow", "not-a-card"} <= codes_of("americana")
