"""Waiting, before a transactional test's flush, until nothing else writes."""

from __future__ import annotations

import time

# The `celery worker` processes the session started (PostgreSQL + Redis), by node name.
SESSION_WORKERS: list[str] = []


def database_quiet(timeout: float = 30.0) -> None:
    """Until the session's workers run no task and no other connection to the
    test database is inside a transaction (PostgreSQL).

    A transactional test's flush truncates every table in one statement,
    taking the tables' locks one by one; a task still writing then holds
    one of them and wants another, and PostgreSQL ends the deadlock by
    failing one side, sometimes the flush.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    from septica_site.celery import app

    deadline = time.monotonic() + timeout
    inspect = app.control.inspect(destination=SESSION_WORKERS, timeout=1) if SESSION_WORKERS else None
    while time.monotonic() < deadline:
        running = any((inspect.active() or {}).values()) if inspect else False
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL")
            (in_transaction,) = cursor.fetchone()
        if not running and not in_transaction:
            return
        time.sleep(0.05)
