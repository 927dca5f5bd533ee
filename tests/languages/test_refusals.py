"""Every refusal the rules engine gives a player reads in Romanian on a Romanian page."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.engine import IllegalMove, rules_for
from games.words.refusals import refusal_in_words

TABLES = [
    ("septica", 2, {}), ("septica", 3, {"eights_cut": True}), ("septica", 4, {"teams": True}),
    ("familie", 3, {}),
    ("americana", 2, {}), ("americana", 3, {"jokers": True, "pairs": True, "jacks_draw": True}),
]
# The moves each game has besides playing a card (another game's move is a malformed request, not a wrong move).
ENGLISH_LEFT = re.compile(r"\b(?:or|seat|an? (?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace|joker))\b")
OTHER_MOVES = {"septica": ("end", "take"), "familie": ("take", "pass"), "americana": ("draw", "pass")}


def refusals_met_in_play(rules: str, players: int, options: dict, seed: int) -> set[str]:
    """What the engine says to each wrong move a player could try, along one random match."""
    rng = random.Random(seed)
    game = rules_for(rules).new_game(players=players, options=options, seed=seed)
    said = set()
    while not game.finished:
        hand = game.view(game.to_move)["hand"]
        tries = [{"type": kind} for kind in OTHER_MOVES[rules]]
        tries += [{"type": "play", "card": card} for card in [*hand, "8C"]]  # 8C: a card not held (or out)
        if rules == "americana":
            tries += [{"type": "play", "card": card, "suit": "H"} for card in hand]
        for move in tries:
            if move not in game.legal_moves():
                try:
                    game.play(move)
                except IllegalMove as refusal:
                    said.add(str(refusal))
        game = game.play(rng.choice(game.legal_moves()))
    return said


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_every_refusal_met_in_a_match_is_said_in_romanian(rules, players, options):
    said = set().union(*(refusals_met_in_play(rules, players, options, seed) for seed in range(3)))
    assert said

    with translation.override("ro"):
        left = sorted(message for message in said if refusal_in_words(message) == message)
        # The ranks named inside a sentence ("a king or a seven") are said in Romanian too.
        said_in_romanian = [refusal_in_words(message) for message in said]
        still_english = sorted(text for text in said_in_romanian if ENGLISH_LEFT.search(text))
    assert left == [] and still_english == []


def test_in_english_the_engines_own_words_go_out_unchanged():
    message = "7H cannot continue the trick: continue with a king or a seven, or end it."
    with translation.override("en"):
        assert refusal_in_words(message) == message
    with translation.override("ro"):
        assert refusal_in_words(message) == "7H nu poate continua levata: continuă cu un rege sau un șapte, ori închide levata (Gata)."


def test_seats_are_counted_from_one_and_an_unknown_sentence_is_left_alone():
    with translation.override("ro"):
        assert refusal_in_words("The trick is over: seat 0 won it and must take it first.") == (
            "Levata s-a terminat: locul 1 a câștigat-o și trebuie s-o ia mai întâi.")
        assert refusal_in_words("Something new.") == "Something new."


def test_an_option_a_form_sent_without_its_script_is_refused_in_romanian():
    with translation.override("ro"):
        assert refusal_in_words("Teams play only with 4 or 6 players, not with 3.") == (
            "Echipele se joacă doar la 4 sau 6 jucători, nu la 3.")
