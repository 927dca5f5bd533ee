"""Familie: the family's Șeptică for 2 to 6 players (slug ``familie``).

38 cards, sixes to aces and both jokers, each worth its face (six 6 ... ten
10, jack 11, queen 12, king 13, ace 14; jokers 0), so a deal hands out 360
points. Four cards each; the rest is the stock. A match is one deal.

A trick: the leader plays any card. Then, in seat order, each player with
cards who has not passed in this trick either cuts (plays the led rank, a 7
or a joker) or passes, and a pass is final for the trick. The trick ends when
nobody but the last cutter (or the leader, if nobody cut) could still act;
that player must ``take`` it. Then everyone draws back up to four, all at
once, starting with the seat after the leader; the next leader is the first
seat after the previous one that holds cards. The deal ends when no hand
holds a card, and every seat level at the top wins.

Decisions the text and the contract leave open, taken here:

- A player whose turn comes but who holds nothing that cuts still gets the
  turn, with ``pass`` as the only legal move (the table sees the pass).
- The winner of a trick must ``take`` it, even when that is the leader
  because nobody cut.
- When only one player has cards left, they lead and the turn comes straight
  back to them: nobody can cut, so they take their own card.
- A joker may be led; the led rank is then the joker's, so only a 7 or the
  other joker cuts it.
- A cutter (or leader) whose card was their last stays the trick's holder;
  other players with no cards are skipped.
- When the stock runs out during the draw, the seats later in the draw order
  get what is left or nothing.
- Hands keep the order the cards arrived in (dealt, then drawn).

Besides the contract's keys a view has ``phase`` (lead, cut, take or over),
``leader`` (``None`` once the deal is over), ``holder`` and ``led_rank``
(``None`` between tricks), ``passed`` (seats that passed in this trick),
``dealer``, ``first`` and ``last_deal``. The log shows every play and pass,
each ``take`` followed by a ``trick`` event (cards and points), each draw as a
count, and a final ``deal_over`` with the points.
"""

from __future__ import annotations

from typing import Any

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
    freeze,
    plain_move,
    read_move,
    thaw,
)
from .cards import make_deck, shuffle
from .errors import IllegalMove

SLUG = "familie"
HAND_SIZE = 4
CARD_POINTS = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14, "X": 0}
ALWAYS_CUTS = "7X"  # ranks that cut whatever was led
MOVE_KEYS = {"play": frozenset({"card"}), "pass": frozenset(), "take": frozenset()}
DECK = tuple(make_deck("6789TJQKA", jokers=True))
DECK_SET = frozenset(DECK)
CARD_VALUES = {card: CARD_POINTS[card[0]] for card in DECK}
# The entries that make up most of a log, made once and shared by every game and view (they are frozen).
PLAYED = {(seat, card): LogEntry(seat=seat, type="play", card=card) for seat in range(6) for card in DECK}
PASSED = tuple(LogEntry(seat=seat, type="pass") for seat in range(6))
TAKEN = tuple(LogEntry(seat=seat, type="take") for seat in range(6))
DREW = {(seat, count): LogEntry(seat=seat, type="draw", count=count) for seat in range(6) for count in range(1, 5)}
# A saved entry reads back as the shared one with the same items, in the same order.
SHARED_KINDS = frozenset({"play", "pass", "take", "draw"})
SHARED = {tuple(entry.items()): entry for entry in (*PLAYED.values(), *PASSED, *TAKEN, *DREW.values())}
PASSED_SEATS = tuple(tuple(seat for seat in range(6) if mask >> seat & 1) for mask in range(1 << 6))  # by bit mask
NOT_A_CUT = "that card does not cut: play the led rank, a 7 or a joker, or pass"

# The phase of play: who may do what.
LEAD, CUT, TAKE, OVER = "lead", "cut", "take", "over"
PHASES = {LEAD: LEAD, CUT: CUT, TAKE: TAKE, OVER: OVER}
MoveKey = tuple[str, str | None]  # (type, card)
PASS_KEY: MoveKey = ("pass", None)
TAKE_KEY: MoveKey = ("take", None)
CARD_KEY_TYPES = (str, type(None))  # anything else in "card" cannot be held (nor hashed)


def cuts(card: str, led_rank: str) -> bool:
    return card[0] == led_rank or card[0] in ALWAYS_CUTS


def trick_points(table: tuple[tuple[int, str], ...]) -> int:
    return sum(CARD_POINTS[card[0]] for _, card in table)


def next_seat(seat: int, players: int) -> int:
    return seat + 1 if seat + 1 < players else 0


class FamilieRules(Rules):
    slug = "familie"
    min_players = 2
    max_players = 6

    def default_options(self, players: int) -> dict:
        return {}

    def full_deck(self, players: int, options: dict) -> list[str]:
        return list(DECK)

    def _state_from_view(self, view: dict, hands: list[list[str]], stock: list[str], pile: list[str] | None) -> dict:
        leader = view["leader"]
        return {
            "hands": hands,
            "stock": stock,
            "table": [[entry["seat"], entry["card"]] for entry in view["table"]],
            "leader": leader,
            "holder": view["holder"] if view["holder"] is not None else leader,
            "passed": list(view["passed"]),
            "phase": view["phase"],
            "to_move": view["to_move"],
            "points": list(view["points"]),
            "log": [dict(entry) for entry in view["log"]],
        }

    def _new_game(self, players: int, options: dict, seed: int, decks: list[list[str]]) -> Game:
        deck = decks[0] if decks else shuffle(self.full_deck(players, options), seed, 0, 0)
        return FamilieGame._first_deal(self, players, options, seed, decks, deck)


class FamilieGame(Game):
    __slots__ = (
        "_decks",
        "_hands",
        "_holder",
        "_leader",
        "_log",
        "_moves",
        "_passed",
        "_phase",
        "_points",
        "_seed",
        "_stock",
        "_table",
        "_to_move",
        "options",
        "players",
        "rules",
    )

    _seed: int
    _decks: tuple[tuple[str, ...], ...]  # the fixed decks of the first deals
    _hands: tuple[tuple[str, ...], ...]  # per seat, in the order the cards came
    _stock: tuple[str, ...]  # next card first
    _table: tuple[tuple[int, str], ...]  # (seat, card) of the trick, in order
    _leader: int
    _holder: int  # the leader or the last cutter
    _passed: int  # bit per seat that passed in this trick
    _phase: str  # LEAD, CUT, TAKE or OVER
    _to_move: int | None
    _points: tuple[int, ...]
    _log: tuple[LogEntry, ...]  # frozen, so views share them
    _moves: dict[MoveKey, None] | None  # the legal move keys, once worked out

    # --- making games ------------------------------------------------------
    @classmethod
    def _first_deal(
        cls, rules: Rules, players: int, options: dict, seed: int, decks: list, deck: list[str]
    ) -> FamilieGame:
        """Deal 0: one card at a time from seat 0 (the dealer is the last seat)."""
        dealt = HAND_SIZE * players
        game = object.__new__(cls)
        game.rules, game.players, game.options = rules, players, options
        game._seed, game._decks = seed, tuple(tuple(d) for d in decks)
        game._hands = tuple(tuple(deck[seat:dealt:players]) for seat in range(players))
        game._stock = tuple(deck[dealt:])
        game._table, game._leader, game._holder, game._passed = (), 0, 0, 0
        game._phase, game._to_move = LEAD, 0
        game._points = (0,) * players
        game._log, game._moves = (), None
        return game

    def _copy(self) -> FamilieGame:
        new = object.__new__(FamilieGame)
        new.rules, new.players, new.options = self.rules, self.players, self.options
        new._seed, new._decks = self._seed, self._decks
        new._hands, new._stock, new._table = self._hands, self._stock, self._table
        new._leader, new._holder, new._passed = self._leader, self._holder, self._passed
        new._phase, new._to_move = self._phase, self._to_move
        new._points, new._log, new._moves = self._points, self._log, None
        return new

    # --- the public contract ----------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def finished(self) -> bool:
        return self._phase is OVER

    @property
    def result(self) -> dict | None:
        if self._phase is not OVER:
            return None
        best = max(self._points)
        winners = [seat for seat, points in enumerate(self._points) if points == best]
        return {"scores": list(self._points), "winners": winners}

    # --- the state, read-only (a bot reads its own guessed games so, far quicker than through views) ---
    @property
    def deal(self) -> int:
        return 0  # a match is one deal

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        """Every seat's cards: the whole truth, as ``to_state``; never for another seat's eyes."""
        return self._hands

    @property
    def stock(self) -> tuple[str, ...]:
        """The cards left to draw, next card first."""
        return self._stock

    @property
    def table(self) -> tuple[tuple[int, str], ...]:
        """The trick in play as ``(seat, card)`` pairs, in the order played."""
        return self._table

    @property
    def holder(self) -> int:
        """The seat the trick goes to as it stands: the last cutter, or the leader."""
        return self._holder

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed in this trick, in seat order."""
        return PASSED_SEATS[self._passed]

    @property
    def points(self) -> tuple[int, ...]:
        """The points each seat has taken so far."""
        return self._points

    def legal_moves(self) -> list[dict]:
        moves = []
        for kind, card in self._legal():
            moves.append({"type": kind} if card is None else {"type": kind, "card": card})
        return moves

    def play(self, move: Any) -> FamilieGame:
        key = self._legal_key(move)
        if key is None:  # any other mapping, or strings of a str subclass: the plain dict it equals
            move = plain_move(move)
            key = self._legal_key(move)
            if key is None:
                raise self._why_illegal(move)
        return self._apply(key)

    def _legal_key(self, move: Any) -> MoveKey | None:
        """The legal move key ``move`` names when it is a legal move as a plain dict; otherwise None."""
        if type(move) is dict and len(move) <= 2:
            kind, card = move.get("type"), move.get("card")
            if type(kind) is str and type(card) in CARD_KEY_TYPES and len(move) == (1 if card is None else 2):
                key = (kind, card)
                if key in self._legal():
                    return key
        return None

    # --- legal moves ---------------------------------------------------------
    def _legal(self) -> dict[MoveKey, None]:
        """Legal move keys ``(type, card)``, computed once per game (a dict keeps their order)."""
        if self._moves is None:
            self._moves = dict.fromkeys(self._legal_keys())
        return self._moves

    def _legal_keys(self) -> list[MoveKey]:
        phase, seat = self._phase, self._to_move
        if phase is OVER or seat is None:
            return []
        if phase is TAKE:
            return [TAKE_KEY]
        hand = self._hands[seat]
        if phase is LEAD:
            return [("play", card) for card in hand]
        led_rank = self._table[0][1][0]
        return [("play", card) for card in hand if cuts(card, led_rank)] + [PASS_KEY]

    def _why_illegal(self, move: dict) -> IllegalMove:
        """Why ``move`` is not one of the legal moves."""
        phase, seat = self._phase, self._to_move
        if phase is OVER or seat is None:
            return IllegalMove("The match is over: no more moves can be made.", "match-over")
        kind, card, _ = read_move(move, MOVE_KEYS)
        if phase is TAKE:
            return IllegalMove(
                f"The trick is over: seat {self._holder} must take it before anything else.",
                "trick-must-be-taken",
                {"seat": self._holder},
            )
        if kind == "take":
            return IllegalMove("The trick is not over yet, so nobody can take it.", "take-before-trick-over")
        if kind == "pass":
            return IllegalMove("The leader cannot pass: lead any card from your hand.", "leader-cannot-pass")
        if card not in self._hands[seat]:
            return IllegalMove(f"You do not hold {card}.", "card-not-held", {"seat": seat, "card": card})
        return IllegalMove(NOT_A_CUT, "does-not-cut", {"card": card, "led_rank": self._table[0][1][0]})

    # --- applying moves ------------------------------------------------------
    def _apply(self, key: MoveKey) -> FamilieGame:
        kind, card = key
        seat = self._to_move
        assert seat is not None  # only legal moves are applied, and then the match is on
        game = self._copy()
        if kind == "play":
            assert card is not None
            game._play_card(seat, card)
        elif kind == "pass":
            game._passed |= 1 << seat
            game._log += (PASSED[seat],)
            game._turn_after(seat)
        else:
            game._take(seat)
        return game

    def _play_card(self, seat: int, card: str) -> None:
        hands = list(self._hands)
        hands[seat] = tuple(held for held in hands[seat] if held != card)
        self._hands = tuple(hands)
        if self._phase is LEAD:
            self._table, self._leader, self._passed = ((seat, card),), seat, 0
        else:
            self._table += ((seat, card),)
        self._holder = seat
        self._log += (PLAYED[seat, card],)
        self._turn_after(seat)

    def _turn_after(self, seat: int) -> None:
        """Pass the turn on to the next player who may still cut, or end the trick."""
        hands, holder, passed, players = self._hands, self._holder, self._passed, self.players
        for _ in range(players):
            seat = next_seat(seat, players)
            if seat == holder:
                break
            if hands[seat] and not passed >> seat & 1:
                self._phase, self._to_move = CUT, seat
                return
        self._phase, self._to_move = TAKE, holder

    def _take(self, seat: int) -> None:
        won = trick_points(self._table)
        points = list(self._points)
        points[seat] += won
        self._points = tuple(points)
        cards = FrozenList(card for _, card in self._table)
        self._log += (
            TAKEN[seat],
            LogEntry(seat=seat, type="trick", cards=cards, points=won),
        )
        self._table, self._passed = (), 0
        self._draw()
        self._next_trick()

    def _draw(self) -> None:
        """Each seat, from the one after the leader, fills up to four while the stock lasts."""
        if not self._stock:
            return
        hands, stock, players = list(self._hands), self._stock, self.players
        seat = self._leader
        for _ in range(players):
            seat = next_seat(seat, players)
            need = min(HAND_SIZE - len(hands[seat]), len(stock))
            if need > 0:
                hands[seat] += stock[:need]
                stock = stock[need:]
                self._log += (DREW[seat, need],)
        self._hands, self._stock = tuple(hands), stock

    def _next_trick(self) -> None:
        hands, players = self._hands, self.players
        seat = self._leader
        for _ in range(players):
            seat = next_seat(seat, players)
            if hands[seat]:
                self._phase, self._to_move, self._leader, self._holder = LEAD, seat, seat, seat
                return
        self._phase, self._to_move = OVER, None
        self._log += (LogEntry(seat=None, type="deal_over", deal=0, points=FrozenList(self._points)),)

    # --- views and state -------------------------------------------------------
    def _last_deal(self) -> dict | None:
        if self._phase is not OVER:
            return None
        return {"deal": 0, "points": list(self._points)}

    def view(self, seat: int | None) -> dict:
        seat = self._check_seat(seat)
        view = common_view(self, seat)
        table = self._table
        over = self._phase is OVER
        view.update(
            hand=list(self._hands[seat]) if seat is not None else [],
            hand_counts=[len(hand) for hand in self._hands],
            stock=len(self._stock),
            legal_moves=self.legal_moves() if seat is not None and seat == self._to_move else [],
            scores=list(self._points) if over else [0] * self.players,
            points=list(self._points),
            deal=0,
            dealer=self.players - 1,
            first=0,
            log=list(self._log),
            table=[{"seat": s, "card": card} for s, card in table],
            phase=self._phase,
            leader=None if over else self._leader,
            holder=self._holder if table else None,
            led_rank=table[0][1][0] if table else None,
            passed=[s for s in range(self.players) if self._passed >> s & 1],
            last_deal=self._last_deal(),
        )
        return view

    def to_state(self) -> dict:
        state = self._state_envelope()
        state.update(
            seed=self._seed,
            deal=0,
            decks=[list(deck) for deck in self._decks],
            hands=[list(hand) for hand in self._hands],
            stock=list(self._stock),
            table=[[seat, card] for seat, card in self._table],
            leader=self._leader,
            holder=self._holder,
            passed=[s for s in range(self.players) if self._passed >> s & 1],
            phase=self._phase,
            to_move=self._to_move,
            points=list(self._points),
            log=[thaw(entry) for entry in self._log],
        )
        return state

    @classmethod
    def _from_state(cls, rules: Rules, state: dict) -> FamilieGame:
        try:
            return cls._read_state(rules, state)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:  # a part missing or misshapen
            raise ValueError(f"That saved familie game is damaged: {error}") from None

    @classmethod
    def _read_state(cls, rules: Rules, state: dict) -> FamilieGame:
        players = rules.check_players(state["players"])
        options = rules.validate_options(players, state["options"])
        phase = PHASES.get(state["phase"])  # the interned constant
        if phase is None:
            raise StateError(SLUG, f"{state['phase']!r} is not a phase of play")
        if type(state["seed"]) is not int:
            raise ValueError("the seed is not an integer")
        decks = tuple(tuple(rules._check_deck(players, options, list(deck))) for deck in state["decks"])
        log, taken = _read_log(state["log"])
        _check_state(state, players, phase, taken)
        game = object.__new__(cls)
        game.rules, game.players, game.options = rules, players, options
        game._seed, game._decks = state["seed"], decks
        game._hands = tuple(tuple(hand) for hand in state["hands"])
        game._stock = tuple(state["stock"])
        game._table = tuple((seat, card) for seat, card in state["table"])
        game._leader, game._holder = state["leader"], state["holder"]
        game._passed = sum(1 << seat for seat in set(state["passed"]))
        game._phase, game._to_move = phase, state["to_move"]
        game._points = tuple(state["points"])
        game._log = log
        game._moves = None
        return game


def _read_log(saved: Any) -> tuple[tuple[LogEntry, ...], list[str]]:
    """The frozen log entries of a saved log, and the cards its tricks took, in one pass (it runs on every move)."""
    if type(saved) is not list:
        raise StateError(SLUG, "the log is not a list")
    log: list[LogEntry] = []
    taken: list[str] = []
    for entry in saved:
        if type(entry) is not dict:
            raise StateError(SLUG, f"the log entry {entry!r} is not an event")
        kind = entry.get("type")
        if kind == "trick":
            taken += entry["cards"]
        elif kind in SHARED_KINDS:  # whose values are seats, cards and counts, so the items hash
            shared = SHARED.get(tuple(entry.items()))
            if shared is not None:
                log.append(shared)
                continue
        log.append(freeze(entry))
    return tuple(log), taken


def _check_state(state: dict, players: int, phase: str, taken: list[str]) -> None:
    """Refuse what no familie game reaches, before anything is built from it."""
    if state["deal"] != 0 or type(state["deal"]) is not int:
        raise StateError(SLUG, f"a familie match is one deal, so the deal number is 0, not {state['deal']!r}")
    hands, stock, table = state["hands"], state["stock"], state["table"]
    check_hands(SLUG, hands, players, HAND_SIZE)
    if type(stock) is not list:
        raise StateError(SLUG, "the stock is not a list of cards")
    check_pairs(SLUG, table, players, "the trick on the table")
    check_cards(SLUG, [card for hand in hands for card in hand] + stock + [card for _, card in table] + taken, DECK_SET)
    points = state["points"]
    check_counts(SLUG, points, players, "the points")
    if sum(points) != sum(map(CARD_VALUES.__getitem__, taken)):  # every card is one of the deck, as just checked
        raise StateError(SLUG, "the points are not those of the tricks taken")
    passed = state["passed"]
    if type(passed) is not list:
        raise StateError(SLUG, "the seats that passed must be a list")
    check_seats(SLUG, passed, players, "the seats that passed")
    to_move, leader, holder = state["to_move"], state["leader"], state["holder"]
    check_seat(SLUG, leader, players, "the leader")
    check_seat(SLUG, holder, players, "the holder of the trick")
    if phase is OVER:
        if to_move is not None or stock or table or any(hands):
            raise StateError(SLUG, "a finished deal has nobody to move and no card left to play")
        return
    check_seat(SLUG, to_move, players, "the seat to move")
    if phase is TAKE:
        if to_move != holder or not table:
            raise StateError(SLUG, "only the holder of a trick on the table can take it")
    elif not hands[to_move] or (phase is LEAD) == bool(table) or to_move in passed:
        raise StateError(SLUG, f"seat {to_move} cannot {phase} now")
    elif phase is LEAD and not to_move == leader == holder:
        raise StateError(SLUG, "a new trick is led by its leader")


FamilieRules.game_class = FamilieGame
RULES = FamilieRules()
