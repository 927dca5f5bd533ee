"""The analysis's judge: what a decision gave away, from the seat's view alone.

It plays every candidate out in the Master's guessed deals (an endgame of
two-player septica, where the other hand is known, is solved exactly, and so
is every deal of the unseen cards with two cards left in the stock) and says
how far the move made falls short of the best one, in the rule set's own points.
"""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for
from games.engine.bots import exact
from games.engine.bots.analysis import judge

REASONS = {
    "continue_trick", "end_trick", "cut_trick", "pass_trick", "keep_cutter", "use_cutter", "keep_points",
    "other_card", "americana_could_play", "americana_better_to_draw", "americana_other_suit",
    "americana_other_card",
}
TABLES = [("septica", 2), ("septica", 3), ("familie", 3), ("americana", 2), ("americana", 3)]


def decisions(rules: str, players: int, count: int, seed: int = 0, where=lambda game: True):
    """`count` games along random matches where the seat to move has more than one legal move."""
    found = 0
    while found < count:
        rng = random.Random(seed)
        game = rules_for(rules).new_game(players=players, seed=seed)
        while not game.finished and found < count:
            if len(game.legal_moves()) > 1 and where(game) and rng.random() < 0.4:
                found += 1
                yield game, rng
            game = game.play(rng.choice(game.legal_moves()))
        seed += 1


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=[f"{r}-{p}" for r, p in TABLES])
def test_every_judgement_is_a_cost_of_the_move_made_against_a_legal_best_with_a_typed_reason(rules, players):
    for game, rng in decisions(rules, players, 25):
        view = game.view(game.to_move)
        made = rng.choice(view["legal_moves"])

        found = judge(view, made, random.Random(1), budget_ms=None, rounds=8)

        assert found.chosen == made and found.best in view["legal_moves"]
        assert found.cost >= 0 and found.error >= 0
        assert found.lower_is_better is (rules == "americana")
        if found.best == made:
            assert found.cost == 0 and found.reason == ("", {})
        else:
            assert found.cost > 0 and found.reason[0] in REASONS
        outcomes = [value for _, value in found.values]
        assert outcomes == sorted(outcomes, reverse=not found.lower_is_better)
        assert next(value for move, value in found.values if move == found.best) == outcomes[0]  # a tie: either


def test_a_septica_endgame_is_judged_exactly_by_the_solver():
    endgames = decisions("septica", 2, 30, where=lambda game: game.view(game.to_move)["stock"] == 0
                         and exact.solvable(game.view(game.to_move)))
    costly = 0
    for game, rng in endgames:
        view = game.view(game.to_move)
        solved = exact.move_points(view)
        made = rng.choice(view["legal_moves"])

        found = judge(view, made, random.Random(1), budget_ms=None, rounds=8)

        points = dict((str(move), value) for move, value in solved)
        assert found.rounds == 0 and found.error == 0
        assert found.cost == max(points.values()) - points[str(made)]
        assert points[str(found.best)] == max(points.values())
        costly += found.cost > 0
    assert costly, "random moves in thirty endgames give something away"


def test_with_two_cards_in_the_stock_every_deal_is_solved_and_the_cost_is_in_expected_points():
    from games.engine.bots import master

    positions = decisions("septica", 2, 12, seed=40, where=lambda game: len(game.stock) == 2)
    costly = 0
    for game, rng in positions:
        view = game.view(game.to_move)
        made = rng.choice(view["legal_moves"])

        found = judge(view, made, random.Random(1), budget_ms=None, rounds=8)

        # (expected_scores itself is checked against the engine in tests/engine/test_master.py)
        expected = {str(move): value for move, value in
                    master.exact_scores(view, random.Random(1), None, score=lambda _, points: float(points))}
        assert found.rounds == 0 and found.error == 0
        assert found.cost == pytest.approx(max(expected.values()) - expected[str(made)])
        assert expected[str(found.best)] == max(expected.values())
        assert min(expected.values()) >= 0 and max(expected.values()) <= 8
        costly += found.cost > 0
    assert costly, "random moves in twelve positions give something away"


def test_a_single_legal_move_costs_nothing_and_a_move_not_legal_is_refused():
    game = rules_for("septica").new_game(players=2, seed=3)
    view = game.view(game.to_move)
    only = {**view, "legal_moves": view["legal_moves"][:1]}

    assert judge(only, only["legal_moves"][0], random.Random(1)).cost == 0
    with pytest.raises(ValueError):
        judge(view, {"type": "play", "card": "XR"}, random.Random(1))


def test_the_same_dice_judge_the_same():
    for game, _rng in decisions("familie", 3, 5, seed=9):
        view = game.view(game.to_move)
        made = view["legal_moves"][-1]
        assert judge(view, made, random.Random(4), budget_ms=None, rounds=6) == \
            judge(view, made, random.Random(4), budget_ms=None, rounds=6)
