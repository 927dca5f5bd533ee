"""A person whose time runs out gets a bot standing in, until they act again."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions, tasks
from games.after_commit import turns
from games.models import Actor, Match, Move, Seat
from septica_site.celery import app
from tests.play import pick_move, start_table

from .conftest import log_replays, make_deadline_pass, make_turn_old, match_of, moves_at, wait_for


def play_one(table, user, rng=None):
    match = match_of(table)
    seat = Seat.objects.get(table=table, user=user).number
    return actions.play_move(
        table.pk, user, match.seq, pick_move(match.game().view(seat), rng or random.Random(2))
    )


def standing_in(table, user) -> bool:
    return Seat.objects.get(table=table, user=user).standing_in


def until_turn_of(table, seat_number, others):
    """Others move until it is `seat_number`'s turn."""
    rng = random.Random(5)
    while match_of(table).to_move not in (seat_number, None):
        play_one(table, others[match_of(table).to_move], rng)


# --- the turn times out ---------------------------------------------------------------
def test_a_person_out_of_time_gets_a_bot_that_plays_their_turn(alice, bob):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)

    assert tasks.turn_deadline(table.pk, 0) is True

    [move] = moves_at(table.pk, 0)
    assert (move.seat, move.actor, move.user) == (0, Actor.TIMEOUT, None)
    assert standing_in(table, alice) and not standing_in(table, bob)


def test_the_table_shows_that_a_bot_is_standing_in(alice, bob, client):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)
    tasks.turn_deadline(table.pk, 0)
    client.force_login(bob)

    seats = client.get(f"/api/tables/{table.pk}").json()["seats"]

    assert [seat["standing_in"] for seat in seats] == [True, False]


def test_a_deadline_not_yet_passed_does_nothing(alice, bob):
    table = start_table(alice, [bob], seconds_per_move=30)

    assert tasks.turn_deadline(table.pk, 0) is False
    assert not Move.objects.filter(match_id=table.pk).exists() and not standing_in(table, alice)


def test_a_deadline_for_a_turn_already_played_does_nothing(alice, bob):
    table = start_table(alice, [bob], seconds_per_move=30)
    play_one(table, alice)
    make_deadline_pass(table)

    assert tasks.turn_deadline(table.pk, 0) is False
    assert Move.objects.filter(match_id=table.pk).count() == 1 and not standing_in(table, alice)


def test_delivering_the_same_deadline_twice_gives_one_move(alice, bob):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)

    assert [tasks.turn_deadline(table.pk, 0), tasks.turn_deadline(table.pk, 0)] == [True, False]
    assert len(moves_at(table.pk, 0)) == 1 and Move.objects.filter(match_id=table.pk).count() == 1


def test_the_bot_standing_in_keeps_playing_for_the_person(alice, bob):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)
    tasks.turn_deadline(table.pk, 0)
    until_turn_of(table, 0, {1: bob})
    seq = match_of(table).seq

    assert tasks.bot_turn(table.pk, seq) is True
    assert moves_at(table.pk, seq)[0].actor == Actor.TIMEOUT and standing_in(table, alice)


# --- taking the seat back ----------------------------------------------------------------
def test_a_persons_own_move_takes_the_seat_back(alice, bob):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)
    tasks.turn_deadline(table.pk, 0)
    until_turn_of(table, 0, {1: bob})
    seq = match_of(table).seq

    play_one(table, alice)

    assert moves_at(table.pk, seq)[0].actor == Actor.PERSON and not standing_in(table, alice)


def test_the_bot_stops_once_the_person_has_taken_the_seat_back(alice, bob, client):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)
    tasks.turn_deadline(table.pk, 0)
    until_turn_of(table, 0, {1: bob})
    seq = match_of(table).seq
    client.force_login(alice)

    answer = client.post(f"/api/tables/{table.pk}/back")

    assert answer.status_code == 200 and answer.json()["seats"][0]["standing_in"] is False
    assert tasks.bot_turn(table.pk, seq) is False
    assert not moves_at(table.pk, seq)


def test_taking_the_seat_back_on_your_turn_gives_a_fresh_clock(alice, bob, client):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)
    tasks.turn_deadline(table.pk, 0)
    until_turn_of(table, 0, {1: bob})
    Match.objects.filter(pk=table.pk).update(deadline=timezone.now() + timedelta(seconds=2))
    client.force_login(alice)

    client.post(f"/api/tables/{table.pk}/back")

    assert match_of(table).deadline > timezone.now() + timedelta(seconds=25)


def test_taking_back_a_seat_nobody_stands_in_for_changes_nothing(alice, bob, client):
    table = start_table(alice, [bob], seconds_per_move=30)
    client.force_login(alice)

    answer = client.post(f"/api/tables/{table.pk}/back")

    assert answer.status_code == 200 and not standing_in(table, alice)


def test_only_a_seated_person_can_take_a_seat_back(alice, bob, charlie, client):
    table = start_table(alice, [bob], seconds_per_move=30)
    client.force_login(charlie)

    assert client.post(f"/api/tables/{table.pk}/back").status_code == 403


def test_a_private_table_does_not_exist_for_an_outsider_taking_a_seat_back(alice, bob, charlie, client):
    table = start_table(alice, [bob], seconds_per_move=30, private=True)
    client.force_login(charlie)

    assert client.post(f"/api/tables/{table.pk}/back").status_code == 404


def test_taking_a_seat_back_needs_a_log_in(alice, bob, client):
    table = start_table(alice, [bob], seconds_per_move=30)

    assert client.post(f"/api/tables/{table.pk}/back").status_code == 401


def test_taking_a_seat_back_at_no_table_is_not_found(alice, client):
    client.force_login(alice)

    assert client.post("/api/tables/999999/back").status_code == 404


# --- what gets scheduled -----------------------------------------------------------------
@pytest.fixture
def sent(monkeypatch):
    """The bot and deadline tasks sent, as (name, args, options): by name after a commit, or directly by the sweeper."""
    calls = []
    def send_task(name, args=(), **kw):
        if name in (turns.BOT_TURN_TASK, turns.TURN_DEADLINE_TASK):
            calls.append((name.rsplit(".", 1)[-1], args, kw))

    monkeypatch.setattr(app, "send_task", send_task)
    monkeypatch.setattr(tasks.bot_turn, "delay", lambda *args: calls.append(("bot_turn", args, {})))
    monkeypatch.setattr(tasks.turn_deadline, "delay", lambda *args: calls.append(("turn_deadline", args, {})))
    return calls


def test_a_live_table_counts_down_to_the_deadline_of_each_turn(alice, bob, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        table = start_table(alice, [bob], seconds_per_move=30)

    assert sent == [("turn_deadline", (table.pk, 0), {"eta": match_of(table).deadline, "retry": False})]


def test_a_correspondence_table_leaves_its_deadlines_to_the_sweeper(
    alice, bob, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        start_table(alice, [bob], seconds_per_move=86400)

    assert sent == []


def test_a_move_that_makes_it_a_bots_turn_sends_the_bot_after_the_configured_delay(
    alice, sent, settings, django_capture_on_commit_callbacks
):
    settings.BOT_MOVE_DELAY_SECONDS = 1.5
    table = actions.create_table(alice, rules="septica", players=2, bots=[actions.BotSpec(seat=1)])
    with django_capture_on_commit_callbacks(execute=True):
        play_one(table, alice)

    assert sent[-1] == ("bot_turn", (table.pk, 1), {"countdown": 1.5, "retry": False})  # fails fast; queued again


def test_a_broken_broker_does_not_undo_a_stored_move(alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(app, "send_task", broken)
    with django_capture_on_commit_callbacks(execute=True):
        table = start_table(alice, [bob], seconds_per_move=30)
        play_one(table, alice)

    assert match_of(table).seq == 1


def test_the_sweeper_finds_people_past_their_deadline_and_lost_bot_turns(alice, bob, charlie, sent):
    late = start_table(alice, [bob], seconds_per_move=86400)
    on_time = start_table(bob, [charlie], seconds_per_move=86400)
    lost = actions.create_table(charlie, rules="septica", players=2, bots=[actions.BotSpec(seat=1)])
    play_one(lost, charlie)
    fresh = actions.create_table(alice, rules="septica", players=2, bots=[actions.BotSpec(seat=1)])
    play_one(fresh, alice)
    make_deadline_pass(late)
    make_turn_old(lost)

    counts = tasks.sweep_deadlines()

    assert sorted(sent) == sorted([("turn_deadline", (late.pk, 0), {}), ("bot_turn", (lost.pk, 1), {})])
    assert counts == {"deadlines": 1, "bot_turns": 1}
    assert on_time.pk not in [args[0] for _, args, _ in sent]
    assert fresh.pk not in [args[0] for _, args, _ in sent]


def test_the_sweeper_runs_on_celery_beat(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]

    assert schedule["task"] == "games.tasks.sweep_deadlines" and schedule["schedule"] == 30.0


def test_scheduling_a_match_that_moved_on_sends_nothing(alice, bob, sent):
    table = start_table(alice, [bob], seconds_per_move=30)
    play_one(table, alice)

    turns.schedule_reading(table.pk, 0)

    assert sent == []


# --- on the real worker -------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_on_the_worker_a_timed_out_person_is_replaced_and_then_takes_the_seat_back(running_worker, alice, bob, client):
    table = start_table(alice, [bob], seconds_per_move=30)
    make_deadline_pass(table)

    tasks.sweep_deadlines()

    assert wait_for(lambda: moves_at(table.pk, 0)), "no bot stood in"
    assert moves_at(table.pk, 0)[0].actor == Actor.TIMEOUT and standing_in(table, alice)
    # The bot keeps playing Alice's turns while Bob plays his.
    rng = random.Random(9)
    for _ in range(3):
        assert wait_for(lambda: match_of(table).to_move in (1, None)), "the bot standing in stopped"
        if match_of(table).to_move is None:
            break
        play_one(table, bob, rng)
    # Alice comes back on Bob's turn, once the bot has answered his last move, so
    # no bot move is under way (taking a seat back mid-think is tested above).
    assert wait_for(lambda: match_of(table).to_move in (1, None)), "the bot standing in stopped"
    timeouts = Move.objects.filter(match_id=table.pk, actor=Actor.TIMEOUT).count()
    assert timeouts >= 2

    client.force_login(alice)
    assert client.post(f"/api/tables/{table.pk}/back").status_code == 200
    until_turn_of(table, 0, {1: bob})

    assert not wait_for(lambda: match_of(table).to_move != 0, timeout=1.5), "the bot played after Alice came back"
    assert Move.objects.filter(match_id=table.pk, actor=Actor.TIMEOUT).count() == timeouts
    assert not standing_in(table, alice) and log_replays(table)
