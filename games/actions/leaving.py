"""Leaving a match fairly: resigning, and aborting (alone while the match is young, else by consent).

Neither is a card move: the engine never hears of them, and no Move row is
logged. A resignation that ends the match writes the result (with the
resigner in "resigned") and the outcomes in one transaction; in a
free-for-all of three or more the seat is marked resigned and a bot plays it
to the end for the others, the resigner ranking last. Who may abort alone and
what a resignation makes of the result are decided in games/leaving_rules.py.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import sql
from ..errors import BadRequest, Conflict, NotAllowed, NotFound
from ..leaving_rules import abort_alone_allowed, ends_at_once, resigned_result, sides_of
from ..models import AbortAnswer, AbortRequest, AbortRequestStatus, Match, Seat, Table, TableStatus
from . import on_commit
from .checks import check_may_play, hidden_from
from .finish import record_finished


# --- resigning --------------------------------------------------------------------
def resign(table_id, user) -> Match:
    """The user resigns: their side loses now (two players, teams), or a bot plays their seat to the end."""
    check_may_play(user)
    with transaction.atomic():
        match, seats, mine = _my_playing_seat(table_id, user)
        if mine.resigned:
            raise Conflict(_("You have already resigned this match: a bot plays your seat to the end."),
                           code="already_resigned")
        game = match.game()
        view = game.view(None)
        mine.resigned = True
        if ends_at_once(view, match.table.players) or not _plays_on_without(seats):
            _end_by_resignation(match, seats, view)
        else:
            _bot_plays_on(match, mine)
        on_commit.table_changed(match.pk)
        on_commit.lobby_changed(match.pk)
    return match


def _plays_on_without(seats: list[Seat]) -> bool:
    """A free-for-all goes on while two seats still play and a person is among them;
    else there is nobody left to play it out for, and it ends."""
    staying = [seat for seat in seats if not seat.resigned]
    return len(staying) >= 2 and any(seat.user_id is not None for seat in staying)


def _end_by_resignation(match: Match, seats: list[Seat], view: dict) -> None:
    table = match.table
    resigned = [seat.number for seat in seats if seat.resigned]
    match.result = resigned_result(view["scores"], resigned, sides_of(view, table.players))
    match.finished_at, match.to_move, match.deadline = timezone.now(), None, None
    # Compare-and-set on seq: a move committed since the read would be answered by the engine, not here.
    if not Match.objects.filter(pk=match.pk, seq=match.seq).update(
        result=match.result, finished_at=match.finished_at, to_move=None, deadline=None
    ):
        raise Conflict(_("The table has moved on since you looked."), seq=match.seq)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    table.status = TableStatus.FINISHED
    Seat.objects.filter(table_id=table.pk, number__in=resigned).update(resigned=True)
    _close_requests(table.pk, AbortRequestStatus.WITHDRAWN)
    record_finished(match, table, seats)


def _bot_plays_on(match: Match, mine: Seat) -> None:
    mine.standing_in = True
    Seat.objects.filter(table_id=match.pk, number=mine.number).update(resigned=True, standing_in=True)
    _close_requests(match.pk, AbortRequestStatus.WITHDRAWN)  # the table asked is not the table now
    if match.to_move == mine.number:  # their turn: the bot takes it now
        on_commit.turn_changed(match.pk, match.seq)


def _my_playing_seat(table_id, user) -> tuple[Match, list[Seat], Seat]:
    """The match locked with its seats, and the user's seat in it, while it is being played."""
    try:
        table_id = int(table_id)
    except (TypeError, ValueError):
        raise NotFound(_("There is no such table."), code="no_such_table") from None
    found = sql.locked_match_with_seats(table_id) if 0 < table_id < 2**63 else None
    if found is None:
        raise NotFound(_("There is no such table."), code="no_such_table")
    match, seats = found
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        if hidden_from(match.table, user, seats):
            raise NotFound(_("There is no such table."), code="no_such_table")
        raise NotAllowed(_("You have no seat at this table."), code="not_seated")
    status = match.table.status
    if status == TableStatus.OPEN:
        raise Conflict(_("The match has not started yet: leave the table instead."), code="not_started")
    if status != TableStatus.PLAYING:
        raise Conflict(_("This match is over."), code="match_over")
    return match, seats, mine


# --- aborting ---------------------------------------------------------------------
def abort(table_id, user) -> str:
    """Abort the match alone while it is young ("aborted"), else ask everyone at the table ("asked")."""
    check_may_play(user)
    expire_lapsed(table_id)
    with transaction.atomic():
        match, seats, mine = _my_playing_seat(table_id, user)
        if mine.resigned:
            raise NotAllowed(_("You resigned this match: it is no longer yours to abort."), code="resigned")
        others = _others_to_ask(seats, mine)
        young = abort_alone_allowed(match.table.rules, match.game().view(None))
        if young or not others:
            _abort_now(match, young_reason(match.table.rules, mine) if young else
                       _("Aborted by %(name)s: nobody else at the table was playing.") % {"name": _name(mine)})
            return "aborted"
        _ask(match, mine)
    return "asked"


def young_reason(rules: str, seat: Seat) -> str:
    if rules == "americana":
        return _("Aborted by %(name)s before the fifth turn.") % {"name": _name(seat)}
    return _("Aborted by %(name)s before the second trick.") % {"name": _name(seat)}


def _ask(match: Match, mine: Seat) -> AbortRequest:
    expires_at = timezone.now() + timedelta(seconds=match.table.seconds_per_move)
    try:
        with transaction.atomic():
            request = AbortRequest.objects.create(table_id=match.pk, asked_by_id=mine.user_id, seq=match.seq,
                                                  expires_at=expires_at)
    except IntegrityError:  # one open request per table
        raise Conflict(_("Someone has already asked to abort this match: answer that request."),
                       code="abort_already_asked") from None
    on_commit.abort_asked(request.pk, expires_at, match.table.seconds_per_move)
    on_commit.table_changed(match.pk)
    return request


def answer_abort(table_id, user, accept) -> str:
    """One answer to the open request: "aborted" when it was the last yes, "declined", or "waiting"."""
    check_may_play(user)
    if type(accept) is not bool:
        raise BadRequest(_("Send {\"accept\": true} or {\"accept\": false}."), code="bad_accept")
    expire_lapsed(table_id)
    with transaction.atomic():
        match, seats, mine = _my_playing_seat(table_id, user)
        request = AbortRequest.objects.filter(table_id=match.pk, status=AbortRequestStatus.OPEN).first()
        if request is None:
            raise Conflict(_no_request_words(match.pk), code="no_abort_request")
        if mine.resigned or mine.user_id == request.asked_by_id:
            raise NotAllowed(_("Only the others at the table answer this request."), code="not_asked")
        if request.answers.filter(user_id=user.pk).exists():
            raise Conflict(_("You have already answered this request."), code="already_answered")
        AbortAnswer.objects.create(request=request, user=user, accepted=accept)
        on_commit.table_changed(match.pk)
        if not accept:
            _set_status(request, AbortRequestStatus.DECLINED)
            return "declined"
        asked = {seat.user_id for seat in _others_to_ask(seats, _asker_seat(seats, request))}
        if asked <= set(request.answers.filter(accepted=True).values_list("user_id", flat=True)):
            asker = _asker_seat(seats, request)
            _abort_now(match, _("Aborted: everyone at the table agreed to %(name)s's request.")
                       % {"name": _name(asker) if asker else request.asked_by.shown_name})
            return "aborted"
    return "waiting"


def expire_abort_request(request_id: int) -> bool:
    """The request's time is up (its Celery task): expired, or withdrawn if the match ended first."""
    with transaction.atomic():
        request = AbortRequest.objects.select_for_update().filter(pk=request_id).first()
        if request is None or request.status != AbortRequestStatus.OPEN:
            return False
        if Table.objects.filter(pk=request.table_id, status=TableStatus.PLAYING).exists():
            if request.expires_at > timezone.now():
                return False  # delivered early; the next read or answer checks again
            _set_status(request, AbortRequestStatus.EXPIRED)
        else:
            _set_status(request, AbortRequestStatus.WITHDRAWN)
        on_commit.table_changed(request.table_id)
    return True


def expire_lapsed(table_id) -> bool:
    """Store the expiry of the table's request whose time is up (on every answer and ask: the task may be late)."""
    if not isinstance(table_id, int):
        return False
    with transaction.atomic():
        lapsed = AbortRequest.objects.filter(
            table_id=table_id, status=AbortRequestStatus.OPEN, expires_at__lte=timezone.now()
        ).update(status=AbortRequestStatus.EXPIRED)
        if lapsed:
            on_commit.table_changed(table_id)
    return bool(lapsed)


def _no_request_words(table_id: int) -> str:
    last = AbortRequest.objects.filter(table_id=table_id).values_list("status", flat=True).first()
    if last == AbortRequestStatus.EXPIRED:
        return _("That request has expired: the match goes on.")
    if last == AbortRequestStatus.DECLINED:
        return _("That request was declined: the match goes on.")
    return _("Nobody has asked to abort this match.")


def _abort_now(match: Match, reason: str) -> None:
    """As a moderator's abort: no result, no outcome, no rating; the reason shown on the table page."""
    table = match.table
    Table.objects.filter(pk=table.pk).update(status=TableStatus.ABORTED)
    table.status = TableStatus.ABORTED
    match.abort_reason, match.deadline, match.finished_at = reason, None, timezone.now()
    match.save(update_fields=["abort_reason", "deadline", "finished_at"])
    _close_requests(table.pk, AbortRequestStatus.ACCEPTED)
    on_commit.table_changed(table.pk)
    on_commit.lobby_changed(table.pk)


def _close_requests(table_id: int, status: str) -> None:
    AbortRequest.objects.filter(table_id=table_id, status=AbortRequestStatus.OPEN).update(status=status)


def _set_status(request: AbortRequest, status: str) -> None:
    request.status = status
    request.save(update_fields=["status"])


def _others_to_ask(seats: list[Seat], asker: Seat | None) -> list[Seat]:
    """Everyone who still plays here, the asker aside (those who resigned have left; bots have no say)."""
    return [seat for seat in seats if seat.user_id is not None and not seat.resigned
            and (asker is None or seat.user_id != asker.user_id)]


def _asker_seat(seats: list[Seat], request: AbortRequest) -> Seat | None:
    return next((seat for seat in seats if seat.user_id == request.asked_by_id), None)


def _name(seat: Seat) -> str:
    return seat.user.shown_name
