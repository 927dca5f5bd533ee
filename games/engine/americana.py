"""Septica Americana: a shedding game for two to four players.

Each turn is one action: play a card that follows the suit in force or the
rank on top (a seven goes anywhere and names the suit), take one card, or
answer what is pointed at you (twos, jokers and, at some tables, jacks make
you take cards; aces make you miss a turn). Whoever plays their last card ends
the round and everyone else is charged their hand. The match ends when a total
reaches the target, and the lowest total wins.

Decisions the rule text leaves open are the contract's (see
``shared/design/engine-contract.md``); the rest are noted where they are made.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
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
    check_log,
    check_seat,
    common_view,
    freeze,
    is_count,
    plain_move,
    read_move,
    thaw,
)
from .cards import RANKS, SUITS, make_deck, shuffle
from .errors import BadOptions, IllegalMove

SLUG = "americana"
HAND_SIZE = 5
TARGETS = (101, 301, 501)
SEVEN, ACE, JOKER = "7", "A", "X"
DRAW, SKIP = "draw", "skip"

# A round must open on a card that does nothing. The contract lists the jack
# even at tables where jacks do not draw, so it is buried there too.
LOUD_OPENERS = frozenset("72JAX")

PENALTY = {rank: int(rank) for rank in "23456789"}
PENALTY.update({"T": 10, "J": 10, "Q": 10, "K": 10, "A": 11, SEVEN: 25, JOKER: 50})

MOVE_SHAPES = {"play": frozenset({"card", "suit"}), "draw": frozenset(), "pass": frozenset()}

# Move keys are (type, card, named suit): one shared tuple per possible move,
# so legal moves are built without allocating and compared by identity first.
MoveKey = tuple[str, str | None, str | None]
DRAW_KEY: MoveKey = ("draw", None, None)
PASS_KEY: MoveKey = ("pass", None, None)
ALL_CARDS = make_deck(RANKS, jokers=True)
PLAY_KEYS: dict[str, MoveKey] = {card: ("play", card, None) for card in ALL_CARDS}
SEVEN_KEYS = {card: tuple(("play", card, suit) for suit in SUITS) for card in ALL_CARDS if card[0] == SEVEN}
MOVE_DICTS: dict[MoveKey, dict[str, str | None]] = {DRAW_KEY: {"type": "draw"}, PASS_KEY: {"type": "pass"}}
MOVE_DICTS.update({key: {"type": "play", "card": key[1]} for key in PLAY_KEYS.values()})
MOVE_DICTS.update(
    {key: {"type": "play", "card": key[1], "suit": key[2]} for keys in SEVEN_KEYS.values() for key in keys}
)


def penalty(hand: tuple[str, ...] | list[str]) -> int:
    return sum(PENALTY[card[0]] for card in hand)


class Log:
    """A deal's public history that shares its past with earlier versions.

    Random play makes deals of thousands of moves, so adding an entry copies
    only the short run of recent entries; every ``CHUNK`` adds, that run joins
    the past. The entries are frozen (``LogEntry``), so views share them
    instead of copying each one, and a view's list is built at C speed.
    """

    __slots__ = ("_past", "_recent")
    CHUNK = 64

    _past: tuple[LogEntry, ...]
    _recent: tuple[LogEntry, ...]

    def __init__(self, past: tuple[LogEntry, ...] = (), recent: tuple[LogEntry, ...] = ()) -> None:
        self._past, self._recent = past, recent

    def add(self, entry: LogEntry) -> Log:
        recent = (*self._recent, entry)
        if len(recent) == self.CHUNK:
            return Log(self._past + recent)
        return Log(self._past, recent)

    def entries(self) -> list[LogEntry]:
        """A new list of the (shared, frozen) entries, oldest first."""
        return [*self._past, *self._recent]


@dataclass(frozen=True)
class House:
    """The table's options turned into the lookups every move uses."""

    draw_values: dict[str, int]  # rank -> cards it makes the next player take
    pairs: dict[str, str]  # rank on top -> the rank that may follow it whatever the suits
    target: int

    def describe_draw_answers(self) -> str:
        names = {"2": "a two", "J": "a jack", JOKER: "a joker"}
        cards = [names[rank] for rank in self.draw_values]
        return cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]


@cache
def house_for(jokers: bool, pairs: bool, jacks_draw: bool, target: int) -> House:
    draw_values = {"2": 2}
    if jacks_draw:
        draw_values["J"] = 2
    if jokers:
        draw_values[JOKER] = 5
    return House(draw_values, {"2": "J", "3": "Q", "4": "K"} if pairs else {}, target)


class AmericanaRules(Rules):
    slug = "americana"
    min_players = 2
    max_players = 4

    def default_options(self, players: int) -> dict:
        return {"jokers": False, "pairs": False, "jacks_draw": False, "target": 101}

    def _check_options(self, players: int, options: dict) -> dict:
        for name in ("jokers", "pairs", "jacks_draw"):
            if type(options[name]) is not bool:
                raise BadOptions(f"The option {name!r} must be true or false, not {options[name]!r}.",
                                 "option-not-boolean", {"option": name, "value": repr(options[name])})
        if type(options["target"]) is not int or options["target"] not in TARGETS:
            raise BadOptions(f"The target must be 101, 301 or 501, not {options['target']!r}.", "target-not-allowed",
                             {"value": repr(options["target"])})
        return options

    def full_deck(self, players: int, options: dict) -> list[str]:
        return make_deck(RANKS, jokers=options["jokers"])

    def _state_from_view(self, view: dict, hands: list[list[str]], stock: list[str], pile: list[str] | None) -> dict:
        if pile is None:
            raise ValueError("An americana game needs its whole pile: the view shows only the top card.")
        return {
            "hands": hands,
            "stock": stock,
            "pile": list(pile),
            "suit": view["suit"],
            "attack": view["attack"],
            "to_move": view["to_move"],
            "passes": view["passes"],
            "reshuffles": sum(1 for entry in view["log"] if entry["type"] == "reshuffle"),
            "scores": list(view["scores"]),
            "last_deal": view["last_deal"],
            "log": [dict(entry) for entry in view["log"]],
        }

    def _new_game(self, players: int, options: dict, seed: int, decks: list[list[str]]) -> Game:
        return AmericanaGame._first_deal(self, players, options, seed, decks)


class AmericanaGame(Game):
    __slots__ = (
        "rules", "players", "options", "_house", "_seed", "_decks", "_deal",
        "_hands", "_stock", "_pile", "_suit", "_attack", "_owed", "_turn",
        "_passes", "_reshuffles", "_scores", "_log", "_last_deal", "_legal",
    )  # fmt: skip

    _house: House
    _seed: int
    _decks: tuple[tuple[str, ...], ...]  # the fixed decks of the first deals
    _deal: int
    _hands: tuple[tuple[str, ...], ...]  # per seat, in the order the cards came
    _stock: tuple[str, ...]  # next card first
    _pile: tuple[str, ...]  # top card last
    _suit: str | None  # the suit in force, None after a joker
    _attack: str | None  # None, DRAW or SKIP
    _owed: int  # the cards a DRAW demands
    _turn: int | None  # the seat to act, None when the match is over
    _passes: int  # passes in a row since the last play, draw or sat-out skip
    _reshuffles: int  # reshuffles so far in this deal
    _scores: tuple[int, ...]
    _log: Log  # the deal's public history
    _last_deal: tuple[int, tuple[int, ...], int | None] | None
    _legal: tuple | None  # legal move keys, worked out once

    # --- building --------------------------------------------------------
    @classmethod
    def _first_deal(cls, rules: Rules, players: int, options: dict, seed: int, decks: list[list[str]]) -> AmericanaGame:
        game = object.__new__(cls)
        game.rules, game.players, game.options = rules, players, options
        game._house = house_for(options["jokers"], options["pairs"], options["jacks_draw"], options["target"])
        game._seed, game._decks = seed, tuple(tuple(deck) for deck in decks)
        game._scores, game._last_deal, game._legal = (0,) * players, None, None
        game._start_deal(0)
        return game

    def _clone(self) -> AmericanaGame:
        new = object.__new__(AmericanaGame)
        new.rules, new.players, new.options, new._house = self.rules, self.players, self.options, self._house
        new._seed, new._decks, new._deal = self._seed, self._decks, self._deal
        new._hands, new._stock, new._pile = self._hands, self._stock, self._pile
        new._suit, new._attack, new._owed, new._turn = self._suit, self._attack, self._owed, self._turn
        new._passes, new._reshuffles, new._scores = self._passes, self._reshuffles, self._scores
        new._log, new._last_deal, new._legal = self._log, self._last_deal, None
        return new

    def _deck_of(self, deal: int) -> list[str]:
        if deal < len(self._decks):
            return list(self._decks[deal])
        return shuffle(self.rules.full_deck(self.players, self.options), self._seed, deal, 0)

    def _start_deal(self, deal: int) -> None:
        """Deal one card at a time from the first player round, then turn up the pile's first card."""
        n = self.players
        first = deal % n
        deck = self._deck_of(deal)
        hands: list[list[str]] = [[] for _ in range(n)]
        for j in range(HAND_SIZE * n):
            hands[(first + j) % n].append(deck[j])
        rest = deck[HAND_SIZE * n :]
        log = Log().add(LogEntry(seat=None, type="deal", dealer=(first - 1) % n))
        while rest[0][0] in LOUD_OPENERS:  # some quiet card is always left: hands hold at most 20
            card = rest.pop(0)
            rest.append(card)
            log = log.add(LogEntry(seat=None, type="turn_up", card=card))
            log = log.add(LogEntry(seat=None, type="bury", card=card))
        top = rest.pop(0)
        self._log = log.add(LogEntry(seat=None, type="turn_up", card=top))
        self._deal, self._hands = deal, tuple(tuple(hand) for hand in hands)
        self._stock, self._pile, self._suit = tuple(rest), (top,), top[1]
        self._attack, self._owed, self._turn, self._passes, self._reshuffles = None, 0, first, 0, 0

    # --- the contract ----------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self._turn

    @property
    def finished(self) -> bool:
        return self._turn is None

    @property
    def deal(self) -> int:
        return self._deal

    @property
    def result(self) -> dict | None:
        if self._turn is not None:
            return None
        scores = list(self._scores)
        low = min(scores)
        winners = [scores.index(low)] if scores.count(low) == 1 else []
        return {"scores": scores, "winners": winners}

    def legal_moves(self) -> list[dict]:
        return [MOVE_DICTS[key].copy() for key in self._legal_keys()]

    def play(self, move: Any) -> AmericanaGame:
        key = self._legal_key(move)
        if key is None:  # any other mapping, or strings of a str subclass: the plain dict it equals
            move = plain_move(move)
            key = self._legal_key(move)
            if key is None:
                raise self._why_not(move)
        new = self._clone()
        kind, card, suit = key
        if kind == "play":
            assert card is not None  # a legal play names its card
            new._play_card(card, suit)
        elif kind == "draw":
            new._draw()
        else:
            new._pass()
        return new

    def _legal_key(self, move: Any) -> MoveKey | None:
        """The legal move key ``move`` names when it is a legal move as a plain dict; otherwise None."""
        if type(move) is not dict:
            return None
        key = (move.get("type"), move.get("card"), move.get("suit"))
        if len(move) == 1 + (key[1] is not None) + (key[2] is not None) and key in self._legal_keys():
            return key  # type: ignore[return-value]  # equal to a legal key, so of its shape
        return None

    # --- legal moves -----------------------------------------------------
    def _legal_keys(self) -> tuple:
        keys = self._legal
        if keys is None:
            keys = self._legal = () if self._turn is None else self._find_legal()
        return keys

    def _find_legal(self) -> tuple:
        assert self._turn is not None
        hand = self._hands[self._turn]
        if self._attack == SKIP:
            return (*(PLAY_KEYS[card] for card in hand if card[0] == ACE), PASS_KEY)
        if self._attack == DRAW:
            answers = self._house.draw_values
            keys: list[MoveKey] = [PLAY_KEYS[card] for card in hand if card[0] in answers]
        else:
            keys = self._follows(hand)
        if self._stock:
            keys.append(DRAW_KEY)
        elif not keys:
            keys.append(PASS_KEY)
        return tuple(keys)

    def _follows(self, hand: tuple[str, ...]) -> list[MoveKey]:
        """The plays open when nothing is pointed at the player."""
        suit, top_rank = self._suit, self._pile[-1][0]
        paired = self._house.pairs.get(top_rank)
        keys: list[MoveKey] = []
        for card in hand:
            rank = card[0]
            if rank == SEVEN:
                keys.extend(SEVEN_KEYS[card])
            elif suit is None or card[1] == suit or rank in (JOKER, top_rank, paired):
                keys.append(PLAY_KEYS[card])
        return keys

    # --- applying moves (on a fresh clone) -------------------------------
    def _play_card(self, card: str, named: str | None) -> None:
        seat = self._turn
        assert seat is not None  # moves are only applied while the match is on
        hand = self._hands[seat]
        i = hand.index(card)
        self._set_hand(seat, hand[:i] + hand[i + 1 :])
        self._pile += (card,)
        if named is None:
            entry = LogEntry(seat=seat, type="play", card=card)
        else:
            entry = LogEntry(seat=seat, type="play", card=card, suit=named)
        self._log = self._log.add(entry)
        self._passes = 0
        if len(hand) == 1:  # went out: the round stops, whatever the card demanded
            self._end_deal(seat)
            return
        rank = card[0]
        self._suit = named if rank == SEVEN else None if rank == JOKER else card[1]
        value = self._house.draw_values.get(rank)
        if value is not None:
            self._owed = self._owed + value if self._attack == DRAW else value
            self._attack = DRAW
        else:
            self._attack = SKIP if rank == ACE else None
        self._turn = (seat + 1) % self.players
        self._refill()

    def _draw(self) -> None:
        seat = self._turn
        assert seat is not None  # moves are only applied while the match is on
        owed = self._owed if self._attack == DRAW else 1
        taken = self._take(owed)
        self._set_hand(seat, self._hands[seat] + taken)
        if len(taken) < owed:
            entry = LogEntry(seat=seat, type="draw", count=len(taken), written_off=owed - len(taken))
        else:
            entry = LogEntry(seat=seat, type="draw", count=len(taken))
        self._log = self._log.add(entry)
        self._attack, self._owed, self._passes = None, 0, 0
        self._turn = (seat + 1) % self.players
        self._refill()

    def _take(self, count: int) -> tuple[str, ...]:
        """The front ``count`` cards of the stock, reshuffling the pile as it runs out."""
        taken: tuple[str, ...] = ()
        while count:
            if not self._stock:
                self._refill()
                if not self._stock:
                    break
            got = self._stock[:count]
            self._stock = self._stock[len(got) :]
            taken += got
            count -= len(got)
        return taken

    def _pass(self) -> None:
        seat = self._turn
        assert seat is not None  # moves are only applied while the match is on
        if self._attack == SKIP:
            entry = LogEntry(seat=seat, type="pass", skip=True)
            self._passes = 0  # sitting out a skip restarts the count of passes
        elif self._attack == DRAW:  # nothing left to draw: the whole draw is written off
            entry = LogEntry(seat=seat, type="pass", written_off=self._owed)
            self._passes += 1
        else:
            entry = LogEntry(seat=seat, type="pass")
            self._passes += 1
        self._log = self._log.add(entry)
        self._attack, self._owed = None, 0
        if self._passes >= self.players:
            self._end_deal(None)
        else:
            self._turn = (seat + 1) % self.players

    def _set_hand(self, seat: int, hand: tuple[str, ...]) -> None:
        hands = self._hands
        self._hands = hands[:seat] + (hand,) + hands[seat + 1 :]

    def _refill(self) -> None:
        """The moment the stock is empty, everything under the pile's top card becomes the new stock."""
        if self._stock or len(self._pile) < 2:
            return
        self._reshuffles += 1
        self._stock = tuple(shuffle(self._pile[:-1], self._seed, self._deal, self._reshuffles))
        self._pile = self._pile[-1:]
        self._log = self._log.add(LogEntry(seat=None, type="reshuffle", count=len(self._stock)))

    def _end_deal(self, out: int | None) -> None:
        charged = self._charges(out)
        self._scores = tuple(score + charge for score, charge in zip(self._scores, charged, strict=True))
        self._last_deal = (self._deal, charged, out)
        self._log = self._log.add(LogEntry(seat=None, type="deal_over", out=out, charged=FrozenList(charged)))
        self._attack, self._owed = None, 0
        if max(self._scores) >= self._house.target:
            self._turn = None
        else:
            self._start_deal(self._deal + 1)

    def _charges(self, out: int | None) -> tuple[int, ...]:
        """Everyone but the player who went out pays their hand; with nobody out, all but a sole lowest hand."""
        totals = [penalty(hand) for hand in self._hands]
        if out is None:
            low = min(totals)
            if totals.count(low) > 1:
                return (0,) * self.players
            out = totals.index(low)
        return tuple(0 if seat == out else total for seat, total in enumerate(totals))

    # --- explaining an illegal move --------------------------------------
    def _why_not(self, move: dict) -> IllegalMove:
        if self._turn is None:
            return IllegalMove("The match is over; no more moves can be played.", "match-over")
        kind, card, suit = read_move(move, MOVE_SHAPES)
        if kind == "play":
            assert card is not None  # read_move makes sure a play names a card
            return self._why_not_play(card, suit)
        if kind == "draw":
            return self._why_not_draw()
        return self._why_not_pass()

    def _why_not_play(self, card: str, suit: str | None) -> IllegalMove:
        seat = self._turn
        if card not in self._hands[seat or 0]:  # only asked while the match is on
            return IllegalMove(f"You do not hold {card}.", "card-not-held", {"seat": seat, "card": card})
        rank = card[0]
        if rank == SEVEN and suit is None:
            return IllegalMove(
                f"Playing {card} means naming the suit to follow: add a suit, one of C, D, H, S.",
                "seven-needs-suit",
                {"card": card},
            )
        if rank != SEVEN and suit is not None:
            return IllegalMove(f"Only a seven names a suit; play {card} without one.", "only-seven-names-suit", {"card": card})
        if self._attack == DRAW:
            answers = self._house.describe_draw_answers()
            params = {"card": card, "count": self._owed, "ranks": list(self._house.draw_values)}
            if rank == SEVEN:
                return IllegalMove(
                    f"{card} is no answer here: a seven cannot answer a draw. "
                    f"Take the {self._owed} cards or pass them on with {answers}.",
                    "seven-cannot-answer-draw",
                    params,
                )
            return IllegalMove(
                f"{card} cannot answer a draw of {self._owed}: only {answers} can. Otherwise take the cards.",
                "cannot-answer-draw",
                params,
            )
        if self._attack == SKIP:
            if rank == SEVEN:
                return IllegalMove(
                    f"{card} is no answer here: a seven cannot answer a skip. Sit the turn out or hand it on with an ace.",
                    "seven-cannot-answer-skip",
                    {"card": card},
                )
            return IllegalMove(
                f"{card} cannot answer a skip: only an ace can. Otherwise sit the turn out (pass).",
                "cannot-answer-skip",
                {"card": card},
            )
        top = self._pile[-1]
        return IllegalMove(
            f"{card} follows neither the suit in force ({self._suit}) nor the rank on top ({top}).",
            "does-not-follow",
            {"card": card, "suit": self._suit, "top": top},
        )

    def _why_not_draw(self) -> IllegalMove:
        if self._attack == SKIP:
            return IllegalMove(
                "You are missing this turn: sit it out (pass) or hand the skip on with an ace; you cannot draw.",
                "skip-cannot-draw",
            )
        return IllegalMove("There is nothing left to draw: play a card if you can, otherwise pass.", "nothing-to-draw")

    def _why_not_pass(self) -> IllegalMove:
        if self._attack == DRAW and self._stock:
            return IllegalMove(
                f"You cannot pass a draw: take the {self._owed} cards or pass them on with "
                f"{self._house.describe_draw_answers()}.",
                "cannot-pass-draw",
                {"count": self._owed, "ranks": list(self._house.draw_values)},
            )
        if self._stock:
            return IllegalMove("You may only pass when nothing can be drawn: take a card instead.", "pass-while-stock")
        return IllegalMove(
            "You may only pass when you have nothing to play, and you have a card that fits.", "pass-while-playable"
        )

    # --- views and state -------------------------------------------------
    def _attack_view(self) -> dict | None:
        if self._attack == DRAW:
            return {"kind": DRAW, "count": self._owed}
        if self._attack == SKIP:
            return {"kind": SKIP}
        return None

    def _last_deal_view(self) -> dict | None:
        if self._last_deal is None:
            return None
        deal, charged, out = self._last_deal
        return {"deal": deal, "charged": list(charged), "out": out}

    def _suit_at_the_end(self) -> str | None:
        """The suit in force once the match is over.

        The saved state keeps the suit from before a last card that went out
        (stored matches must go on matching their replays), so the view works
        out the suit that card set.
        """
        if self._last_deal is None or self._last_deal[2] is None:  # ended by passes: no card went out
            return self._suit
        top = self._pile[-1]
        if top[0] == JOKER:
            return None
        if top[0] != SEVEN:
            return top[1]
        for entry in reversed(self._log.entries()):
            if entry["type"] == "play":
                return entry.get("suit")
        return self._suit

    def view(self, seat: int | None) -> dict:
        seat = self._check_seat(seat)
        hand = self._hands[seat] if seat is not None else ()
        view = common_view(self, seat)
        view.update(
            hand=list(hand),
            hand_penalty=penalty(hand),
            hand_counts=[len(h) for h in self._hands],
            stock=len(self._stock),
            legal_moves=self.legal_moves() if seat is not None and seat == self._turn else [],
            scores=list(self._scores),
            deal=self._deal,
            dealer=(self._deal - 1) % self.players,
            first=self._deal % self.players,
            log=self._log.entries(),
            top=self._pile[-1],
            suit=self._suit if self._turn is not None else self._suit_at_the_end(),
            attack=self._attack_view(),
            pile_count=len(self._pile),
            passes=self._passes,
            last_deal=self._last_deal_view(),
        )
        return view

    def to_state(self) -> dict:
        state = self._state_envelope()
        state.update(
            seed=self._seed,
            decks=[list(deck) for deck in self._decks],
            deal=self._deal,
            hands=[list(hand) for hand in self._hands],
            stock=list(self._stock),
            pile=list(self._pile),
            suit=self._suit,
            attack=self._attack_view(),
            to_move=self._turn,
            passes=self._passes,
            reshuffles=self._reshuffles,
            scores=list(self._scores),
            last_deal=self._last_deal_view(),
            log=[thaw(entry) for entry in self._log.entries()],
        )
        return state

    @classmethod
    def _from_state(cls, rules: Rules, state: dict) -> AmericanaGame:
        try:
            return cls._read_state(rules, state)
        except (KeyError, TypeError, IndexError, AttributeError) as error:  # a part missing or misshapen
            raise ValueError(f"That saved americana game is damaged ({error!r}).") from None

    @classmethod
    def _read_state(cls, rules: Rules, state: dict) -> AmericanaGame:
        players = rules.check_players(state["players"])
        options = rules.validate_options(players, state["options"])
        if type(state["seed"]) is not int:
            raise ValueError("The seed must be an integer.")
        decks = tuple(tuple(rules._check_deck(players, options, list(deck))) for deck in state["decks"])
        house = house_for(options["jokers"], options["pairs"], options["jacks_draw"], options["target"])
        _check_state(state, players, options, house)
        game = object.__new__(cls)
        game.rules, game.players, game.options, game._house = rules, players, options, house
        game._seed, game._decks = state["seed"], decks
        game._deal, game._passes, game._reshuffles = state["deal"], state["passes"], state["reshuffles"]
        game._hands = tuple(tuple(hand) for hand in state["hands"])
        game._stock, game._pile = tuple(state["stock"]), tuple(state["pile"])
        game._suit, game._turn = state["suit"], state["to_move"]
        attack = state["attack"]
        game._attack = None if attack is None else ATTACKS[attack["kind"]]
        game._owed = attack["count"] if game._attack == DRAW else 0
        game._scores = tuple(state["scores"])
        last = state["last_deal"]
        game._last_deal = None if last is None else (last["deal"], tuple(last["charged"]), last["out"])
        log = Log()
        for entry in state["log"]:
            log = log.add(freeze(entry))
        game._log, game._legal = log, None
        return game


ATTACKS = {DRAW: DRAW, SKIP: SKIP}  # the interned constants
PACKS = {jokers: frozenset(make_deck(RANKS, jokers=jokers)) for jokers in (False, True)}


def _check_state(state: dict, players: int, options: dict, house: House) -> None:
    """Refuse what no americana game reaches, before anything is built from it."""
    for name in ("deal", "passes", "reshuffles"):
        if not is_count(state[name]):
            raise StateError(SLUG, f"{name} {state[name]!r} is not a whole number of at least 0")
    if state["passes"] > players or (state["passes"] == players and state["to_move"] is not None):
        raise StateError(SLUG, f"{state['passes']} passes in a row would have ended the round at a table of {players}")
    hands, stock, pile = state["hands"], state["stock"], state["pile"]
    check_hands(SLUG, hands, players)
    if type(stock) is not list or type(pile) is not list or not pile:
        raise StateError(SLUG, "the stock and the pile must be lists of cards, with at least the top card on the pile")
    check_cards(SLUG, [card for hand in hands for card in hand] + stock + pile, PACKS[options["jokers"]])
    suit = state["suit"]
    if suit is not None and (type(suit) is not str or suit not in SUITS):
        raise StateError(SLUG, f"the suit in force {suit!r} is not a suit")
    attack = state["attack"]
    if attack is not None:
        if type(attack) is not dict or attack.get("kind") not in ATTACKS:
            raise StateError(SLUG, f"{attack!r} is not a draw or a skip")
        count = attack.get("count")
        if attack["kind"] == DRAW and (set(attack) != {"kind", "count"} or not is_count(count) or not count):
            raise StateError(SLUG, f"a draw is of a number of cards, not {count!r}")
        if attack["kind"] == SKIP and set(attack) != {"kind"}:
            raise StateError(SLUG, f"{attack!r} is not a skip")
    scores = state["scores"]
    check_counts(SLUG, scores, players, "the scores")
    if max(scores) >= house.target:
        if state["to_move"] is not None:
            raise StateError(SLUG, f"a total has reached the target {house.target}, yet the match goes on")
    else:
        check_seat(SLUG, state["to_move"], players, "the seat to move")
    last = state["last_deal"]
    if last is not None:
        if type(last) is not dict or set(last) != {"deal", "charged", "out"} or not is_count(last["deal"]):
            raise StateError(SLUG, "the last deal must have its number, the charges and who went out")
        check_counts(SLUG, last["charged"], players, "the charges of the last deal")
        check_seat(SLUG, last["out"], players, "the seat that went out", none=True)
    check_log(SLUG, state["log"])


AmericanaRules.game_class = AmericanaGame
RULES = AmericanaRules()
