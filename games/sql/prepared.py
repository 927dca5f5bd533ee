"""Cursors for the move path's hand-built SQL (games/sql/move_rows.py): prepared on PostgreSQL,
where planning the locked read's four-table join costs more than running it.

Preparing needs the connection pool (settings.py turns psycopg's preparing on
for it; Django leaves it off for the sake of external poolers), and happens
once per connection. The timestamps are parsed by psycopg's C loader, where
Django's own (which gives every datetime its time zone) is built on the pure
Python one: the C loader stands in only when it gives what Django's would
(UTC).

Everything else is Django's: the cursor is wrapped as `connection.cursor()`
wraps its own, so query logging, execute wrappers and error translation see
these statements like any other. The README's figures say what each buys.
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
        connection.validate_thread_sharing()
        return connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)


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
