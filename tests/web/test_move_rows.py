"""The move path's hand-built SQL (games/sql/move_rows.py) reads and writes exactly
what the ORM reads and writes, on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict

from games import actions
from games.models import Actor, Match, Move, Seat
from games.sql import move_rows
from games.sql import prepared as prepared_sql
from tests.play import play_moves, start_table


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def time_zones_of(instance) -> dict:
    """Each datetime field's time zone object: equal instants in other zones compare equal, these do not."""
    return {name: value.tzinfo for name, value in fields_of(instance).items() if isinstance(value, datetime)}


@pytest.mark.django_db
def test_the_locked_read_gives_the_match_table_seats_and_people_as_the_orm_does(alice, bob, make_user):
    carol = make_user("carol", display_name="Carol")
    table = start_table(alice, [bob, carol], players=4, options={"teams": False}, bots=[actions.BotSpec(seat=3)])

    with transaction.atomic():
        match, seats = move_rows.locked_match_with_seats(table.pk)

    orm_match = Match.objects.select_related("table").get(pk=table.pk)
    orm_seats = list(Seat.objects.filter(table_id=table.pk).select_related("user").order_by("number"))
    assert fields_of(match) == fields_of(orm_match)
    assert fields_of(match.table) == fields_of(orm_match.table)
    assert match.table.match is match
    assert [fields_of(seat) for seat in seats] == [fields_of(seat) for seat in orm_seats]
    assert [fields_of(seat.user) if seat.user else None for seat in seats] == [
        fields_of(seat.user) if seat.user else None for seat in orm_seats
    ]
    assert [seat.user.display_name if seat.user else "bot" for seat in seats] == ["Alice", "Bob", "Carol", "bot"]
    read = [match, match.table, *seats, *(seat.user for seat in seats if seat.user)]
    by_orm = [orm_match, orm_match.table, *orm_seats, *(seat.user for seat in orm_seats if seat.user)]
    assert [time_zones_of(row) for row in read] == [time_zones_of(row) for row in by_orm]
    assert any(time_zones_of(row) for row in read)  # there were datetimes to compare
    assert all(seat.table is match.table for seat in seats)
    assert match.table.status == "playing" and match.state is not None


@pytest.mark.django_db
def test_no_such_match_reads_as_none(alice):
    with transaction.atomic():
        assert move_rows.locked_match_with_seats(987654) is None
    assert move_rows.moved_fields(987654) is None


@pytest.mark.django_db
def test_a_stored_move_reads_back_through_the_orm_as_written(alice, bob):
    table = start_table(alice, [bob])
    match = Match.objects.select_related("table").get(pk=table.pk)
    game = match.game()
    move = game.view(match.to_move)["legal_moves"][0]
    user = alice if match.to_move == 0 else bob
    new_game = game.play(move)
    old_seq = match.seq
    match.state, match.seq, match.to_move = new_game.to_state(), old_seq + 1, new_game.to_move

    with transaction.atomic():
        logged = Move(match=match, seq=old_seq, seat=game.to_move, move=move, actor=Actor.PERSON, user=user)
        assert move_rows.log_move_and_store(match, old_seq, logged, finished=False)

    stored = Match.objects.get(pk=table.pk)
    assert (stored.state, stored.seq, stored.to_move) == (new_game.to_state(), old_seq + 1, new_game.to_move)
    row = Move.objects.get(match_id=table.pk, seq=old_seq)
    assert model_to_dict(row, exclude=["id"]) == model_to_dict(logged, exclude=["id"])
    assert row.created_at == logged.created_at  # an aware datetime, to the microsecond

    fields, status = move_rows.moved_fields(table.pk)
    assert fields == {name: getattr(stored, name) for name in move_rows.MOVED_MATCH_FIELDS}
    assert status == "playing"


@pytest.mark.django_db
def test_the_snapshot_is_not_saved_over_a_later_one(alice, bob):
    table = start_table(alice, [bob])
    play_moves(table, count=2)
    match = Match.objects.get(pk=table.pk)
    state_now = match.state

    with pytest.raises(RuntimeError), transaction.atomic():
        stale = Move(match=match, seq=7, seat=0, move={"type": "play", "card": "7H"}, actor=Actor.PERSON)
        match.state = {"forged": True}
        if not move_rows.log_move_and_store(match, 0, stale, finished=False):
            raise RuntimeError("refused, and the log row goes with the rollback")

    assert Match.objects.get(pk=table.pk).state == state_now
    assert Move.objects.filter(match_id=table.pk).count() == 2


@pytest.mark.django_db
def test_on_postgresql_with_the_pool_the_move_statements_are_prepared(alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("preparing statements is PostgreSQL's; SQLite runs the same SQL unprepared")
    table = start_table(alice, [bob])
    play_moves(table, count=3)
    assert move_rows.moved_fields(table.pk) is not None

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any("FOR UPDATE" in statement and '"games_seat"' in statement for statement in prepared)  # the locked read
    # the log row and the new snapshot, written in one statement
    assert any('INSERT INTO "games_move"' in statement and 'UPDATE "games_match"' in statement for statement in prepared)
    assert len(prepared) == len(set(prepared))  # each once, however many moves ran


@pytest.mark.django_db
def test_on_postgresql_the_move_statements_timestamps_are_parsed_in_c_and_read_as_the_orm_does(alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("the timestamp loaders are psycopg's")
    table = start_table(alice, [bob])
    with prepared_sql.cursor_for(connection) as cursor:
        loader = cursor.cursor.adapters.get_loader(psycopg.postgres.types["timestamptz"].oid, psycopg.pq.Format.TEXT)
    assert loader.__module__.startswith("psycopg_binary")  # not Django's loader, parsed in Python

    with transaction.atomic():
        match, seats = move_rows.locked_match_with_seats(table.pk)
    orm_match = Match.objects.get(pk=table.pk)
    assert (match.started_at, match.deadline) == (orm_match.started_at, orm_match.deadline)
    assert time_zones_of(match) == time_zones_of(orm_match) == {"deadline": UTC, "started_at": UTC}
