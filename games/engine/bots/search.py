"""The expert: flat Monte Carlo over guessed deals, anchored on the heuristic.

Each round guesses the hidden cards once (the rule set's guesses: complete
games from its determinizer, or in americana bare tables drawn from a pool
weighed by how well each explains the others' turns: ``americana_guess``), then
plays every candidate move out to the end of the deal in that guess
(``playout``). The style's heuristic move stands unless another candidate beats
it in the paired outcomes by more than the style's leaning and its own noise.
On a loaded machine the search runs past its budget for a few rounds at least,
up to a hard cap. Everything here starts from the view: the guessed games are
the bot's own. What differs between rule sets comes from their entry in
``registry``.
"""

from __future__ import annotations

import math
import random
import time

from .playout import Guesses
from .registry import bots_for
from .style import Style

MAX_ROUNDS = 4000  # the time budget is what stops a search; this only bounds one without a budget
MIN_ROUNDS = 16  # sampled deals worth waiting for past the budget on a loaded machine...
HARD_CAP = 1.5  # ...but never past this many budgets
DROP_EVERY = 16  # rounds between looks for candidates clearly worse than the heuristic's move...
DROP_Z = 3.0  # ...by this many standard errors: they are played out no more, leaving the time to the close ones


def search(
    view: dict,
    moves: list[dict],
    style: Style,
    rng: random.Random,
    budget_ms: float | None,
    rounds: int | None,
    guesses: Guesses | None = None,
) -> dict:
    """The style's heuristic move, unless the sampled deals show another clearly better.

    Every candidate is played out in the same guessed deals with the same
    rollout randomness (common random numbers), so each candidate is judged by
    its paired difference with the heuristic move: it replaces that move only
    when the mean difference beats both the style's leaning and the rule set's
    ``switch_z`` standard errors. Candidates clearly worse than that move drop
    out of the race as the rounds go, and when none is left the search stops.
    ``guesses`` replaces the rule set's own guesses of the hidden cards (the Master's).
    """
    started = time.perf_counter()
    timed = budget_ms is not None
    deadline = started + (budget_ms or 0.0) / 1000
    hard = started + HARD_CAP * (budget_ms or 0.0) / 1000
    rounds = rounds if rounds is not None else MAX_ROUNDS
    seat, deal = view["seat"], view["deal"]
    bots = bots_for(view)
    liked = bots.heuristic(view, moves, style, rng)
    moves = bots.candidates(view, moves, liked)
    anchor = moves.index(liked)
    count = len(moves)
    sums = [0.0] * count  # of the difference with the anchor's outcome
    squares = [0.0] * count
    played = [0] * count
    racing = list(range(count))  # the candidates still played out
    done = 0
    guesses = guesses if guesses is not None else bots.guesses(view, rng)
    play_out = bots.play_out
    while done < rounds and len(racing) > 1:
        guess = guesses(rng)
        seed = rng.getrandbits(64)
        values = play_out(guess, [moves[i] for i in racing], seat, deal, seed)
        base = values[racing.index(anchor)]
        for i, value in zip(racing, values, strict=True):
            diff = value - base
            sums[i] += diff
            squares[i] += diff * diff
            played[i] += 1
        done += 1
        if done % DROP_EVERY == 0:
            racing = [
                i for i in racing if i == anchor or sums[i] / done + DROP_Z * _error(sums[i], squares[i], done) > 0
            ]
        if timed:
            now = time.perf_counter()
            if now > hard or (now > deadline and done >= MIN_ROUNDS):
                break
    best, best_edge = anchor, 0.0
    for i in range(count):
        if i == anchor or played[i] < 2:
            continue
        edge = sums[i] / played[i] - max(style.leaning, bots.switch_z * _error(sums[i], squares[i], played[i]))
        if edge > best_edge:
            best, best_edge = i, edge
    return moves[best]


def _error(total: float, squares: float, n: int) -> float:
    """The standard error of a mean of ``n`` paired differences."""
    mean = total / n
    return math.sqrt(max(0.0, squares / n - mean * mean) / (n - 1))
