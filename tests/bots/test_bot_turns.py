"""Bots take their turns on the worker, once each, seeing only their own seat."""

from __future__ import annotations

import random

import pytest

from games import actions, tasks
from games.models import Actor, Move, Seat, TableStatus
from tests.play import pick_move

from .conftest import log_replays, match_of, moves_at, table_against_a_bot, wait_for


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("rules", "players"), [("septica", 2), ("familie", 3), ("americana", 2)])
def test_a_table_of_bots_plays_to_the_end_with_nobody_connected(running_worker, staff, rules, players):
    table = actions.create_bot_table(
        staff, rules=rules, players=players, level="beginner", options={"target": 101} if rules == "americana" else None
    )

    assert wait_for(lambda: match_of(table).table.status == TableStatus.FINISHED, timeout=40), (
        f"the bots stopped at move {match_of(table).seq}"
    )
    match = match_of(table)
    assert match.result is not None and match.to_move is None
    assert set(Move.objects.filter(match=match).values_list("actor", flat=True)) == {Actor.BOT}
    assert log_replays(table)


def test_only_staff_can_start_a_table_of_bots(alice):
    with pytest.raises(actions.NotAllowed):
        actions.create_bot_table(alice, rules="septica", players=2)


def test_a_table_of_bots_stays_out_of_the_lobby(staff):
    table = actions.create_bot_table(staff, rules="septica", players=2)

    assert table.hidden and table.status == TableStatus.PLAYING
    assert all(seat.is_bot for seat in Seat.objects.filter(table=table))


@pytest.mark.django_db(transaction=True)
def test_a_bot_answers_a_persons_move_on_the_worker(running_worker, alice):
    table = table_against_a_bot(alice)
    match = match_of(table)

    actions.play_move(table.pk, alice, match.seq, pick_move(match.game().view(0), random.Random(1)))

    assert wait_for(lambda: match_of(table).to_move in (0, None)), "the bot never moved"
    bot_moves = Move.objects.filter(match_id=table.pk, seat=1)
    assert bot_moves.exists() and set(bot_moves.values_list("actor", flat=True)) == {Actor.BOT}
    assert log_replays(table)


def bot_to_move(alice):
    """Alice has moved and it is the bot's turn; nothing was queued (no commit in these tests)."""
    table = table_against_a_bot(alice)
    rng = random.Random(3)
    while match_of(table).to_move == 0:
        match = match_of(table)
        actions.play_move(table.pk, alice, match.seq, pick_move(match.game().view(0), rng))
    return table


def test_delivering_the_same_bot_turn_twice_gives_one_move(alice):
    table = bot_to_move(alice)
    seq = match_of(table).seq

    first = tasks.bot_turn(table.pk, seq)
    second = tasks.bot_turn(table.pk, seq)

    assert (first, second) == (True, False)
    assert len(moves_at(table.pk, seq)) == 1
    assert match_of(table).seq == seq + 1


@pytest.mark.django_db(transaction=True)
def test_the_same_bot_turn_sent_three_times_to_the_worker_gives_one_move(running_worker, alice, monkeypatch):
    monkeypatch.setattr("games.after_commit.turns.schedule", lambda match_id, seq, turn: None)
    table = bot_to_move(alice)
    seq = match_of(table).seq
    monkeypatch.undo()

    for _ in range(3):
        tasks.bot_turn.delay(table.pk, seq)

    assert wait_for(lambda: match_of(table).to_move in (0, None))
    assert len(moves_at(table.pk, seq)) == 1
    assert log_replays(table)


def test_a_stale_bot_turn_does_nothing(alice):
    table = bot_to_move(alice)
    seq = match_of(table).seq
    tasks.bot_turn(table.pk, seq)

    assert tasks.bot_turn(table.pk, seq) is False
    assert tasks.bot_turn(table.pk, seq - 1) is False
    assert Move.objects.filter(match_id=table.pk).count() == seq + 1


def test_a_bot_turn_for_a_persons_seat_does_nothing(alice):
    table = table_against_a_bot(alice)

    assert match_of(table).to_move == 0
    assert tasks.bot_turn(table.pk, 0) is False
    assert not Move.objects.filter(match_id=table.pk).exists()


def test_a_bot_turn_for_a_table_that_is_gone_does_nothing(db):
    assert tasks.bot_turn(999999, 0) is False


def test_the_bot_is_given_its_seats_view_and_nothing_else(alice, monkeypatch):
    table = bot_to_move(alice)
    match = match_of(table)
    seen = []

    def choose(view, level, style, rng):
        seen.append((view, level, style))
        return view["legal_moves"][0]

    monkeypatch.setattr("games.tasks.choose_move", choose)
    tasks.bot_turn(table.pk, match.seq)

    assert seen == [(match.game().view(1), "beginner", "balanced")]


def test_the_bots_dice_do_not_come_from_the_deal_seed(alice):
    table = table_against_a_bot(alice)
    seed = match_of(table).seed

    assert tasks.bot_rng(table.pk, 5).random() == tasks.bot_rng(table.pk, 5).random()
    assert seed not in repr(tasks.bot_rng(table.pk, 5).getstate())
