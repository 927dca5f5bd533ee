"""Familie heuristics: lead cheap cards, cut rich tricks with cheap cards (a joker
first), and pass when the trick is not worth a card.

As in septica, the policy reads a ``Spot`` from a seat's view or from the bot's
own guessed game, and ``score`` says how a played-out deal went for a seat.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from ..familie import FamilieGame
from .style import Style

VALUE = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14, "X": 0}


class Spot(NamedTuple):
    seat: int
    hand: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    holder: int
    players: int
    open_seats: int  # other seats that may still cut after this one
    stock: int


def spot_from_view(view: dict) -> Spot:
    seat, players = view["seat"], view["players"]
    passed = set(view.get("passed") or ())
    holder = view.get("holder")
    counts = view["hand_counts"]
    others = [s for s in range(players) if s != seat and s not in passed and counts[s] > 0]
    return Spot(
        seat=seat,
        hand=tuple(view["hand"]),
        trick=tuple((entry["seat"], entry["card"]) for entry in view["table"]),
        holder=holder if holder is not None else seat,
        players=players,
        open_seats=len(others),
        stock=view["stock"],
    )


def spot_from_game(game: FamilieGame) -> Spot:
    """The spot of the seat to move in a guessed game (the bot's own)."""
    seat, players = game.to_move, game.players
    assert seat is not None  # a rollout asks only while the deal is on
    hands, passed = game.hands, game.passed
    others = sum(1 for s in range(players) if s != seat and hands[s] and s not in passed)
    return Spot(
        seat=seat,
        hand=hands[seat],
        trick=game.table,
        holder=game.holder,
        players=players,
        open_seats=others,
        stock=len(game.stock),
    )


def score(game: FamilieGame, seat: int, deal: int) -> float:
    """How the deal went for ``seat``: 1 when no other seat took more, plus a hundredth of the margin."""
    points = game.points
    best_other = max(p for s, p in enumerate(points) if s != seat)
    diff = points[seat] - best_other
    return (diff >= 0) + diff / 100


def choose(spot: Spot, moves: list[dict], style: Style, rng: random.Random) -> dict:
    kinds = {move["type"] for move in moves}
    if kinds == {"take"}:
        return moves[0]
    if not spot.trick:
        return lead(spot, moves, rng)
    return cut_or_pass(spot, moves, style)


def lead(spot: Spot, moves: list[dict], rng: random.Random) -> dict:
    held = Counter(card[0] for card in spot.hand)

    def score(card: str) -> float:
        rank = card[0]
        value = -VALUE[rank] / 4 + 1.5 * (held[rank] - 1)
        if rank in "7X":
            value -= 8
        return value + rng.random() * 0.01

    return {"type": "play", "card": max((m["card"] for m in moves), key=score)}


def cut_or_pass(spot: Spot, moves: list[dict], style: Style) -> dict:
    cuts = [move["card"] for move in moves if move["type"] == "play"]
    pot = sum(VALUE[card[0]] for _, card in spot.trick)
    if not cuts:
        return {"type": "pass"}
    if spot.holder == spot.seat:
        return {"type": "pass"}
    jokers = [card for card in cuts if card[0] == "X"]
    if jokers and pot >= style.cut_on // 2:
        return {"type": "play", "card": jokers[0]}
    plain = sorted((card for card in cuts if card[0] != "X"), key=lambda c: (c[0] == "7", VALUE[c[0]]))
    if plain:
        card = plain[0]
        threshold = style.cut_on - (6 if spot.open_seats == 0 else 0)
        if pot + VALUE[card[0]] // 2 >= threshold:
            return {"type": "play", "card": card}
    if jokers and spot.stock == 0 and pot > 0:
        return {"type": "play", "card": jokers[0]}
    return {"type": "pass"}
