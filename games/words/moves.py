"""A logged move in words, as the replay's move list and the analysis say it: "plays 7♠, names hearts"."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .cards import card_short, suit_name


def move_words() -> dict:
    return {
        "play": _("plays"),
        "names": _("names"),
        "end": _("says Gata (ends the trick)"),
        "take": _("takes the trick"),
        "pass": _("passes"),
        "draw": _("draws"),
    }


def describe_move(move: dict, said: dict | None = None) -> str:
    """ "plays 7♠, names hearts": the card as its face, the suit a seven names in words."""
    said = said or move_words()
    text = said.get(move.get("type"), move.get("type", "?"))
    if "card" in move:
        text += f" {card_short(move['card'])}"
    if "suit" in move:
        text += f", {said['names']} {suit_name(move['suit'])}"
    return text
