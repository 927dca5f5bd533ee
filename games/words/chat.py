"""The table chat's quick phrases, stored as codes and worded in each reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# "Noroc!" stays Romanian in every language: it is what Șeptică players say
# as a match starts, the game's own greeting, as "gg" is everybody's.
PHRASES = {
    "noroc": pgettext_lazy("quick phrase, the game's greeting, kept in Romanian", "Noroc!"),
    "hello": _("Hello"),
    "good_game": _("Good game"),
    "well_played": _("Well played"),
    "thanks": _("Thanks"),
    "oops": _("Oops"),
    "your_turn": _("Your turn…"),
    "sorry_must_go": _("Sorry, I must go"),
}


def phrase_words(code: str) -> str:
    """The phrase in the active language; an unknown code (a phrase since retired) reads as itself."""
    words = PHRASES.get(code)
    return str(words) if words is not None else code


def line_words(phrase: str, text: str) -> str:
    """How a line reads: its phrase in the reader's language, or the free text as written."""
    return phrase_words(phrase) if phrase else text


def phrases_in_words() -> list[dict]:
    """Every quick phrase with its words, in the order the chat panel shows them."""
    return [{"code": code, "words": str(words)} for code, words in PHRASES.items()]
