"""Every refusal a player meets along real matches reads in both languages,
with cards as faces, seats by name and ranks in words."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.engine import IllegalMove, rules_for
from games.words.refusals import WORDS, Refusal, refusal_in_words

from .refusals import ENGLISH_LEFT, RAW_CARD, ZERO_SEAT

TABLES = [
    ("septica", 2, {}), ("septica", 3, {"eights_cut": True}), ("septica", 4, {"teams": True}),
    ("familie", 3, {}),
    ("americana", 2, {}), ("americana", 3, {"jokers": True, "pairs": True, "jacks_draw": True}),
]
# The moves each game has besides playing a card (another game's move is a malformed request, not a wrong move).
OTHER_MOVES = {"septica": ("end", "take"), "familie": ("take", "pass"), "americana": ("draw", "pass")}
# What a player tries at some point in any match of that game, and is told no.
MET = {
    "septica": {"card-not-held", "cannot-continue", "take-mid-round", "take-before-leader-decides",
                "trick-must-be-taken", "end-not-allowed"},
    "familie": {"card-not-held", "does-not-cut", "take-before-trick-over", "leader-cannot-pass", "trick-must-be-taken"},
    "americana": {"card-not-held", "seven-needs-suit", "only-seven-names-suit", "does-not-follow", "cannot-answer-draw",
                  "seven-cannot-answer-draw", "cannot-pass-draw", "pass-while-stock"},
}
NAMES = ["Alice", "Bob", "Charlie", "Daphne"]


def refusals_met_in_play(rules: str, players: int, options: dict, seed: int) -> list[tuple[IllegalMove, int]]:
    """Each refusal of a wrong move a player could try along one random match, with the seat that tried it."""
    rng = random.Random(seed)
    game = rules_for(rules).new_game(players=players, options=options, seed=seed)
    met: dict[tuple, tuple[IllegalMove, int]] = {}
    while not game.finished:
        hand = game.view(game.to_move)["hand"]
        tries = [{"type": kind} for kind in OTHER_MOVES[rules]]
        tries += [{"type": "play", "card": card} for card in [*hand, "8C"]]  # 8C: a card not held (or out)
        if rules == "americana":
            tries += [{"type": "play", "card": card, "suit": "H"} for card in hand]
        for move in tries:
            if move not in game.legal_moves():
                with pytest.raises(IllegalMove) as refused:
                    game.play(move)
                key = (refused.value.code, repr(sorted(refused.value.params.items())))
                met.setdefault(key, (refused.value, game.to_move))
        game = game.play(rng.choice(game.legal_moves()))
    return list(met.values())


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_every_refusal_met_in_a_match_reads_in_both_languages(rules, players, options):
    met = [found for seed in range(3) for found in refusals_met_in_play(rules, players, options, seed)]
    names = dict(enumerate(NAMES[:players]))
    assert {refusal.code for refusal, _seat in met} <= set(WORDS)

    for refusal, seat in met:
        with translation.override("en"):
            english = refusal_in_words(refusal, names, reader=seat)
            assert english == WORDS[refusal.code](Refusal(refusal.params, names, seat))  # worded, not the sentence
        with translation.override("ro"):
            romanian = refusal_in_words(refusal, names, reader=seat)
        assert romanian != english and not ENGLISH_LEFT.search(romanian), romanian
        for text in (english, romanian):
            assert not RAW_CARD.search(text) and not ZERO_SEAT.search(text), text


@pytest.mark.parametrize("rules", sorted(MET))
def test_the_matches_meet_the_refusals_players_meet(rules):
    met = {refusal.code for rules_, players, options in TABLES if rules_ == rules for seed in range(3)
           for refusal, _seat in refusals_met_in_play(rules, players, options, seed)}
    assert MET[rules] <= met
