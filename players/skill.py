"""The rating rules: openskill's Plackett-Luce model, and the one number people are shown.

Pure arithmetic on (mu, sigma) pairs, so the site, `recompute_ratings` and
bench/bots.py rate exactly alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3
START_MU, START_SIGMA = MODEL.mu, MODEL.sigma
PROVISIONAL_UNTIL = 10  # rated matches before a rating stops being provisional
# The conservative estimate mu - 3 sigma, scaled: a newcomer shows 1000, and the
# number climbs as the matches make the system surer of them.
SHOWN_BASE, SHOWN_SCALE = 1000, 40


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def is_provisional(rated_matches: int) -> bool:
    return rated_matches < PROVISIONAL_UNTIL


def rate(sides: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """The skills after one match: `sides[i]` (one person, or a team's partners) finished at `places[i]`
    (1 the best; equal places tie). Two sides, three to six, or teams of two alike."""
    if len(sides) != len(places) or len(sides) < 2:
        raise ValueError("a rated match needs at least two sides, each with a place")
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma) for skill in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [[Skill(player.mu, player.sigma) for player in team] for team in rated]
