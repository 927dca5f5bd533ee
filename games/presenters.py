"""What a viewer may know about a table, as JSON-ready dicts.

The API, the pages and the websocket all describe tables through these
functions, so hidden cards are kept out in one place: the only cards that
leave are those in the engine's `view` for the viewer's own seat.
"""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.translation import gettext as _

from players.bot_ratings import published_rating

from .bot_names import badge, bot_names, rated_level
from .leaving_view import leaving_json, load_reliability, profile_url, seat_reliability
from .models import Match, Seat, Table, TableStatus
from .words.summaries import summary_words


def seat_json(seat: Seat, viewer_id: int | None, bot_name: str | None, *, rules: str | None = None) -> dict:
    """One seat as the viewer sees it; `bot_name` is a bot seat's first name, from
    `bot_names_of` over all the table's seats (`seats_json` does both at once);
    `rules`, the table's rule set, puts a bot's published rating in its badge."""
    bot = None
    if seat.bot_level:
        name = bot_name
        rating = published_rating(rules, seat.bot_level) if rules else None
        level = seat.get_bot_level_display()
        rated = rated_level(level, rating, _("%(level)s ≈ %(rating)s"))
        kind, bot = "bot", {
            "level": seat.bot_level, "style": seat.bot_style, "name": name,
            "badge": badge(level, seat.get_bot_style_display(), _("%(level)s, %(style)s"), rated), "rating": rating,
        }
    elif seat.user_id:
        kind, name = "person", seat.user.shown_name
    else:
        kind, name = "free", None
    return {
        "seat": seat.number,
        "kind": kind,
        "name": name,
        "user_id": seat.user_id,
        "bot": bot,
        "standing_in": seat.standing_in,
        "you": viewer_id is not None and seat.user_id == viewer_id,
        "reserved": seat.reserved_for_id is not None and seat.user_id is None,
        "reserved_for_you": viewer_id is not None and seat.user_id is None and seat.reserved_for_id == viewer_id,
        "resigned": seat.resigned,
        "reliability": seat_reliability(seat) if seat.user_id else None,
        "profile_url": profile_url(seat.user.username) if seat.user_id and not seat.bot_level else None,
    }


def bot_names_of(seats) -> dict[int, str]:
    """The first name of each bot among one table's seats (games/bot_names.py)."""
    seats = list(seats)
    if not any(seat.bot_level for seat in seats):
        return {}
    return bot_names(
        seats[0].table_id,
        [seat.number for seat in seats if seat.bot_level],
        [seat.user.shown_name for seat in seats if seat.user_id and not seat.bot_level],
    )


def seats_json(seats: list[Seat], viewer_id: int | None, *, rules: str | None = None) -> list[dict]:
    names = bot_names_of(seats)
    return [seat_json(seat, viewer_id, names.get(seat.number), rules=rules) for seat in seats]


def table_url(table_id: int) -> str:
    # Every view of every move carries it: resolved once per table, not per viewer.
    return _table_url_under(get_script_prefix(), table_id)


@lru_cache(maxsize=4096)
def _table_url_under(prefix: str, table_id: int) -> str:
    return reverse("table", args=[table_id])


def table_summary(table: Table, viewer=None, seats: list[Seat] | None = None, cache: dict | None = None) -> dict:
    """A table as the lobby and match lists show it: no view, no seed.

    `cache`, a dict kept with one state of the table (a socket server's
    snapshot), shares what its viewers are shown alike: the sockets at a
    table all render the same move, and only the seats' "you" marks, the
    viewer's seat and a finished match's words differ between them."""
    if cache is None:
        summary = _table_summary(table, viewer, seats)
        summary["words"] = summary_words(summary)  # rules, options, time and result in plain words
        return summary
    language = translation.get_language()
    shared = cache.get(("summary", language))
    if shared is None:
        shared = cache[("summary", language)] = _table_summary(table, None, seats)
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    summary = {**shared}
    if viewer_id is not None:
        rows = seats if seats is not None else list(table.seats.all())
        summary["seats"] = [
            seat_json(row, viewer_id, shown["name"], rules=table.rules)
            if viewer_id in (row.user_id, row.reserved_for_id) else shown
            for row, shown in zip(rows, shared["seats"], strict=True)
        ]
        summary["your_seat"] = next((row.number for row in rows if row.user_id == viewer_id), None)
    # The words name the viewer ("You won") only once there is a result.
    key = ("words", language, summary["your_seat"] if summary["result"] else None)
    words = cache.get(key)
    if words is None:
        words = cache[key] = summary_words(summary)
    summary["words"] = words
    return summary


def _table_summary(table: Table, viewer=None, seats: list[Seat] | None = None) -> dict:
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    seats = seats if seats is not None else list(table.seats.all())
    load_reliability(table, seats)  # once per table state: the rows keep it
    match: Match = table.match
    return {
        "id": table.pk,
        "url": table_url(table.pk),
        "rules": table.rules,
        "players": table.players,
        "options": table.options,
        "seconds_per_move": table.seconds_per_move,
        "private": table.private,
        "rated": table.rated,
        "min_reliability": table.min_reliability,
        "status": table.status,
        "created_by": table.created_by.shown_name,
        "rematch_of": table.rematch_of_id,  # None at a new table: a seat kept there is a challenge
        "created_at": table.created_at.isoformat(),
        "seats": seats_json(seats, viewer_id, rules=table.rules),
        "seats_taken": sum(not seat.is_free for seat in seats),
        "seq": match.seq,
        "to_move": match.to_move,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "result": match.result,
        "your_seat": next((seat.number for seat in seats if viewer_id and seat.user_id == viewer_id), None),
    }


def table_json(table: Table, viewer=None, game=None, cache: dict | None = None) -> dict:
    """The full answer for one table: the summary, the seed commitment and the viewer's view.

    `cache`: as for `table_summary`."""
    data = table_summary(table, viewer, cache=cache)
    match: Match = table.match
    data["seed_sha256"] = match.seed_sha256
    if table.status == TableStatus.FINISHED:
        data["seed"] = match.seed
    if table.status == TableStatus.ABORTED and match.abort_reason:
        data["abort_reason"] = match.abort_reason
    if data["your_seat"] is not None and table.private:
        data["invite_url"] = reverse("table_invite", args=[table.pk, table.invite_code])
    data["can_add_bot"] = may_add_bot(table, data, viewer)
    data["view"] = None
    if match.state is not None:
        game = game if game is not None else match.game()
        data["view"] = game.view(data["your_seat"])
    data.update(leaving_json(table, data, data["view"], viewer, cache))  # may_resign, may_abort, abort_request
    return data


def seat_names(summary: dict) -> list[str]:
    """Each seat's name as a sentence says it: the person's or the bot's, else "Seat n"."""
    return [seat["name"] or _("Seat %(n)s") % {"n": seat["seat"] + 1} for seat in summary["seats"]]


def may_add_bot(table: Table, summary: dict, viewer) -> bool:
    """Whether the viewer may seat a bot now: the creator, at an open table, with a seat nobody has or keeps."""
    return (
        viewer is not None and viewer.is_authenticated and viewer.pk == table.created_by_id
        and table.status == TableStatus.OPEN and not table.closed
        and any(seat["kind"] == "free" and not seat["reserved"] for seat in summary["seats"])
    )


def my_table_order(summary: dict) -> tuple:
    """My move first (soonest deadline first), then other running tables, open ones, finished last."""
    mine_to_move = summary["status"] == TableStatus.PLAYING and summary["to_move"] == summary["your_seat"]
    rank = 0 if mine_to_move else {TableStatus.PLAYING: 1, TableStatus.OPEN: 2}.get(summary["status"], 3)
    return (rank, summary["deadline"] or "9999", -summary["id"])
