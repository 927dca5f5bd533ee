"""The table page: rendered from the viewer's engine view, then driven by the API.

The page embeds `table_json` for the viewer (the only cards in it are the
viewer's own and the public ones) and a small config; static/js/table.js
draws it and keeps it current through the JSON API.
"""

from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import Resolver404, path, resolve, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from .. import actions
from ..presenters import table_json
from ..reads import visible_table
from ..words.cards import card_face
from ..words.table_page import js_strings

RULESET_NAMES = {"septica": "Șeptică", "familie": "Șeptică în familie", "americana": "Șeptică americană"}


@require_safe
def table_page(request, table_id: int):
    try:
        table = visible_table(request, table_id)
    except actions.NotFound:
        raise Http404("There is no such table.") from None
    get_token(request)  # the page's script posts with the csrftoken cookie
    data = table_json(table, request.user)
    context = {
        "table": table,
        "data": data,
        "view": data["view"],
        "ruleset_name": RULESET_NAMES.get(table.rules, table.rules),
        "options_in_words": options_in_words(table),
        "rules_url": existing_path(f"/rules/{table.rules}/"),
        "config": page_config(request, table),
        "hand": [card_face(card) for card in (data["view"] or {}).get("hand", [])],
        "trick": [{**card_face(c["card"]), "seat": c["seat"]} for c in (data["view"] or {}).get("table", [])],
        "top": card_face(data["view"]["top"]) if data["view"] and data["view"].get("top") else None,
    }
    return render(request, "games/table.html", context)


@require_safe
def table_invite(request, table_id: int, code: str):
    return redirect(f"/tables/{table_id}/?invite={code}")


def existing_path(url: str) -> str | None:
    """The URL if some page answers it, so the table never links to a 404."""
    try:
        resolve(url)
    except Resolver404:
        return None
    return url


def page_config(request, table) -> dict:
    invite = request.GET.get("invite")
    return {
        "id": table.pk,
        "api": reverse("api_table", args=[table.pk]),
        "invite": invite if invite == table.invite_code else None,
        "logged_in": request.user.is_authenticated,
        "login_url": f"{reverse('login')}?next={request.get_full_path()}",
        "lobby_url": existing_path("/play/"),
        "replay_url": existing_path(f"/tables/{table.pk}/replay/"),
        "ruleset_name": RULESET_NAMES.get(table.rules, table.rules),
        "poll_ms": 2000,
        "text": js_strings(),
    }


# --- the table's options, in plain words ---------------------------------------------
def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def duration_in_words(seconds: int) -> str:
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}


SEPTICA_MATCHES = {
    "points-8": lambda: _("first to 8 points (if several pass 8 in one deal, the highest total wins)"),
    "points-21": lambda: _("first to 21 points (if several pass 21 in one deal, the highest total wins)"),
    "best-of-3": lambda: _("best of 3 deals (a deal is won by the most points; a tied deal does not count)"),
    "best-of-5": lambda: _("best of 5 deals (a deal is won by the most points; a tied deal does not count)"),
    "first-to-10": lambda: _("first to win 10 deals (a tied deal does not count)"),
}


def septica_options(table) -> list[tuple[str, str]]:
    options = table.options
    match = SEPTICA_MATCHES.get(options.get("match"), lambda: options.get("match"))()
    rows = [
        (_("Match"), match),
        (_("Sevens cut"), _("yes, always")),
        (_("Eights cut"), yes_no(options.get("eights_cut"))),
    ]
    if table.players in (3, 5, 6):
        rows.append((_("Eights taken out"), _("two, shown to everyone at each deal")))
    if options.get("teams"):
        half = table.players // 2
        pairs = ", ".join(f"{seat + 1}+{seat + half + 1}" for seat in range(half))
        rows.append((_("Teams"), _("yes: partners sit opposite (seats %(pairs)s)") % {"pairs": pairs}))
    else:
        rows.append((_("Teams"), _("no, everyone plays for themselves")))
    rows.append((_("Points"), _("each ten and each ace taken is worth one point")))
    return rows


def familie_options(table) -> list[tuple[str, str]]:
    return [
        (_("Match"), _("one deal; the most points wins")),
        (_("Deck"), _("38 cards: sixes to aces and both jokers")),
        (_("Cutting"), _("the led rank, any seven or a joker cuts; a player who passes is out of that trick")),
        (_("Points"), _("each card counts its face: six 6 … ten 10, jack 11, queen 12, king 13, ace 14; jokers 0")),
    ]


def americana_options(table) -> list[tuple[str, str]]:
    options = table.options
    return [
        (_("Match"), _("until someone reaches %(target)d points; the lowest total wins") % {
            "target": options.get("target", 101)}),
        (_("Jokers"), _("yes, a joker makes the next player take five") if options.get("jokers") else _("no")),
        (_("Pairs"), _("yes: a jack may go on a two, a queen on a three, a king on a four")
         if options.get("pairs") else _("no")),
        (_("Jacks draw"), _("yes, a jack makes the next player take two") if options.get("jacks_draw") else _("no")),
        (_("Twos"), _("make the next player take two, unless they answer with another")),
        (_("Aces"), _("make the next player miss a turn, unless they answer with an ace")),
        (_("Sevens"), _("go on anything and name the suit to follow")),
    ]


OPTION_WORDS = {"septica": septica_options, "familie": familie_options, "americana": americana_options}


def options_in_words(table) -> list[tuple[str, str]]:
    rows = [(_("Players"), str(table.players))]
    rows += OPTION_WORDS.get(table.rules, lambda t: [])(table)
    rows.append((_("Time per move"), duration_in_words(table.seconds_per_move)))
    rows.append((_("Table"), _("private: by invitation") if table.private else _("public: listed in the lobby")))
    return rows


urlpatterns = [
    path("tables/<int:table_id>/", table_page, name="table"),
    path("tables/<int:table_id>/invite/<str:code>/", table_invite, name="table_invite"),
]
