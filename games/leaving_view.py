"""What a table's JSON says about leaving it: each person's reliability and profile,
and whether the viewer may resign or abort, and the open abort request.

Read once per table state and kept on the rows (`load_leaving_state`), so a
socket server shares them between its sockets and never reads the database
on its event loop (games/consumers/table.py loads them on a database thread
first).
"""

from __future__ import annotations

import threading
import time
from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils import timezone

from players.reliability import reliabilities

from .leaving_rules import abort_alone_allowed
from .models import AbortRequest, AbortRequestStatus, ModerationAction, ModerationKind, Seat, Table, TableStatus

# Reliability moves only when one of a person's matches ends: a minute's staleness in a
# seat is harmless and spares every move the person rows' reads. join_table reads it fresh.
RELIABILITY_SECONDS = 60.0
_RELIABILITY_KEY = "reliability_percent"  # on each person's Seat row, once read
_REQUEST_KEY = "open_abort_request"  # on the Table row: a dict, or None
_ABORT_BY_KEY = "aborted_by"  # on the Table row: "moderator", "players" or None

_recent: dict[int, tuple[float, int | None]] = {}
_recent_lock = threading.Lock()
LIVE = (TableStatus.OPEN, TableStatus.PLAYING)


def load_leaving_state(table: Table, seats: list[Seat] | None = None) -> None:
    """Read what the presenters need (reliability, the open request) onto the rows, if not yet there."""
    seats = seats if seats is not None else list(table.seats.all())
    load_reliability(table, seats)
    if _REQUEST_KEY not in table.__dict__:
        table.__dict__[_REQUEST_KEY] = _open_request(table) if table.status == TableStatus.PLAYING else None
    if _ABORT_BY_KEY not in table.__dict__:
        table.__dict__[_ABORT_BY_KEY] = _aborted_by(table)


def note_open_request(table: Table, request_id: int | None) -> None:
    """A read of the table's rows said whether an abort request is open (games/sql): when
    none is, the answer's "abort_request" needs no read of its own; one that is is read as ever."""
    if request_id is None:
        table.__dict__.setdefault(_REQUEST_KEY, None)


def carry_leaving_state(before: Table, after: Table) -> None:
    """Give `after`, the same table one move on, what was read for `before`: a card move
    changes neither an abort request nor anyone's reliability (those writes announce a table
    change, and the sockets read the table afresh then), so the move path reads nothing more."""
    if before.pk != after.pk or before.status != after.status or not leaving_state_loaded(before):
        return
    for key in (_REQUEST_KEY, _ABORT_BY_KEY):
        after.__dict__.setdefault(key, before.__dict__[key])
    known = {seat.user_id: seat.__dict__[_RELIABILITY_KEY] for seat in before.seats.all() if seat.user_id is not None}
    for seat in after.seats.all():
        if seat.user_id in known:
            seat.__dict__.setdefault(_RELIABILITY_KEY, known[seat.user_id])


def _aborted_by(table: Table) -> str | None:
    """Who stopped an aborted match: a moderator (their audit log says so) or its players."""
    if table.status != TableStatus.ABORTED or not table.match.abort_reason:
        return None
    by_moderator = ModerationAction.objects.filter(table_id=table.pk, kind=ModerationKind.ABORT).exists()
    return "moderator" if by_moderator else "players"


def leaving_state_loaded(table: Table) -> bool:
    return _REQUEST_KEY in table.__dict__ and _ABORT_BY_KEY in table.__dict__ and all(
        _RELIABILITY_KEY in seat.__dict__ for seat in table.seats.all() if seat.user_id is not None
    )


def load_reliability(table: Table, seats: list[Seat]) -> None:
    load_reliabilities([(table, seats)])


def load_reliabilities(tables_and_seats) -> None:
    """Every person's reliability onto the seats of many tables (a list of tables): one read for all."""
    missing = []
    for table, seats in tables_and_seats:
        unread = [seat for seat in seats if seat.user_id is not None and _RELIABILITY_KEY not in seat.__dict__]
        if table.status not in LIVE:  # who kept their word matters while people choose tables and play
            for seat in unread:
                seat.__dict__[_RELIABILITY_KEY] = None
        else:
            missing += unread
    if not missing:
        return
    percents = _percents({seat.user_id for seat in missing})
    for seat in missing:
        seat.__dict__[_RELIABILITY_KEY] = percents[seat.user_id]


def _percents(user_ids: set[int]) -> dict[int, int | None]:
    now = time.monotonic()
    with _recent_lock:
        found = {uid: hit[1] for uid in user_ids if (hit := _recent.get(uid)) and now - hit[0] < RELIABILITY_SECONDS}
    read = {uid: kept.percent for uid, kept in reliabilities(user_ids - found.keys()).items()}
    with _recent_lock:
        if len(_recent) > 50_000:
            _recent.clear()
        _recent.update({uid: (now, percent) for uid, percent in read.items()})
    return {**found, **read}


def forget_reliabilities() -> None:
    """This process reads everyone's again (between tests: user ids come back after a rollback)."""
    with _recent_lock:
        _recent.clear()


def seat_reliability(seat: Seat) -> int | None:
    return seat.__dict__.get(_RELIABILITY_KEY)


def profile_url(username: str) -> str:
    # Every seat of every view carries it: resolved once per name, as table_url is per table.
    return _profile_url_under(get_script_prefix(), username)


@lru_cache(maxsize=4096)
def _profile_url_under(prefix: str, username: str) -> str:
    return reverse("player", args=[username])


def _open_request(table: Table) -> dict | None:
    request = (
        AbortRequest.objects.filter(table_id=table.pk, status=AbortRequestStatus.OPEN)
        .select_related("asked_by").first()
    )
    if request is None:
        return None
    return {
        "id": request.pk,
        "asked_by_id": request.asked_by_id,
        "asked_by": request.asked_by.shown_name,
        "expires_at": request.expires_at,
        "answered_by": list(request.answers.values_list("user_id", flat=True)),
    }


def open_request(table: Table) -> dict | None:
    """The open, unexpired abort request (as load_leaving_state read it)."""
    if _REQUEST_KEY not in table.__dict__:
        load_leaving_state(table)
    request = table.__dict__[_REQUEST_KEY]
    if request is None or table.status != TableStatus.PLAYING or request["expires_at"] <= timezone.now():
        return None  # an expired request is over the moment it expires; the task or next answer stores it
    return request


def leaving_json(table: Table, summary: dict, view: dict | None, viewer, cache: dict | None = None) -> dict:
    """The table JSON's "may_resign", "may_abort" and "abort_request" for this viewer.

    `cache`, kept with one state of the table (as for presenters.table_summary): whether
    the match is young enough to abort alone depends only on what everyone sees."""
    request = open_request(table)
    mine = _my_seat(table, summary)
    playing = table.status == TableStatus.PLAYING and mine is not None and not mine.resigned
    may_abort = None
    if playing and request is None:
        alone = cache.get("abort_alone") if cache is not None else None
        if alone is None:
            alone = view is not None and abort_alone_allowed(table.rules, view)
            if cache is not None:
                cache["abort_alone"] = alone
        may_abort = "alone" if alone or not _others_to_ask(table, mine) else "ask"
    if _ABORT_BY_KEY not in table.__dict__:
        load_leaving_state(table)
    return {
        "abort_by": table.__dict__[_ABORT_BY_KEY],
        "may_resign": playing,
        "may_abort": may_abort,
        "abort_request": None if request is None else _request_json(table, request, mine),
    }


def _my_seat(table: Table, summary: dict) -> Seat | None:
    if summary["your_seat"] is None:
        return None
    return next((seat for seat in table.seats.all() if seat.number == summary["your_seat"]), None)


def _others_to_ask(table: Table, mine: Seat) -> list[Seat]:
    return [seat for seat in table.seats.all()
            if seat.user_id is not None and not seat.resigned and seat.user_id != mine.user_id]


def _request_json(table: Table, request: dict, mine: Seat | None) -> dict:
    by_user = {seat.user_id: seat.number for seat in table.seats.all() if seat.user_id is not None}
    answered = sorted(by_user[uid] for uid in request["answered_by"] if uid in by_user)
    asked_by = by_user.get(request["asked_by_id"])
    you_may_answer = (
        mine is not None and not mine.resigned and mine.number != asked_by
        and mine.user_id not in request["answered_by"]
    )
    return {
        "asked_by": request["asked_by"],
        "asked_by_seat": asked_by,
        "expires_at": request["expires_at"].isoformat(),
        "answered": answered,
        "you_may_answer": you_may_answer,
    }
