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

from celery import shared_task
from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from . import services
from .models import Match, Seat, TableStatus
from .tasks_email import your_move_email  # noqa: F401  (Celery finds tasks in games.tasks)

logger = logging.getLogger(__name__)

# A bot's turn still waiting this long after it began was lost (a worker died
# before its task was redelivered, or the broker dropped it): send it again.
LOST_BOT_TURN_SECONDS = 15
# Countdown tasks fire on time; the sweeper leaves them this much room first.
DEADLINE_GRACE_SECONDS = 5
SWEEP_BATCH = 500


@shared_task(ignore_result=True, acks_late=True)
def bot_turn(match_id: int, seq: int) -> bool:
    """A bot (or a bot standing in for a person) plays the turn at `seq`."""
    return play_turn(match_id, seq)


@shared_task(ignore_result=True, acks_late=True)
def turn_deadline(match_id: int, seq: int) -> bool:
    """The person to move at `seq` ran out of time: a bot stands in and plays."""
    if not services.time_out_turn(match_id, seq):
        return False
    return play_turn(match_id, seq)


def play_turn(match_id: int, seq: int) -> bool:
    """Read the view, think (slowly, outside any transaction), then play if still current."""
    turn = services.bot_turn_for(match_id, seq)
    if turn is None:
        return False
    if settings.BOT_THINK_SECONDS:
        time.sleep(settings.BOT_THINK_SECONDS)  # tests use it to kill a worker mid-thought
    from .engine.bots import choose_move

    move = choose_move(turn.view, turn.level, turn.style, bot_rng(match_id, seq))
    try:
        return services.play_bot_turn(match_id, seq, turn.seat, move, turn.actor)
    except services.ServiceError as refusal:
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
