"""The re-read of a moved match, made on the server's event loop itself (PostgreSQL).

After a move made through another server, every server holding sockets at
that table reads the match's new row (games/consumers/snapshots.py). Through
a database thread that read cost two thread switches and their waits for
the interpreter lock, on a machine whose cores the servers share: more than
the read itself. On PostgreSQL it is made here instead, with psycopg's
asyncio connection, one per event loop, in autocommit (a read needs no
transaction).

One connection answers one statement at a time, and a busy loop takes a
while to come back for each answer: so the re-reads asked for while one
statement is out go together in the next, one row per match (`ANY(ids)`).
The busier the server, the more each round trip carries.

The connection is made as Django makes its own: the same parameters, the
same adapters (so every value reads exactly as the ORM reads it), the same
time zone and role, prepared statements when the settings prepare them,
and psycopg's C timestamp loader when it gives what Django's gives
(games/sql/prepared.py). Any failure of that connection (the database
restarted, the network dropped) closes it, and those reads go through a
database thread; the next ones open a new connection.

On SQLite every read goes through a database thread.
"""

from __future__ import annotations

import asyncio
import logging

from django.db import connections, router

from ..models import Match
from ..sql import move_rows
from ..sql.prepared import fast_timestamp_loader
from .database import db

logger = logging.getLogger(__name__)

_connections: dict[asyncio.AbstractEventLoop, object] = {}  # loop -> psycopg.AsyncConnection
_opening: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}
_batches: dict[asyncio.AbstractEventLoop, _Batch] = {}


async def moved_fields(match_id: int) -> tuple[dict, str] | None:
    """As `move_rows.moved_fields`, without leaving the event loop on PostgreSQL."""
    if connections[router.db_for_read(Match)].vendor != "postgresql":
        return await db(move_rows.moved_fields)(match_id)
    loop = asyncio.get_running_loop()
    batch = _batches.get(loop)
    if batch is None:
        batch = _batches[loop] = _Batch(loop)
    return await batch.read(match_id)


class _Batch:
    """The re-reads one event loop asks for, sent one statement at a time."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: dict[int, list[asyncio.Future]] = {}
        self.sending: asyncio.Task | None = None

    async def read(self, match_id: int) -> tuple[dict, str] | None:
        answer = self.loop.create_future()
        self.waiting.setdefault(match_id, []).append(answer)
        if self.sending is None:
            self.sending = self.loop.create_task(self._send())
        return await answer

    async def _send(self) -> None:
        try:
            while self.waiting:
                asked, self.waiting = self.waiting, {}
                try:
                    found = await _read_many(list(asked))
                except BaseException as error:
                    for answers in asked.values():
                        for answer in answers:
                            if not answer.done():
                                answer.set_exception(error)
                    if not isinstance(error, Exception):  # cancelled, or the process is stopping
                        raise
                    continue
                for match_id, answers in asked.items():
                    for answer in answers:
                        if not answer.done():
                            answer.set_result(found.get(match_id))
        finally:
            self.sending = None


async def _read_many(match_ids: list[int]) -> dict[int, tuple[dict, str]]:
    import psycopg

    using = router.db_for_read(Match)
    wrapper = connections[using]
    try:
        connection = await _connection(wrapper)
        # One match (a quiet server) by the one-row statement: an id list
        # makes PostgreSQL plan the statement afresh each time, more work
        # than the read of a single row.
        many = len(match_ids) > 1
        sql, match_part, table_part = move_rows.moved_read(using, many=many)
        async with connection.cursor() as cursor:
            await cursor.execute(sql, [match_ids] if many else match_ids, prepare=True)
            rows = await cursor.fetchall()
    except (psycopg.Error, OSError) as error:
        await _drop(asyncio.get_running_loop())
        logger.info("re-reading %d matches through a database thread: %r", len(match_ids), error)
        return await db(_read_each)(match_ids)
    return {row[0]: move_rows.moved_fields_of_row(wrapper, row, match_part, table_part) for row in rows}


def _read_each(match_ids: list[int]) -> dict[int, tuple[dict, str]]:
    found = {match_id: move_rows.moved_fields(match_id) for match_id in match_ids}
    return {match_id: fields for match_id, fields in found.items() if fields is not None}


async def _connection(wrapper):
    loop = asyncio.get_running_loop()
    connection = _connections.get(loop)
    if connection is not None and not connection.closed:
        return connection
    lock = _opening.setdefault(loop, asyncio.Lock())
    async with lock:
        connection = _connections.get(loop)
        if connection is None or connection.closed:
            _close_connections_of_closed_loops()  # a test's loops come and go; a server's stays
            connection = _connections[loop] = await _open(wrapper)
        return connection


async def _open(wrapper):
    import psycopg

    params = wrapper.get_connection_params()
    params.pop("cursor_factory", None)  # Django's are the blocking kind
    connection = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    try:
        # What Django's `_configure_connection` does to each of its own.
        if wrapper.timezone_name and connection.info.parameter_status("TimeZone") != wrapper.timezone_name:
            await connection.execute(wrapper.ops.set_time_zone_sql(), [wrapper.timezone_name])
        if role := wrapper.settings_dict["OPTIONS"].get("assume_role"):
            await connection.execute(wrapper.ops.compose_sql("SET ROLE %s", [role]))
        fast_loader = fast_timestamp_loader(connection)
        if fast_loader is not None:
            connection.adapters.register_loader("timestamptz", fast_loader)
    except BaseException:
        await connection.close()
        raise
    return connection


async def _drop(loop) -> None:
    connection = _connections.pop(loop, None)
    if connection is not None and not connection.closed:
        try:
            await connection.close()
        except Exception:  # noqa: BLE001  (it is being thrown away)
            logger.debug("closing a broken loop connection failed", exc_info=True)


def close_loop_connections() -> None:
    """Close every event loop's connection, even one whose loop is gone (the end of a test run)."""
    for loop in list(_connections):
        _close_without_loop(loop)


def _close_connections_of_closed_loops() -> None:
    for loop in [loop for loop in _connections if loop.is_closed()]:
        _close_without_loop(loop)
    for loop in [loop for loop in _batches if loop.is_closed()]:
        del _batches[loop]


def _close_without_loop(loop) -> None:
    connection = _connections.pop(loop)
    _opening.pop(loop, None)
    if not connection.closed:
        connection.pgconn.finish()  # its loop may be closed already: no await
