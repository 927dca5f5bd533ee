"""Two-player septica near the end of a deal, solved exactly.

Once the stock is empty both hands are known to the seat to move: the cards it
has not seen are the other hand. What is left of the deal is then a game of
perfect information, small enough (four cards a hand at most) to search to
the end with alpha-beta over a transposition table. With a card a seat still
in the stock, the unseen cards are few enough to list every way they may lie
(the other hand, and the stock in either order); each of those deals is
solved the same way, and a move's worth is its mean over them, weighed by how
likely each makes what the other seat did (``expected_scores``).

The value of a position is the points the seat still takes in this deal;
since the two seats share every point, the move that takes the most points is
also the one that wins the deal by the widest margin, so any score that grows
with the margin (the search's ``septica.score``) ranks the moves the same way.

The solver reads only the view: its hand, the trick on the table, the cards
the log shows played, and the two eights taken out, if any.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from itertools import permutations
from typing import NamedTuple

from ..septica import DECK, HAND_SIZE

POINT_RANKS = "TA"
EXACT, LOWER, UPPER = "exact", "lower", "upper"  # what a stored value is: the value, or a bound on it
NODE_LIMIT = 200_000  # positions searched before giving up: far above any real endgame's few thousand
SMALL_STOCK = 2  # a stock of this many cards at most: every deal of the unseen cards is solved (see the module)


class TooBig(Exception):
    """The position needs more search than ``NODE_LIMIT`` allows."""


class Position(NamedTuple):
    """A two-player septica position with both hands known, from the seat ``me``'s side."""

    hands: tuple[frozenset[str], frozenset[str]]
    led: str  # the led rank, "" between tricks
    trick_points: int  # points lying in the trick on the table
    trick_cards: int
    leader: int
    holder: int
    to_move: int
    deciding: bool  # the leader is asked to continue or end
    stock: tuple[str, ...] = ()  # in the order it is drawn


def solvable(view: dict) -> bool:
    """Is this a two-player septica view with the stock empty, where the other hand is known?"""
    return small(view) and view["stock"] == 0


def small(view: dict) -> bool:
    """Is this a two-player septica view with at most ``SMALL_STOCK`` cards in the stock, for its seat to move?"""
    return (
        view.get("rules") == "septica"
        and view["players"] == 2
        and view["stock"] <= SMALL_STOCK
        and view.get("seat") is not None
        and view["to_move"] == view["seat"]
        and view.get("phase") in ("play", "decide")
    )


def unseen(view: dict) -> frozenset[str]:
    """The cards this seat has not seen: the other hand and the stock."""
    seen = set(view["hand"]) | set(view.get("removed") or ())
    seen.update(entry["card"] for entry in view["log"] if entry["type"] == "play")
    seen.update(entry["card"] for entry in view["table"])
    return frozenset(card for card in DECK if card not in seen)


def position(view: dict, other: Iterable[str] | None = None, stock: tuple[str, ...] = ()) -> Position:
    """The position the view shows with the other hand ``other`` (every unseen card if not given) and this stock."""
    me = view["seat"]
    other = unseen(view) if other is None else frozenset(other)
    hands = (frozenset(view["hand"]), other) if me == 0 else (other, frozenset(view["hand"]))
    table = [entry["card"] for entry in view["table"]]
    leader = view["leader"] if view.get("leader") is not None else me
    holder = view["holder"] if view.get("holder") is not None else leader
    return Position(
        hands=hands,
        led=table[0][0] if table else "",
        trick_points=sum(1 for card in table if card[0] in POINT_RANKS),
        trick_cards=len(table),
        leader=leader,
        holder=holder,
        to_move=view["to_move"],
        deciding=view.get("phase") == "decide",
        stock=stock,
    )


def moves_of(pos: Position) -> list[dict]:
    """The legal moves in the engine's shapes (``take`` never comes up: it is played at once)."""
    hand = sorted(pos.hands[pos.to_move])
    if pos.deciding:
        return [{"type": "play", "card": card} for card in hand if card[0] in (pos.led, "7")] + [{"type": "end"}]
    return [{"type": "play", "card": card} for card in hand]


class Solver:
    """Alpha-beta over the positions of one endgame, for seat ``me``, with a transposition table."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.table: dict[Position, tuple[int, str]] = {}  # position -> (value, what it is: EXACT, LOWER, UPPER)
        self.nodes = 0

    def values(self, pos: Position) -> list[tuple[dict, int]]:
        """Each legal move with the points ``me`` takes from here on under best play on both sides."""
        return [(move, self.search(after(pos, move), -1, 99)) for move in moves_of(pos)]

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        """The points ``me`` takes from ``pos`` on, exact when inside (alpha, beta), else a bound beyond it."""
        if pos.led == "" and not pos.hands[0] and not pos.hands[1]:
            return 0
        if pos.led and pos.to_move == -1:  # the trick is over: its holder takes it and leads
            gained = pos.trick_points if pos.holder == self.me else 0
            return gained + self.search(taken(pos), alpha - gained, beta - gained)
        self.nodes += 1
        if self.nodes > NODE_LIMIT:
            raise TooBig
        known = self.table.get(pos)
        if known is not None:
            value, kind = known
            if kind is EXACT or kind is LOWER and value >= beta or kind is UPPER and value <= alpha:
                return value
        maximising = pos.to_move == self.me
        best = -1 if maximising else 99
        low, high = alpha, beta
        for move in moves_of(pos):
            value = self.search(after(pos, move), low, high)
            if maximising:
                best = max(best, value)
                low = max(low, best)
            else:
                best = min(best, value)
                high = min(high, best)
            if low >= high:
                break
        # A value at or beyond a bound of the window only bounds the truth on that side.
        self.table[pos] = (best, UPPER if best <= alpha else LOWER if best >= beta else EXACT)
        return best


def after(pos: Position, move: dict) -> Position:
    """The position after ``move``; ``to_move`` is -1 when the trick is over and waits to be taken."""
    seat, other = pos.to_move, 1 - pos.to_move
    if move["type"] == "end":
        return pos._replace(to_move=-1, deciding=False)
    card = move["card"]
    hands = (pos.hands[0] - {card}, pos.hands[1]) if seat == 0 else (pos.hands[0], pos.hands[1] - {card})
    led = pos.led or card[0]
    holder = seat if not pos.led or card[0] == led or card[0] == "7" else pos.holder
    leader = pos.leader if pos.led else seat
    trick_cards = pos.trick_cards + 1
    if trick_cards % 2:
        to_move, deciding = other, False
    elif holder == leader or not hands[leader]:
        to_move, deciding = -1, False
    else:
        to_move, deciding = leader, True
    points = pos.trick_points + (card[0] in POINT_RANKS)
    return Position(hands, led, points, trick_cards, leader, holder, to_move, deciding, pos.stock)


def taken(pos: Position) -> Position:
    """The next trick's start: the holder takes the trick, both hands are topped up as the engine does, and it leads."""
    winner, hands, stock = pos.holder, pos.hands, pos.stock
    drawn = min(HAND_SIZE - len(hands[winner]), len(stock) // 2)
    if drawn:
        # One card at a time from the winner: the winner draws the first, third, ... card of the stock.
        top = stock[: 2 * drawn]
        refilled = [hands[0], hands[1]]
        refilled[winner] = refilled[winner] | frozenset(top[0::2])
        refilled[1 - winner] = refilled[1 - winner] | frozenset(top[1::2])
        hands, stock = (refilled[0], refilled[1]), stock[2 * drawn :]
    return Position(hands, "", 0, 0, winner, winner, winner, False, stock)


def move_points(
    view: dict, other: Iterable[str] | None = None, stock: tuple[str, ...] = ()
) -> list[tuple[dict, int]] | None:
    """Each legal move of the view with the points its seat ends the deal with under best play; ``None`` if too big.

    The other hand and the stock are ``other`` and ``stock`` when given, else the stock is empty and the
    other hand is every unseen card.
    """
    return solved_points(Solver(view["seat"]), view, other, stock)


def solved_points(
    solver: Solver, view: dict, other: Iterable[str] | None, stock: tuple[str, ...]
) -> list[tuple[dict, int]] | None:
    me = view["seat"]
    solver.nodes = 0
    try:
        future = solver.values(position(view, other, stock))
    except TooBig:
        return None
    already = view["points"][me]
    legal = [dict(move) for move in view["legal_moves"]]
    return [(move, already + value) for move, value in future if move in legal]


def expected_scores(
    view: dict,
    deals: Iterable[tuple[Iterable[str], Iterable[str], float]],
    deadline: float | None = None,
    score: Callable[[dict, int], float] | None = None,
) -> list[tuple[dict, float]] | None:
    """Each legal move with its mean ``score`` (``margin_score`` unless given) over ``deals`` under best play in each.

    A deal is (the other hand, the stock's cards, its weight); every order of its stock is solved, each
    with an equal share of the weight. ``None`` when a deal is too big to solve or ``deadline`` passes.
    """
    score = score or margin_score
    totals: dict[str, float] = {}
    moves: dict[str, dict] = {}
    weight_sum = 0.0
    # Deals that come to the same hands once the stock is drawn share their positions' values.
    solver = Solver(view["seat"])
    for other, stock_cards, weight in deals:
        orders = list(permutations(sorted(stock_cards)))
        for stock in orders:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            solved = solved_points(solver, view, other, stock)
            if solved is None:
                return None
            for move, points in solved:
                key = repr(sorted(move.items()))
                moves[key] = move
                totals[key] = totals.get(key, 0.0) + weight / len(orders) * score(view, points)
        weight_sum += weight
    if not weight_sum:
        return None
    return [(moves[key], total / weight_sum) for key, total in totals.items()]


def margin_score(view: dict, points: int) -> float:
    """The search's score (``septica.score``) of a deal ending with ``points`` for this seat."""
    total = sum(1 for card in DECK if card[0] in POINT_RANKS)
    diff = points - (total - points)
    return (diff > 0) - (diff < 0) + diff / 8
