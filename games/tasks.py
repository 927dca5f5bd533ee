"""Celery tasks: bot turns, turn deadlines and the sweeper that catches lost ones.

A turn task carries `(match_id, seq)` and is acknowledged late, so a worker
that dies mid-turn leaves it to be delivered again. Delivering it twice, or
after the match moved on, changes nothing: the service re-checks `seq` under
the match's lock and drops a stale move. The bot thinks outside any
transaction, and sees only its seat's view.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import timedelta
from smtplib import SMTPException

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from redis.exceptions import RedisError

from . import actions
from .actions import analysis as actions_analysis
from .actions.challenges import expire_challenges as expire_unanswered_challenges
from .after_commit import analysis as after_analysis
from .after_commit import reminders, your_move
from .analysis import judge_chunk
from .engine.bots import choose_move
from .models import AnalysisStatus, Match, MatchAnalysis, ReminderSent, Seat, TableStatus

logger = logging.getLogger(__name__)

# A bot's turn still waiting this long after it began was lost (a worker died
# before its task was redelivered, or the broker dropped it): send it again.
LOST_BOT_TURN_SECONDS = 15
# Countdown tasks fire on time; the sweeper leaves them this much room first.
DEADLINE_GRACE_SECONDS = 5
SWEEP_BATCH = 500
# A turn at a table nobody plays at, waiting for its maker's thinking slot,
# asks again this often. Nobody waits for these turns; someone does for the rest.
UNATTENDED_RETRY_SECONDS = 0.5
# A slot a worker took and never gave back (it died mid-thought) frees itself after this long.
THINKING_SLOT_SECONDS = 30


@shared_task(
    name="games.your_move_email",
    ignore_result=True,
    autoretry_for=(OSError, SMTPException),
    retry_backoff=30,
    max_retries=3,
)
def your_move_email(match_id: int, seq: int, queued_at: float | None = None, user_id: int | None = None) -> bool:
    """E-mail the person the check is for, if still to move and away (games/after_commit/your_move.py)."""
    return your_move.send_if_away(match_id, seq, queued_at, user_id)


@shared_task(ignore_result=True, acks_late=True)
def bot_turn(match_id: int, seq: int) -> bool:
    """A bot (or a bot standing in for a person) plays the turn at `seq`."""
    return play_turn(match_id, seq)


@shared_task(ignore_result=True, acks_late=True)
def expire_abort_request(request_id: int) -> bool:
    """A request to abort a match ran out of time unanswered (games/after_commit/abort_requests.py)."""
    return actions.expire_abort_request(request_id)


@shared_task(ignore_result=True, acks_late=True)
def turn_deadline(match_id: int, seq: int) -> bool:
    """The person to move at `seq` ran out of time: a bot stands in and plays."""
    if not actions.time_out_turn(match_id, seq):
        return False
    return play_turn(match_id, seq)


def play_turn(match_id: int, seq: int) -> bool:
    """Play the turn; at a table where no person plays, only in one of its maker's thinking slots.

    Fairness: bots at tables nobody plays at (all bots, or bots standing in
    for people who left) think at most UNATTENDED_BOTS_PER_PERSON at a time
    per person who made those tables, across every worker, so one person's
    tables of Expert bots cannot fill the worker ahead of someone waiting for
    a bot's answer. A turn that finds its maker's slots taken is queued again
    a little later instead of holding a worker thread."""
    found = _table_of_turn(match_id, seq)
    if found is None:
        return False  # the match moved on, or ended
    maker_id, attended = found
    if attended or maker_id is None:
        return _think_and_play(match_id, seq)
    try:
        slot = _thinking_slot(maker_id)
    except RedisError:  # the cache is out of reach: think without a slot rather than not at all
        logger.warning("bot thinking slots are out of reach; the bot thinks without one", exc_info=True)
        return _think_and_play(match_id, seq)
    if slot is None:
        bot_turn.apply_async((match_id, seq), countdown=UNATTENDED_RETRY_SECONDS)
        return False
    try:
        return _think_and_play(match_id, seq)
    finally:
        _give_back(slot)


def _table_of_turn(match_id: int, seq: int) -> tuple[int | None, bool] | None:
    """(who made the table, whether a person plays there) while the match is still at `seq`."""
    person_playing = Seat.objects.filter(table_id=OuterRef("pk"), user__isnull=False, standing_in=False)
    return (
        Match.objects.filter(pk=match_id, seq=seq, table__status=TableStatus.PLAYING)
        .annotate(attended=Exists(person_playing))
        .values_list("table__created_by_id", "attended")
        .first()
    )


def _thinking_slot(maker_id: int) -> str | None:
    """The cache key of one of the maker's free thinking slots, now taken; None when all are taken."""
    for number in range(settings.UNATTENDED_BOTS_PER_PERSON):
        key = f"games:bot-thinking:{maker_id}:{number}"
        if cache.add(key, "thinking", THINKING_SLOT_SECONDS + settings.BOT_THINK_SECONDS):
            return key
    return None


def _give_back(slot: str) -> None:
    try:
        cache.delete(slot)
    except RedisError:
        logger.warning("a bot thinking slot could not be given back; it frees itself", exc_info=True)


def _think_and_play(match_id: int, seq: int) -> bool:
    """Read the view, think (slowly, outside any transaction), then play if still current."""
    turn = actions.bot_turn_for(match_id, seq)
    if turn is None:
        return False
    if settings.BOT_THINK_SECONDS:
        time.sleep(settings.BOT_THINK_SECONDS)  # tests use it to kill a worker mid-thought
    move = choose_move(turn.view, turn.level, turn.style, bot_rng(match_id, seq))
    try:
        return actions.play_bot_turn(match_id, seq, turn.seat, move, turn.actor)
    except actions.ServiceError as refusal:
        # Neither the move nor the engine's message goes to the log: both may name a card in the bot's hand.
        logger.error("a %s move of the bot was refused at match %s seq %s (status %s)",
                     move.get("type"), match_id, seq, refusal.status)
        return False


def bot_rng(match_id: int, seq: int) -> random.Random:
    """The bot's dice: repeatable for a turn, and independent of the secret deal seed."""
    return random.Random(f"bot:{match_id}:{seq}")


@shared_task(ignore_result=True)
def sweep_deadlines() -> dict:
    """Send again what a lost task should have done: deadlines passed, bot turns stuck."""
    now = timezone.now()
    timed_out = _people_past_deadline(now)
    for match_id, seq in timed_out:
        turn_deadline.delay(match_id, seq)
    stuck = _stuck_bot_turns(now)
    for match_id, seq in stuck:
        bot_turn.delay(match_id, seq)
    return {"deadlines": len(timed_out), "bot_turns": len(stuck)}


def _playing_with_seat_to_move(bot_or_standing_in: bool):
    seat_to_move = Seat.objects.filter(table_id=OuterRef("pk"), number=OuterRef("to_move"))
    bot_seat = Q(bot_level__gt="") | Q(standing_in=True)
    matches = Match.objects.filter(table__status=TableStatus.PLAYING, to_move__isnull=False)
    if bot_or_standing_in:
        return matches.filter(Exists(seat_to_move.filter(bot_seat)))
    return matches.filter(Exists(seat_to_move.exclude(bot_seat)))


def _people_past_deadline(now) -> list[tuple[int, int]]:
    late = _playing_with_seat_to_move(False).filter(deadline__lte=now - timedelta(seconds=DEADLINE_GRACE_SECONDS))
    return list(late.order_by("deadline").values_list("pk", "seq")[:SWEEP_BATCH])


def _stuck_bot_turns(now) -> list[tuple[int, int]]:
    """Bot turns that began (deadline minus the time per move) too long ago."""
    waited = timedelta(seconds=LOST_BOT_TURN_SECONDS + settings.BOT_MOVE_DELAY_SECONDS)
    rows = _playing_with_seat_to_move(True).values_list("pk", "seq", "deadline", "table__seconds_per_move")
    stuck = []
    for match_id, seq, deadline, seconds_per_move in rows.order_by("deadline")[:SWEEP_BATCH]:
        began = deadline - timedelta(seconds=seconds_per_move) if deadline else None
        if began is None or began <= now - waited:
            stuck.append((match_id, seq))
    return stuck


@shared_task(name="games.tasks.expire_challenges", ignore_result=True, acks_late=True)
def expire_challenges() -> int:
    """Challenges left unanswered for a day expire (games/actions/challenges.py); run twice, each expires once."""
    return expire_unanswered_challenges()


# --- reminders (games/after_commit/reminders.py) ---------------------------------------
@shared_task(name="games.tasks.remind", ignore_result=True, acks_late=True,
             autoretry_for=(OSError, SMTPException), retry_backoff=30, max_retries=3)
def remind(match_id: int, seq: int, which: str) -> bool:
    """Remind the person to move at `seq` that `which` share of their time is left (once, however often run)."""
    return reminders.remind(match_id, seq, which)


@shared_task(name="games.tasks.send_reminders", ignore_result=True)
def send_reminders() -> int:
    """Send the reminders that are due and were not sent: the ones too far off for a countdown, or lost."""
    now = timezone.now()
    rows = (_playing_with_seat_to_move(False)
            .filter(table__seconds_per_move__gte=settings.REMINDER_MIN_SECONDS_PER_MOVE, deadline__gt=now)
            .exclude(Exists(ReminderSent.objects.filter(match=OuterRef("pk"), seq=OuterRef("seq"), which="tenth")))
            .values_list("pk", "seq", "deadline", "table__seconds_per_move").order_by("deadline")[:SWEEP_BATCH])
    sent = 0
    for match_id, seq, deadline, seconds_per_move in rows:
        which = reminders.due(deadline, seconds_per_move, now)
        if which is not None and not ReminderSent.objects.filter(match_id=match_id, seq=seq, which=which).exists():
            sent += reminders.remind(match_id, seq, which)
    return sent


# --- the analysis of a finished match (games/analysis.py) ---------------------------------
# A run that finds every analysis slot taken asks again this much later, leaving its thread to bots.
ANALYSIS_RETRY_SECONDS = 1.0
# A pending analysis untouched for this long lost its task (a worker died, the broker dropped it).
LOST_ANALYSIS_SECONDS = 600
ANALYSIS_SLOT_SECONDS = 120


@shared_task(name="games.tasks.analyse_match", ignore_result=True, acks_late=True)
def analyse_match(match_id: int, from_seq: int = 0) -> bool:
    """Judge a few of the match's decisions from `from_seq`; the rest go on in a task queued after them.

    Idempotent: each chunk is stored by a compare-and-set on the analysis's
    cursor, so run twice (or delivered late) it stores one analysis."""
    try:
        analysis = actions_analysis.begin_analysis(match_id)
    except actions.ServiceError:
        return False  # no such match, or not over: nothing to judge
    if analysis.status != AnalysisStatus.PENDING or analysis.next_seq != from_seq:
        return False
    slot = _analysis_slot()
    if slot is None:
        after_analysis.queue(match_id, from_seq, countdown=ANALYSIS_RETRY_SECONDS)
        return False
    try:
        chunk = judge_chunk(analysis.match, from_seq, settings.ANALYSIS_DECISIONS_PER_RUN)
    finally:
        if slot:
            _give_back(slot)
    return actions_analysis.record_chunk(analysis, analysis.match.table.players, chunk)


def _analysis_slot() -> str | None:
    """One of the deployment's ANALYSIS_SLOTS, now taken (the cache is shared by every worker on Redis)."""
    try:
        for number in range(settings.ANALYSIS_SLOTS):
            key = f"games:analysing:{number}"
            if cache.add(key, "judging", ANALYSIS_SLOT_SECONDS):
                return key
    except RedisError:
        logger.warning("analysis slots are out of reach; judging without one", exc_info=True)
        return ""
    return None


@shared_task(name="games.tasks.sweep_analyses", ignore_result=True)
def sweep_analyses() -> int:
    """Queue again the analyses whose task was lost: begun long ago and still pending, or never begun
    for a match that ended within the last day; and queue waiting ones in their people's free turns
    (each person's oldest first, people in the order they have waited), should a turn given back
    at the end of an analysis have been lost."""
    queued = sum(len(actions_analysis.queue_waiting_turns(person_id))
                 for person_id in actions_analysis.people_waiting(SWEEP_BATCH))
    now = timezone.now()
    stale = now - timedelta(seconds=LOST_ANALYSIS_SECONDS)
    rows = list(MatchAnalysis.objects.filter(status=AnalysisStatus.PENDING, stored_at__lte=stale)
                .values_list("pk", "next_seq")[:SWEEP_BATCH])
    never_begun = (Match.objects.filter(table__status=TableStatus.FINISHED, finished_at__gte=now - timedelta(days=1),
                                        finished_at__lte=stale)
                   .exclude(Exists(MatchAnalysis.objects.filter(match=OuterRef("pk")))))
    rows += [(match_id, 0) for match_id in never_begun.values_list("pk", flat=True)[:SWEEP_BATCH]]
    for match_id, next_seq in rows:
        after_analysis.queue(match_id, next_seq)
    return queued + len(rows)
