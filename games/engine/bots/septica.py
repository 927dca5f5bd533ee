"""Septica heuristics: win tricks that carry points, keep sevens for them, continue or end wisely.

The policy reads a ``Spot``: the few facts of the moment it needs, taken
either from a seat's view (``spot_from_view``) or, during a search, from the
bot's own guessed game (``spot_from_game``), so the same judgement plays real
moves and rollouts. ``score`` says how a played-out deal went for a seat.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from ..septica import SepticaGame
from .style import Style

POINT_RANKS = "TA"


class Spot(NamedTuple):
    seat: int
    hand: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    leader: int
    holder: int
    cutters: str
    side_of: tuple[int, ...]
    players: int
    stock: int
    unseen: Counter | None  # ranks not yet seen by this seat (None: not counted)


def spot_from_view(view: dict) -> Spot:
    players = view["players"]
    side_of = tuple(range(players))
    if view.get("teams"):
        half = players // 2
        side_of = tuple(seat % half for seat in range(players))
    trick = tuple((entry["seat"], entry["card"]) for entry in view["table"])
    holder = view.get("holder")
    leader = view.get("leader")
    return Spot(
        seat=view["seat"],
        hand=tuple(view["hand"]),
        trick=trick,
        leader=leader if leader is not None else view["seat"],
        holder=holder if holder is not None else view["seat"],
        cutters="".join(view.get("cutters") or "7"),
        side_of=side_of,
        players=players,
        stock=view["stock"],
        unseen=unseen_ranks(view),
    )


def spot_from_game(game: SepticaGame) -> Spot:
    """The spot of the seat to move in a guessed game (the bot's own), without counting cards."""
    seat, leader, trick = game.to_move, game.leader, game.trick
    holder = game.holder if trick else seat
    assert seat is not None and leader is not None and holder is not None  # a rollout asks only mid-deal
    return Spot(
        seat=seat,
        hand=game.hands[seat],
        trick=trick,
        leader=leader,
        holder=holder,
        cutters=game.cutters,
        side_of=game.side_of,
        players=game.players,
        stock=len(game.stock),
        unseen=None,
    )


def score(game: SepticaGame, seat: int, deal: int) -> float:
    """How deal ``deal`` went for ``seat``'s side: 1 won, -1 lost, 0 level, plus an eighth of the margin."""
    last = game.last_deal
    points = last[1] if last is not None and game.deal != deal else game.points
    side_of = game.side_of
    sides = [sum(points[s] for s in side) for side in game.sides]
    mine = sides[side_of[seat]]
    best_other = max(total for side, total in enumerate(sides) if side != side_of[seat])
    diff = mine - best_other
    return (diff > 0) - (diff < 0) + diff / 8


def unseen_ranks(view: dict) -> Counter:
    """How many cards of each rank this seat has not seen yet in this deal."""
    seen = set(view["hand"]) | set(view.get("removed") or ())
    for entry in view["log"]:
        if entry.get("type") == "play":
            seen.add(entry["card"])
    seen.update(entry["card"] for entry in view["table"])
    unseen: Counter = Counter({rank: 4 for rank in "789TJQKA"})
    for card in seen:
        unseen[card[0]] -= 1
    return unseen


def points(cards) -> int:
    return sum(1 for card in cards if card[0] in POINT_RANKS)


def choose(spot: Spot, moves: list[dict], style: Style, rng: random.Random) -> dict:
    kinds = {move["type"] for move in moves}
    if kinds == {"take"}:
        return moves[0]
    if "end" in kinds:
        return decide(spot, moves, style)
    if not spot.trick:
        return lead(spot, moves, rng)
    return follow(spot, moves, style)


def _junk_key(card: str, led: str, cutters: str) -> tuple:
    """Sort key: the card this seat misses least first."""
    rank = card[0]
    return (rank in cutters, rank in POINT_RANKS, rank == led, "89JQK".find(rank))


def lead(spot: Spot, moves: list[dict], rng: random.Random) -> dict:
    held = Counter(card[0] for card in spot.hand)

    def score(card: str) -> float:
        rank = card[0]
        value = 0.0
        if rank in spot.cutters:
            value -= 6
        if rank in POINT_RANKS:
            value -= 3
        value += 1.5 * (held[rank] - 1)  # a pair lets the leader continue
        if spot.unseen is not None:
            value -= 0.6 * spot.unseen[rank]  # fewer left out there, fewer ways to be cut by rank
        return value + rng.random() * 0.01

    best = max((move["card"] for move in moves), key=score)
    return {"type": "play", "card": best}


def follow(spot: Spot, moves: list[dict], style: Style) -> dict:
    led = spot.trick[0][1][0]
    cutters = spot.cutters
    hand = [move["card"] for move in moves]
    on_table = points(card for _, card in spot.trick)
    mine = spot.side_of[spot.holder] == spot.side_of[spot.seat]
    last_in_round = (spot.seat + 1) % spot.players == spot.leader
    endgame = spot.stock == 0 and len(spot.hand) <= 2
    if mine:
        feeders = [card for card in hand if card[0] in POINT_RANKS and card[0] not in cutters]
        if feeders and (style.feeds_partner or last_in_round and spot.holder != spot.leader):
            return {"type": "play", "card": feeders[0]}
        return {"type": "play", "card": min(hand, key=lambda c: _junk_key(c, led, cutters))}
    by_rank = sorted((card for card in hand if card[0] == led), key=lambda c: c[0] in POINT_RANKS)
    sevens = [card for card in hand if card[0] in cutters and card[0] != led]
    if by_rank and (on_table >= 1 or by_rank[0][0] not in POINT_RANKS):
        return {"type": "play", "card": by_rank[0]}
    if sevens and (on_table >= style.seven_on or endgame and on_table >= 1):
        return {"type": "play", "card": sevens[0]}
    return {"type": "play", "card": min(hand, key=lambda c: _junk_key(c, led, cutters))}


def decide(spot: Spot, moves: list[dict], style: Style) -> dict:
    led = spot.trick[0][1][0]
    cards = [move["card"] for move in moves if move["type"] == "play"]
    on_table = points(card for _, card in spot.trick)
    by_rank = sorted((card for card in cards if card[0] == led), key=lambda c: c[0] in POINT_RANKS)
    sevens = [card for card in cards if card[0] != led]
    endgame = spot.stock == 0
    if by_rank and on_table >= style.continue_on and (on_table or by_rank[0][0] not in POINT_RANKS):
        return {"type": "play", "card": by_rank[0]}
    if sevens and on_table >= max(style.seven_on, 1) and (on_table >= 2 or endgame or style.seven_on <= 1):
        return {"type": "play", "card": sevens[0]}
    return {"type": "end"}
