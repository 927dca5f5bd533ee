"""The site's card pictures in server-rendered pages (the rules pages' worked examples).

A card is drawn with templates/games/_table_card.html, the same markup that
static/js/table-cards.js draws on the table page, so an example looks exactly
like play. Names are translated for screen readers with the table's words.
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.engine.cards import is_card_code
from games.words.cards import card_face, rank_names

register = template.Library()


def suit_name(suit: str) -> str:
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


def card_name(code: str) -> str:
    """'king of hearts' in the active language, as the table page says it."""
    if code[0] == "X":
        return _("red joker") if code[1] == "R" else _("black joker")
    rank = dict(zip("23456789TJQKA", rank_names(), strict=False))[code[0]]
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name(code[1])}


def checked(code: str) -> str:
    if not is_card_code(code):
        raise template.TemplateSyntaxError(f"{code!r} is not a card code (rank then suit, e.g. 'KH', 'TS', 'XR').")
    return code


@register.simple_tag
def card(code: str, extra: str = "") -> SafeString:
    """One card face: {% card "KH" %}."""
    face = {**card_face(checked(code)), "name": card_name(code)}
    return SafeString(render_to_string("games/_table_card.html", {"card": face, "extra": extra}).strip())


@register.simple_tag
def cards(codes: str) -> SafeString:
    """A row of cards, e.g. a hand: {% cards "KH TS 7C" %}."""
    return format_html(
        '<span class="card-row">{}</span>', format_html_join("", "{}", ((card(c),) for c in codes.split()))
    )


@register.simple_tag
def played(code: str, who: str, holder: bool = False, top: bool = False) -> SafeString:
    """A card on the table with who played it, ringed in gold like the table page does for
    the player holding the trick (holder=True) or, in americana, the pile's top card (top=True)."""
    marked = _("holds the trick") if holder else _("top of the pile") if top else ""
    return format_html(
        '<span class="played-card{}">{}<span class="played-card__who">{}</span>{}</span>',
        " is-holder" if marked else "",
        card(code),
        who,
        # The ring says it to the eye; this says it to a screen reader.
        format_html('<span class="visually-hidden"> ({})</span>', marked) if marked else "",
    )
