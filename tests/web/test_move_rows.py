"""The move path's hand-built SQL (games/move_rows.py) reads and writes exactly
what the ORM reads and writes, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.forms.models import model_to_dict

from games import move_rows, services
from games.models import Actor, Match, Move, Seat
from tests.play import play_moves, start_table


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


@pytest.mark.django_db
def test_the_locked_read_gives_the_match_table_seats_and_people_as_the_orm_does(alice, bob, make_user):
    carol = make_user("carol", display_name="Carol")
    table = start_table(alice, [bob, carol], players=4, options={"teams": False}, bots=[services.BotSpec(seat=3)])

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
    game = services.game_of(match)
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
