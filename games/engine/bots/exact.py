"""Two-player septica with the stock empty, solved exactly.

Once the stock is empty both hands are known to the seat to move: the cards it
has not seen are the other hand. What is left of the deal is then a game of
perfect information, small enough (four cards a hand at most) to search to
the end with alpha-beta over a transposition table. The value of a position
is the points the seat still takes in this deal; since the two seats share
every point, the move that takes the most points is also the one that wins the
deal by the widest margin, so any score that grows with the margin (the
search's ``septica.score``) ranks the moves the same way.

The solver reads only the view: its hand, the trick on the table, the cards
the log shows played, and the two eights taken out, if any.
"""

from __future__ import annotations

from typing import NamedTuple

from ..septica import DECK

POINT_RANKS = "TA"
EXACT, LOWER, UPPER = "exact", "lower", "upper"  # what a stored value is: the value, or a bound on it
NODE_LIMIT = 200_000  # positions searched before giving up: far above any real endgame's few thousand


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


def solvable(view: dict) -> bool:
    """Is this a two-player septica view with the stock empty, where the other hand is known?"""
    return (
        view.get("rules") == "septica"
        and view["players"] == 2
        and view["stock"] == 0
        and view.get("seat") is not None
        and view["to_move"] == view["seat"]
        and view.get("phase") in ("play", "decide")
    )


def position(view: dict) -> Position:
    """The position the view shows, the other hand being every card this seat has not seen."""
    me = view["seat"]
    seen = set(view["hand"]) | set(view.get("removed") or ())
    seen.update(entry["card"] for entry in view["log"] if entry["type"] == "play")
    seen.update(entry["card"] for entry in view["table"])
    other = frozenset(card for card in DECK if card not in seen)
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
    hands = list(pos.hands)
    hands[seat] = hands[seat] - {card}
    led = pos.led or card[0]
    holder = seat if not pos.led or card[0] == led or card[0] == "7" else pos.holder
    trick_cards = pos.trick_cards + 1
    pos = pos._replace(
        hands=(hands[0], hands[1]),
        led=led,
        trick_points=pos.trick_points + (card[0] in POINT_RANKS),
        trick_cards=trick_cards,
        leader=pos.leader if pos.led else seat,
        holder=holder,
        deciding=False,
    )
    if trick_cards % 2:
        return pos._replace(to_move=other)
    if pos.holder == pos.leader or not pos.hands[pos.leader]:
        return pos._replace(to_move=-1)
    return pos._replace(to_move=pos.leader, deciding=True)


def taken(pos: Position) -> Position:
    return Position(pos.hands, "", 0, 0, pos.holder, pos.holder, pos.holder, False)


def move_points(view: dict) -> list[tuple[dict, int]] | None:
    """Each legal move of the view with the points its seat ends the deal with under best play; ``None`` if too big."""
    me = view["seat"]
    pos = position(view)
    try:
        future = Solver(me).values(pos)
    except TooBig:
        return None
    already = view["points"][me]
    legal = [dict(move) for move in view["legal_moves"]]
    return [(move, already + value) for move, value in future if move in legal]


def margin_score(view: dict, points: int) -> float:
    """The search's score (``septica.score``) of a deal ending with ``points`` for this seat."""
    total = sum(1 for card in DECK if card[0] in POINT_RANKS)
    diff = points - (total - points)
    return (diff > 0) - (diff < 0) + diff / 8
