"""Telling people who are away from their table that it is their move: a notification
(in the page, and by web push to their devices) and an e-mail.

After a committed change makes it someone's move, `queue_check` queues a
check for a little later (`YOUR_MOVE_EMAIL_DELAY_SECONDS`), so someone sitting
at the table or answering at once never gets mail. One check per delay per
person and match from each process: later moves within it queue none (the
process remembers what it queued), and the check, when it runs, looks at the
match as it then stands; if the person's present turn began less than the
delay ago, it queues itself again for the rest. Nothing on the move path
asks Redis: whether the person sits at the table is the check's question.
(A queued task, then a presence read, cost a move over HTTP more than all
its reads and writes; bench/moves.py.) The check (`send_if_away`, run by the task
`games.your_move_email` in games/tasks.py, which is sent by name) looks again
at run time: a person (not a bot, nor a bot standing in) to move, wanting e-mail,
with an address confirmed by its link, and no open socket at the table. Limits live in the cache
and are claimed with `cache.add`, which is atomic on Redis and in memory: at
most one e-mail per person per match an hour, `YOUR_MOVE_EMAILS_PER_DAY` a
day. The hourly claim also makes a task delivered twice send one e-mail.

The push has its own switches (notify's opt-outs) and no hourly limit: one
per move, each replacing the last on the device (one tag per table); a claim
per (match, seq) in the cache keeps a task run twice to one push.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from datetime import UTC, datetime

from allauth.account.utils import has_verified_email
from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from notify.models import Channel, NotificationKind
from notify.notifications import notify, wants
from septica_site.celery import app
from septica_site.channel_layers import UNREACHABLE

from .. import presence
from ..models import Match, Move, Seat, TableStatus
from ..presenters import seats_json
from ..words.durations import LONG, duration_in_words
from ..words.rulesets import options_in_words, rules_name

logger = logging.getLogger(__name__)

HOUR = 3600
DAY = 86400
YOUR_MOVE_EMAIL_TASK = "games.your_move_email"  # games/tasks.py


def queue_check(match_id: int, seq: int, to_move: int | None, person=None, seed_sha256: str = "") -> None:
    """Queue the "your move" check for this change; call it after commit.

    `to_move` None means nobody is to move (the match is over): nothing to do.
    `person`, the user to move when the caller has the row, lets the common
    cases queue nothing: someone who wants no e-mail and no push gets none,
    and a check queued for them by this process within the delay answers
    for this move too (a queued task costs a broker round trip).

    Runs inside the request that moved: with Redis down (the broker it
    queues on) a reminder is lost, never the answer to a stored move.
    """
    if to_move is None:
        return
    try:
        if person is not None and not wants_to_hear(person):
            return
        if person is not None and not claim_check(match_id, seed_sha256, person.pk):
            return  # this process queued a check within the delay: it looks at the match as it then stands
        _send_check(match_id, seq, None if person is None else person.pk, settings.YOUR_MOVE_EMAIL_DELAY_SECONDS)
    except UNREACHABLE as error:
        logger.warning("no your-move e-mail check for match %s at seq %s: %r", match_id, seq, error)
    except Exception:  # the move is stored; a lost reminder must not fail it
        logger.warning("could not queue the your-move e-mail for match %s", match_id, exc_info=True)


def _send_check(match_id: int, seq: int, user_id: int | None, countdown: float) -> None:
    app.send_task(YOUR_MOVE_EMAIL_TASK, (match_id, seq, time.time(), user_id), countdown=countdown)


# (match id, its seed's hash, user id) -> when this process's last queued check for them runs.
# The seed's hash, as in match_key: a reused id (SQLite tests) is a new match.
_queued_checks: dict[tuple[int, str, int], float] = {}
_queued_checks_lock = threading.Lock()
MAX_QUEUED_CHECKS = 50_000


def claim_check(match_id: int, seed_sha256: str, user_id: int, delay: float | None = None,
                renew: bool = False) -> bool:
    """Whether to queue the person's check now: False while one this process queued has yet to run.

    `renew`: a check that runs and queues itself again takes the claim whatever
    it holds (in the embedded setup the worker is the server's own process).
    Two servers may each queue one; a doubled check tells nobody twice (the
    e-mail's and the push's claims in the cache)."""
    now = time.monotonic()
    key = (match_id, seed_sha256[:16], user_id)
    delay = settings.YOUR_MOVE_EMAIL_DELAY_SECONDS if delay is None else delay
    with _queued_checks_lock:
        if _queued_checks.get(key, 0.0) > now and not renew:
            return False
        if len(_queued_checks) >= MAX_QUEUED_CHECKS:
            for stale in [queued for queued, runs_at in _queued_checks.items() if runs_at <= now]:
                del _queued_checks[stale]
            if len(_queued_checks) >= MAX_QUEUED_CHECKS:
                _queued_checks.clear()
        _queued_checks[key] = now + delay
        return True


def forget_queued_checks() -> None:
    """This process queues every check again (between tests: ids come back after a rollback)."""
    with _queued_checks_lock:
        _queued_checks.clear()


def send_if_away(match_id: int, seq: int, queued_at: float | None = None, user_id: int | None = None) -> bool:
    """Tell the person to move, if they are away and have been to move for the delay: a
    notification (pushed to their devices) and an e-mail; True when e-mailed.

    `user_id`, the person the check was queued for, lets it look at the match as it
    stands now (later moves queued no check of their own); without it (a check
    queued without knowing the person) only the match still at `seq` counts.
    `queued_at` (when the change was announced) tells a match that took a
    reused id (a test database, a reset one) from the match the task was for.
    """
    found = person_to_move(match_id, None if user_id is not None else seq, queued_at)
    if found is None:
        return False
    match, seat = found
    user = seat.user
    if user_id is not None and user.pk != user_id:
        return False  # someone else's move now: their own check was queued with it
    if user_id is not None and match.seq != seq:
        waited = _seconds_to_move(match)
        if waited < settings.YOUR_MOVE_EMAIL_DELAY_SECONDS:  # their turn began since: wait out its delay
            rest = settings.YOUR_MOVE_EMAIL_DELAY_SECONDS - waited
            claim_check(match.pk, match.seed_sha256, user.pk, rest, renew=True)
            _send_check(match.pk, match.seq, user.pk, rest)
            return False
    if is_present(match.pk, user.pk):
        return False
    _notify_once(match, seat)
    if not wants_your_move_email(user) or not address_is_verified(user):
        return False
    if not claim_email(match, user):
        return False
    try:
        _message(match, seat).send()
    except Exception:
        release_email(match, user)
        raise
    logger.info("your-move e-mail sent for match %s seq %s", match.pk, match.seq)
    return True


def _seconds_to_move(match: Match) -> float:
    """How long the person has been to move: since the move that made the match's present seq."""
    made = Move.objects.filter(match_id=match.pk, seq=match.seq - 1).values_list("created_at", flat=True).first()
    return (timezone.now() - made).total_seconds() if made is not None else float("inf")


def person_to_move(match_id: int, seq: int | None, queued_at: float | None) -> tuple[Match, Seat] | None:
    """The match (at `seq`, or as it stands when None) and the seat of the person to move in it."""
    match = Match.objects.select_related("table").filter(pk=match_id, **({} if seq is None else {"seq": seq})).first()
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


def wants_your_move_push(user) -> bool:
    # `takes_push`, not a query for the person's devices: the move path asks this on every move,
    # of the row it read with the seat (notify/signals.py keeps the flag).
    return bool(user.is_active and user.takes_push and wants(user, NotificationKind.YOUR_MOVE, Channel.PUSH))


def wants_to_hear(user) -> bool:
    """Whether a check could tell `user` anything (e-mail first: it costs no query)."""
    return wants_your_move_email(user) or wants_your_move_push(user)


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


def claim_email(match: Match, user) -> bool:
    if not cache.add(match_key(match, user.pk), match.seq, timeout=HOUR):
        return False  # mailed about this match within the hour, or this task ran already
    key = day_key(user.pk)
    cache.add(key, 0, timeout=2 * DAY)
    return cache.incr(key) <= settings.YOUR_MOVE_EMAILS_PER_DAY


def release_email(match: Match, user) -> None:
    """Undo a claim whose e-mail could not be sent, so a retry may send it."""
    cache.delete(match_key(match, user.pk))
    with contextlib.suppress(ValueError):  # the day's count expired meanwhile
        cache.decr(day_key(user.pk))


# --- the notification ----------------------------------------------------------------
def _notify_once(match: Match, seat: Seat) -> None:
    claim = f"septica:your-move-push:{match.pk}:{match.seed_sha256[:16]}:{match.seq}:{seat.user_id}"
    if not cache.add(claim, 1, timeout=DAY):
        return  # this task ran already
    user = seat.user
    with translation.override(user.preferred_language or settings.LANGUAGE_CODE):
        title, body = your_move_words(match, seat)
    notify(user, NotificationKind.YOUR_MOVE, title=title, body=body,
           url=reverse("table", args=[match.pk]), tag=table_tag(match.pk))


def table_tag(table_id: int) -> str:
    """One notification per table on a device: a newer one replaces the older."""
    return f"table-{table_id}"


def your_move_words(match: Match, seat: Seat) -> tuple[str, str]:
    context = _context(match, seat)
    title = _("Your move at Table %(table)s (%(rules)s)") % {"table": match.pk, "rules": context["rules"]}
    parts = []
    if context["opponents"]:
        parts.append(_("Playing with %(names)s.") % {"names": ", ".join(context["opponents"])})
    if context["time_left"]:
        parts.append(_("Time left: %(time_left)s.") % {"time_left": context["time_left"]})
    return title, " ".join(parts)


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
