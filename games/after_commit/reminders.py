"""Reminders that time for a move is running out, at correspondence tables.

At a table with at least REMINDER_MIN_SECONDS_PER_MOVE a move (an hour by
default), the person to move is reminded when half of the time for the move
is left, and again when a tenth is: by web push to their devices, or by
e-mail when they have none (within the "your move" e-mails' limits), and in
the notifications page either way. Nobody is reminded while a socket of theirs
is at the table: they see the clock.

Reminders close enough to come go out as countdown tasks from `schedule`
(queued where the turn's deadline is, games/after_commit/turns.py); the rest
are found by the sweeper task `games.tasks.send_reminders`. Either way `remind`
claims the row ReminderSent(match, seq, which) first, so a reminder goes out
once however many tasks ask for it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from notify.models import Channel, NotificationKind
from notify.notifications import has_push, notify, wants
from septica_site.celery import app

from ..models import Match, ReminderSent, Seat
from ..words.durations import LONG, duration_in_words
from . import your_move

logger = logging.getLogger(__name__)

# The share of the time for a move still left when each reminder goes out, latest last.
SHARES = {"half": 0.5, "tenth": 0.1}
REMIND_TASK = "games.tasks.remind"  # games/tasks.py
# A countdown may fire a moment early (clocks, brokers): this much early still counts.
EARLY_SECONDS = 2


def applies(seconds_per_move: int) -> bool:
    return seconds_per_move >= settings.REMINDER_MIN_SECONDS_PER_MOVE


def moment(deadline: datetime, seconds_per_move: int, which: str) -> datetime:
    return deadline - timedelta(seconds=SHARES[which] * seconds_per_move)


def due(deadline: datetime, seconds_per_move: int, now: datetime) -> str | None:
    """The latest reminder whose moment has come and whose deadline has not, if any."""
    if not applies(seconds_per_move) or deadline <= now:
        return None
    early = now + timedelta(seconds=EARLY_SECONDS)
    passed = [which for which in SHARES if moment(deadline, seconds_per_move, which) <= early]
    return passed[-1] if passed else None


def schedule(match_id: int, seq: int, deadline: datetime | None, seconds_per_move: int) -> None:
    """Queue the countdowns of the reminders due within the countdown limit (the sweeper sends the rest)."""
    if deadline is None or not applies(seconds_per_move):
        return
    latest = timezone.now() + timedelta(seconds=settings.DEADLINE_COUNTDOWN_MAX_SECONDS)
    for which in SHARES:
        eta = moment(deadline, seconds_per_move, which)
        if eta <= latest:
            app.send_task(REMIND_TASK, (match_id, seq, which), eta=eta, retry=False)


def remind(match_id: int, seq: int, which: str) -> bool:
    """Remind the person to move at `seq` if `which` is due and was not sent; True when sent."""
    found = your_move.person_to_move(match_id, seq, None)
    if found is None or which not in SHARES:
        return False
    match, seat = found
    table = match.table
    if match.deadline is None or due(match.deadline, table.seconds_per_move, timezone.now()) != which:
        return False
    if your_move.is_present(match.pk, seat.user_id) or not _claim(match, which):
        return False
    _tell(match, seat)
    logger.info("reminder %s sent for match %s seq %s", which, match.pk, seq)
    return True


def _claim(match: Match, which: str) -> bool:
    """Claim this reminder, and the earlier ones (a late sweep sends only the latest)."""
    earlier = list(SHARES)[: list(SHARES).index(which)]
    try:
        with transaction.atomic():
            ReminderSent.objects.create(match=match, seq=match.seq, which=which)
    except IntegrityError:
        return False  # sent already
    ReminderSent.objects.bulk_create([ReminderSent(match=match, seq=match.seq, which=share) for share in earlier],
                                     ignore_conflicts=True)
    return True


def _tell(match: Match, seat: Seat) -> None:
    user = seat.user
    with translation.override(user.preferred_language or settings.LANGUAGE_CODE):
        title, body = reminder_words(match)
        notify(user, NotificationKind.REMINDER, title=title, body=body,
               url=reverse("table", args=[match.pk]), tag=your_move.table_tag(match.pk))
        if not (has_push(user) and wants(user, NotificationKind.REMINDER, Channel.PUSH)):
            _mail(match, user, title, body)


def reminder_words(match: Match) -> tuple[str, str]:
    left = max(0, int((match.deadline - timezone.now()).total_seconds()))
    title = _("Time is running out at Table %(table)s") % {"table": match.pk}
    body = _("%(time_left)s left for your move. When it runs out, a bot plays for you until you come back.") % {
        "time_left": duration_in_words(left, LONG, parts=2)}
    return title, body


def _mail(match: Match, user, title: str, body: str) -> None:
    if not (user.email and wants(user, NotificationKind.REMINDER, Channel.EMAIL)
            and your_move.address_is_verified(user)):
        return
    if not your_move.claim_email(match, user):
        return
    text = "\n\n".join([body, _("Open the table:") + "\n" + settings.SITE_URL + reverse("table", args=[match.pk]),
                        _("To stop these e-mails, turn off reminders by e-mail in your profile: %(url)s")
                        % {"url": settings.SITE_URL + reverse("profile")}])
    try:
        EmailMessage(title, text, settings.DEFAULT_FROM_EMAIL, [user.email]).send()
    except Exception:
        your_move.release_email(match, user)
        raise
