"""Django's SQLite backend, with the writers of one process queued in Python.

SQLite lets one connection write at a time. Another that asks (BEGIN
IMMEDIATE) is put off by SQLite's busy handler, which sleeps and retries with
pauses growing to 100 ms, so under load an unlucky writer waits while later
ones keep getting in (figures in the README). In the embedded setup every writer is a thread of the
server process, so here they queue on a lock instead, and each one begins the
moment the one before it commits or rolls back.

Writers in other processes (a `celery worker` pointed at the same file) are
not in this queue; SQLite's own waiting still covers them. A writer that
cannot get the lock within the connection's timeout goes on to SQLite's
waiting too, so a lock held by a stuck thread slows writers but never
stops them.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    """The queue of writers to the database file `name` in this process."""
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _held_write_lock: threading.Lock | None = None

    def _start_transaction_under_autocommit(self):
        lock = write_lock(str(self.settings_dict["NAME"]))
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        if lock.acquire(timeout=timeout):
            self._held_write_lock = lock
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._release_write_lock()

    def _release_write_lock(self) -> None:
        lock, self._held_write_lock = self._held_write_lock, None
        if lock is not None:
            lock.release()
