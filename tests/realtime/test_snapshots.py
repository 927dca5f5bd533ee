"""What the sockets of a server share after a move: complete, and freed at once.

A snapshot holds rows that point only downwards (table -> match, seats,
people). Were there cycles, every replaced snapshot would wait for Python's
cyclic collector, whose pauses at a busy server were the slowest pushes.
"""

from __future__ import annotations

import asyncio
import gc
import random
import weakref

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games import actions, sql
from games.consumers import snapshots
from games.consumers.database import db
from games.consumers.table import may_watch
from games.models import Seat
from games.presenters import table_json
from tests.play import finished_match, pick_move, play_moves, start_table


@pytest.fixture
def no_cycle_collector():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def rows_of(snapshot) -> list:
    table = snapshot.table
    return [table, table.match, *table.seats.all(), *(seat.user for seat in table.seats.all() if seat.user)]


def test_a_loaded_snapshot_is_freed_by_reference_counting(alice, bob, no_cycle_collector):
    table = start_table(alice, [bob])
    play_moves(table, 1)

    snapshot = snapshots.load_snapshot(table.pk)
    moved = snapshots.moved_snapshot(snapshot, sql.moved_fields(table.pk))
    table_json(moved.table, alice, game=moved.game, cache=moved.presented)
    alive = [weakref.ref(row) for row in rows_of(snapshot) + rows_of(moved)]
    del snapshot, moved

    assert [ref() for ref in alive if ref() is not None] == []


@pytest.mark.django_db(transaction=True)  # the move's on-commit work runs (and lets go of its seats)
def test_the_snapshot_a_move_leaves_is_freed_by_reference_counting(alice, bob, no_cycle_collector):
    table = start_table(alice, [bob])
    before = table.match.game()
    mover = alice if before.to_move == table.seats.get(user=alice).number else bob
    move = pick_move({"legal_moves": before.legal_moves()}, random.Random(1))
    match, game = actions.play_move(table.pk, mover, 0, move)

    snapshot = snapshots.Snapshot.of(match.table, game)
    table_json(snapshot.table, mover, game=game, cache=snapshot.presented)
    alive = [weakref.ref(row) for row in rows_of(snapshot)]
    del snapshot, match

    assert [ref() for ref in alive if ref() is not None] == []


def test_a_snapshot_answers_every_viewer_without_reading_again(alice, bob, charlie, django_assert_num_queries):
    table = start_table(alice, [bob], private=True)
    play_moves(table, 2)
    snapshot = snapshots.moved_snapshot(snapshots.load_snapshot(table.pk), sql.moved_fields(table.pk))

    with django_assert_num_queries(0):
        views = {user.username: table_json(snapshot.table, user, game=snapshot.game, cache=snapshot.presented)
                 for user in (alice, bob)}
        seated = snapshot.seated
        watchers = [may_watch(snapshot.table, user, None) for user in (alice, bob, charlie)]

    assert views["alice"]["seq"] == views["bob"]["seq"] == 2
    assert views["alice"]["your_seat"] != views["bob"]["your_seat"]
    assert views["alice"]["view"]["hand"] != views["bob"]["view"]["hand"]
    assert sorted(user_id for _, user_id in seated) == sorted([alice.pk, bob.pk])
    assert watchers == [True, True, False]



def test_what_the_viewers_share_shows_each_of_them_what_they_would_see_alone(alice, bob, charlie):
    playing = start_table(alice, [bob])
    play_moves(playing, 3)
    finished = finished_match(alice, [bob]).table
    waiting = actions.create_table(alice, rules="septica", players=3)
    Seat.objects.filter(table=waiting, number=2).update(reserved_for=charlie)

    for table in (playing, finished, waiting):
        snapshot = snapshots.load_snapshot(table.pk)
        for language in ("en", "ro"):
            with translation.override(language):
                for viewer in (alice, bob, charlie, AnonymousUser()):
                    shared = table_json(snapshot.table, viewer, game=snapshot.game, cache=snapshot.presented)
                    alone = table_json(snapshot.table, viewer, game=snapshot.game)
                    assert shared == alone, (table.status, language, viewer)

    with translation.override("en"):
        won = [table_json(finished, viewer, cache={})["words"]["result"] for viewer in (alice, bob)]
    assert sum(words.startswith("You") for words in won) == 1  # the winner's own words, not the other's


# --- a move made by a socket of this server -------------------------------------------------------
def first_mover(table, users) -> tuple:
    game = table.match.game()
    number = game.to_move
    mover = next(user for user in users if table.seats.get(user=user).number == number)
    return mover, pick_move({"legal_moves": game.legal_moves()}, random.Random(1))


@pytest.fixture
def loads_of_moved(monkeypatch):
    """Every re-read of a moved match (`reload_moved`) this server makes, still made."""
    calls = []
    real = snapshots.reload_moved

    async def counted(known):
        calls.append(known.table.pk)
        return await real(known)

    monkeypatch.setattr(snapshots, "reload_moved", counted)
    return calls


@pytest.fixture
def watched():
    """Tables this test's imagined sockets watch (snapshots are kept only for watched tables)."""
    tables = []
    yield tables.append
    for table_id in tables:
        snapshots.unwatch(table_id)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_news_of_a_move_made_here_waits_for_it_and_reads_nothing(
    alice, bob, loads_of_moved, watched, database_threads_let_go
):
    table = await database_sync_to_async(start_table)(alice, [bob])
    mover, move = await database_sync_to_async(first_mover)(table, [alice, bob])
    snapshots.watch(table.pk)
    watched(table.pk)
    snapshots.remember(await db(snapshots.load_snapshot)(table.pk))
    database_may_go = asyncio.Event()

    def play():
        match, game = actions.play_move(table.pk, mover, 0, move)
        return snapshots.Snapshot.of(match.table, game), "the mover's answer"

    async def slow_move():
        await database_may_go.wait()  # the announcement of seq 1 comes in before the move returns
        return await db(play)()

    moving = asyncio.create_task(snapshots.making_move(table.pk, slow_move))
    await asyncio.sleep(0)
    news = asyncio.create_task(snapshots.snapshot_at_least(table.pk, 1))
    await asyncio.sleep(0.1)
    assert not news.done()  # it waits for the move instead of reading the match

    database_may_go.set()
    made, answer = await moving
    assert (await news) is made
    assert made.seq == 1 and answer == "the mover's answer"
    assert loads_of_moved == []
    assert snapshots._moving == {}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_news_during_a_refused_move_here_reads_the_match(alice, bob, loads_of_moved, watched,
                                                               database_threads_let_go):
    table = await database_sync_to_async(start_table)(alice, [bob])
    mover, move = await database_sync_to_async(first_mover)(table, [alice, bob])
    snapshots.watch(table.pk)
    watched(table.pk)
    snapshots.remember(await db(snapshots.load_snapshot)(table.pk))
    # Another server stores seq 1 while a socket here still offers a move at seq 0.
    await database_sync_to_async(actions.play_move)(table.pk, mover, 0, move)
    database_may_go = asyncio.Event()

    def stale():
        actions.play_move(table.pk, mover, 0, move)

    async def refused_move():
        await database_may_go.wait()
        return await db(stale)()

    moving = asyncio.create_task(snapshots.making_move(table.pk, refused_move))
    await asyncio.sleep(0)
    news = asyncio.create_task(snapshots.snapshot_at_least(table.pk, 1))
    database_may_go.set()
    with pytest.raises(actions.Conflict):
        await moving

    snapshot = await news
    assert snapshot.seq == 1
    assert loads_of_moved == [table.pk]
