"""The sockets' database calls, on one long-lived thread that keeps its connection: a
server's moves queue there instead of fighting each other for the interpreter lock.

A socket's database work (a move, a new socket's first read, and on SQLite
the re-read after a move; on PostgreSQL that one is made on the event loop,
games/consumers/loop_reads.py) runs on a thread of its own, off the event
loop. One thread, not more: every thread with work wants the interpreter
lock back after each round trip to the database, and with several of them
those waits were the slowest part of a push. The moves of a server's
sockets queue for that thread instead, each a few milliseconds.

`db()` hands a call to that thread with the least that is needed: the
caller's context and language (read by the views and errors) go along,
and the thread's connection stays open between calls unless the call left
it in doubt (an error, autocommit off, an unfinished transaction). Then it
goes through the check Django runs after a request, which closes it on
PostgreSQL, and on SQLite when it no longer works or autocommit is off.
Channels' DatabaseSyncToAsync, used before, closed the connection around
every call (on PostgreSQL: back to the pool and out again, with Django's
connection set-up each time) and went through asgiref's general machinery,
which cost more CPU. A thread that keeps its connection keeps its prepared
statements too. The README's figures say what each of these buys.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from concurrent.futures import ThreadPoolExecutor

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.db import connections
from django.utils import translation

DATABASE_THREADS = 1  # see above: more threads, more waits for the interpreter lock
_database_threads = ThreadPoolExecutor(max_workers=DATABASE_THREADS, thread_name_prefix="septica-db")
# The lobby's and My matches' builds: on a thread of their own, so that no
# list (one shared build per lobby change, consumers/shared_lists.py) ever
# waits in the moves' queue in front of a move.
_list_threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="septica-lists")


def db(function):
    """`function` as a coroutine function that runs it on the sockets' database threads."""
    return _on(_database_threads, function)


def lists_db(function):
    """`function` as a coroutine function that runs it on the lists' thread, never the moves'."""
    return _on(_list_threads, function)


def _on(executor: ThreadPoolExecutor, function):
    @functools.wraps(function)
    async def on_a_database_thread(*args, **kwargs):
        # Django's active language lives in an asgiref Local, which a copied
        # context does not carry into another thread: it goes by name.
        call = functools.partial(
            contextvars.copy_context().run, _run_keeping_connection, translation.get_language(), function, args, kwargs
        )
        return await asyncio.get_running_loop().run_in_executor(executor, call)

    return on_a_database_thread


# Each thread's own cache client. Django keeps one per context, and every call
# here runs in a fresh copy of its caller's: without this, each call made a
# client of its own, and on Redis a new connection (a chat line's rate count
# took milliseconds, beside the moves).
_this_thread = threading.local()


def _run_keeping_connection(language, function, args, kwargs):
    # Made again when CACHES changes (Django then configures `caches` anew: tests do).
    configured, client = getattr(_this_thread, "cache", (None, None))
    if configured is not caches.settings:
        configured, client = _this_thread.cache = caches.settings, caches.create_connection(DEFAULT_CACHE_ALIAS)
    caches[DEFAULT_CACHE_ALIAS] = client  # for this call's context only
    try:
        with translation.override(language):
            return function(*args, **kwargs)
    finally:
        for connection in connections.all(initialized_only=True):
            if connection.connection is not None and _in_doubt(connection):
                connection.close_if_unusable_or_obsolete()  # as Django does after a request


def _in_doubt(connection) -> bool:
    """Whether the call left this connection in a state the next call must not inherit."""
    return (
        connection.in_atomic_block
        or connection.errors_occurred
        or connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"]
    )


def close_database_threads_connections() -> None:
    """Close whatever connection each database thread still holds.

    For the end of a test run, whose test database cannot be dropped while a
    thread holds a session on it. One task per thread: the barrier keeps each
    task on its own thread until all of them have started."""
    barrier = threading.Barrier(DATABASE_THREADS)

    def close_this_threads_connections() -> None:
        barrier.wait(timeout=10)
        connections.close_all()

    for done in [_database_threads.submit(close_this_threads_connections) for _ in range(DATABASE_THREADS)]:
        done.result()
    _list_threads.submit(connections.close_all).result()
