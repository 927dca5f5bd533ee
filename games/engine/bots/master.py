"""The Master: the expert's search, on better guesses, and exact where the game is small.

Two-player septica with the stock empty is solved outright (``exact``): the
style's heuristic move stands unless another takes more points than the
style's leaning allows it to give up. Everywhere else the expert's search
(``search``) plays the candidates out in deals drawn by weight from the
Master's inference (``inference``): every deal when they are few enough to
list, a weighed sample otherwise. Building the pool counts against the time
budget; whatever the budget, a move comes back (the heuristic's at worst).
"""

from __future__ import annotations

import random
import time

from . import exact, search
from .inference import master_guesses
from .registry import bots_for
from .style import Style

POOL_SHARE = 0.4  # of the budget, at most, for weighing the pool of deals


def choose(
    view: dict, moves: list[dict], style: Style, rng: random.Random, budget_ms: float | None, rounds: int | None
) -> dict:
    started = time.perf_counter()
    liked = bots_for(view).heuristic(view, moves, style, rng)
    if exact.solvable(view):
        solved = exact.move_points(view)
        if solved:
            return best_exact(view, solved, liked, style)
    deadline = None if budget_ms is None else started + POOL_SHARE * budget_ms / 1000
    guesses = master_guesses(view, rng, deadline)
    left = None if budget_ms is None else max(0.0, budget_ms - (time.perf_counter() - started) * 1000)
    return search.search(view, moves, style, rng, left, rounds, guesses=guesses)


def best_exact(view: dict, solved: list[tuple[dict, int]], liked: dict, style: Style) -> dict:
    """The move that ends the deal best, or the heuristic's when it is within the style's leaning of it."""
    scored = [(exact.margin_score(view, points), move) for move, points in solved]
    best_value, best = max(scored, key=lambda pair: pair[0])
    liked_value = next((value for value, move in scored if move == liked), None)
    if liked_value is not None and liked_value >= best_value - style.leaning:
        return liked
    return best
