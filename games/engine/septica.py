"""Septica: capture the tens and aces by cutting tricks with the led rank or a seven.

One game object is one moment of a match. A trick runs in rounds: everyone
plays one card, then either the trick is over (the leader's side holds it, or
the leader has no cards left) or the leader decides to continue or to `end`.
The winner must `take`, hands refill from the stock, and the winner leads.
A deal ends when the last trick is taken; the match format decides whether
another deal follows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .base import (
    FrozenList,
    Game,
    LogEntry,
    Rules,
    StateError,
    check_cards,
    check_counts,
    check_hands,
    check_pairs,
    check_seat,
    check_seats,
    common_view,
    is_count,
    plain_move,
    read_move,
)
from .cards import make_deck, shuffle
from .errors import BadOptions, IllegalMove

SLUG = "septica"
DECK = tuple(make_deck("789TJQKA"))
DECK_SET = frozenset(DECK)
HAND_SIZE = 4
EIGHTS_OUT = (3, 5, 6)  # 30 cards divide evenly among these counts only
TEAM_COUNTS = (4, 6)
SEVENS = "7"
SEVENS_AND_EIGHTS = "78"
POINT_RANKS = "TA"
POINT_CARDS = frozenset(card for card in DECK if card[0] in POINT_RANKS)
MOVE_SHAPES = {"play": frozenset({"card"}), "end": frozenset(), "take": frozenset()}
RANK_NAMES = {
    "7": "a seven",
    "8": "an eight",
    "9": "a nine",
    "T": "a ten",
    "J": "a jack",
    "Q": "a queen",
    "K": "a king",
    "A": "an ace",
}

# What the player to move is asked for.
PLAY = "play"  # play any card to the trick
DECIDE = "decide"  # the leader continues with a cutting card or ends the trick
TAKE = "take"  # the holder collects the finished trick
OVER = "over"  # the match is finished
PHASES = {PLAY: PLAY, DECIDE: DECIDE, TAKE: TAKE, OVER: OVER}


# --- match formats -----------------------------------------------------------
class MatchFormat(Protocol):
    def settle(self, scores: tuple[int, ...], deal_points: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        """The match scores after a deal, and the winning side once the match is won."""
        ...


def _sole_top(values: tuple[int, ...]) -> int | None:
    """Index of the single highest value, or None when the top is shared."""
    top = max(values)
    return values.index(top) if values.count(top) == 1 else None


@dataclass(frozen=True)
class PointsRace:
    """Deal points add up; once a side reaches the target the highest total wins."""

    target: int

    def settle(self, totals: tuple[int, ...], deal_points: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        totals = tuple(total + gained for total, gained in zip(totals, deal_points, strict=True))
        if max(totals) < self.target:
            return totals, None
        return totals, _sole_top(totals)  # a tie at the top deals again


@dataclass(frozen=True)
class GamesRace:
    """Each deal is a game won by the side with most points; a tied game does not count."""

    games_needed: int

    def settle(self, games: tuple[int, ...], deal_points: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        side = _sole_top(deal_points)
        if side is None:
            return games, None
        games = games[:side] + (games[side] + 1,) + games[side + 1 :]
        return games, side if games[side] >= self.games_needed else None


MATCHES: dict[str, MatchFormat] = {
    "points-8": PointsRace(8),
    "points-21": PointsRace(21),
    "best-of-3": GamesRace(2),
    "best-of-5": GamesRace(3),
    "first-to-10": GamesRace(10),
}


# --- the setup: everything fixed for a whole match ---------------------------
class _Setup:
    """Seats, sides, cutters, match format, seed and fixed decks: shared by every game object of a match."""

    __slots__ = (
        "cutters",
        "decks",
        "match",
        "next_seat",
        "options",
        "players",
        "removes_eights",
        "seed",
        "side_of",
        "sides",
    )

    cutters: str  # the ranks that cut whatever was led
    decks: tuple[tuple[str, ...], ...]
    match: MatchFormat
    next_seat: tuple[int, ...]
    options: dict
    players: int
    removes_eights: bool
    seed: int
    side_of: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]  # the seats of each side: one seat, or two partners

    def __init__(self, players: int, options: dict, seed: int, decks: tuple[tuple[str, ...], ...]) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.decks = decks
        self.removes_eights = players in EIGHTS_OUT
        self.cutters = SEVENS_AND_EIGHTS if options["eights_cut"] else SEVENS
        half = players // 2
        if options["teams"]:
            self.sides = tuple((seat, seat + half) for seat in range(half))
            self.side_of = tuple(seat % half for seat in range(players))
        else:
            self.sides = tuple((seat,) for seat in range(players))
            self.side_of = tuple(range(players))
        self.next_seat = tuple((seat + 1) % players for seat in range(players))
        self.match = MATCHES[options["match"]]

    def same_side(self, seat: int, other: int) -> bool:
        return self.side_of[seat] == self.side_of[other]

    def deck_for(self, deal: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The cards dealt in this deal, in order, and the eights taken out of it."""
        if deal < len(self.decks):
            deck = self.decks[deal]
            return deck, tuple(sorted(DECK_SET.difference(deck)))
        deck = tuple(shuffle(DECK, self.seed, deal, 0))
        if not self.removes_eights:
            return deck, ()
        removed = tuple([card for card in deck if card[0] == "8"][:2])
        return tuple(card for card in deck if card not in removed), removed

    def seat_scores(self, side_scores: tuple[int, ...]) -> list[int]:
        return [side_scores[side] for side in self.side_of]


# --- the log -------------------------------------------------------------------
# The log holds the frozen entries views hand out (every view shares them); the
# saved state keeps the older compact form, ("play", seat, card), ("draw", first
# seat, count) and so on, which ``_compact`` and ``_spell_out`` convert. Entries
# that recur are made once, so playing a card only looks its entry up.
PLAYED = {(seat, card): LogEntry(seat=seat, type="play", card=card) for seat in range(6) for card in DECK}
DRAWN = {
    (players, first, count): tuple(
        LogEntry(seat=(first + i) % players, type="draw", count=count) for i in range(players)
    )
    for players in range(2, 7)
    for first in range(players)
    for count in range(1, HAND_SIZE + 1)
}


def _taken(seat: int, cards: tuple[str, ...], points: int) -> LogEntry:
    return LogEntry(seat=seat, type="take", cards=FrozenList(cards), points=points)


def _spell_out(entry: tuple, players: int) -> tuple[LogEntry, ...]:
    """The log entries of one compact entry (a draw is one entry per seat)."""
    kind = entry[0]
    if kind == "play":
        return (PLAYED[entry[1], entry[2]],)
    if kind == "take":
        return (_taken(entry[1], entry[2], entry[3]),)
    if kind == "draw":
        return DRAWN[players, entry[1], entry[2]]
    if kind == "end":
        return (LogEntry(seat=entry[1], type="end"),)
    if kind == "remove":
        return (LogEntry(seat=None, type="remove", cards=FrozenList(entry[1])),)
    if kind == "deal_over":
        return (LogEntry(seat=None, type="deal_over", points=FrozenList(entry[1])),)
    raise StateError(SLUG, f"{kind!r} is not an event of septica")


def _compact(log: Sequence[Mapping], players: int) -> list[list]:
    """The saved form of the log: one compact entry per event, one per round of draws."""
    out: list[list] = []
    entries = iter(log)
    for entry in entries:
        kind, seat = entry["type"], entry["seat"]
        if kind == "play":
            out.append(["play", seat, entry["card"]])
        elif kind == "take":
            out.append(["take", seat, list(entry["cards"]), entry["points"]])
        elif kind == "draw":
            out.append(["draw", seat, entry["count"]])
            for _ in range(players - 1):  # the other seats' draws of the same round
                next(entries)
        elif kind == "end":
            out.append(["end", seat])
        elif kind == "remove":
            out.append(["remove", list(entry["cards"])])
        else:
            out.append(["deal_over", list(entry["points"])])
    return out


# --- the game -----------------------------------------------------------------
class SepticaGame(Game):
    __slots__ = (
        "_deal",
        "_hands",
        "_holder",
        "_last_deal",
        "_leader",
        "_log",
        "_phase",
        "_points",
        "_removed",
        "_scores",
        "_setup",
        "_stock",
        "_trick",
        "_turn",
        "_winners",
    )

    _setup: _Setup
    _deal: int
    _hands: tuple[tuple[str, ...], ...]
    _stock: tuple[str, ...]
    _removed: tuple[str, ...]
    _trick: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    _leader: int | None
    _holder: int | None
    _turn: int | None
    _phase: str
    _points: tuple[int, ...]  # per seat, this deal
    _scores: tuple[int, ...]  # per side, the match
    _log: tuple[LogEntry, ...]  # this deal's, frozen, so views share them
    _last_deal: tuple[int, tuple[int, ...]] | None
    _winners: tuple[int, ...] | None

    # --- the public contract ----------------------------------------------
    @property
    def rules(self) -> Rules:  # type: ignore[override]
        return RULES

    @property
    def players(self) -> int:  # type: ignore[override]
        return self._setup.players

    @property
    def options(self) -> dict:  # type: ignore[override]
        return self._setup.options

    @property
    def to_move(self) -> int | None:
        return self._turn

    @property
    def finished(self) -> bool:
        return self._phase is OVER

    @property
    def result(self) -> dict | None:
        if self._winners is None:
            return None
        return {"scores": self._setup.seat_scores(self._scores), "winners": list(self._winners)}

    # --- the state, read-only (a bot reads its own guessed games so, far quicker than through views) ---
    @property
    def deal(self) -> int:
        return self._deal

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        """Every seat's cards: the whole truth, as ``to_state``; never for another seat's eyes."""
        return self._hands

    @property
    def stock(self) -> tuple[str, ...]:
        """The cards left to draw, next card first."""
        return self._stock

    @property
    def trick(self) -> tuple[tuple[int, str], ...]:
        """The trick in play as ``(seat, card)`` pairs, in the order played."""
        return self._trick

    @property
    def leader(self) -> int | None:
        return self._leader

    @property
    def holder(self) -> int | None:
        """The seat the trick in play goes to as it stands (between tricks, the next leader)."""
        return self._holder

    @property
    def points(self) -> tuple[int, ...]:
        """The points each seat has taken in this deal."""
        return self._points

    @property
    def last_deal(self) -> tuple[int, tuple[int, ...]] | None:
        """The number of the last finished deal and the points each seat took in it, or ``None``."""
        return self._last_deal

    @property
    def cutters(self) -> str:
        """The ranks that cut whatever was led: ``"7"``, or ``"78"`` where eights cut."""
        return self._setup.cutters

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: one seat each, or two partners."""
        return self._setup.sides

    @property
    def side_of(self) -> tuple[int, ...]:
        """Each seat's side, an index into ``sides``."""
        return self._setup.side_of

    def legal_moves(self) -> list[dict]:
        phase, turn = self._phase, self._turn
        if turn is None:  # the match is over
            return []
        if phase is PLAY:
            return [{"type": "play", "card": card} for card in self._hands[turn]]
        if phase is DECIDE:
            return [{"type": "play", "card": card} for card in self._continuing_cards()] + [{"type": "end"}]
        if phase is TAKE:
            return [{"type": "take"}]
        return []

    def play(self, move: Any) -> SepticaGame:
        new = self._apply(move)
        if new is None:  # any other mapping, or strings of a str subclass: the plain dict it equals
            move = plain_move(move)
            new = self._apply(move)
            if new is None:
                raise self._why_illegal(move)
        return new

    def _apply(self, move: Any) -> SepticaGame | None:
        """The game after ``move`` when it is a legal move as a plain dict; otherwise None."""
        turn = self._turn
        if type(move) is dict and turn is not None:
            kind = move.get("type")
            if kind == "play":
                if len(move) == 2:
                    card = move.get("card")
                    phase = self._phase
                    if phase is PLAY and card in self._hands[turn]:
                        return self._play_card(turn, card)
                    if phase is DECIDE and card in self._continuing_cards():
                        return self._play_card(turn, card)
            elif len(move) == 1:
                if kind == "take" and self._phase is TAKE:
                    return self._take()
                if kind == "end" and self._phase is DECIDE:
                    return self._end_trick()
        return None

    def view(self, seat: int | None) -> dict:
        seat = self._check_seat(seat)
        setup = self._setup
        trick = self._trick
        view = common_view(self, seat)
        view.update(
            hand=list(self._hands[seat]) if seat is not None else [],
            hand_counts=[len(hand) for hand in self._hands],
            stock=len(self._stock),
            legal_moves=self.legal_moves() if seat is not None and seat == self._turn else [],
            scores=setup.seat_scores(self._scores),
            deal=self._deal,
            log=list(self._log),
            points=list(self._points),
            table=[{"seat": s, "card": card} for s, card in trick],
            removed=list(self._removed),
            last_deal=self._last_deal_view(),
            phase=self._phase,
            leader=self._leader,
            holder=self._holder if trick else None,
            led_rank=trick[0][1][0] if trick else None,
            cutters=list(setup.cutters),
            can_continue=self._phase is DECIDE,
            teams=[list(side) for side in setup.sides] if setup.options["teams"] else None,
            first=self._deal % setup.players,
            dealer=(self._deal - 1) % setup.players,
        )
        return view

    def to_state(self) -> dict:
        state = self._state_envelope()
        state.update(
            seed=self._setup.seed,
            decks=[list(deck) for deck in self._setup.decks],
            deal=self._deal,
            hands=[list(hand) for hand in self._hands],
            stock=list(self._stock),
            removed=list(self._removed),
            trick=[[seat, card] for seat, card in self._trick],
            leader=self._leader,
            holder=self._holder,
            turn=self._turn,
            phase=self._phase,
            points=list(self._points),
            scores=self._setup.seat_scores(self._scores),
            log=_compact(self._log, self._setup.players),
            last_deal=_thaw(self._last_deal),
            winners=_thaw(self._winners),
        )
        return state

    @classmethod
    def _from_state(cls, rules: Rules, state: dict) -> SepticaGame:
        try:
            return cls._read_state(rules, state)
        except (KeyError, TypeError, IndexError, AttributeError) as error:  # a part missing or of the wrong shape
            raise ValueError(f"That saved septica game is damaged ({error!r}).") from None

    @classmethod
    def _read_state(cls, rules: Rules, state: dict) -> SepticaGame:
        players = rules.check_players(state["players"])
        options = rules.validate_options(players, state["options"])
        decks = tuple(tuple(rules._check_deck(players, options, list(deck))) for deck in state["decks"])
        if type(state["seed"]) is not int:
            raise ValueError("The seed must be an integer.")
        setup = _Setup(players, options, state["seed"], decks)
        phase = PHASES.get(state["phase"])  # the interned constant
        if phase is None:
            raise StateError(SLUG, f"{state['phase']!r} is not a phase of play")
        scores = state["scores"]
        log, taken = _read_log(state["log"], players)
        game = _make(
            setup,
            state["deal"],
            _freeze(state["hands"]),
            _freeze(state["stock"]),
            _freeze(state["removed"]),
            _freeze(state["trick"]),
            state["leader"],
            state["holder"],
            state["turn"],
            phase,
            _freeze(state["points"]),
            tuple(scores[side[0]] for side in setup.sides),
            log,
            _freeze(state["last_deal"]),
            _freeze(state["winners"]),
        )
        _check_state(state, setup, phase, taken)
        return game

    def __repr__(self) -> str:
        return f"<septica deal {self._deal} {self._phase} to_move={self._turn}>"

    # --- moves ------------------------------------------------------------
    def _continuing_cards(self) -> tuple[str, ...]:
        """The leader's cards that may carry the trick on: the led rank or a cutter."""
        leader = self._leader
        if not self._trick or leader is None:
            return ()
        led = self._trick[0][1][0]
        cutters = self._setup.cutters
        return tuple(card for card in self._hands[leader] if card[0] == led or card[0] in cutters)

    def _copy(self) -> SepticaGame:
        return _make(
            self._setup,
            self._deal,
            self._hands,
            self._stock,
            self._removed,
            self._trick,
            self._leader,
            self._holder,
            self._turn,
            self._phase,
            self._points,
            self._scores,
            self._log,
            self._last_deal,
            self._winners,
        )

    def _play_card(self, seat: int, card: str) -> SepticaGame:
        setup = self._setup
        new = self._copy()
        hands = list(self._hands)
        hand = hands[seat]
        at = hand.index(card)
        hands[seat] = hand[:at] + hand[at + 1 :]
        new._hands = tuple(hands)
        trick = self._trick + ((seat, card),)
        new._trick = trick
        new._log = self._log + (PLAYED[seat, card],)
        rank = card[0]
        if rank == trick[0][1][0] or rank in setup.cutters:
            new._holder = seat
        following = setup.next_seat[seat]
        if following != self._leader:
            new._turn = following
            new._phase = PLAY
        else:
            new._close_round()
        return new

    def _close_round(self) -> None:
        """Everyone has played once more: the trick is over unless the leader gets to choose."""
        leader, holder = self._leader, self._holder
        assert leader is not None and holder is not None  # both are set while a trick is on
        if self._setup.same_side(holder, leader) or not self._hands[leader]:
            self._turn = self._holder
            self._phase = TAKE
        else:
            # Asked even without a continuing card, so the choice shows nothing of the leader's hand.
            self._turn = leader
            self._phase = DECIDE

    def _end_trick(self) -> SepticaGame:
        new = self._copy()
        new._log = self._log + (LogEntry(seat=self._leader, type="end"),)
        new._turn = self._holder
        new._phase = TAKE
        return new

    def _take(self) -> SepticaGame:
        winner = self._holder
        assert winner is not None  # set while a trick is on
        cards = tuple(card for _, card in self._trick)
        gained = sum(1 for card in cards if card[0] in POINT_RANKS)
        points = list(self._points)
        points[winner] += gained
        players = self._setup.players
        log = self._log + (_taken(winner, cards, gained),)
        hands, stock, drawn = _refill(self._hands, self._stock, winner)
        if drawn:
            log += DRAWN[players, winner, drawn]
        if not hands[winner]:  # hands stay equal, so every hand and the stock are empty
            return self._end_deal(tuple(points), log)
        new = self._copy()
        new._hands, new._stock, new._points, new._log = hands, stock, tuple(points), log
        new._trick = ()
        new._leader = new._holder = new._turn = winner
        new._phase = PLAY
        return new

    def _end_deal(self, points: tuple[int, ...], log: tuple[LogEntry, ...]) -> SepticaGame:
        setup = self._setup
        side_points = tuple(sum(points[seat] for seat in side) for side in setup.sides)
        scores, winning_side = setup.match.settle(self._scores, side_points)
        last_deal = (self._deal, points)
        if winning_side is None:
            return _start_deal(setup, self._deal + 1, scores, last_deal)
        empty = tuple(() for _ in range(setup.players))
        log += (LogEntry(seat=None, type="deal_over", points=FrozenList(points)),)
        return _make(
            setup,
            self._deal,
            empty,
            (),
            self._removed,
            (),
            None,
            None,
            None,
            OVER,
            points,
            scores,
            log,
            last_deal,
            setup.sides[winning_side],
        )

    # --- explaining a refused move -----------------------------------------
    def _why_illegal(self, move: dict) -> IllegalMove:
        phase, turn = self._phase, self._turn
        if phase is OVER or turn is None:
            return IllegalMove("The match is over; no more moves can be played.", "match-over")
        kind, card, _ = read_move(move, MOVE_SHAPES)
        if kind == "take":
            if phase is DECIDE:
                return IllegalMove(
                    f"The trick is not over yet: seat {turn} must continue it or end it first.",
                    "take-before-leader-decides",
                    {"seat": turn},
                )
            return IllegalMove(
                f"The trick is not over yet: seat {turn} still has to play a card.", "take-mid-round", {"seat": turn}
            )
        if phase is TAKE:
            return IllegalMove(
                f"The trick is over: seat {turn} won it and must take it first.", "trick-must-be-taken", {"seat": turn}
            )
        if kind == "end":
            return IllegalMove(
                "Only the leader can end a trick, after a full round in which an opponent took it; "
                f"now seat {turn} must play a card.",
                "end-not-allowed",
                {"seat": turn},
            )
        if card not in self._hands[turn]:
            return IllegalMove(f"Seat {turn} does not hold {card}.", "card-not-held", {"seat": turn, "card": card})
        # Only a leader deciding may be refused a card it holds: every held card may be played otherwise.
        ranks = self._continuing_ranks()
        return IllegalMove(
            f"{card} cannot continue the trick: continue with {_rank_names(ranks)}, or end it.",
            "cannot-continue",
            {"card": card, "ranks": list(ranks)},
        )

    def _continuing_ranks(self) -> tuple[str, ...]:
        led = self._trick[0][1][0]
        return (led, *(rank for rank in self._setup.cutters if rank != led))

    # --- views ---------------------------------------------------------------
    def _last_deal_view(self) -> dict | None:
        if self._last_deal is None:
            return None
        deal, points = self._last_deal
        return {"deal": deal, "points": list(points)}


def _rank_names(ranks: tuple[str, ...]) -> str:
    names = [RANK_NAMES[rank] for rank in ranks]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# --- building game objects ------------------------------------------------------
def _make(
    setup: _Setup,
    deal: int,
    hands: tuple,
    stock: tuple,
    removed: tuple,
    trick: tuple,
    leader: int | None,
    holder: int | None,
    turn: int | None,
    phase: str,
    points: tuple,
    scores: tuple,
    log: tuple[LogEntry, ...],
    last_deal: tuple | None,
    winners: tuple | None,
) -> SepticaGame:
    game = object.__new__(SepticaGame)
    game._setup = setup
    game._deal = deal
    game._hands = hands
    game._stock = stock
    game._removed = removed
    game._trick = trick
    game._leader = leader
    game._holder = holder
    game._turn = turn
    game._phase = phase
    game._points = points
    game._scores = scores
    game._log = log
    game._last_deal = last_deal
    game._winners = winners
    return game


def _start_deal(setup: _Setup, deal: int, scores: tuple, last_deal: tuple | None) -> SepticaGame:
    """Deal four each, one at a time from the first player; the first player leads."""
    deck, removed = setup.deck_for(deal)
    players = setup.players
    first = deal % players
    dealt = HAND_SIZE * players
    hands = tuple(tuple(deck[(seat - first) % players : dealt : players]) for seat in range(players))
    log = (LogEntry(seat=None, type="remove", cards=FrozenList(removed)),) if removed else ()
    points = (0,) * players
    return _make(
        setup,
        deal,
        hands,
        tuple(deck[dealt:]),
        removed,
        (),
        first,
        first,
        first,
        PLAY,
        points,
        scores,
        log,
        last_deal,
        None,
    )


def _read_log(saved: Any, players: int) -> tuple[tuple[LogEntry, ...], list[str]]:
    """The log entries of a saved log, and the cards its tricks took, in one pass (it runs on every move)."""
    if type(saved) is not list:
        raise StateError(SLUG, "the log is not a list")
    log: list[LogEntry] = []
    taken: list[str] = []
    for entry in saved:
        try:
            kind = entry[0]
            if kind == "play":
                log.append(PLAYED[entry[1], entry[2]])
            elif kind == "take":
                cards = tuple(entry[2])
                taken += cards
                log.append(_taken(entry[1], cards, entry[3]))
            else:
                log += _spell_out(entry, players)
        except (KeyError, TypeError, IndexError):
            raise StateError(SLUG, f"the log entry {entry!r} is not an event of septica") from None
    return tuple(log), taken


def _check_state(state: dict, setup: _Setup, phase: str, taken: list[str]) -> None:
    """Refuse what no septica game reaches; the shapes ``_read_state`` relied on are already good."""
    players = setup.players
    if not is_count(state["deal"]):
        raise StateError(SLUG, f"the deal number {state['deal']!r} is not a whole number of at least 0")
    hands, stock, trick, removed = state["hands"], state["stock"], state["trick"], state["removed"]
    check_hands(SLUG, hands, players, HAND_SIZE)
    if type(stock) is not list or len(stock) % players:
        raise StateError(SLUG, f"the stock must be a list of cards that shares out evenly among {players}")
    check_pairs(SLUG, trick, players, "the trick")
    if type(removed) is not list or len(removed) != (2 if setup.removes_eights else 0):
        raise StateError(SLUG, f"with {players} players {2 if setup.removes_eights else 0} eights are taken out")
    cards = [card for hand in hands for card in hand] + stock + [card for _, card in trick] + taken + removed
    check_cards(SLUG, cards, DECK_SET)
    if any(card[0] != "8" for card in removed):
        raise StateError(SLUG, "only eights are taken out of the deck")
    check_counts(SLUG, state["points"], players, "the points of the deal")
    if sum(state["points"]) != len(POINT_CARDS.intersection(taken)):  # each card is there once, as just checked
        raise StateError(SLUG, "the points of the deal are not those of the tricks taken")
    scores = state["scores"]
    check_counts(SLUG, scores, players, "the scores")
    if setup.options["teams"] and scores != setup.seat_scores(tuple(scores[side[0]] for side in setup.sides)):
        raise StateError(SLUG, "partners' scores differ")
    last = state["last_deal"]
    if last is not None:
        if type(last) is not list or len(last) != 2 or not is_count(last[0]):
            raise StateError(SLUG, "the last deal must be [deal, points per seat]")
        check_counts(SLUG, last[1], players, "the points of the last deal")
    turn, leader, holder = state["turn"], state["leader"], state["holder"]
    if phase is OVER:
        if turn is not None or type(state["winners"]) is not list or not state["winners"]:
            raise StateError(SLUG, "a finished match has nobody to move and has its winners")
        check_seats(SLUG, state["winners"], players, "the winners")
        return
    if state["winners"] is not None:
        raise StateError(SLUG, "a match still in play has no winners yet")
    check_seat(SLUG, turn, players, "the seat to move")
    check_seat(SLUG, leader, players, "the leader")
    check_seat(SLUG, holder, players, "the holder of the trick")
    if phase is PLAY and not hands[turn]:
        raise StateError(SLUG, f"seat {turn} is to play but holds no card")
    if (phase is DECIDE and turn != leader) or (phase is TAKE and turn != holder) or (phase is not PLAY and not trick):
        raise StateError(SLUG, f"seat {turn} cannot be the one to {phase} now")
    if phase is PLAY and not trick and not turn == leader == holder:
        raise StateError(SLUG, "a new trick is led by its leader")


def _refill(hands: tuple, stock: tuple, winner: int) -> tuple[tuple, tuple, int]:
    """Top every hand up, one card at a time from the winner round the table, while the stock lasts.

    Hands are always equal and the stock a multiple of the players, so
    everybody draws the same number of cards.
    """
    players = len(hands)
    drawn = min(HAND_SIZE - len(hands[winner]), len(stock) // players)
    if not drawn:
        return hands, stock, 0
    taken = drawn * players
    refilled = tuple(hand + stock[(seat - winner) % players : taken : players] for seat, hand in enumerate(hands))
    return refilled, stock[taken:], drawn


def _freeze(value: Any) -> Any:
    # Every move reads a whole snapshot back, its log included: no call per card.
    if isinstance(value, list):
        return tuple([_freeze(item) if isinstance(item, list) else item for item in value])
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(item) if isinstance(item, tuple) else item for item in value]
    return value


# --- the rule set ---------------------------------------------------------------
class SepticaRules(Rules):
    slug = "septica"
    min_players = 2
    max_players = 6
    game_class = SepticaGame

    def default_options(self, players: int) -> dict:
        return {"eights_cut": players in EIGHTS_OUT, "teams": players in TEAM_COUNTS, "match": "best-of-3"}

    def _check_options(self, players: int, options: dict) -> dict:
        for name in ("eights_cut", "teams"):
            if type(options[name]) is not bool:
                raise BadOptions(f"The option {name!r} must be true or false, not {options[name]!r}.",
                                 "option-not-boolean", {"option": name, "value": repr(options[name])})
        if options["eights_cut"] and players not in EIGHTS_OUT:
            raise BadOptions(
                f"Eights cut only with 3, 5 or 6 players, where two eights are taken out; not with {players}.",
                "eights-cut-player-count", {"players": players},
            )
        if options["teams"] and players not in TEAM_COUNTS:
            raise BadOptions(f"Teams play only with 4 or 6 players, not with {players}.", "teams-player-count",
                             {"players": players})
        if type(options["match"]) is not str or options["match"] not in MATCHES:
            formats = ", ".join(MATCHES)
            raise BadOptions(f"Unknown match format {options['match']!r}; choose one of: {formats}.",
                             "unknown-match-format", {"value": repr(options["match"]), "formats": list(MATCHES)})
        return options

    def full_deck(self, players: int, options: dict) -> list[str]:
        return list(DECK)

    def _state_from_view(self, view: dict, hands: list[list[str]], stock: list[str], pile: list[str] | None) -> dict:
        leader = view["leader"]
        last = view["last_deal"]
        return {
            "hands": hands,
            "stock": stock,
            "removed": list(view["removed"]),
            "trick": [[entry["seat"], entry["card"]] for entry in view["table"]],
            "leader": leader,
            "holder": view["holder"] if view["holder"] is not None else leader,
            "turn": view["to_move"],
            "phase": view["phase"],
            "points": list(view["points"]),
            "scores": list(view["scores"]),
            "log": _compact(view["log"], view["players"]),
            "last_deal": None if last is None else [last["deal"], list(last["points"])],
            "winners": None,
        }

    def _check_deck(self, players: int, options: dict, deck: list[str]) -> list[str]:
        cards = set(deck) if all(isinstance(card, str) for card in deck) else set()
        if players in EIGHTS_OUT:
            missing = DECK_SET - cards
            if len(deck) != 30 or len(cards) != 30 or not cards <= DECK_SET or any(c[0] != "8" for c in missing):
                raise ValueError(
                    f"With {players} players a septica deck is the 30 cards left once two eights are taken out."
                )
        elif len(deck) != len(DECK) or cards != DECK_SET:
            raise ValueError(f"With {players} players a septica deck is the 32 cards from seven to ace, each once.")
        return deck

    def _new_game(self, players: int, options: dict, seed: int, decks: list[list[str]]) -> Game:
        setup = _Setup(players, dict(options), seed, tuple(tuple(deck) for deck in decks))
        return _start_deal(setup, 0, (0,) * len(setup.sides), None)


RULES = SepticaRules()
