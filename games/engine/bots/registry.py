"""Every rule set's bots in one place, keyed by the rules object (what ``rules_for(slug)`` returns).

An entry holds a rule set's heuristic policy (``spot_from_view`` and
``choose``), its determinizer (a complete game guessed from a seat's view), and
what the expert's search needs there: the guesses it plays in, how it plays
candidates out in them, which candidates are worth that, and how sure it must
be to leave the heuristic's move. A new rule set adds its entry here, beside
its policy module.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import americana as americana_rules
from .. import familie as familie_rules
from .. import rules_for
from .. import septica as septica_rules
from ..base import Game, Rules
from ..determinize import americana_game, familie_game, septica_game
from . import americana, familie, septica
from .americana_guess import WeightedGuesser
from .playout import GamePlayOut, Guesses, game_guesses, table_play_out
from .style import Style

SWITCH_Z = 1.0  # how many standard errors a move must beat the heuristic's by to replace it


def every_move(view: dict, moves: list[dict], liked: dict) -> list[dict]:
    return moves


def weighted_guesses(view: dict, rng: random.Random) -> Guesses:
    """Guesses on a bare americana table, likelier as they explain the others' turns."""
    return WeightedGuesser(view, rng).guess


@dataclass(frozen=True)
class RuleSetBots:
    """What the bots know of one rule set."""

    spot_from_view: Callable[[dict], Any]  # the facts the policy reads, from a seat's view
    choose: Callable[[Any, list[dict], Style, random.Random], dict]  # the heuristic policy
    determinize: Callable[[dict, random.Random], Game]  # a complete game guessed from a seat's view
    guesses: Callable[[dict, random.Random], Guesses]  # the search's guesses of one view
    play_out: Callable[[Any, list[dict], int, int, int], list[float]]  # (guess, moves, seat, deal, seed) -> values
    candidates: Callable[[dict, list[dict], dict], list[dict]] = every_move  # the moves worth searching
    switch_z: float = SWITCH_Z

    def heuristic(
        self, view: dict, moves: list[dict], style: Style, rng: random.Random, counting: bool = True
    ) -> dict:
        """The policy's move in this view; without ``counting``, as if no card seen had been kept in mind."""
        spot = self.spot_from_view(view)
        if not counting and hasattr(spot, "unseen"):
            spot = spot._replace(unseen=None)
        move = self.choose(spot, moves, style, rng)
        return move if move in moves else moves[0]


BOTS: dict[Rules, RuleSetBots] = {
    septica_rules.RULES: RuleSetBots(
        spot_from_view=septica.spot_from_view,
        choose=septica.choose,
        determinize=septica_game,
        guesses=game_guesses(septica_game),
        play_out=GamePlayOut(septica.spot_from_game, septica.choose, septica.score),
    ),
    familie_rules.RULES: RuleSetBots(
        spot_from_view=familie.spot_from_view,
        choose=familie.choose,
        determinize=familie_game,
        guesses=game_guesses(familie_game),
        play_out=GamePlayOut(familie.spot_from_game, familie.choose, familie.score),
    ),
    americana_rules.RULES: RuleSetBots(
        spot_from_view=americana.spot_from_view,
        choose=americana.choose,
        determinize=americana_game,
        guesses=weighted_guesses,
        play_out=table_play_out,
        candidates=americana.candidates,
        # Half a standard error is enough: americana's edges are small, and the clearly
        # worse candidates have dropped out of the race by the time it matters.
        switch_z=0.5,
    ),
}


def bots_for(view: dict) -> RuleSetBots:
    """The bots of the view's rule set."""
    return BOTS[rules_for(view["rules"])]


def game_from_view(view: dict, guess_rng: random.Random) -> Game:
    """A game of the view's rule set whose ``view(view["seat"])`` is ``view``: one guess of the hidden cards."""
    return bots_for(view).determinize(view, guess_rng)
