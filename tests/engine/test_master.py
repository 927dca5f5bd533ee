"""The Master: legal everywhere, exact where the game is small, sharper guesses, and a move whatever the clock."""

from __future__ import annotations

import math
import random
import time

import pytest

from games.engine import rules_for
from games.engine.bots import choose_move, exact
from games.engine.bots.inference import WeightedDeals, hidden_of, log_likelihood, model_of, random_deal
from games.engine.bots.septica import score

TABLES = [("septica", n) for n in range(2, 7)] + [("familie", n) for n in range(2, 7)] + [
    ("americana", n) for n in range(2, 5)
]


def positions(rules: str, players: int, seed: int, level: str = "random"):
    """Games along a match of deal 0 with a choice for the seat to move."""
    game = rules_for(rules).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.finished and game.deal == 0:
        view = game.view(game.to_move)
        if len(view["legal_moves"]) > 1:
            yield game, view
        move = rng.choice(view["legal_moves"]) if level == "random" else choose_move(view, level, "balanced", rng)
        game = game.play(move)


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=[f"{r}-{n}" for r, n in TABLES])
def test_the_master_plays_a_legal_move_in_every_rule_set_and_player_count(rules, players):
    checked = 0
    for number, (_, view) in enumerate(positions(rules, players, seed=players)):
        if number % 3:
            continue
        move = choose_move(view, "master", "balanced", random.Random(number), budget_ms=None, rounds=4)
        assert move in view["legal_moves"]
        checked += 1
    assert checked >= 3


def minimax_points(game, seat: int, deal: int) -> int:
    """The points ``seat`` ends the deal with under best play, by trying every line on the engine itself."""
    if game.finished or game.deal != deal:
        last = game.last_deal
        return (last[1] if last is not None and game.deal != deal else game.points)[seat]
    values = [minimax_points(game.play(move), seat, deal) for move in game.legal_moves()]
    return max(values) if game.to_move == seat else min(values)


def stockless_endgames(count: int):
    found, seed = 0, 0
    while found < count:
        game = rules_for("septica").new_game(players=2, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not game.finished and game.deal == 0 and (len(game.stock) > 0 or rng.random() < 0.3):
            game = game.play(rng.choice(game.legal_moves()))
        if game.finished or game.deal != 0 or len(game.legal_moves()) < 2:
            continue
        view = game.view(game.to_move)
        if exact.solvable(view):
            found += 1
            yield game, view


def test_the_exact_solver_agrees_with_a_plain_minimax_on_many_small_endgames():
    positions_checked = 0
    for game, view in stockless_endgames(120):
        solved = exact.move_points(view)
        assert solved is not None
        assert sorted(str(move) for move, _ in solved) == sorted(str(dict(move)) for move in view["legal_moves"])
        for move, points in solved:
            assert points == minimax_points(game.play(move), game.to_move, 0)
        positions_checked += 1
    assert positions_checked == 120


def test_the_solver_scores_a_deal_in_the_search_units():
    for game, view in stockless_endgames(20):
        me = game.to_move
        for move, points in exact.move_points(view) or []:
            played = game.play(move)
            while not played.finished and played.deal == 0 and played.to_move is not None:
                # both seats keep to the solver's best line, each for its own points (two players share 8)
                line = exact.move_points(played.view(played.to_move)) if len(played.legal_moves()) > 1 else None
                if line:
                    played = played.play(max(line, key=lambda pair: pair[1])[0])
                else:
                    played = played.play(played.legal_moves()[0])
            assert exact.margin_score(view, points) == score(played, me, 0)


@pytest.mark.parametrize(("rules", "players"), [("septica", 2), ("septica", 3), ("familie", 3), ("familie", 4)])
def test_the_true_hands_of_medium_players_are_likelier_than_blind_guesses(rules, players):
    truth = blind = 0.0
    count = 0
    for seed in range(8):
        for number, (game, view) in enumerate(positions(rules, players, seed, level="medium")):
            if number % 2 or view["stock"] == 0 and rules == "septica" and players == 2:
                continue
            model, hidden = model_of(view), hidden_of(view)
            hands = [list(hand) for hand in game.hands]
            truth += log_likelihood(model, hands, random.Random(number))
            guess, _ = random_deal(hidden, random.Random(number))
            full = [list(hand) for hand in hands]
            for (seat, _), hand in zip(hidden.slots, guess, strict=True):
                full[seat] = hand
            blind += log_likelihood(model, full, random.Random(number))
            count += 1
    assert count >= 40
    # On average the true deal explains the others' moves clearly better: a likelihood ratio above e per position.
    assert (truth - blind) / count > 1.0


def test_every_deal_is_listed_when_there_are_few():
    for game, view in positions("septica", 3, seed=5):
        if view["stock"] == 0 and sum(view["hand_counts"]) - len(view["hand"]) == 6:
            pool = WeightedDeals(view, random.Random(0))
            assert pool.enumerated
            assert len(pool.deals) == 20  # six cards, three to each of two hands
            truth = [sorted(game.hands[seat]) for seat, _ in pool.hidden.slots]
            assert [sorted(hand) for hand in truth] in [[sorted(h) for h in hands] for hands, _ in pool.deals]
            return
    pytest.fail("no such position")


@pytest.mark.parametrize(("rules", "players"), [("septica", 2), ("septica", 4), ("familie", 3), ("americana", 3)])
def test_a_master_out_of_time_still_plays_a_legal_move(rules, players):
    for number, (_, view) in enumerate(positions(rules, players, seed=11)):
        if number % 4:
            continue
        started = time.perf_counter()
        move = choose_move(view, "master", "cautious", random.Random(number), budget_ms=1)
        assert move in view["legal_moves"]
        assert time.perf_counter() - started < 0.5
        assert choose_move(view, "master", "balanced", random.Random(number), budget_ms=None, rounds=1) in view[
            "legal_moves"
        ]


def test_the_master_takes_the_last_points_in_a_solved_endgame():
    for _game, view in stockless_endgames(60):
        solved = exact.move_points(view) or []
        best = max(points for _, points in solved)
        chosen = choose_move(view, "master", "expert", random.Random(0), budget_ms=None, rounds=8)
        assert next(points for move, points in solved if move == chosen) == best


def small_stock_positions(count: int, level: str = "medium"):
    """Two-player septica games with two cards in the stock and a choice for the seat to move."""
    found, seed = 0, 100
    while found < count:
        game = rules_for("septica").new_game(players=2, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not game.finished and game.deal == 0 and found < count:
            view = game.view(game.to_move)
            if len(game.stock) == 2 and exact.small(view) and len(view["legal_moves"]) > 1:
                found += 1
                yield game, view
            game = game.play(choose_move(view, level, "balanced", rng))


def test_the_exact_solver_agrees_with_a_plain_minimax_with_two_cards_left_in_the_stock():
    checked = 0
    for game, view in small_stock_positions(25):
        me = game.to_move
        solved = exact.move_points(view, game.hands[1 - me], tuple(game.stock))
        assert solved is not None
        assert sorted(str(move) for move, _ in solved) == sorted(str(dict(move)) for move in view["legal_moves"])
        for move, points in solved:
            assert points == minimax_points(game.play(move), me, 0), (view, move)
        checked += 1
    assert checked == 25


def test_a_small_stock_is_scored_over_every_order_of_every_deal_given():
    """expected_scores against the engine itself: each deal built as a game, in both orders of its stock."""
    rules = rules_for("septica")
    for number, (game, view) in enumerate(small_stock_positions(6)):
        me = game.to_move
        pool = WeightedDeals(view, random.Random(number))
        other_size = view["hand_counts"][1 - me]
        assert pool.complete and len(pool.deals) == math.comb(other_size + 2, other_size)  # the rest in the stock
        truth = sorted(game.hands[1 - me])
        assert truth in [sorted(hands[0]) for hands, _ in pool.deals]
        chosen = [(hands[0], stock, weight) for (hands, stock), weight in list(zip(pool.deals, pool.weights, strict=True))[:3]]
        expected: dict[str, float] = {}
        for other, stock, weight in chosen:
            for order in (list(stock), list(reversed(stock))):
                full = [list(view["hand"]), list(other)] if me == 0 else [list(other), list(view["hand"])]
                deal = rules.from_view(view, full, order, 0)
                for move in deal.legal_moves():
                    points = minimax_points(deal.play(move), me, 0)
                    key = str(dict(move))
                    expected[key] = expected.get(key, 0.0) + weight / 2 * exact.margin_score(view, points)
        total = sum(weight for _, _, weight in chosen)
        scored = exact.expected_scores(view, chosen)
        assert scored is not None
        assert {str(move): value for move, value in scored} == pytest.approx(
            {key: value / total for key, value in expected.items()}
        )


def test_the_master_plays_the_best_expected_move_with_two_cards_in_the_stock():
    from games.engine.bots import master

    for number, (_, view) in enumerate(small_stock_positions(20)):
        scored = master.exact_scores(view, random.Random(number), None)
        assert scored is not None
        best = max(value for _, value in scored)
        chosen = choose_move(view, "master", "expert", random.Random(number), budget_ms=None, rounds=8)
        assert next(value for move, value in scored if move == chosen) >= best - 0.02  # the style's leaning
