"""Cards in words and as faces: rank and suit names for sentences, and the face a card is drawn with.

A sentence shows a card as its face ("K♥", "10♣", jokers by name), or calls it by
name in running text ("king of hearts"); the Romanian suit names are the rules
pages' (treflă, caro, cupă, pică). A card's code ("KH") is for scripts only.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANKS = "23456789TJQKAX"


def rank_names() -> list[str]:
    numbers = [str(n) for n in range(2, 11)]
    return [*numbers, _("jack"), _("queen"), _("king"), _("ace"), _("joker")]


def a_rank_names() -> list[str]:
    return [_("a two"), _("a three"), _("a four"), _("a five"), _("a six"), _("a seven"), _("an eight"),
            _("a nine"), _("a ten"), _("a jack"), _("a queen"), _("a king"), _("an ace"), _("a joker")]


def suit_name(suit: str) -> str:
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


def card_short(code: str) -> str:
    """ "K♥", "10♣" (the faces the table draws), and jokers by name."""
    if code[0] == "X":
        return _("the red joker") if code[1] == "R" else _("the black joker")
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]


def card_name(code: str) -> str:
    """ "king of hearts", "10 of clubs", "red joker": what a screen reader or a tooltip says."""
    if code[0] == "X":
        return _("red joker") if code[1] == "R" else _("black joker")
    rank = dict(zip(RANKS, rank_names(), strict=True))[code[0]]
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name(code[1])}


def card_face(code: str) -> dict:
    """What the card partial needs: the same face static/js/table-cards.js draws."""
    rank, suit = code[0], code[1]
    if rank == "X":
        return {"code": code, "joker": True, "red": suit == "R", "rank": "★", "suit": "", "name": card_name(code)}
    red = suit in "DH"
    return {"code": code, "joker": False, "red": red, "rank": "10" if rank == "T" else rank,
            "suit": SUIT_SYMBOLS[suit], "name": card_name(code)}
