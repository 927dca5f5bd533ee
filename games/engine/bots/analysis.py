"""How much one decision gave away, judged from that seat's view alone.

``judge(view, chosen, rng)`` asks the Master: a two-player septica endgame
(the stock empty, so the other hand is every card not yet seen) is solved
exactly, and so is every deal of the unseen cards when the stock holds a card
a seat (``master.exact_scores``, the deals weighed by what the other did);
anywhere else every candidate move is played out in the same guessed
deals (the Master's guesses of the hidden cards, weighed by what the others
did, never the real ones), and it compares their expected outcomes in the rule set's own points: the points
the seat's side takes in the deal in septica and familie (more is better), the
penalty charged to the seat when the americana round ends (less is better).
The cost of the chosen move is how far its expected outcome falls short of
the best one's. Why the best beats it is a typed reason (a code and its
parameters); the site puts it into words.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from .. import americana as americana_rules
from .. import familie as familie_rules
from .. import rules_for
from .. import septica as septica_rules
from ..base import Rules
from . import exact, familie, master, septica
from .americana import PENALTY
from .americana_table import Table
from .inference import master_guesses
from .playout import GamePlayOut, table_outcomes
from .registry import bots_for

ANALYSIS_BUDGET_MS = 700.0  # per decision: a match of 60 decisions within a minute, with room for the replay
MIN_ROUNDS = 24  # guessed deals worth waiting for past the budget on a loaded machine...
HARD_CAP = 2.0  # ...but never past this many budgets
POOL_SHARE = 0.4  # of the budget, at most, for weighing the Master's pool of guessed deals
# A move is costly when it gave away at least this much, in each rule set's points: a point of
# septica's eight, five of familie's card values, five penalty points of americana.
COSTLY = {"septica": 0.5, "familie": 5.0, "americana": 5.0}


@dataclass(frozen=True)
class Judgement:
    """One decision, judged."""

    chosen: dict  # the move made
    best: dict  # the move with the best expected outcome
    values: tuple[tuple[dict, float], ...]  # every candidate with its expected outcome, best first
    cost: float  # how many points the chosen move gave away against the best (0 when it is the best)
    error: float  # the standard error of ``cost``: the guesses' own noise
    lower_is_better: bool  # americana: the outcome is a penalty
    reason: tuple[str, dict]  # why the best beats the chosen move: a code and its parameters ("", {} at no cost)
    rounds: int  # guessed deals played out (0: solved exactly)


def septica_points(game, seat: int, deal: int) -> float:
    """The points ``seat``'s side took in deal ``deal``."""
    last = game.last_deal
    points = last[1] if last is not None and game.deal != deal else game.points
    return float(sum(points[s] for s in game.sides[game.side_of[seat]]))


def familie_points(game, seat: int, deal: int) -> float:
    return float(game.points[seat])


def americana_penalty(table: Table, seat: int) -> float:
    """What the round charges ``seat``, as ``Table.score`` counts the charges."""
    totals = [sum(PENALTY[card[0]] for card in hand) for hand in table.hands]
    if not table.over:
        return float(totals[seat])
    low = min(totals)
    spared = table.out if table.out is not None else totals.index(low) if totals.count(low) == 1 else None
    return 0.0 if spared is None or spared == seat else float(totals[seat])


Outcomes = Callable[[Any, list[dict], int, int, int], list[float]]
OUTCOMES: dict[Rules, Outcomes] = {
    septica_rules.RULES: GamePlayOut(septica.spot_from_game, septica.choose, septica_points),
    familie_rules.RULES: GamePlayOut(familie.spot_from_game, familie.choose, familie_points),
    americana_rules.RULES: partial(table_outcomes, score=americana_penalty),
}


def judge(
    view: dict, chosen: dict, rng: random.Random, budget_ms: float | None = ANALYSIS_BUDGET_MS,
    rounds: int | None = None,
) -> Judgement:
    """The chosen move (one of ``view["legal_moves"]``) against every other candidate, from this view alone."""
    moves = [dict(move) for move in view.get("legal_moves") or []]
    chosen = dict(chosen)
    if chosen not in moves:
        raise ValueError("The chosen move is not one of the view's legal moves.")
    lower = rules_for(view["rules"]) is americana_rules.RULES
    if len(moves) == 1:
        return Judgement(chosen, chosen, ((chosen, 0.0),), 0.0, 0.0, lower, ("", {}), 0)
    if exact.small(view):
        exact_deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000
        solved = master.exact_scores(view, rng, exact_deadline, score=points_taken)
        if solved and any(move == chosen for move, _ in solved):
            return exact_judgement(view, chosen, solved)
    bots = bots_for(view)
    candidates = bots.candidates(view, moves, chosen)
    if chosen not in candidates:
        candidates.append(chosen)
    anchor = candidates.index(chosen)
    outcomes = OUTCOMES[rules_for(view["rules"])]
    started = time.perf_counter()
    deadline = None if budget_ms is None else started + POOL_SHARE * budget_ms / 1000
    guesses = master_guesses(view, rng, deadline)
    seat, deal = view["seat"], view["deal"]
    count = len(candidates)
    totals, sums, squares = [0.0] * count, [0.0] * count, [0.0] * count
    limit = rounds if rounds is not None else 100_000
    done = 0
    while done < limit:
        values = outcomes(guesses(rng), candidates, seat, deal, rng.getrandbits(64))
        base = values[anchor]
        for i, value in enumerate(values):
            totals[i] += value
            diff = (base - value) if lower else (value - base)  # how much better than the chosen move
            sums[i] += diff
            squares[i] += diff * diff
        done += 1
        if budget_ms is not None:
            spent = (time.perf_counter() - started) * 1000
            if spent > HARD_CAP * budget_ms or (spent > budget_ms and done >= MIN_ROUNDS):
                break
    means = [total / done for total in totals]
    order = sorted(range(count), key=lambda i: -sums[i])
    best = order[0] if sums[order[0]] > 0 else anchor
    cost = sums[best] / done
    error = _error(sums[best], squares[best], done)
    judged = tuple((candidates[i], means[i]) for i in order)
    reason = why(view, chosen, candidates[best]) if best != anchor else ("", {})
    return Judgement(chosen, candidates[best], judged, cost, error, lower, reason, done)


def points_taken(view: dict, points: int) -> float:
    """A deal's outcome in the analysis's units: the seat's own points (two players: no partner)."""
    return float(points)


def exact_judgement(view: dict, chosen: dict, solved: list[tuple[dict, float]]) -> Judgement:
    """The solver's (expected) points for every move: the cost is exact, with no guesses' noise."""
    ranked = sorted(solved, key=lambda pair: -pair[1])
    points = next(value for move, value in solved if move == chosen)
    best, most = ranked[0]
    if most <= points:
        best = chosen
    reason = why(view, chosen, best) if best != chosen else ("", {})
    values = tuple((dict(move), float(value)) for move, value in ranked)
    return Judgement(chosen, dict(best), values, float(most - points), 0.0, False, reason, 0)


def why(view: dict, chosen: dict, best: dict) -> tuple[str, dict]:
    """What sets the best move apart from the chosen one, as a code and its parameters."""
    kind, best_kind = chosen["type"], best["type"]
    card, best_card = chosen.get("card"), best.get("card")
    if view["rules"] == "americana":
        if kind in ("draw", "pass") and best_kind == "play":
            return "americana_could_play", {"card": best_card}
        if kind == "play" and best_kind in ("draw", "pass"):
            return "americana_better_to_draw", {"card": card}
        if card and best_card and card[0] == best_card[0] == "7":
            return "americana_other_suit", {"suit": best.get("suit"), "chosen_suit": chosen.get("suit")}
        return "americana_other_card", {"card": best_card, "chosen": card}
    cutters = "".join(view.get("cutters") or ("7X" if view["rules"] == "familie" else "7"))
    if kind == "end" and best_kind == "play":
        return "continue_trick", {"card": best_card}
    if kind == "play" and best_kind == "end":
        return "end_trick", {"card": card}
    if kind == "pass" and best_kind == "play":
        return "cut_trick", {"card": best_card}
    if kind == "play" and best_kind == "pass":
        return "pass_trick", {"card": card}
    if card and best_card:
        if card[0] in cutters and best_card[0] not in cutters:
            return "keep_cutter", {"card": best_card, "chosen": card}
        if best_card[0] in cutters and card[0] not in cutters:
            return "use_cutter", {"card": best_card, "chosen": card}
        if card[0] in "TA" and best_card[0] not in "TA":
            return "keep_points", {"card": best_card, "chosen": card}
    return "other_card", {"card": best_card, "chosen": card}


def _error(total: float, squares: float, n: int) -> float:
    if n < 2:
        return 0.0
    mean = total / n
    return math.sqrt(max(0.0, squares / n - mean * mean) / (n - 1))
