"""Who is at a table right now, across every server process.

Each open socket counts once in Django's cache (Redis in production, so all
processes share it; process memory when embedded): a counter per (table,
person) for someone seated, and one counter per table for spectators. Every
counter expires unless an open socket refreshes it, so a crashed process
cannot leave anyone present for longer than `TTL_SECONDS`.

The consumers keep the counts (`arrive`, `refresh`, `leave`) and, on every
change, tell the table's group, whose consumers each answer their client with
`{"type": "presence", "present": [seats], "spectators": n}`.

Presence is a nicety, never a reason to drop a socket: while the cache (Redis)
cannot be reached the counts stand still, `snapshot` answers None (nothing
to tell), and `is_present` says no.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable

from django.core.cache import cache

from septica_site.channel_layers import UNREACHABLE

logger = logging.getLogger(__name__)

TTL_SECONDS = 90
REFRESH_SECONDS = 30  # how often an open socket refreshes its counter


def person_key(table_id: int, user_id: int) -> str:
    return f"presence:{table_id}:user:{user_id}"


def spectators_key(table_id: int) -> str:
    return f"presence:{table_id}:spectators"


def key_for(table_id: int, user_id: int | None) -> str:
    """The counter a socket keeps: its person's when seated, else the spectators'."""
    return person_key(table_id, user_id) if user_id is not None else spectators_key(table_id)


def _unless_unreachable(answer=None):
    """The call, or `answer` (logged) when the cache cannot be reached."""

    def decorate(function):
        @functools.wraps(function)
        def tolerant(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            except UNREACHABLE as error:
                logger.warning("presence left as it was, the cache is unreachable: %r", error)
                return answer

        return tolerant

    return decorate


@_unless_unreachable()
def arrive(key: str) -> None:
    cache.add(key, 0, TTL_SECONDS)  # add() only starts the counter; incr() keeps its expiry
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, TTL_SECONDS)
    cache.touch(key, TTL_SECONDS)


@_unless_unreachable()
def refresh(key: str) -> None:
    if not cache.touch(key, TTL_SECONDS):
        cache.add(key, 1, TTL_SECONDS)  # it expired while the socket was open (a long pause)


@_unless_unreachable()
def leave(key: str) -> None:
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # already expired: nothing to take away
        pass


@_unless_unreachable(answer=False)
def is_present(table_id: int, user_id: int) -> bool:
    """Whether the person has a socket open at this table, in any server process."""
    return (cache.get(person_key(table_id, user_id)) or 0) > 0


@_unless_unreachable()
def snapshot(table_id: int, seated: Iterable[tuple[int, int]]) -> dict | None:
    """`{"present": [seats], "spectators": n}` for (seat, user id) pairs of seated people; None when unknown."""
    seated = list(seated)
    counts = cache.get_many([person_key(table_id, user_id) for _seat, user_id in seated] + [spectators_key(table_id)])
    present = sorted(seat for seat, user_id in seated if (counts.get(person_key(table_id, user_id)) or 0) > 0)
    return {"present": present, "spectators": max(0, counts.get(spectators_key(table_id)) or 0)}
