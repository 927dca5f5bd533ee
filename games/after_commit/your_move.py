"""E-mails saying "your move" to people who are away from their table.

After every committed change `queue_check` queues one check for a little
later (`YOUR_MOVE_EMAIL_DELAY_SECONDS`), so someone sitting at the table or
answering at once never gets mail. The check (`send_if_away`, run by the task
`games.your_move_email` in games/tasks.py, which is sent by name) looks again
at run time: the match still at that
seq, a person (not a bot, nor a bot standing in) to move, wanting e-mail,
with an address confirmed by its link, and no open socket at the table. Limits live in the cache
and are claimed with `cache.add`, which is atomic on Redis and in memory: at
most one e-mail per person per match an hour, `YOUR_MOVE_EMAILS_PER_DAY` a
day. The hourly claim also makes a task delivered twice send one e-mail.
"""

from __future__ import annotations

import contextlib
import logging
import time
from datetime import UTC, datetime

from allauth.account.utils import has_verified_email
from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from septica_site.celery import app
from septica_site.channel_layers import UNREACHABLE

from .. import presence
from ..models import Match, Seat, TableStatus
from ..presenters import seats_json
from ..words.durations import LONG, duration_in_words
from ..words.rulesets import options_in_words, rules_name

logger = logging.getLogger(__name__)

HOUR = 3600
DAY = 86400
YOUR_MOVE_EMAIL_TASK = "games.your_move_email"  # games/tasks.py


def queue_check(match_id: int, seq: int, to_move: int | None, person=None) -> None:
    """Queue the "your move" check for this change; call it after commit.

    `to_move` None means nobody is to move (the match is over): nothing to do.
    `person`, the user to move when the caller has the row, lets the common
    cases queue nothing: someone at the table sees the move come in, and
    someone who wants no e-mail gets none (a queued task costs a broker
    round trip on every move).

    Runs inside the request that moved: with Redis down (the presence it
    reads, the broker it queues on) a reminder is lost, never the answer to
    a stored move.
    """
    if to_move is None:
        return
    try:
        if person is not None and (not wants_your_move_email(person) or is_present(match_id, person.pk)):
            return
        app.send_task(YOUR_MOVE_EMAIL_TASK, (match_id, seq, time.time()),
                      countdown=settings.YOUR_MOVE_EMAIL_DELAY_SECONDS)
    except UNREACHABLE as error:
        logger.warning("no your-move e-mail check for match %s at seq %s: %r", match_id, seq, error)
    except Exception:  # the move is stored; a lost reminder must not fail it
        logger.warning("could not queue the your-move e-mail for match %s", match_id, exc_info=True)


def send_if_away(match_id: int, seq: int, queued_at: float | None = None) -> bool:
    """E-mail the person to move at `seq` if they still are and are away; True when sent.

    `queued_at` (when the change was announced) tells a match that took a
    reused id (a test database, a reset one) from the match the task was for.
    """
    found = _person_to_move(match_id, seq, queued_at)
    if found is None:
        return False
    match, seat = found
    user = seat.user
    if not wants_your_move_email(user) or not address_is_verified(user) or is_present(match.pk, user.pk):
        return False
    if not _claim(match, user):
        return False
    try:
        _message(match, seat).send()
    except Exception:
        _release(match, user)
        raise
    logger.info("your-move e-mail sent for match %s seq %s", match.pk, seq)
    return True


def _person_to_move(match_id: int, seq: int, queued_at: float | None) -> tuple[Match, Seat] | None:
    match = Match.objects.select_related("table").filter(pk=match_id, seq=seq).first()
    if match is None or match.table.status != TableStatus.PLAYING or match.to_move is None:
        return None
    if queued_at is not None and match.started_at is not None and match.started_at.timestamp() > queued_at:
        return None  # another match, started after this task was queued
    seat = Seat.objects.select_related("user").filter(table_id=match.pk, number=match.to_move).first()
    if seat is None or seat.is_bot or seat.standing_in or seat.user is None:
        return None
    return match, seat


def wants_your_move_email(user) -> bool:
    return bool(user.is_active and user.email and user.email_on_your_move)


def address_is_verified(user) -> bool:
    """Whether the account's address was confirmed by its link (allauth): the
    site mails nothing else to an address until then. Checked when the task
    runs, not on the move path, which it would cost a query per move."""
    return has_verified_email(user, user.email)


def is_present(table_id: int, user_id: int) -> bool:
    """Whether the person has a socket open at this table (games.presence, kept by the consumers)."""
    return bool(presence.is_present(table_id, user_id))


# --- limits ---------------------------------------------------------------------
def match_key(match: Match, user_id: int) -> str:
    # The seed's hash, not only the id: a reused id (SQLite tests) is a new match.
    return f"septica:your-move:{match.pk}:{match.seed_sha256[:16]}:{user_id}"


def day_key(user_id: int, day: datetime | None = None) -> str:
    day = day or datetime.now(UTC)
    return f"septica:your-move-day:{user_id}:{day:%Y-%m-%d}"


def _claim(match: Match, user) -> bool:
    if not cache.add(match_key(match, user.pk), match.seq, timeout=HOUR):
        return False  # mailed about this match within the hour, or this task ran already
    key = day_key(user.pk)
    cache.add(key, 0, timeout=2 * DAY)
    return cache.incr(key) <= settings.YOUR_MOVE_EMAILS_PER_DAY


def _release(match: Match, user) -> None:
    """Undo a claim whose e-mail could not be sent, so a retry may send it."""
    cache.delete(match_key(match, user.pk))
    with contextlib.suppress(ValueError):  # the day's count expired meanwhile
        cache.decr(day_key(user.pk))


# --- the message ------------------------------------------------------------------
def _message(match: Match, seat: Seat) -> EmailMultiAlternatives:
    user = seat.user
    with translation.override(user.preferred_language or settings.LANGUAGE_CODE):
        context = _context(match, seat)
        subject = " ".join(render_to_string("games/email/your_move_subject.txt", context).split())
        text = render_to_string("games/email/your_move.txt", context)
        html = render_to_string("games/email/your_move.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email])
    message.attach_alternative(html, "text/html")
    return message


def _context(match: Match, seat: Seat) -> dict:
    table = match.table
    seats = Seat.objects.filter(table_id=table.pk).select_related("user")
    return {
        "name": seat.user.shown_name,
        "table_id": table.pk,
        "rules": rules_name(table.rules),
        "options": options_in_words(table.rules, table.players, table.options),
        "opponents": [shown["name"] for shown in seats_json(list(seats), seat.user_id) if shown["seat"] != seat.number],
        "deadline": match.deadline,
        "time_left": duration_in_words(max(0, int((match.deadline - timezone.now()).total_seconds())), LONG, parts=2)
        if match.deadline else "",
        "table_url": settings.SITE_URL + reverse("table", args=[table.pk]),
        "profile_url": settings.SITE_URL + reverse("profile"),
    }
