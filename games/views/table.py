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

from .. import services
from ..api import visible_table
from ..presenters import table_json

RULESET_NAMES = {"septica": "Șeptică", "familie": "Șeptică în familie", "americana": "Șeptică americană"}


@require_safe
def table_page(request, table_id: int):
    try:
        table = visible_table(request, table_id)
    except services.NotFound:
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


# --- the words the script shows ------------------------------------------------------
def js_strings() -> dict[str, str]:
    """Every sentence table.js may show, translated here; %(name)s fills in."""
    return {
        "you": _("you"),
        "bot": _("bot"),
        "standing_in": _("bot standing in"),
        "free_seat": _("free seat"),
        "reserved": _("kept for a player"),
        "seat_n": _("Seat %(n)s"),
        "points_n": _("%(n)s pts"),
        "passed": _("passed"),
        "to_move": _("to move"),
        "holds": _("holds the trick"),
        "leader": _("leads"),
        "dealer": _("dealer"),
        "stock_n": _("Stock: %(n)s"),
        "pile_n": _("Pile: %(n)s"),
        "removed": _("Taken out:"),
        "suit_in_force": _("Suit to follow:"),
        "any_suit": _("any suit (joker)"),
        "attack_draw": _("%(name)s must take %(n)s cards, or pass them on"),
        "attack_draw_you": _("You must take %(n)s cards, or pass them on"),
        "attack_skip": _("%(name)s misses a turn, unless they answer with an ace"),
        "attack_skip_you": _("You miss this turn, unless you answer with an ace"),
        "trick_empty": _("No cards on the table yet"),
        "drop_here": _("Drop a card here to play it"),
        "your_turn": _("Your turn"),
        "your_turn_play": _("Your turn: play a card."),
        "your_turn_decide": _("Your turn: continue the trick with %(rank)s, or end it (Gata)."),
        "your_turn_take": _("You won the trick: take it (Ia)."),
        "your_turn_cut": _("Your turn: cut with %(rank)s, a seven or a joker, or pass."),
        "your_turn_americana": _("Your turn: play a card, or draw."),
        "waiting_for": _("Waiting for %(name)s."),
        "time_left": _("%(time)s left"),
        "play": _("Play"),
        "play_card": _("Play %(card)s"),
        "pick_first": _("Pick a card to play"),
        "take": _("Ia — Take the trick"),
        "end": _("Gata — end the trick"),
        "pass": _("Pass"),
        "pass_skip": _("Pass — sit the turn out"),
        "draw": _("Draw a card"),
        "draw_n": _("Take the %(n)s cards waiting"),
        "choose_suit": _("Name the suit to follow"),
        "cancel": _("Cancel"),
        "your_hand": _("Your hand"),
        "picked": _("%(card)s picked up. Press Play, drag it to the middle, or use the arrow keys to move it."),
        "put_down": _("%(card)s put down."),
        "moved_to": _("%(card)s moved to place %(n)s."),
        "not_your_turn": _("It is not your turn."),
        "network": _("The server could not be reached; trying again."),
        "gone": _("This table is no longer available."),
        "join": _("Take a seat"),
        "leave": _("Leave the table"),
        "log_in_to_play": _("Log in to take a seat"),
        "spectating": _("You are watching this table."),
        "copy": _("Copy"),
        "copied": _("Copied"),
        "invite": _("Invite link"),
        "aborted": _("This table was closed before the match started."),
        "deal_over": _("Deal %(n)s is over"),
        "match_over": _("The match is over"),
        "winners": _("Winner: %(names)s"),
        "winners_many": _("Winners: %(names)s"),
        "nobody_won": _("Nobody won this match."),
        "rematch": _("Rematch"),
        "replay": _("Watch the replay"),
        "close": _("Close"),
        "scores": _("Scores"),
        "score": _("Score"),
        "last_deal": _("Last deal"),
        "this_deal": _("This deal"),
        "player": _("Player"),
        "went_out": _("%(name)s went out"),
        "nobody_out": _("Nobody went out"),
        "charged": _("charged %(n)s"),
        "points_word": _("%(n)s points"),
        "deal_n": _("Deal %(n)s"),
        "log_play": _("%(name)s played %(card)s"),
        "log_cut": _("%(name)s cut with %(card)s"),
        "log_seven": _("%(name)s played %(card)s and asked for %(suit)s"),
        "log_end": _("%(name)s ended the trick (Gata)"),
        "log_take": _("%(name)s took the trick"),
        "log_take_points": _("%(name)s took the trick (+%(n)s)"),
        "log_trick_points": _("%(name)s took the trick: %(n)s points"),
        "log_draw": _("%(name)s drew %(n)s"),
        "log_draw_written_off": _("%(name)s drew %(n)s (%(off)s written off)"),
        "log_refill": _("Everyone drew back up from the stock"),
        "log_pass": _("%(name)s passed"),
        "log_pass_skip": _("%(name)s sat the turn out"),
        "log_pass_written_off": _("%(name)s passed; the %(n)s cards waiting are written off"),
        "log_remove": _("Taken out of the deck: %(cards)s"),
        "log_deal": _("New deal"),
        "log_turn_up": _("Turned up: %(card)s"),
        "log_bury": _("%(card)s went to the bottom of the stock"),
        "log_reshuffle": _("The pile was shuffled into a new stock"),
        "log_deal_over": _("The deal is over"),
        "rank_names": {rank: name for rank, name in zip("23456789TJQKAX", rank_names(), strict=True)},
        "a_rank": {rank: name for rank, name in zip("23456789TJQKAX", a_rank_names(), strict=True)},
        "suit_names": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
        "card_name": _("%(rank)s of %(suit)s"),
        "red_joker": _("red joker"),
        "black_joker": _("black joker"),
        "or": _("or"),
        "recent_moves": _("Recent moves"),
        "no_moves": _("No moves yet."),
    }


def rank_names() -> list[str]:
    numbers = [str(n) for n in range(2, 11)]
    return [*numbers, _("jack"), _("queen"), _("king"), _("ace"), _("joker")]


def a_rank_names() -> list[str]:
    return [_("a two"), _("a three"), _("a four"), _("a five"), _("a six"), _("a seven"), _("an eight"),
            _("a nine"), _("a ten"), _("a jack"), _("a queen"), _("a king"), _("an ace"), _("a joker")]


# --- card faces for the first, server-drawn picture ----------------------------------
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_face(code: str) -> dict:
    """What the card partial needs: the same face static/js/table-cards.js draws."""
    rank, suit = code[0], code[1]
    if rank == "X":
        return {"code": code, "joker": True, "red": suit == "R", "rank": "★", "suit": "", "name": code}
    red = suit in "DH"
    return {"code": code, "joker": False, "red": red, "rank": "10" if rank == "T" else rank,
            "suit": SUIT_SYMBOLS[suit], "name": code}


urlpatterns = [
    path("tables/<int:table_id>/", table_page, name="table"),
    path("tables/<int:table_id>/invite/<str:code>/", table_invite, name="table_invite"),
]
