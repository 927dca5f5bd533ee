"""Cursors for the move path's hand-built SQL (games/sql/move_rows.py).

On PostgreSQL with the connection pool (settings.py turns preparing on for
it) the statements are prepared, once per connection. Django turns
psycopg's preparing off unless told, for the sake of external poolers, and
planning the locked read's four-table join cost PostgreSQL more than
running it: on the 2-core benchmark machine, the locked read's transaction
took 1.07 ms of the database's CPU unprepared and 0.59 ms prepared, and the
re-read of a moved match 0.20 ms against 0.08 ms. In bench/realtime.py at
200 matches the database's CPU per move fell from 1.6-1.7 ms to 0.9-1.0 ms.

Their timestamps are parsed by psycopg's C loader. Django registers a
loader of its own (to give every datetime its time zone) built on psycopg's
pure-Python one: 6.9 us a value against 0.5 us, and the locked read has
about fifteen. The C loader gives the connection's time zone, so it stands
in only when that is the one Django's loader would give (UTC).

Everything else is Django's: the cursor is wrapped as `connection.cursor()`
wraps its own, so query logging, execute wrappers and error translation
see these statements like any other.
"""

from __future__ import annotations

import datetime
import weakref
from functools import cache

_fast_loaders: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # psycopg connection -> loader or None


def cursor_for(connection):
    """A cursor for the move path's statements on `connection` (a Django connection)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # preparing is off (no pool): Django's own cursor
        return connection.cursor()
    with connection.wrap_database_errors:
        cursor = _prepared_cursor_class()(raw)
        if raw not in _fast_loaders:  # decided once per connection, not on every statement of every move
            _fast_loaders[raw] = fast_timestamp_loader(raw)
        fast_loader = _fast_loaders[raw]
        if fast_loader is not None:
            cursor.adapters.register_loader("timestamptz", fast_loader)
        return connection._prepare_cursor(cursor)  # as connection.cursor() wraps its own


@cache
def _prepared_cursor_class():
    import psycopg  # here, not at the top: only a PostgreSQL connection gets this far

    class PreparedCursor(psycopg.Cursor):
        """Binds on the server and prepares every statement it runs."""

        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    return PreparedCursor


def fast_timestamp_loader(raw):
    """psycopg's C loader for timestamptz text, when it gives what Django's loader gives; else None."""
    import psycopg
    from psycopg.pq import Format

    oid = psycopg.postgres.types["timestamptz"].oid
    djangos = raw.adapters.get_loader(oid, Format.TEXT)
    if getattr(djangos, "timezone", None) is not datetime.UTC:
        return None
    if raw.info.parameter_status("TimeZone") != "UTC":  # Django sets it so; the C loader then gives datetime.UTC
        return None
    fast = psycopg.adapters.get_loader(oid, Format.TEXT)
    return fast if fast is not djangos else None
