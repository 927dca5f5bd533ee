"""The expert's americana guesses favour hands that explain what the other players did."""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for
from games.engine.bots import choose_move
from games.engine.bots.americana_guess import WeightedGuesser


def medium_positions(players: int, seeds: range):
    """Views of matches between medium bots, each with the true hands in the order they were received."""
    for seed in seeds:
        game = rules_for("americana").new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not game.finished and game.view(None)["deal"] == 0:
            view = game.view(game.to_move)
            yield view, [list(hand) for hand in game.to_state()["hands"]]
            game = game.play(choose_move(view, "medium", "balanced", rng))


@pytest.mark.parametrize("players", [2, 3])
def test_the_true_hands_of_medium_players_explain_their_turns_better_than_a_blind_guess(players):
    truth_misfits = blind_misfits = 0
    for view, hands in medium_positions(players, range(6)):
        guesser = WeightedGuesser(view, random.Random(0))
        blind, _ = guesser.base.deal(random.Random(1))
        for seat, turns in guesser.turns.items():
            truth_misfits += guesser.misfits(seat, hands[seat], turns)
            blind_misfits += guesser.misfits(seat, blind[seat], turns)
    assert blind_misfits > 0
    assert truth_misfits < blind_misfits / 4


def test_a_seven_naming_a_suit_makes_that_suit_likelier_in_its_players_hand():
    """Seat 1 answered a king of diamonds with a seven naming clubs: it held nothing else that fitted, most clubs."""
    deck = rules_for("americana").full_deck(2, rules_for("americana").default_options(2))
    dealt = ["3S", "7H", "4S", "8C", "5S", "9C", "6S", "QC", "KD", "4C", "KS"]  # a card each in turn, then the top
    deck = dealt + [card for card in deck if card not in dealt]
    game = rules_for("americana").new_game(players=2, decks=[deck])
    game = game.play({"type": "draw"})  # a player may draw even holding a card that fits
    view = game.view(1)
    assert {"type": "play", "card": "7H", "suit": "C"} in view["legal_moves"]
    game = game.play({"type": "play", "card": "7H", "suit": "C"})
    view = game.view(0)
    guesser = WeightedGuesser(view, random.Random(3))
    total = weighted = 0.0
    previous = 0.0
    for (hands, _), cumulative in zip(guesser.deals, guesser.cumulative, strict=True):
        weight, previous = cumulative - previous, cumulative
        clubs = sum(1 for card in hands[1] if card[1] == "C")
        total += clubs / len(guesser.deals)
        weighted += clubs * weight / guesser.cumulative[-1]
    assert weighted > total
