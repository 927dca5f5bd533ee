"""The playing styles: numbers that move real decisions, one set per style."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    name: str
    # septica: trick points worth spending a seven on (following, and continuing as leader)
    seven_on: int
    # septica: trick points worth continuing for with a card of the led rank (0: continue for the lead alone)
    continue_on: int
    # septica / familie: play point cards into a trick the partner (or this seat) holds
    feeds_partner: bool
    # familie: the trick value worth cutting with a card that is not a joker
    cut_on: int
    # americana: play twos (and jokers) as soon as they fit instead of keeping them to answer a draw
    attacks: bool
    # americana: play a seven rather than draw when nothing else fits
    sevens_early: bool
    # expert search: how far the style's choice may fall behind the best estimate and still be taken
    leaning: float


STYLES_BY_NAME = {
    "cautious": Style("cautious", seven_on=2, continue_on=2, feeds_partner=False, cut_on=22, attacks=False, sevens_early=False, leaning=0.08),
    "balanced": Style("balanced", seven_on=1, continue_on=1, feeds_partner=False, cut_on=15, attacks=False, sevens_early=True, leaning=0.04),
    "aggressive": Style("aggressive", seven_on=1, continue_on=0, feeds_partner=False, cut_on=10, attacks=True, sevens_early=True, leaning=0.08),
    "team": Style("team", seven_on=1, continue_on=1, feeds_partner=True, cut_on=15, attacks=False, sevens_early=True, leaning=0.08),
    "expert": Style("expert", seven_on=1, continue_on=1, feeds_partner=False, cut_on=15, attacks=False, sevens_early=True, leaning=0.02),
}  # fmt: skip
