"""The embedded database backend queues a process's writers in Python.

These run on a SQLite file of their own, whatever database the suite uses:
the backend is the embedded setup's, and its queue is per file.
"""

from __future__ import annotations

import threading

import pytest
from django.db.utils import ConnectionHandler

from septica_site.db_backends.sqlite3.base import write_lock


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """A function making a connection (one per thread) to a fresh SQLite file with a table `t`."""
    path = tmp_path / "writers.sqlite3"
    with django_db_blocker.unblock():  # not the suite's database: pytest-django need not guard it
        yield from _database(path)


def _database(path):
    def connect(timeout: float = 20):
        handler = ConnectionHandler({"default": {
            "ENGINE": "septica_site.db_backends.sqlite3",
            "NAME": str(path),
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE",
                        "timeout": timeout},
        }})
        return handler["default"]

    first = connect()
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (who TEXT)")
    first.close()
    yield path, connect


def rows(connection) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT who FROM t ORDER BY rowid")
        return [who for (who,) in cursor.fetchall()]


def begin_write(connection, who: str) -> None:
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO t VALUES (%s)", [who])


def finish(connection, commit: bool = True) -> None:
    connection.commit() if commit else connection.rollback()
    connection.set_autocommit(True)


def test_a_second_writer_begins_only_when_the_first_commits(database):
    path, connect = database
    first_began, first_may_commit, events = threading.Event(), threading.Event(), []

    def first():
        connection = connect()
        begin_write(connection, "first")
        first_began.set()
        first_may_commit.wait(10)
        events.append("first commits")
        finish(connection)
        connection.close()

    def second():
        connection = connect()
        first_began.wait(10)
        begin_write(connection, "second")
        events.append("second began")
        finish(connection)
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    first_began.wait(10)
    assert write_lock(str(path)).locked(), "the first writer holds the queue"
    first_may_commit.set()
    for thread in threads:
        thread.join(20)

    assert events == ["first commits", "second began"]
    reader = connect()
    assert rows(reader) == ["first", "second"]
    reader.close()
    assert not write_lock(str(path)).locked()


@pytest.mark.parametrize("ending", ["rollback", "close"])
def test_a_writer_that_rolls_back_or_closes_lets_the_next_one_in(database, ending):
    path, connect = database
    connection = connect()
    begin_write(connection, "abandoned")
    if ending == "rollback":
        finish(connection, commit=False)
    else:
        connection.close()

    assert not write_lock(str(path)).locked()
    other = connect(timeout=20)
    begin_write(other, "next")
    finish(other)
    assert rows(other) == ["next"]
    other.close()


def test_a_writer_gets_past_a_queue_that_is_stuck(database):
    path, connect = database
    stuck = write_lock(str(path))
    stuck.acquire()  # as if a thread had died holding it
    try:
        connection = connect(timeout=0.2)
        begin_write(connection, "after the wait")
        finish(connection)

        assert rows(connection) == ["after the wait"]
        connection.close()
    finally:
        stuck.release()
