"""The Master: the expert's search, on better guesses, and exact where the game is small.

Two-player septica with the stock empty is solved outright (``exact``), and
with a card a seat left in the stock every deal of the unseen cards is solved
and weighed by the Master's inference: the style's heuristic move stands
unless another scores better by more than the style's leaning allows it to
give up. Everywhere else the expert's search (``search``) plays the
candidates out in deals drawn by weight from the Master's inference
(``inference``): every deal when they are few enough to list, a weighed
sample otherwise. Building the pool counts against the time budget; whatever
the budget, a move comes back (the heuristic's at worst).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from . import exact, search
from .inference import WeightedDeals, master_guesses
from .registry import bots_for
from .style import Style

POOL_SHARE = 0.4  # of the budget, at most, for weighing the pool of deals
EXACT_SHARE = 0.6  # of the budget, at most, for solving every deal before the search takes over


def choose(
    view: dict, moves: list[dict], style: Style, rng: random.Random, budget_ms: float | None, rounds: int | None
) -> dict:
    started = time.perf_counter()
    liked = bots_for(view).heuristic(view, moves, style, rng)
    if exact.small(view):
        exact_deadline = None if budget_ms is None else started + EXACT_SHARE * budget_ms / 1000
        scored = exact_scores(view, rng, exact_deadline)
        if scored:
            return best_exact(scored, liked, style)
    deadline = None if budget_ms is None else time.perf_counter() + POOL_SHARE * budget_ms / 1000
    guesses = master_guesses(view, rng, deadline)
    left = None if budget_ms is None else max(0.0, budget_ms - (time.perf_counter() - started) * 1000)
    return search.search(view, moves, style, rng, left, rounds, guesses=guesses)


def exact_scores(
    view: dict, rng: random.Random, deadline: float | None, score: Callable[[dict, int], float] = exact.margin_score
) -> list[tuple[dict, float]] | None:
    """Each legal move's expected ``score`` of the points it ends the deal with, over every deal of the unseen
    cards, weighed by the inference (an ``exact.small`` view).

    ``None`` when a deal is too big, the deals are too many to list, or the deadline passes.
    """
    if exact.solvable(view):
        solved = exact.move_points(view)
        return None if solved is None else [(move, score(view, points)) for move, points in solved]
    pool = WeightedDeals(view, rng, deadline)
    if not pool.complete:
        return None
    other = 1 - view["seat"]
    deals = [
        (pool.full_hands(hands)[other], stock, weight)
        for (hands, stock), weight in zip(pool.deals, pool.weights, strict=True)
    ]
    return exact.expected_scores(view, deals, deadline, score)


def best_exact(scored: list[tuple[dict, float]], liked: dict, style: Style) -> dict:
    """The move that scores best, or the heuristic's when it is within the style's leaning of it."""
    best, best_value = max(scored, key=lambda pair: pair[1])
    liked_value = next((value for move, value in scored if move == liked), None)
    if liked_value is not None and liked_value >= best_value - style.leaning:
        return liked
    return best
