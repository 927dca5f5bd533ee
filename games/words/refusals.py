"""The rules engine's refusals in the reader's language.

The engine knows no Django and explains a refused move in English; the table
page shows that sentence when a card that does not fit is dropped on the
table. Here each sentence the engine can say about a move is matched and
said again with gettext. In English, and for any sentence not known here,
the engine's own words go out unchanged, so scripts read what they always did.
"""

from __future__ import annotations

import re

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from .rulesets import rules_name

# Kept as msgids; the same words name ranks on the table page (words/cards.py).
RANK_PHRASES = (
    gettext_noop("a two"), gettext_noop("a three"), gettext_noop("a four"), gettext_noop("a five"),
    gettext_noop("a six"), gettext_noop("a seven"), gettext_noop("an eight"), gettext_noop("a nine"),
    gettext_noop("a ten"), gettext_noop("a jack"), gettext_noop("a queen"), gettext_noop("a king"),
    gettext_noop("an ace"), gettext_noop("a joker"),
)
CARD = r"(?P<card>[2-9TJQKAX][CDHSRB])"
SEAT = r"(?P<seat>\d+)"


def _refusals() -> list[tuple[re.Pattern, str]]:
    """(the engine's sentence as a pattern, the sentence to say); built per call so gettext sees the language."""
    sentences = [
        (r"The match is over[;:] no more moves can be (?:played|made)\.", _("The match is over: no more moves can be made.")),
        (rf"The trick is not over yet: seat {SEAT} must continue it or end it first\.",
         _("The trick is not over yet: seat %(seat)s must continue it or end it first.")),
        (rf"The trick is not over yet: seat {SEAT} still has to play a card\.",
         _("The trick is not over yet: seat %(seat)s still has to play a card.")),
        (rf"The trick is over: seat {SEAT} won it and must take it first\.",
         _("The trick is over: seat %(seat)s won it and must take it first.")),
        (rf"The trick is over: seat {SEAT} must take it before anything else\.",
         _("The trick is over: seat %(seat)s must take it before anything else.")),
        (rf"Only the leader can end a trick, after a full round in which an opponent took it; now seat {SEAT} must play a card\.",
         _("Only the leader can end a trick, after a full round in which an opponent took it; now seat %(seat)s must play a card.")),
        (rf"(?:Seat \d+ does|You do) not hold {CARD}\.", _("You do not hold %(card)s.")),
        (rf"{CARD} cannot continue the trick: continue with (?P<ranks>.+), or end it\.",
         _("%(card)s cannot continue the trick: continue with %(ranks)s, or end it (Gata).")),
        (r"The trick is not over yet, so nobody can take it\.", _("The trick is not over yet, so nobody can take it.")),
        (r"The leader cannot pass: lead any card from your hand\.", _("The leader cannot pass: lead any card from your hand.")),
        (r"that card does not cut: play the led rank, a 7 or a joker, or pass",
         _("That card does not cut: play the led rank, a seven or a joker, or pass.")),
        (rf"Playing {CARD} means naming the suit to follow: add a suit, one of C, D, H, S\.",
         _("Playing %(card)s means naming the suit to follow.")),
        (rf"Only a seven names a suit; play {CARD} without one\.", _("Only a seven names a suit; play %(card)s without one.")),
        (rf"{CARD} is no answer here: a seven cannot answer a draw\. Take the (?P<n>\d+) cards or pass them on with (?P<ranks>.+)\.",
         _("%(card)s is no answer here: a seven cannot answer a draw. Take the %(n)s cards or pass them on with %(ranks)s.")),
        (rf"{CARD} cannot answer a draw of (?P<n>\d+): only (?P<ranks>.+) can\. Otherwise take the cards\.",
         _("%(card)s cannot answer a draw of %(n)s: only %(ranks)s can. Otherwise take the cards.")),
        (rf"{CARD} is no answer here: a seven cannot answer a skip\. Sit the turn out or hand it on with an ace\.",
         _("%(card)s is no answer here: a seven cannot answer a skip. Sit the turn out or hand it on with an ace.")),
        (rf"{CARD} cannot answer a skip: only an ace can\. Otherwise sit the turn out \(pass\)\.",
         _("%(card)s cannot answer a skip: only an ace can. Otherwise sit the turn out (pass).")),
        (rf"{CARD} follows neither the suit in force \((?P<suit>[CDHS]|None)\) nor the rank on top \((?P<top>[^)]+)\)\.",
         _("%(card)s follows neither the suit to follow nor the rank on top.")),
        (r"You are missing this turn: sit it out \(pass\) or hand the skip on with an ace; you cannot draw\.",
         _("You are missing this turn: sit it out (pass) or hand the skip on with an ace; you cannot draw.")),
        (r"There is nothing left to draw: play a card if you can, otherwise pass\.",
         _("There is nothing left to draw: play a card if you can, otherwise pass.")),
        (r"You cannot pass a draw: take the (?P<n>\d+) cards or pass them on with (?P<ranks>.+)\.",
         _("You cannot pass a draw: take the %(n)s cards or pass them on with %(ranks)s.")),
        (r"You may only pass when nothing can be drawn: take a card instead\.",
         _("You may only pass when nothing can be drawn: take a card instead.")),
        (r"You may only pass when you have nothing to play, and you have a card that fits\.",
         _("You may only pass when you have nothing to play, and you have a card that fits.")),
        # Options the create form may send without its script (which hides what does not apply).
        (r"Eights cut only with 3, 5 or 6 players, where two eights are taken out; not with (?P<n>\d+)\.",
         _("Eights cut only with 3, 5 or 6 players, where two eights are taken out; not with %(n)s.")),
        (r"Teams play only with 4 or 6 players, not with (?P<n>\d+)\.",
         _("Teams play only with 4 or 6 players, not with %(n)s.")),
        (r"(?P<rules>septica|familie|americana) is played by (?P<low>\d+) to (?P<high>\d+) players, not (?P<n>\d+)\.",
         _("%(rules)s is played by %(low)s to %(high)s players, not %(n)s.")),
    ]
    return [(re.compile(pattern + r"\Z"), said) for pattern, said in sentences]


def rank_list(english: str) -> str:
    """"a king, a seven or an eight" in the reader's language."""
    phrases = re.split(r", | or ", english)
    if not all(phrase in RANK_PHRASES for phrase in phrases):
        return english
    said = [_(phrase) for phrase in phrases]
    return said[0] if len(said) == 1 else _("%(first)s or %(last)s") % {"first": ", ".join(said[:-1]), "last": said[-1]}


def refusal_in_words(message: str) -> str:
    """The engine's `message` as the reader should read it."""
    if (get_language() or "en").split("-")[0] == "en":
        return message
    for pattern, said in _refusals():
        found = pattern.match(message)
        if found:
            fields = found.groupdict()
            if "ranks" in fields:
                fields["ranks"] = rank_list(fields["ranks"])
            if "rules" in fields:
                fields["rules"] = rules_name(fields["rules"])
            if "seat" in fields:
                fields["seat"] = int(fields["seat"]) + 1  # people count seats from 1
            return said % fields
    return message
