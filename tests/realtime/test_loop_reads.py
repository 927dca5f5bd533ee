"""A moved match read again on the event loop (PostgreSQL) reads exactly as
the ORM reads it, and a broken connection costs that read nothing."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.consumers import loop_reads
from games.models import Match
from games.sql import move_rows
from tests.play import play_moves, start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's own reads are PostgreSQL's")


@pytest.fixture
def moved_table(alice, bob, database_threads_let_go):
    table = start_table(alice, [bob])
    play_moves(table, 3)
    return table


def orm_fields(table_id: int) -> tuple[dict, str]:
    match = Match.objects.select_related("table").get(pk=table_id)
    return {name: getattr(match, name) for name in move_rows.MOVED_MATCH_FIELDS}, match.table.status


async def test_a_moved_match_reads_on_the_loop_as_the_orm_reads_it(moved_table):
    on_the_loop = await loop_reads.moved_fields(moved_table.pk)
    through_the_orm = await database_sync_to_async(orm_fields)(moved_table.pk)

    assert on_the_loop == through_the_orm
    fields, status = on_the_loop
    assert fields["seq"] == 3 and status == "playing"
    assert fields["deadline"].utcoffset().total_seconds() == 0  # aware, in UTC, as Django gives it
    assert isinstance(fields["state"], dict)


async def test_a_match_that_is_gone_reads_as_none(moved_table):
    assert await loop_reads.moved_fields(moved_table.pk + 1000) is None


@on_postgresql
async def test_reads_asked_for_together_share_statements_and_each_gets_its_own_row(alice, bob, charlie,
                                                                                   database_threads_let_go,
                                                                                   monkeypatch):
    def tables():
        made = []
        for moves in range(4):
            table = start_table(alice, [bob, charlie], players=3)
            play_moves(table, moves)
            made.append(table.pk)
        return made

    table_ids = await database_sync_to_async(tables)()
    statements = []
    real = loop_reads._read_many

    async def counted(match_ids):
        statements.append(sorted(match_ids))
        return await real(match_ids)

    monkeypatch.setattr(loop_reads, "_read_many", counted)
    asked = table_ids + table_ids[:2] + [table_ids[-1] + 1000]  # twice for some, and one that is gone
    answers = await asyncio.gather(*(loop_reads.moved_fields(table_id) for table_id in asked))

    expected = [await database_sync_to_async(orm_fields)(table_id) for table_id in table_ids]
    assert answers == expected + expected[:2] + [None]
    assert [fields["seq"] for fields, _ in answers[:4]] == [0, 1, 2, 3]
    assert statements == [sorted(set(asked))]  # one statement, one row asked for each match


def backend_pid_of(loop) -> int:
    return loop_reads._connections[loop].info.backend_pid


def terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


@on_postgresql
async def test_the_read_after_its_connection_was_killed_still_answers(moved_table):
    loop = asyncio.get_running_loop()
    await loop_reads.moved_fields(moved_table.pk)
    first = backend_pid_of(loop)
    await database_sync_to_async(terminate)(first)  # a database restart, as this connection sees it

    fields, _ = await loop_reads.moved_fields(moved_table.pk)  # through a database thread
    assert fields["seq"] == 3
    fields, _ = await loop_reads.moved_fields(moved_table.pk)  # on a new connection of the loop's
    assert fields["seq"] == 3
    assert backend_pid_of(loop) != first


@on_postgresql
async def test_each_loop_keeps_one_connection_and_a_closed_loops_is_closed(moved_table):
    loop = asyncio.get_running_loop()
    for _ in range(3):
        await loop_reads.moved_fields(moved_table.pk)
    assert list(loop_reads._connections) == [loop]

    def read_on_another_loop():
        other = asyncio.new_event_loop()
        try:
            other.run_until_complete(loop_reads.moved_fields(moved_table.pk))
        finally:
            other.close()
        return loop_reads._connections[other]

    left_behind = await asyncio.to_thread(read_on_another_loop)
    assert not left_behind.closed  # until another loop opens one
    await loop_reads._drop(loop)
    await loop_reads.moved_fields(moved_table.pk)

    assert left_behind.closed
    assert list(loop_reads._connections) == [loop]
