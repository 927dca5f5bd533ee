"""What the sockets of a server share after a move: complete, and freed at once.

A snapshot holds rows that point only downwards (table -> match, seats,
people). Were there cycles, every replaced snapshot would wait for Python's
cyclic collector, whose pauses at a busy server were the slowest pushes.
"""

from __future__ import annotations

import gc
import random
import weakref

import pytest

from games import services
from games.consumers import snapshots
from games.consumers.table import may_watch
from games.presenters import table_json
from tests.play import pick_move, play_moves, start_table


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
    moved = snapshots.load_moved(snapshot)
    table_json(moved.table, alice, game=moved.game, words_cache=moved.words)
    alive = [weakref.ref(row) for row in rows_of(snapshot) + rows_of(moved)]
    del snapshot, moved

    assert [ref() for ref in alive if ref() is not None] == []


@pytest.mark.django_db(transaction=True)  # the move's on-commit work runs (and lets go of its seats)
def test_the_snapshot_a_move_leaves_is_freed_by_reference_counting(alice, bob, no_cycle_collector):
    table = start_table(alice, [bob])
    before = services.game_of(table.match)
    mover = alice if before.to_move == table.seats.get(user=alice).number else bob
    move = pick_move({"legal_moves": before.legal_moves()}, random.Random(1))
    match, game = services.play_move(table.pk, mover, 0, move)

    snapshot = snapshots.Snapshot.of(match.table, game)
    table_json(snapshot.table, mover, game=game, words_cache=snapshot.words)
    alive = [weakref.ref(row) for row in rows_of(snapshot)]
    del snapshot, match

    assert [ref() for ref in alive if ref() is not None] == []


def test_a_snapshot_answers_every_viewer_without_reading_again(alice, bob, charlie, django_assert_num_queries):
    table = start_table(alice, [bob], private=True)
    play_moves(table, 2)
    snapshot = snapshots.load_moved(snapshots.load_snapshot(table.pk))

    with django_assert_num_queries(0):
        views = {user.username: table_json(snapshot.table, user, game=snapshot.game, words_cache=snapshot.words)
                 for user in (alice, bob)}
        seated = snapshot.seated
        watchers = [may_watch(snapshot.table, user, None) for user in (alice, bob, charlie)]

    assert views["alice"]["seq"] == views["bob"]["seq"] == 2
    assert views["alice"]["your_seat"] != views["bob"]["your_seat"]
    assert views["alice"]["view"]["hand"] != views["bob"]["view"]["hand"]
    assert sorted(user_id for _, user_id in seated) == sorted([alice.pk, bob.pk])
    assert watchers == [True, True, False]
