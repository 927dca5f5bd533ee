"""Bots choose legal moves from a seat's view alone, and their styles matter."""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for
from games.engine.bots import LEVELS, STYLES, choose_move
from games.engine.septica import DECK as SEPTICA_DECK

TABLES = [
    ("septica", 2, {}),
    ("septica", 3, {}),
    ("septica", 4, {}),
    ("septica", 5, {}),
    ("septica", 6, {"teams": False, "match": "points-8"}),
    ("familie", 2, {}),
    ("familie", 4, {}),
    ("familie", 6, {}),
    ("americana", 2, {}),
    ("americana", 3, {"jokers": True, "pairs": True}),
    ("americana", 4, {"jacks_draw": True, "target": 301}),
]


def quick(view, level, style, rng):
    """The expert with a short, fixed search, so tests are quick and repeatable."""
    return choose_move(view, level, style, rng, budget_ms=None, rounds=1)


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_every_level_and_style_plays_only_legal_moves(rules, players, options):
    rng = random.Random(players)
    game = rules_for(rules).new_game(players=players, options=options, seed=players)
    for turn in range(240):
        if game.finished:
            break
        view = game.view(game.to_move)
        level = LEVELS[turn % len(LEVELS)]
        style = STYLES[turn // len(LEVELS) % len(STYLES)]
        move = quick(view, level, style, rng)
        assert move in view["legal_moves"]
        game = game.play(move)


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_seed_give_the_same_decision(rules, level):
    game = rules_for(rules).new_game(players=3, seed=8)
    rng = random.Random(0)
    for _ in range(30):
        view = game.view(game.to_move)
        first = quick(view, level, "balanced", random.Random(42))
        again = quick(view, level, "balanced", random.Random(42))
        assert first == again
        game = game.play(rng.choice(game.legal_moves()))


def swapped(deck: list[str], i: int, j: int) -> list[str]:
    deck = list(deck)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize(
    ("rules", "hidden", "stock"),
    [("septica", 1, 20), ("familie", 3, 25), ("americana", 1, 30)],
    ids=["septica", "familie", "americana"],
)
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_with_different_hidden_cards_gives_the_same_decision(rules, hidden, stock, level):
    """Swap a card of the other hand with one deep in the stock: seat 0 sees nothing new."""
    engine = rules_for(rules)
    for seed in range(4):
        deck = engine.full_deck(2, engine.default_options(2))
        random.Random(seed).shuffle(deck)
        truth = engine.new_game(players=2, seed=seed, decks=[deck])
        other = engine.new_game(players=2, seed=seed, decks=[swapped(deck, hidden, stock)])
        assert truth.to_state()["hands"][1] != other.to_state()["hands"][1]
        view = truth.view(0)
        assert other.view(0) == view
        assert quick(view, level, "expert", random.Random(seed)) == quick(
            other.view(0), level, "expert", random.Random(seed)
        )
        bigger = choose_move(view, level, "expert", random.Random(seed), budget_ms=None, rounds=6)
        assert bigger == choose_move(other.view(0), level, "expert", random.Random(seed), budget_ms=None, rounds=6)


def septica_deck(first: list[str]) -> list[str]:
    return first + [card for card in SEPTICA_DECK if card not in first]


def septica_decision(style: str) -> dict:
    """Seat 0 led a king, seat 1 cut it with a king: seat 0 may continue with its other king, or end."""
    deck = septica_deck(["KC", "KH", "KD", "8C", "9H", "9S", "JS", "JH"])
    game = rules_for("septica").new_game(players=2, decks=[deck])
    game = game.play({"type": "play", "card": "KC"}).play({"type": "play", "card": "KH"})
    view = game.view(0)
    assert {"type": "end"} in view["legal_moves"]
    return choose_move(view, "medium", style, random.Random(1))


def test_an_aggressive_bot_continues_a_trick_a_cautious_bot_ends():
    assert septica_decision("aggressive") == {"type": "play", "card": "KD"}
    assert septica_decision("cautious") == {"type": "end"}


def test_a_cautious_bot_keeps_its_seven_for_a_richer_trick():
    deck = septica_deck(["9C", "7D", "TC", "8C", "JH", "9S", "QH", "JS"])
    game = rules_for("septica").new_game(players=2, decks=[deck])
    game = game.play({"type": "play", "card": "TC"})  # seat 0 leads a ten: one point on the table
    view = game.view(1)
    assert choose_move(view, "medium", "balanced", random.Random(1)) == {"type": "play", "card": "7D"}
    assert choose_move(view, "medium", "cautious", random.Random(1))["card"] != "7D"


def test_an_aggressive_americana_bot_attacks_with_a_two_a_cautious_one_holds_it():
    first = ["2C", "4H", "9C", "5S", "5H", "KD", "8D", "QS", "4S", "JD", "3C"]
    deck = first + [card for card in rules_for("americana").full_deck(2, {"jokers": False}) if card not in first]
    game = rules_for("americana").new_game(players=2, decks=[deck])
    view = game.view(0)
    assert view["top"] == "3C"
    assert choose_move(view, "medium", "aggressive", random.Random(1)) == {"type": "play", "card": "2C"}
    assert choose_move(view, "medium", "cautious", random.Random(1)) == {"type": "play", "card": "9C"}


def test_a_team_player_feeds_points_to_its_partners_trick():
    # four players in teams (0+2 against 1+3): seat 0 leads a king, seat 1 plays low, seat 2 holds a ten
    first = ["KC", "9C", "TH", "8C", "JS", "9S", "QH", "JH", "QS", "9H", "JC", "QC", "KS", "8S", "8H", "QD"]
    game = rules_for("septica").new_game(players=4, decks=[septica_deck(first)])
    game = game.play({"type": "play", "card": "KC"}).play({"type": "play", "card": "9C"})
    view = game.view(2)
    assert choose_move(view, "medium", "team", random.Random(1)) == {"type": "play", "card": "TH"}
    assert choose_move(view, "medium", "balanced", random.Random(1))["card"] != "TH"


def test_unknown_levels_and_styles_are_refused_with_a_sentence():
    view = rules_for("septica").new_game(players=2, seed=1).view(0)
    with pytest.raises(ValueError, match="level"):
        choose_move(view, "grandmaster", "balanced", random.Random(1))
    with pytest.raises(ValueError, match="style"):
        choose_move(view, "medium", "reckless", random.Random(1))


def test_a_seat_that_is_not_to_move_has_nothing_to_choose():
    view = rules_for("septica").new_game(players=2, seed=1).view(1)
    with pytest.raises(ValueError):
        choose_move(view, "medium", "balanced", random.Random(1))


def test_the_expert_keeps_to_its_time_budget():
    import time

    game = rules_for("americana").new_game(players=2, seed=3)
    view = game.view(0)
    started = time.perf_counter()
    choose_move(view, "expert", "expert", random.Random(1), budget_ms=50)
    assert time.perf_counter() - started < 1.0
