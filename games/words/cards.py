"""Cards in words and as faces: rank names for sentences, and the face a card is drawn with."""

from __future__ import annotations

from django.utils.translation import gettext as _


def rank_names() -> list[str]:
    numbers = [str(n) for n in range(2, 11)]
    return [*numbers, _("jack"), _("queen"), _("king"), _("ace"), _("joker")]


def a_rank_names() -> list[str]:
    return [_("a two"), _("a three"), _("a four"), _("a five"), _("a six"), _("a seven"), _("an eight"),
            _("a nine"), _("a ten"), _("a jack"), _("a queen"), _("a king"), _("an ace"), _("a joker")]


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_face(code: str) -> dict:
    """What the card partial needs: the same face static/js/table-cards.js draws."""
    rank, suit = code[0], code[1]
    if rank == "X":
        return {"code": code, "joker": True, "red": suit == "R", "rank": "★", "suit": "", "name": code}
    red = suit in "DH"
    return {"code": code, "joker": False, "red": red, "rank": "10" if rank == "T" else rank,
            "suit": SUIT_SYMBOLS[suit], "name": code}
