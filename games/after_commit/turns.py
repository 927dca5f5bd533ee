"""What a committed change to a match sets in motion: a bot's turn, or the
countdown to a person's turn deadline.

`schedule` runs on commit (games/actions/on_commit.py hands it the turn), so
no task ever names a move that was not stored. Tasks are sent by name: this
module imports no task, and the tasks import the actions. Every task carries
`(match_id, seq)` and does nothing once the match has moved on, which makes a
lost, late or doubled task harmless: the sweeper in `tasks.sweep_deadlines`
re-sends what was lost.

A task that cannot be queued (the broker, Redis, is unreachable) is not left
to the sweeper: queuing fails at once, and a thread of this process queues it
again every RESEND_EVERY_SECONDS until the broker takes it, so a bot answers
within moments of Redis coming back.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime

import redis
from django.conf import settings
from django.db.models import F
from kombu.exceptions import OperationalError

from septica_site.celery import app

from ..models import Seat, TableStatus
from . import reminders

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Turn:
    """What scheduling needs about the turn at a seq, when the writer already knows it."""

    by_bot: bool  # a bot's own seat, or a bot standing in for a person
    deadline: datetime | None
    seconds_per_move: int


def schedule(match_id: int, seq: int, turn: Turn | None) -> None:
    """Queue what the turn at `seq` needs (`turn` None: nobody is to move); never raises (the move is stored)."""
    try:
        _schedule(match_id, seq, turn)
    except Exception:  # a broker hiccup must not fail a stored move: the sweeper catches up
        logger.warning("could not schedule the next turn of match %s at seq %s", match_id, seq, exc_info=True)


def schedule_reading(match_id: int, seq: int) -> None:
    """`schedule`, for a writer that did not read the seat to move: read it now."""
    try:
        turn = turn_at(match_id, seq)
    except Exception:
        logger.warning("could not read the next turn of match %s at seq %s", match_id, seq, exc_info=True)
        return
    schedule(match_id, seq, turn)


def _schedule(match_id: int, seq: int, turn: Turn | None) -> None:
    if turn is None:
        return
    if turn.by_bot:
        _queue(Task(BOT_TURN, match_id, seq))
    elif turn.deadline is not None and turn.seconds_per_move <= settings.DEADLINE_COUNTDOWN_MAX_SECONDS:
        _queue(Task(TURN_DEADLINE, match_id, seq, turn.deadline))
    if not turn.by_bot:
        _schedule_reminders(match_id, seq, turn)
    # Longer (correspondence) deadlines are left to the sweeper: a multi-day
    # countdown would sit in a worker's memory and outlive the broker's
    # visibility timeout.


def _schedule_reminders(match_id: int, seq: int, turn: Turn) -> None:
    try:
        reminders.schedule(match_id, seq, turn.deadline, turn.seconds_per_move)
    except BROKER_DOWN as error:  # the sweeper sends them (games.tasks.send_reminders)
        logger.warning("no reminder countdown for match %s at seq %s: %r", match_id, seq, error)


# --- queuing, and queuing again --------------------------------------------------------
BOT_TURN, TURN_DEADLINE = "bot_turn", "turn_deadline"
BOT_TURN_TASK, TURN_DEADLINE_TASK = "games.tasks.bot_turn", "games.tasks.turn_deadline"  # games/tasks.py
RESEND_EVERY_SECONDS = 1.0
MAX_UNSENT = 10_000  # beyond this the oldest are dropped: the sweeper finds them
# What queuing raises when the broker cannot be reached (Celery wraps the
# transport's errors in kombu's OperationalError; the rest come through raw).
BROKER_DOWN = (OperationalError, redis.RedisError, OSError)


@dataclass(frozen=True)
class Task:
    name: str  # BOT_TURN or TURN_DEADLINE
    match_id: int
    seq: int
    eta: datetime | None = None


_unsent: dict[Task, None] = {}  # oldest first
_unsent_lock = threading.Lock()
_resender: threading.Thread | None = None


def _queue(task: Task) -> None:
    try:
        _send(task)
    except BROKER_DOWN as error:
        logger.warning("could not queue %s for match %s at seq %s (%r): queuing it again every %g s",
                       task.name, task.match_id, task.seq, error, RESEND_EVERY_SECONDS)
        _keep_unsent(task)


def _send(task: Task) -> None:
    # retry=False: fail at once (the request that moved is waiting); _resend_unsent retries.
    if task.name == BOT_TURN:
        app.send_task(BOT_TURN_TASK, (task.match_id, task.seq), countdown=settings.BOT_MOVE_DELAY_SECONDS, retry=False)
    else:
        app.send_task(TURN_DEADLINE_TASK, (task.match_id, task.seq), eta=task.eta, retry=False)


def _keep_unsent(task: Task) -> None:
    global _resender
    with _unsent_lock:
        _unsent[task] = None
        while len(_unsent) > MAX_UNSENT:
            del _unsent[next(iter(_unsent))]
        if _resender is None or not _resender.is_alive():
            _resender = threading.Thread(target=_resend_unsent, name="septica-resend-tasks", daemon=True)
            _resender.start()


def unsent() -> list[Task]:
    """The tasks this process still has to queue (for /healthz and the tests)."""
    with _unsent_lock:
        return list(_unsent)


def _resend_unsent() -> None:
    """Queue the unsent tasks again, oldest first, until none is left; then end."""
    global _resender
    while True:
        time.sleep(RESEND_EVERY_SECONDS)
        sent = 0
        for task in unsent():
            try:
                _send(task)
            except BROKER_DOWN:
                break  # still down: all of them again in a moment
            with _unsent_lock:
                _unsent.pop(task, None)
            sent += 1
        if sent:
            logger.warning("the broker is back: queued %d bot and deadline tasks that had failed", sent)
        with _unsent_lock:
            if not _unsent:
                _resender = None
                return


def turn_at(match_id: int, seq: int) -> Turn | None:
    """The turn to move at `seq`, if the match is still playing there (one query)."""
    seat = _seat_to_move(match_id, seq)
    if seat is None:
        return None
    return Turn(seat.is_bot or seat.standing_in, seat.table.match.deadline, seat.table.seconds_per_move)


def turn_of(seats, to_move: int | None, deadline, seconds_per_move: int) -> Turn | None:
    """The turn to move, from the seats a write read under its lock."""
    seat = next((seat for seat in seats if seat.number == to_move), None) if to_move is not None else None
    if seat is None:
        return None
    return Turn(seat.is_bot or seat.standing_in, deadline, seconds_per_move)


def _seat_to_move(match_id: int, seq: int) -> Seat | None:
    """The seat to move, if the match is still playing at `seq` (one query)."""
    return (
        Seat.objects.select_related("table__match")
        .filter(table_id=match_id, table__status=TableStatus.PLAYING, table__match__seq=seq)
        .filter(number=F("table__match__to_move"))
        .first()
    )
