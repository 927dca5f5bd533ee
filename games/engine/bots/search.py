"""The expert: flat Monte Carlo over guessed deals, anchored on the heuristic.

Each round guesses the hidden cards once (``game_from_view``; americana reads
what the players' draws showed they lacked, and draws its guesses from a pool
weighed by how well each explains the others' turns: ``americana_guess``), then plays every candidate move out
to the end of the deal in that guess, both sides playing the medium policy (with
a little noise, the same noise for every candidate); americana plays out on a
bare table of its own (``americana_table``), many times quicker than the engine. The
style's heuristic move stands unless another candidate beats it in the paired
outcomes by more than the style's leaning and its own noise. On a loaded
machine the search runs past its budget for a few rounds at least, up to a
hard cap. Everything here starts from the view: the guessed games are the bot's own.
"""

from __future__ import annotations

import math
import random
import time

from ..determinize import game_from_view
from . import americana, familie, heuristic, septica
from .americana_guess import WeightedGuesser
from .americana_table import Table
from .style import STYLES_BY_NAME, Style

MAX_ROUNDS = 4000  # the time budget is what stops a search; this only bounds one without a budget
MIN_ROUNDS = 16  # sampled deals worth waiting for past the budget on a loaded machine...
HARD_CAP = 1.5  # ...but never past this many budgets
SWITCH_Z = 1.0  # how many standard errors a move must beat the heuristic's by to replace it...
# ...in americana only half of one: its edges are small and the clearly worse candidates have dropped out
# by then. Measured on the bench's 800 deals against Medium: 60.3% and 59.4% at 0.5, 59.4% at 1.0, so
# within the noise; septica on 400 deals did 68.0% at 0.5 and 71.8% at 1.0, so it keeps 1.0.
SWITCH_Z_OF = {"americana": 0.5}
DROP_EVERY = 16  # rounds between looks for candidates clearly worse than the heuristic's move...
DROP_Z = 3.0  # ...by this many standard errors: they are played out no more, leaving the time to the close ones
ROLLOUT_NOISE = 0.08  # share of random moves in rollouts, so they do not all agree
ROLLOUT_LIMIT = 400  # moves; an americana deal can run long
ROLLOUT_STYLE = STYLES_BY_NAME["expert"]
AMERICANA_NOISE = 0.03  # americana rollouts: players seldom play other than the heuristic would
CHARGE_SCALE = 100  # americana: going out counts most, then the charges (a 100-point swing weighs as much)


def search(
    view: dict, moves: list[dict], style: Style, rng: random.Random, budget_ms: float | None, rounds: int | None
) -> dict:
    """The style's heuristic move, unless the sampled deals show another clearly better.

    Every candidate is played out in the same guessed deals with the same
    rollout randomness (common random numbers), so each candidate is judged by
    its paired difference with the heuristic move: it replaces that move only
    when the mean difference beats both the style's leaning and ``SWITCH_Z``
    (``SWITCH_Z_OF``) standard errors. Candidates clearly worse than that move drop out of the
    race as the rounds go, and when none is left the search stops.
    """
    started = time.perf_counter()
    timed = budget_ms is not None
    deadline = started + (budget_ms or 0.0) / 1000
    hard = started + HARD_CAP * (budget_ms or 0.0) / 1000
    rounds = rounds if rounds is not None else MAX_ROUNDS
    seat, deal = view["seat"], view["deal"]
    liked = heuristic(view, moves, style, rng)
    moves = CANDIDATES.get(view["rules"], _every_move)(view, moves, liked)
    anchor = moves.index(liked)
    count = len(moves)
    sums = [0.0] * count  # of the difference with the anchor's outcome
    squares = [0.0] * count
    played = [0] * count
    racing = list(range(count))  # the candidates still played out
    done = 0
    guesses = GUESSERS.get(view["rules"], game_guesser)(view, rng)
    play_out = PLAY_OUTS.get(view["rules"], play_out_each)
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
    switch_z = SWITCH_Z_OF.get(view["rules"], SWITCH_Z)
    for i in range(count):
        if i == anchor or played[i] < 2:
            continue
        edge = sums[i] / played[i] - max(style.leaning, switch_z * _error(sums[i], squares[i], played[i]))
        if edge > best_edge:
            best, best_edge = i, edge
    return moves[best]


def _error(total: float, squares: float, n: int) -> float:
    """The standard error of a mean of ``n`` paired differences."""
    mean = total / n
    return math.sqrt(max(0.0, squares / n - mean * mean) / (n - 1))


def _every_move(view: dict, moves: list[dict], liked: dict) -> list[dict]:
    return moves


CANDIDATES = {"americana": americana.candidates}


def game_guesser(view: dict, rng: random.Random):
    """Guesses of the hidden cards, each a complete game."""
    return lambda rng: game_from_view(view, rng)


def americana_guesser(view: dict, rng: random.Random):
    """Guesses of the hidden cards, each on a bare americana table, likelier as they explain the others' turns."""
    return WeightedGuesser(view, rng).guess


GUESSERS = {"americana": americana_guesser}


def play_out_each(guess, moves: list[dict], seat: int, deal: int, seed: int) -> list[float]:
    """Each move's outcome in the guessed game, every rollout drawing on the same random numbers."""
    return [rollout(guess.play(move), seat, deal, random.Random(seed)) for move in moves]


def americana_play_out_each(guess, moves: list[dict], seat: int, deal: int, seed: int) -> list[float]:
    """``play_out_each`` on the bare americana table: the same rules and policy, many times quicker."""
    start: Table = guess
    values = []
    for move in moves:
        rng = random.Random(seed)
        table = start.copy(rng)
        table.apply((move["type"], move.get("card"), move.get("suit")))
        table.rollout(ROLLOUT_STYLE, rng, AMERICANA_NOISE, ROLLOUT_LIMIT)
        values.append(table.score(seat, CHARGE_SCALE))
    return values


PLAY_OUTS = {"americana": americana_play_out_each}


def rollout(game, seat: int, deal: int, rng: random.Random) -> float:
    """Play deal ``deal`` out with the fast policy and score it for ``seat``."""
    rules = game.rules.slug
    policy = ROLLOUTS[rules]
    for _ in range(ROLLOUT_LIMIT):
        if game.finished or _deal_of(game) != deal:
            break
        moves = game.legal_moves()
        if len(moves) == 1:
            move = moves[0]
        elif rng.random() < ROLLOUT_NOISE:
            move = rng.choice(moves)
        else:
            move = policy(game, moves, rng)
        game = game.play(move)
    return SCORES[rules](game, seat, deal)


def _deal_of(game) -> int:
    return getattr(game, "_deal", 0)


# --- fast policies on the guessed game (the bot's own, so its insides are fair game) ---
def septica_rollout(game, moves, rng):
    setup = game._setup
    trick = game._trick
    spot = septica.Spot(
        seat=game._turn,
        hand=game._hands[game._turn],
        trick=trick,
        leader=game._leader,
        holder=game._holder if trick else game._turn,
        cutters=setup.cutters,
        side_of=setup.side_of,
        players=setup.players,
        stock=len(game._stock),
        unseen=None,
    )
    return septica.choose(spot, moves, ROLLOUT_STYLE, rng)


def familie_rollout(game, moves, rng):
    seat, players = game._to_move, game.players
    others = sum(1 for s in range(players) if s != seat and game._hands[s] and not game._passed >> s & 1)
    spot = familie.Spot(
        seat=seat,
        hand=game._hands[seat],
        trick=game._table,
        holder=game._holder,
        players=players,
        open_seats=others,
        stock=len(game._stock),
    )
    return familie.choose(spot, moves, ROLLOUT_STYLE, rng)


ROLLOUTS = {"septica": septica_rollout, "familie": familie_rollout}


# --- how a played-out deal went for one seat, roughly -1 .. 1 -------------------------------
def septica_score(game, seat: int, deal: int) -> float:
    setup = game._setup
    points = game._last_deal[1] if game._deal != deal else game._points
    sides = [sum(points[s] for s in side) for side in setup.sides]
    mine = sides[setup.side_of[seat]]
    best_other = max(total for side, total in enumerate(sides) if side != setup.side_of[seat])
    diff = mine - best_other
    return (diff > 0) - (diff < 0) + diff / 8


def familie_score(game, seat: int, deal: int) -> float:
    points = game._points
    best_other = max(p for s, p in enumerate(points) if s != seat)
    diff = points[seat] - best_other
    return (diff >= 0) + diff / 100


SCORES = {"septica": septica_score, "familie": familie_score}
