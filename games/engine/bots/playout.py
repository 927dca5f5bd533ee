"""Playing candidate moves out in guessed deals, for the expert's search.

Each candidate is played to the end of the deal in one guess, both sides
playing the medium policy with a little noise, and every candidate draws on the
same random numbers, so they are judged on the same luck. A guess is either a
complete game of the engine (``GamePlayOut``) or, in americana, a bare table
that plays the same rules many times quicker (``table_play_out``). Everything
played here is the bot's own guess, never the server's game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from ..base import Game
from .americana_table import Table
from .style import STYLES_BY_NAME, Style

ROLLOUT_NOISE = 0.08  # share of random moves in rollouts, so they do not all agree
ROLLOUT_LIMIT = 400  # moves; an americana deal can run long
ROLLOUT_STYLE = STYLES_BY_NAME["expert"]
AMERICANA_NOISE = 0.03  # americana rollouts: players seldom play other than the heuristic would
CHARGE_SCALE = 100  # americana: going out counts most, then the charges (a 100-point swing weighs as much)

Guesses = Callable[[random.Random], Any]  # one guess of the hidden cards per call


def game_guesses(determinize: Callable[[dict, random.Random], Game]) -> Callable[[dict, random.Random], Guesses]:
    """Guesses of a view's hidden cards, each a complete game made by ``determinize``."""

    def guesses(view: dict, rng: random.Random) -> Guesses:
        return partial(determinize, view)

    return guesses


class GamePlayOut:
    """Candidates played out in a guessed game with a rule set's policy, each deal scored for one seat."""

    def __init__(
        self,
        spot_from_game: Callable[[Any], Any],
        choose: Callable[[Any, list[dict], Style, random.Random], dict],
        score: Callable[[Any, int, int], float],
    ) -> None:
        self.spot_from_game, self.choose, self.score = spot_from_game, choose, score

    def __call__(self, guess: Game, moves: list[dict], seat: int, deal: int, seed: int) -> list[float]:
        """Each move's outcome in the guessed game, every rollout drawing on the same random numbers."""
        return [self.rollout(guess.play(move), seat, deal, random.Random(seed)) for move in moves]

    def rollout(self, game: Game, seat: int, deal: int, rng: random.Random) -> float:
        """Play deal ``deal`` out with the policy (now and then a random move) and score it for ``seat``."""
        spot_from_game, choose = self.spot_from_game, self.choose
        for _ in range(ROLLOUT_LIMIT):
            if game.finished or game.deal != deal:
                break
            moves = game.legal_moves()
            if len(moves) == 1:
                move = moves[0]
            elif rng.random() < ROLLOUT_NOISE:
                move = rng.choice(moves)
            else:
                move = choose(spot_from_game(game), moves, ROLLOUT_STYLE, rng)
            game = game.play(move)
        return self.score(game, seat, deal)


def table_play_out(guess: Table, moves: list[dict], seat: int, deal: int, seed: int) -> list[float]:
    """``GamePlayOut`` on the bare americana table: the same rules and policy, many times quicker."""
    return table_outcomes(guess, moves, seat, deal, seed, lambda table, seat: table.score(seat, CHARGE_SCALE))


def table_outcomes(
    guess: Table, moves: list[dict], seat: int, deal: int, seed: int, score: Callable[[Table, int], float]
) -> list[float]:
    """Each move played out on a copy of the bare table with the same random numbers, then ``score(table, seat)``."""
    values = []
    for move in moves:
        rng = random.Random(seed)
        table = guess.copy(rng)
        table.apply((move["type"], move.get("card"), move.get("suit")))
        table.rollout(ROLLOUT_STYLE, rng, AMERICANA_NOISE, ROLLOUT_LIMIT)
        values.append(score(table, seat))
    return values
