"""The building blocks of a tutorial step: what the learner is asked to do,
which moves count as doing it, and the fixed deck the step is dealt from.

A step's script lists every move of its deal in order. A string is an
opponent's move ("KH", "7H:S" for an americana seven naming spades, "take",
"end", "draw", "pass"); a ``You`` is the learner's turn. Texts are dicts
keyed by language code, written in English and Romanian.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.cards import RANKS, SUITS

Text = dict[str, str]
Accepts = Callable[[dict], bool]

SEPTICA_CARDS = tuple(rank + suit for rank in "789TJQKA" for suit in SUITS)
AMERICANA_CARDS = tuple(rank + suit for rank in RANKS for suit in SUITS)
# The other players' names, by seat (the learner's seat shows "You").
SEAT_NAMES = ("Ana", "Bogdan", "Cristi", "Dana", "Elena", "Florin")
QUIET_OPENERS = frozenset("345689TQK")  # americana: the ranks a deal may open on


@dataclass(frozen=True)
class You:
    """One turn of the learner: the moves that count, what to say before and after a wrong try.

    `wrong` answers a card the rules allow but the step does not teach, naming it
    with %(card)s (and, for a seven, the suit it named with %(suit)s);
    `wrong_action` answers a button (draw, pass, Gata) the step does not teach;
    `refused` follows the rules' own reason when they refuse the card tapped.
    """

    accepts: Accepts
    hint: Text | None = None
    wrong: Text | None = None
    wrong_action: Text | None = None
    refused: Text | None = None

    def texts(self) -> list[Text]:
        return [text for text in (self.hint, self.wrong, self.wrong_action, self.refused) if text]


@dataclass(frozen=True)
class Step:
    slug: str
    rules: str
    players: int
    options: dict
    deck: tuple[str, ...]
    seat: int  # the learner's
    script: tuple[You | str, ...]
    title: Text
    intro: Text
    learned: Text

    @property
    def turns(self) -> int:
        return sum(1 for item in self.script if isinstance(item, You))


# --- which moves count ------------------------------------------------------------
def card(code: str) -> Accepts:
    return lambda move: move.get("type") == "play" and move.get("card") == code


def cards(*codes: str) -> Accepts:
    return lambda move: move.get("type") == "play" and move.get("card") in codes


def rank(ranks: str) -> Accepts:
    return lambda move: move.get("type") == "play" and str(move.get("card", ""))[:1] in ranks


def not_rank(ranks: str) -> Accepts:
    return lambda move: move.get("type") == "play" and str(move.get("card", ""))[:1] not in ranks


def suit(suits: str) -> Accepts:
    return lambda move: move.get("type") == "play" and str(move.get("card", ""))[1:2] in suits


def seven_naming(named: str) -> Accepts:
    return lambda move: move.get("type") == "play" and str(move.get("card", ""))[:1] == "7" and move.get("suit") == named


def any_card(move: dict) -> bool:
    return move.get("type") == "play"


def kind(name: str) -> Accepts:
    return lambda move: move.get("type") == name


TAKE, END, DRAW, PASS = kind("take"), kind("end"), kind("draw"), kind("pass")


def opponent_move(token: str) -> dict:
    """An opponent's move from its short form in a script."""
    if token in ("take", "end", "draw", "pass"):
        return {"type": token}
    code, _, named = token.partition(":")
    return {"type": "play", "card": code, "suit": named} if named else {"type": "play", "card": code}


# --- fixed decks ------------------------------------------------------------------
def _whole_deck(dealt: list[str], all_cards: tuple[str, ...], left_out: tuple[str, ...] = ()) -> tuple[str, ...]:
    if len(set(dealt)) != len(dealt) or not set(dealt) <= set(all_cards):
        raise ValueError(f"A tutorial deck repeats a card or holds one from another game: {dealt}")
    rest = sorted(set(all_cards) - set(dealt) - set(left_out))
    return (*dealt, *rest)


def septica_deal(hands: list[list[str]], stock: list[str] = (), removed: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The deck that deals these hands (seat 0 first, one card at a time) and then these stock cards first."""
    dealt = [hand[i] for i in range(4) for hand in hands]
    return _whole_deck([*dealt, *stock], SEPTICA_CARDS, removed)


def americana_deal(hands: list[list[str]], top: str, stock: list[str] = ()) -> tuple[str, ...]:
    """The deck that deals these hands (five each), turns ``top`` up and puts these cards first in the stock."""
    if top[0] not in QUIET_OPENERS:
        raise ValueError(f"{top} would be buried: a round opens on a card that does nothing")
    dealt = [hand[i] for i in range(5) for hand in hands]
    return _whole_deck([*dealt, top, *stock], AMERICANA_CARDS)
