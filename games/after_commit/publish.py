"""Live updates to the sockets' groups, called once a write has committed.

Group messages name what changed and its seq, never a card: each websocket
consumer builds its own viewer's view from the database.

Groups: `match.<id>` (the sockets at that table), `user.<id>` (a person's
My matches), `lobby`. The messages of one commit go out together. On Redis,
a plain thread (a database thread after its commit, a Celery worker) sends
them itself in one blocking round trip: cheaper than waking an event loop to
send them, and the other servers hear sooner. Otherwise (the in-memory layer,
or a caller on an event loop) they go as one coroutine onto a long-lived
event loop: the caller's own, the server's, or one publisher thread per
process. A push that could not be sent is sent again every second until it
goes (a client that missed one also resyncs at its next); the move itself is
stored.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Iterable

from asgiref.sync import SyncToAsync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from septica_site.channel_layers import UNREACHABLE, ChannelLayerUnavailable

from ..models import Seat

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# What a socket meets when Redis is unreachable: the consumers close it cleanly then.
REDIS_DOWN = (ChannelLayerUnavailable, *UNREACHABLE)


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


# --- what is sent ------------------------------------------------------------------
def match_changed(match_id: int, seq: int, seats=None) -> None:
    """The table's sockets hear "match changed, seq n"; its people's My matches refresh.

    `seats`: the table's Seat rows as the write left them (None: read them)."""
    messages = [(match_group(match_id), {"type": "match.changed", "match": match_id, "seq": seq})]
    publish(messages + _people_messages(match_id, seats))


def table_changed(table_id: int) -> None:
    """Seats changed (joins, leaves, standing in): the same audiences as a move."""
    messages = [(match_group(table_id), {"type": "table.changed", "table": table_id})]
    publish(messages + _people_messages(table_id))


def lobby_changed(table_id: int | None = None) -> None:
    """An open table appeared, filled, started or went away: `table_id` (None: which is unknown)."""
    publish([(LOBBY_GROUP, {"type": "lobby.changed", "table": table_id})])


def matches_changed(user_id: int, table_id: int) -> None:
    """One person's My matches refresh (they lost or got a seat at `table_id`)."""
    publish([(user_group(user_id), {"type": "matches.changed", "table": table_id})])


def _people_messages(table_id: int, seats=None) -> list[tuple[str, dict]]:
    """One `matches.changed` per person seated at, or invited to, the table."""
    if seats is not None:
        rows = [(seat.user_id, seat.reserved_for_id) for seat in seats]
    else:
        rows = Seat.objects.filter(table_id=table_id).values_list("user_id", "reserved_for_id")
    people = set()
    for user_id, reserved_id in rows:
        people.update(person for person in (user_id, reserved_id) if person is not None)
    return [(user_group(person), {"type": "matches.changed", "table": table_id}) for person in sorted(people)]


def resync_message(group: str) -> dict | None:
    """What makes a group's sockets read again what they show, when its pushes
    may have been lost (the Redis layer sends it after its pub/sub reconnects)."""
    if group == LOBBY_GROUP:
        return {"type": "lobby.changed"}
    kind, _, number = group.partition(".")
    if not number.isdigit():
        return None
    if kind == "match":
        return {"type": "table.changed", "table": int(number)}
    if kind == "user":
        return {"type": "matches.changed", "table": None}
    return None


# --- how it is sent -------------------------------------------------------------------
def publish(messages: Iterable[tuple[str, dict]]) -> None:
    """Send (group, message) pairs without waiting; safe from any thread or loop."""
    messages = list(messages)
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is None and hasattr(layer, "group_send_many_blocking"):
        # A plain thread (a database thread after its commit, a worker) on
        # Redis: one round trip from here costs less than waking an event
        # loop to make it, and the others hear of the move sooner.
        _send_all_blocking(layer, messages)
        return
    coroutine = _send_all(layer, messages)
    if running is not None:
        _keep(running.create_task(coroutine))
        return
    loop = _loop_for(layer)
    try:
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
    except RuntimeError:  # the loop closed under us (a test's loop); the client will resync
        coroutine.close()
        logger.warning("could not publish %d messages: event loop closed", len(messages))
        return
    future.add_done_callback(_log_failure)


# Sends at once per event loop: a burst of commits must not open more Redis
# connections than the layer's pool holds (it raises MaxConnectionsError).
MAX_CONCURRENT_SENDS = 8
_gates: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def _gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        for closed in [known for known in _gates if known.is_closed()]:
            del _gates[closed]
        gate = _gates[loop] = asyncio.Semaphore(MAX_CONCURRENT_SENDS)
    return gate


async def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    # Both of the site's layers (septica_site/channel_layers.py) send a
    # commit's messages together: on Redis, one pipelined round trip.
    try:
        async with _gate():
            await layer.group_send_many(messages)
    except Exception as error:  # noqa: BLE001  (the move is stored; the messages go again)
        _unsent(layer, messages, error)


def _send_all_blocking(layer, messages: list[tuple[str, dict]]) -> None:
    try:
        layer.group_send_many_blocking(messages)
    except Exception as error:  # noqa: BLE001  (the move is stored; the messages go again)
        _unsent(layer, messages, error)


def _unsent(layer, messages: list[tuple[str, dict]], error: Exception) -> None:
    again = hasattr(layer, "group_send_many_blocking")
    logger.warning("could not publish to %s: %r%s", ", ".join(group for group, _ in messages), error,
                   f"; publishing it again every {REPUBLISH_EVERY_SECONDS:g} s" if again else "")
    if again:
        _keep_unpublished(layer, messages)


# --- publishing again -------------------------------------------------------------------
# A socket that missed a push catches up at the next one (a gap in seq) or when it
# reconnects. When the push lost is the last one its table will have for a while,
# nothing follows: a worker cut from Redis that stored a bot's move left the people
# it was announced to waiting for a turn they never heard of. So what could not be
# published is published again every second until it goes, by a thread of this
# process; a group's newest message of each kind is enough, each says "read again".
REPUBLISH_EVERY_SECONDS = 1.0
# Beyond these the oldest are dropped: their sockets catch up at their next change, or
# at the table page's slow poll.
MAX_UNPUBLISHED = 10_000
REPUBLISH_FOR_SECONDS = 600.0
_unpublished: dict[tuple[str, str], tuple] = {}  # (group, type) -> (layer, group, message, kept at)
_unpublished_lock = threading.Lock()
_republisher: threading.Thread | None = None


def _keep_unpublished(layer, messages: list[tuple[str, dict]]) -> None:
    global _republisher
    with _unpublished_lock:
        for group, message in messages:
            key = (group, message.get("type", ""))
            _unpublished.pop(key, None)  # the newest goes last, as the newest
            _unpublished[key] = (layer, group, message, time.monotonic())
        while len(_unpublished) > MAX_UNPUBLISHED:
            del _unpublished[next(iter(_unpublished))]
        if _republisher is None or not _republisher.is_alive():
            _republisher = threading.Thread(target=_republish, name="septica-republish", daemon=True)
            _republisher.start()


def unpublished() -> list[tuple[str, dict]]:
    """The (group, message) pairs this process still has to publish (for the tests)."""
    with _unpublished_lock:
        return [(group, message) for _layer, group, message, _kept_at in _unpublished.values()]


def _republish() -> None:
    """Publish the kept messages again, every layer's in one round trip, until none is left; then end."""
    global _republisher
    while True:
        time.sleep(REPUBLISH_EVERY_SECONDS)
        with _unpublished_lock:
            for key in [key for key, entry in _unpublished.items()
                        if time.monotonic() - entry[3] > REPUBLISH_FOR_SECONDS]:
                del _unpublished[key]
            kept = dict(_unpublished)
        by_layer: dict[int, list] = {}
        for key, entry in kept.items():
            by_layer.setdefault(id(entry[0]), []).append((key, entry))
        for entries in by_layer.values():
            layer = entries[0][1][0]
            try:
                layer.group_send_many_blocking([(entry[1], entry[2]) for _key, entry in entries])
            except Exception:  # noqa: BLE001  (still unreachable: all of them again in a moment)
                continue
            with _unpublished_lock:
                for key, entry in entries:
                    if _unpublished.get(key) is entry:  # not replaced by a newer one meanwhile
                        del _unpublished[key]
            logger.warning("published again %d messages that had failed", len(entries))
        with _unpublished_lock:
            if not _unpublished:
                _republisher = None
                return


_tasks: set = set()


def _keep(task) -> None:
    _tasks.add(task)  # a task nobody references may be collected before it runs
    task.add_done_callback(_tasks.discard)


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("could not publish", exc_info=future.exception())


# The server's event loop, remembered by the consumers: the in-memory layer's
# queues belong to it, so a worker thread in the same process must publish there.
_server_loop: asyncio.AbstractEventLoop | None = None
_publisher_loop: asyncio.AbstractEventLoop | None = None
_publisher_lock = threading.Lock()


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def _loop_for(layer) -> asyncio.AbstractEventLoop:
    # Inside a request (or a consumer's database call) asgiref knows the server loop.
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and not loop.is_closed():
            return loop
    if isinstance(layer, InMemoryChannelLayer) and _server_loop is not None and not _server_loop.is_closed():
        return _server_loop
    return _own_loop()


def _own_loop() -> asyncio.AbstractEventLoop:
    """One event loop thread per process for publishing from plain threads (Celery, commands)."""
    global _publisher_loop
    with _publisher_lock:
        if _publisher_loop is None or _publisher_loop.is_closed() or _publisher_pid != os.getpid():
            _start_publisher()
        return _publisher_loop


_publisher_pid: int | None = None


def _start_publisher() -> None:
    global _publisher_loop, _publisher_pid
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="septica-publisher", daemon=True).start()
    _publisher_loop, _publisher_pid = loop, os.getpid()


def flush(timeout: float = 5.0) -> None:
    """Wait until everything published from this thread's fallback loop is sent (tests, commands)."""
    loop = _publisher_loop
    if loop is None or loop.is_closed():
        return

    async def drained():
        while len(asyncio.all_tasks()) > 1:
            await asyncio.sleep(0.001)

    asyncio.run_coroutine_threadsafe(drained(), loop).result(timeout)
