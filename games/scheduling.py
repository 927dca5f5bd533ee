"""What a committed change to a match sets in motion: a bot's turn, or the
countdown to a person's turn deadline.

`after_match_changed` runs on commit (notify's match-changed send calls it),
so no task ever names a move that was not stored. Every task carries
`(match_id, seq)` and does nothing once the match has moved on, which makes a
lost, late or doubled task harmless: the sweeper in `tasks.sweep_deadlines`
re-sends what was lost.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import F

from .models import Seat, TableStatus

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Turn:
    """What scheduling needs about the turn at a seq, when the writer already knows it."""

    by_bot: bool  # a bot's own seat, or a bot standing in for a person
    deadline: datetime | None
    seconds_per_move: int


_known = threading.local()


@contextlib.contextmanager
def known_turn(match_id: int, seq: int, turn: Turn):
    """Within this block `after_match_changed(match_id, seq)` uses `turn` instead of
    reading the seat to move (the write that just committed read it under its lock)."""
    _known.turn = (match_id, seq, turn)
    try:
        yield
    finally:
        _known.turn = None


def after_match_changed(match_id: int, seq: int) -> None:
    """Queue whatever must happen next at seq `seq`; never raises (the move is stored)."""
    try:
        _schedule(match_id, seq)
    except Exception:  # a broker hiccup must not fail a stored move: the sweeper catches up
        logger.warning("could not schedule the next turn of match %s at seq %s", match_id, seq, exc_info=True)


def _schedule(match_id: int, seq: int) -> None:
    turn = _turn(match_id, seq)
    if turn is None:
        return
    from . import tasks  # tasks imports services, which imports notify, which calls us

    if turn.by_bot:
        tasks.bot_turn.apply_async((match_id, seq), countdown=settings.BOT_MOVE_DELAY_SECONDS)
    elif turn.deadline is not None and turn.seconds_per_move <= settings.DEADLINE_COUNTDOWN_MAX_SECONDS:
        tasks.turn_deadline.apply_async((match_id, seq), eta=turn.deadline)
    # Longer (correspondence) deadlines are left to the sweeper: a multi-day
    # countdown would sit in a worker's memory and outlive the broker's
    # visibility timeout.


def _turn(match_id: int, seq: int) -> Turn | None:
    known = getattr(_known, "turn", None)
    if known is not None and known[:2] == (match_id, seq):
        return known[2]
    seat = _seat_to_move(match_id, seq)
    if seat is None:
        return None
    return Turn(seat.is_bot or seat.standing_in, seat.table.match.deadline, seat.table.seconds_per_move)


def _seat_to_move(match_id: int, seq: int) -> Seat | None:
    """The seat to move, if the match is still playing at `seq` (one query)."""
    return (
        Seat.objects.select_related("table__match")
        .filter(table_id=match_id, table__status=TableStatus.PLAYING, table__match__seq=seq)
        .filter(number=F("table__match__to_move"))
        .first()
    )
