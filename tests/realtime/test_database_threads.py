"""The sockets' database threads (DATABASE_THREADS of them, one today; games/consumers/database.py): each keeps its
connection between calls, never hands the next call a connection left in
doubt, and runs every call in its caller's language."""

from __future__ import annotations

import asyncio
import itertools
import threading

import pytest
from channels.db import database_sync_to_async
from django.db import connection, transaction
from django.utils import translation

from accounts.models import User
from games.consumers.database import DATABASE_THREADS, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

names = itertools.count()


def session_id() -> int:
    """This thread's database session: PostgreSQL's backend, or SQLite's connection object."""
    connection.ensure_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]
    return id(connection.connection)


async def on_every_thread(function) -> list:
    """`function` run once on each database thread: each call waits until all have started."""
    everyone_started = threading.Barrier(DATABASE_THREADS)

    def held():
        everyone_started.wait(timeout=10)
        return threading.get_ident(), function()

    return await asyncio.gather(*(db(held)() for _ in range(DATABASE_THREADS)))


def new_user() -> str:
    username = f"thread-user-{next(names)}"
    User.objects.create_user(username=username, email=f"{username}@example.com", password=None)
    return username


async def stored(usernames) -> set[str]:
    """Which of `usernames` another connection (this test's own) sees committed."""
    found = database_sync_to_async(lambda: set(User.objects.filter(username__in=usernames).values_list(
        "username", flat=True)))
    return await found()


async def test_each_thread_keeps_its_connection_from_one_call_to_the_next(database_threads_let_go):
    first = dict(await on_every_thread(session_id))
    assert len(first) == DATABASE_THREADS
    for _ in range(3):
        assert dict(await on_every_thread(session_id)) == first  # the same session on each thread, every call


async def test_a_call_that_leaves_autocommit_off_does_not_pass_it_on(database_threads_let_go):
    def forgetful() -> tuple[int, str]:
        connection.set_autocommit(False)  # and never back on: the work after it is never committed
        return threading.get_ident(), new_user()

    forgetful_thread, lost = await db(forgetful)()
    written = dict(await on_every_thread(new_user))

    assert forgetful_thread in written  # the thread that forgot ran a call again
    assert await stored([lost, *written.values()]) == set(written.values())  # each of those committed
    assert set(dict(await on_every_thread(connection.get_autocommit)).values()) == {True}


async def test_a_call_whose_transaction_failed_leaves_every_thread_working(database_threads_let_go):
    def failing():
        with transaction.atomic():
            new_user()
            with connection.cursor() as cursor:
                cursor.execute("SELECT no_such_column FROM accounts_user")

    with pytest.raises(Exception, match="no_such_column"):
        await db(failing)()
    written = dict(await on_every_thread(new_user))
    assert await stored(list(written.values())) == set(written.values())
    assert set(dict(await on_every_thread(lambda: connection.in_atomic_block)).values()) == {False}


async def test_a_call_runs_in_its_callers_language(database_threads_let_go):
    with translation.override("ro"):
        assert await db(translation.get_language)() == "ro"
    with translation.override("en"):
        assert await db(translation.get_language)() == "en"


async def test_each_thread_keeps_its_cache_client_and_its_redis_connection(database_threads_let_go):
    """A chat line counts its rate in the cache on the lists' thread: a cache client (and on Redis a new
    connection) made for every call cost each line milliseconds and slowed the moves beside it."""
    from django.core.cache import cache, caches

    from games.consumers.database import lists_db

    def client():
        cache.set("thread-probe", 1)  # connects, on Redis
        return caches["default"]  # held here, so that no later client can take its place in memory

    for run in (db, lists_db):
        first = await run(client)()
        assert all([await run(client)() is first for _ in range(3)])

    if "redis" in caches["default"].__class__.__name__.lower():
        import redis
        from django.conf import settings

        def connections_now() -> int:
            return len(redis.Redis.from_url(settings.REDIS_URL).client_list())

        before = connections_now()
        for _ in range(5):
            await db(client)()
            await lists_db(client)()
        assert connections_now() <= before  # the threads' connections were open already, and reused
