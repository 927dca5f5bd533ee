"""What every rule set shares: checking the arguments of a new game, reading
move dicts, the common keys of a view, and the state envelope.

A rule set module subclasses ``Rules`` and ``Game`` and fills in the hooks
(the names starting with ``_``). Games are immutable: ``play`` returns a new
game and never touches the old one.

Besides the contract, every rules object has ``from_view`` (a game built from a
seat's view and a guess of the cards that view hides: how a bot imagines the
table) and every game has ``deal`` (the number of the current deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NoReturn

from .cards import is_card_code
from .errors import BadOptions, IllegalMove

STATE_VERSION = 1


# --- log entries ------------------------------------------------------------------
# A deal's log can run to thousands of entries, and every view hands out all of
# them. Copying each entry for each view cost more than the rest of the view, so
# entries are frozen instead: a frozen value can be given to every view and kept
# in every later game because nobody can change it. They are still a dict and a
# list for ``json.dumps``, ``==`` and every reader; ``copy``, ``deepcopy`` and
# ``.copy()`` give plain, changeable ones.


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: it is shared by the game and every view of it.")


class FrozenList(list):
    """A list that refuses every change (the cards or numbers of one log entry)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list:
        return list(self)  # the items are strings and numbers

    def __reduce__(self) -> tuple:
        return FrozenList, (list(self),)


class LogEntry(dict):
    """One event of a deal's public history: a dict that refuses every change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return thaw(self)

    def __reduce__(self) -> tuple:
        return LogEntry, (dict(self),)


def freeze(entry: dict) -> LogEntry:
    """A log entry from a plain dict (as read back from a saved state)."""
    return LogEntry({key: FrozenList(value) if isinstance(value, list) else value for key, value in entry.items()})


def thaw(entry: dict) -> dict:
    """A plain dict of plain lists: what a saved state holds."""
    return {key: list(value) if isinstance(value, list) else value for key, value in entry.items()}


# --- checking a saved state ------------------------------------------------------------
# The site rebuilds the game from its snapshot on every move, so these checks
# are on the hot path: each is a type test or a count, and the cards are
# checked as one list against the deck's set, with the reason worked out only
# once something is wrong.


class StateError(ValueError):
    """A saved state no game could reach; the message says what is wrong with it."""

    def __init__(self, slug: str, what: str) -> None:
        super().__init__(f"That saved {slug} game is impossible: {what}.")


INT_ONLY = frozenset({int})  # no bools: True is no seat and no count
LIST_ONLY = frozenset({list})
DICT_ONLY = frozenset({dict})


def is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def is_seat(value: Any, players: int) -> bool:
    return type(value) is int and 0 <= value < players


def check_seat(slug: str, value: Any, players: int, what: str, none: bool = False) -> None:
    if not (type(value) is int and 0 <= value < players) and not (none and value is None):
        raise StateError(slug, f"{what} {value!r} is not a seat at a table of {players}")


def check_seats(slug: str, values: list, players: int, what: str) -> None:
    if values and (not INT_ONLY.issuperset(map(type, values)) or min(values) < 0 or max(values) >= players):
        raise StateError(slug, f"{what} must be seats at a table of {players}, not {values!r}")


def check_counts(slug: str, values: Any, players: int, what: str) -> None:
    """``values`` is one whole number of at least 0 per seat."""
    if type(values) is not list or len(values) != players or not INT_ONLY.issuperset(map(type, values)) or min(values) < 0:
        raise StateError(slug, f"{what} must be {players} whole numbers of at least 0, not {values!r}")


def check_hands(slug: str, hands: Any, players: int, most: int | None = None) -> None:
    """``hands`` is one list per seat, each of at most ``most`` items (the cards are checked with the rest)."""
    if type(hands) is not list or len(hands) != players:
        count = len(hands) if type(hands) is list else type(hands).__name__
        raise StateError(slug, f"there must be {players} hands, one per player, not {count}")
    if not LIST_ONLY.issuperset(map(type, hands)):
        raise StateError(slug, "every hand must be a list of cards")
    if most is not None and max(map(len, hands)) > most:
        raise StateError(slug, f"a hand holds at most {most} cards")


def check_pairs(slug: str, plays: Any, players: int, what: str) -> None:
    """``plays`` is a list of [seat, card] pairs (the cards are checked with the rest)."""
    if type(plays) is not list or not LIST_ONLY.issuperset(map(type, plays)) or any(len(play) != 2 for play in plays):
        raise StateError(slug, f"{what} must be a list of [seat, card] pairs")
    check_seats(slug, [seat for seat, _ in plays], players, f"the seats of {what}")


def check_cards(slug: str, cards: list, deck: frozenset[str]) -> None:
    """``cards`` (every card of the deal, wherever it is) is exactly ``deck``, each card once."""
    try:
        if len(cards) == len(deck) and deck.issuperset(cards) and len(set(cards)) == len(deck):
            return
    except TypeError:  # an unhashable item: not a card
        pass
    for card in cards:
        if not is_card_code(card):
            raise StateError(slug, f"{card!r} is not a card")
    for card in cards:
        if card not in deck:
            raise StateError(slug, f"{card} is not in the deck of this {slug} game")
    if len(set(cards)) < len(cards):
        raise StateError(slug, "a card is there twice")
    raise StateError(slug, f"the cards do not add up: {len(cards)} of the deck's {len(deck)} are there")


def check_log(slug: str, log: Any) -> None:
    """The log is a list of event dicts (what each holds is the views' business, not a rule's)."""
    if type(log) is not list or not DICT_ONLY.issuperset(map(type, log)):
        raise StateError(slug, "the log must be a list of events")


class Rules:
    slug: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    game_class: ClassVar[type[Game]]

    def __repr__(self) -> str:
        return f"<rules {self.slug}>"

    # --- options -----------------------------------------------------------
    def default_options(self, players: int) -> dict:
        raise NotImplementedError

    def validate_options(self, players: int, options: dict | None) -> dict:
        """Full, normalised options, or ``ValueError`` with a readable sentence."""
        players = self.check_players(players)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise BadOptions("Options must be an object of option names and values.", "options-not-object")
        full = self.default_options(players)
        unknown = sorted(set(options) - set(full), key=str)
        if unknown:
            known = ", ".join(sorted(full)) or "none"
            raise BadOptions(f"Unknown option {unknown[0]!r} for {self.slug}; the options are: {known}.",
                             "unknown-option", {"option": str(unknown[0]), "rules": self.slug, "known": sorted(full)})
        full.update(options)
        return self._check_options(players, full)

    def _check_options(self, players: int, options: dict) -> dict:
        """Hook: check types and combinations of a full option dict; return it."""
        return options

    def check_players(self, players: Any) -> int:
        if type(players) is not int:
            raise BadOptions("The number of players must be a whole number.", "players-not-a-number")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"{self.slug} is played by {self.min_players} to {self.max_players} players, not {players}.",
                "player-count", {"rules": self.slug, "low": self.min_players, "high": self.max_players, "players": players},
            )
        return players

    # --- games -------------------------------------------------------------
    def new_game(
        self,
        players: int = 2,
        options: dict | None = None,
        seed: int = 0,
        decks: list[list[str]] | None = None,
    ) -> Game:
        players = self.check_players(players)
        options = self.validate_options(players, options)
        if type(seed) is not int:
            raise ValueError("The seed must be an integer.")
        if decks is not None and not isinstance(decks, (list, tuple)):
            raise ValueError("decks must be a list of decks, one list of card codes per deal.")
        for deck in decks or ():
            if not isinstance(deck, (list, tuple)):
                raise ValueError("Each deck must be a list of card codes, first card dealt first.")
        decks = [self._check_deck(players, options, list(deck)) for deck in (decks or [])]
        return self._new_game(players, options, seed, decks)

    def _check_deck(self, players: int, options: dict, deck: list[str]) -> list[str]:
        """Hook: raise ``ValueError`` unless ``deck`` is exactly a deck of this game."""
        expected = self.full_deck(players, options)
        cards_only = all(isinstance(card, str) for card in deck)
        if not cards_only or len(deck) != len(expected) or set(deck) != set(expected):
            raise ValueError(f"That is not a {self.slug} deck: it must hold exactly {len(expected)} cards.")
        return deck

    def full_deck(self, players: int, options: dict) -> list[str]:
        raise NotImplementedError

    def _new_game(self, players: int, options: dict, seed: int, decks: list[list[str]]) -> Game:
        raise NotImplementedError

    def from_state(self, state: dict) -> Game:
        if not isinstance(state, dict) or state.get("rules") != self.slug:
            raise ValueError(f"That is not a saved {self.slug} game.")
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"Saved game version {state.get('version')!r} is not supported.")
        return self.game_class._from_state(self, state)

    def from_view(
        self, view: dict, hands: list[list[str]], stock: list[str], seed: int, pile: list[str] | None = None
    ) -> Game:
        """A game whose ``view(view["seat"])`` is ``view``, with the hidden cards where a guess puts them.

        ``hands`` is every seat's hand (the viewer's as its view shows it),
        ``stock`` the stock, next card first, and ``pile`` (americana only) the
        whole pile, bottom first, of which the view shows only the top. Later
        deals are shuffled from ``seed``. The game is checked as ``from_state``
        checks a saved one, so a guess that does not fit the view is a
        ``ValueError``. This is what a bot's guesses are built with; the
        server's own game is never rebuilt this way.
        """
        require_seat(view)
        if view.get("rules") != self.slug:
            raise ValueError(f"That is not a view of a {self.slug} game.")
        state = {
            "rules": self.slug,
            "version": STATE_VERSION,
            "players": view["players"],
            "options": dict(view["options"]),
            "seed": seed,
            "decks": [],
            "deal": view["deal"],
        }
        state.update(self._state_from_view(view, hands, stock, pile))
        return self.from_state(state)

    def _state_from_view(self, view: dict, hands: list[list[str]], stock: list[str], pile: list[str] | None) -> dict:
        """Hook: the keys of the saved state besides the envelope, from a view and the hidden cards."""
        raise NotImplementedError


class Game:
    """One moment of a match. Subclasses define the hooks below."""

    rules: Rules
    players: int
    options: dict

    # --- the public contract ----------------------------------------------
    @property
    def to_move(self) -> int | None:
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        return self.to_move is None

    @property
    def deal(self) -> int:
        """The number of the current deal, 0-based (the view's ``"deal"``)."""
        raise NotImplementedError

    @property
    def result(self) -> dict | None:
        raise NotImplementedError

    def legal_moves(self) -> list[dict]:
        raise NotImplementedError

    def play(self, move: Any) -> Game:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        raise NotImplementedError

    def to_state(self) -> dict:
        raise NotImplementedError

    @classmethod
    def _from_state(cls, rules: Rules, state: dict) -> Game:
        raise NotImplementedError

    # --- helpers for subclasses -------------------------------------------
    def _check_seat(self, seat: Any) -> int | None:
        if seat is None:
            return None
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"There is no seat {seat!r} at a table of {self.players}.")
        return seat

    def _state_envelope(self) -> dict:
        return {"rules": self.rules.slug, "version": STATE_VERSION, "players": self.players, "options": dict(self.options)}


def plain_move(move: Any) -> dict:
    """The move as a plain dict of plain strings, so that any mapping plays exactly like the dict it equals.

    Anything that is not a mapping is no move. A mapping that fails when read
    is the caller's bug, and its error goes through unchanged.
    """
    if not isinstance(move, Mapping):
        raise IllegalMove("A move must be an object with a \"type\".", "not-a-move")
    return {_plain(key): _plain(value) for key, value in move.items()}


def _plain(value: Any) -> Any:
    return str.__str__(value) if isinstance(value, str) and type(value) is not str else value


def read_move(move: dict, allowed: dict[str, frozenset[str]]) -> tuple[str, str | None, str | None]:
    """Check a plain move dict's shape (see ``plain_move``) and return ``(type, card, suit)``.

    ``allowed`` maps each move type this rule set knows to the extra keys that
    type may carry (``"card"``, ``"suit"``). Anything else is ``IllegalMove``.
    Whether the card is held, or the move allowed now, is the rule set's call.
    """
    if not isinstance(move, dict):
        raise IllegalMove("A move must be an object with a \"type\".", "not-a-move")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in allowed:
        names = ", ".join(sorted(allowed))
        raise IllegalMove(
            f"Unknown move type {kind!r}; here a move is one of: {names}.", "unknown-move-type", {"types": sorted(allowed)}
        )
    keys = allowed[kind]
    for key in move:
        if key != "type" and key not in keys:
            raise IllegalMove(f"A {kind} move has no {key!r}.", "unexpected-key", {"type": kind, "key": str(key)})
    card = move.get("card")
    if "card" in keys:
        if "card" not in move:
            raise IllegalMove(f"A {kind} move needs a \"card\".", "missing-card", {"type": kind})
        if not is_card_code(card):
            raise IllegalMove(f"{card!r} is not a card.", "not-a-card")
    suit = move.get("suit")
    if "suit" in move and (not isinstance(suit, str) or len(suit) != 1 or suit not in "CDHS"):
        raise IllegalMove(f"{suit!r} is not a suit; name one of C, D, H, S.", "not-a-suit")
    return kind, card, suit


def require_seat(view: dict) -> None:
    """Refuse a spectator's view where a seat's is needed: only a seat's view has a hand to build the rest around."""
    if view.get("seat") is None:
        raise ValueError("Only a seated player's view can be completed into a game.")


def common_view(game: Game, seat: int | None) -> dict:
    """The view keys every rule set has; the caller adds its own."""
    return {
        "rules": game.rules.slug,
        "options": dict(game.options),
        "players": game.players,
        "seat": seat,
        "to_move": game.to_move,
        "finished": game.finished,
        "result": game.result,
    }
