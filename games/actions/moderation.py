"""What moderators do to tables and players, and the reports players send them.

Like the other actions, every function here runs in one transaction, locks
what it changes, writes its `ModerationAction` (the audit log) in that same
transaction, and announces the change only after commit. The admin
(games/admin.py) and the report form only parse and call these.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import BadRequest, Conflict, NotAllowed, NotFound
from ..models import (
    BotLevel,
    BotStyle,
    ChatLine,
    Match,
    ModerationAction,
    ModerationKind,
    Report,
    Seat,
    Table,
    TableStatus,
)
from . import on_commit
from .checks import check_may_play

MODERATE_PERMISSION = "games.moderate"
MAX_REASON_CHARS = 2000
MAX_MUTE_DAYS = 365
UNFINISHED = (TableStatus.OPEN, TableStatus.PLAYING)


def is_moderator(user) -> bool:
    return bool(user is not None and user.is_active and user.is_staff and user.has_perm(MODERATE_PERMISSION))


def check_moderator(user) -> None:
    if not is_moderator(user):
        raise NotAllowed(_("Only moderators can do this."))


def check_reason(reason) -> str:
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise BadRequest(_("Give a reason."))
    if len(reason) > MAX_REASON_CHARS:
        raise BadRequest(_("A reason may be at most %(n)d characters.") % {"n": MAX_REASON_CHARS})
    return reason


def _audit(moderator, kind: str, reason: str, **about) -> ModerationAction:
    return ModerationAction.objects.create(moderator=moderator, kind=kind, reason=reason, **about)


def _locked_table_and_match(table_id: int) -> tuple[Table, Match]:
    # The match before its seats, in the order the move actions lock them.
    match = Match.objects.select_for_update().select_related("table").filter(pk=table_id).first()
    if match is None:
        raise NotFound(_("There is no such table."))
    return match.table, match


# --- tables ---------------------------------------------------------------------------
def abort_table(moderator, table_id: int, reason) -> Table:
    """End the match without a result; the players see the reason on the table page."""
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        table, match = _locked_table_and_match(table_id)
        if table.status not in UNFINISHED:
            raise Conflict(_("This table is already over."))
        table.status = TableStatus.ABORTED
        table.save(update_fields=["status"])
        match.abort_reason, match.deadline, match.finished_at = reason, None, timezone.now()
        match.save(update_fields=["abort_reason", "deadline", "finished_at"])
        _audit(moderator, ModerationKind.ABORT, reason, table=table, seq=match.seq)
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
    return table


def set_table_flag(moderator, table_id: int, kind: str, reason) -> Table:
    """Hide the table from the lobby (or show it again), close it to new players (or reopen it)."""
    field, value = TABLE_FLAGS[kind]
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        table, match = _locked_table_and_match(table_id)
        setattr(table, field, value)
        table.save(update_fields=[field])
        _audit(moderator, kind, reason, table=table, seq=match.seq)
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
    return table


TABLE_FLAGS = {
    ModerationKind.HIDE: ("hidden", True),
    ModerationKind.SHOW: ("hidden", False),
    ModerationKind.CLOSE: ("closed", True),
    ModerationKind.REOPEN: ("closed", False),
}


def remove_player(moderator, table_id: int, seat_number: int, reason) -> Seat:
    """A Medium, Balanced bot takes the person's seat for good, so the match goes on without them."""
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        table, match = _locked_table_and_match(table_id)
        seat = Seat.objects.select_for_update().filter(table=table, number=seat_number).first()
        if seat is None or seat.user_id is None:
            raise BadRequest(_("Nobody sits in that seat."))
        if table.status not in UNFINISHED:
            raise Conflict(_("This table is already over."))
        removed_id = seat.user_id
        seat.user, seat.reserved_for, seat.standing_in = None, None, False
        seat.bot_level, seat.bot_style = BotLevel.MEDIUM, BotStyle.BALANCED
        seat.save(update_fields=["user", "reserved_for", "standing_in", "bot_level", "bot_style"])
        _audit(moderator, ModerationKind.REMOVE_PLAYER, reason, table=table, seq=match.seq, user_id=removed_id,
               seat=seat.number)
        _bot_takes_turn_on_commit(table, match, seat.number)
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
        on_commit.matches_changed(removed_id, table.pk)  # they no longer sit there
    return seat


def _bot_takes_turn_on_commit(table: Table, match: Match, seat_number: int) -> None:
    """If it is that seat's move, queue the bot's turn (nothing else would: no move was made)."""
    if table.status == TableStatus.PLAYING and match.to_move == seat_number:
        on_commit.turn_changed(match.pk, match.seq)


# --- players ----------------------------------------------------------------------------
def suspend_user(moderator, user_id: int, reason, until: datetime) -> None:
    """No creating, joining or moving until `until`; a bot stands in at their unfinished tables."""
    if not isinstance(until, datetime) or until <= timezone.now():
        raise BadRequest(_("A suspension must end in the future."))
    _restrict(moderator, user_id, reason, ModerationKind.SUSPEND, suspended_until=until)


def ban_user(moderator, user_id: int, reason) -> None:
    """No creating, joining or moving ever again (until lifted); a bot stands in at their tables."""
    _restrict(moderator, user_id, reason, ModerationKind.BAN, banned=True)


def _restrict(moderator, user_id: int, reason, kind: str, **fields) -> None:
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        user = _locked_user(user_id)
        if user.pk == moderator.pk:
            raise BadRequest(_("You cannot suspend or ban yourself."))
        for name, value in fields.items():
            setattr(user, name, value)
        user.save(update_fields=list(fields))
        _audit(moderator, kind, reason, user=user, until=fields.get("suspended_until"))
        _bots_stand_in_for(user)


def lift_suspension(moderator, user_id: int, reason) -> None:
    """They may play again; where a bot stands in for them they take their seat back as usual."""
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        user = _locked_user(user_id)
        if user.play_refusal is None and user.suspended_until is None:
            raise Conflict(_("%(name)s is neither suspended nor banned.") % {"name": user.username})
        user.suspended_until, user.banned = None, False
        user.save(update_fields=["suspended_until", "banned"])
        _audit(moderator, ModerationKind.LIFT, reason, user=user)


def mute(moderator, user_id: int, days, reason):
    """No chat lines from them for `days` days (every other part of the site stays open to them)."""
    check_moderator(moderator)
    reason = check_reason(reason)
    if type(days) is not int or not 1 <= days <= MAX_MUTE_DAYS:
        raise BadRequest(_("A mute lasts from 1 to %(n)d days.") % {"n": MAX_MUTE_DAYS})
    with transaction.atomic():
        user = _locked_user(user_id)
        if user.pk == moderator.pk:
            raise BadRequest(_("You cannot mute yourself."))
        user.chat_muted_until = timezone.now() + timedelta(days=days)
        user.save(update_fields=["chat_muted_until"])
        _audit(moderator, ModerationKind.MUTE, reason, user=user, until=user.chat_muted_until)
    return user


def unmute(moderator, user_id: int, reason):
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        user = _locked_user(user_id)
        if user.chat_muted_until is None or user.chat_muted_until <= timezone.now():
            raise Conflict(_("%(name)s is not muted.") % {"name": user.username})
        user.chat_muted_until = None
        user.save(update_fields=["chat_muted_until"])
        _audit(moderator, ModerationKind.UNMUTE, reason, user=user)
    return user


def _locked_user(user_id: int):
    user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise NotFound(_("There is no such user."))
    return user


def _bots_stand_in_for(user) -> None:
    """A bot plays each of the user's unfinished seats, as when their clock runs out."""
    table_ids = list(
        Seat.objects.filter(user=user, standing_in=False, table__status__in=UNFINISHED)
        .order_by("table_id").values_list("table_id", flat=True)
    )
    for table_id in table_ids:
        table, match = _locked_table_and_match(table_id)
        seat = Seat.objects.select_for_update().filter(table=table, user=user).first()
        if seat is None or table.status not in UNFINISHED:
            continue
        seat.standing_in = True
        seat.save(update_fields=["standing_in"])
        _bot_takes_turn_on_commit(table, match, seat.number)
        on_commit.table_changed(table.pk)


# --- reports ------------------------------------------------------------------------------
def report_player(reporter, table_id: int, seat_number, reason) -> Report:
    """A player's complaint about the person at a seat, recorded at the match's current move."""
    check_may_play(reporter)
    reason = check_reason(reason)
    if type(seat_number) is not int:
        raise BadRequest(_("Pick the player you are reporting."))
    with transaction.atomic():
        table, match = _locked_table_and_match(table_id)
        seats = list(table.seats.all())
        if table.private and not any(seat.user_id == reporter.pk for seat in seats):
            raise NotFound(_("There is no such table."))
        seat = next((seat for seat in seats if seat.number == seat_number), None)
        if seat is None or seat.user_id is None:
            raise BadRequest(_("Nobody sits in that seat: only a person can be reported."))
        if seat.user_id == reporter.pk:
            raise BadRequest(_("You cannot report yourself."))
        if Report.objects.filter(table=table, reporter=reporter, reported_id=seat.user_id,
                                 resolved_at__isnull=True).exists():
            raise Conflict(_("You have already reported this player at this table; a moderator will look at it."))
        # Under the match's lock: the chat read is the chat as it stood when the report was made.
        chat_until = ChatLine.objects.filter(table=table).order_by("-pk").values_list("pk", flat=True).first()
        return Report.objects.create(table=table, seq=match.seq, reporter=reporter, reported_id=seat.user_id,
                                     reason=reason, chat_until=chat_until)


def resolve_report(moderator, report_id: int, reason) -> Report:
    check_moderator(moderator)
    reason = check_reason(reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise NotFound(_("There is no such report."))
        if report.resolved_at is not None:
            raise Conflict(_("This report is already resolved."))
        report.resolved_at, report.resolved_by = timezone.now(), moderator
        report.save(update_fields=["resolved_at", "resolved_by"])
        _audit(moderator, ModerationKind.RESOLVE_REPORT, reason, table_id=report.table_id, seq=report.seq,
               user_id=report.reported_id, report=report)
    return report
