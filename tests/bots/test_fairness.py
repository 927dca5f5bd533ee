"""One person's tables of bots cannot make everyone else's bots slow.

Many tables where no person plays (every seat a bot, or a bot standing in)
run Expert bots, which think for their whole time budget; meanwhile a person
plays against a Beginner, which answers at once. On a real worker the
person's bot still answers quickly, and the tables of bots keep playing.
"""

from __future__ import annotations

import random
import statistics
import time

import pytest

from games import actions, tasks
from games.engine.bots import DEFAULT_BUDGET_MS
from games.models import Match, Seat, Table, TableStatus
from septica_site.celery import app
from tests.play import pick_move

from .conftest import make_deadline_pass, match_of, table_against_a_bot, wait_for

BOT_TABLES = 12
PERSON_MOVES = 6
BOT_TASKS = {"games.tasks.bot_turn", "games.tasks.turn_deadline"}


def moves_so_far(tables) -> int:
    return sum(Match.objects.filter(pk__in=[table.pk for table in tables]).values_list("seq", flat=True))


def no_turn_of_these_tables_in_the_worker(tables) -> bool:
    """Only these tables' turns: the session's worker may still hold other tests' deadline countdowns."""
    inspect = app.control.inspect(timeout=2)
    answers = [inspect.active(), inspect.reserved(), inspect.scheduled()]
    if any(answer is None for answer in answers):
        return False
    ids = {table.pk for table in tables}
    requests = [task.get("request", task) for answer in answers for tasks in answer.values() for task in tasks]
    return not any(request["name"] in BOT_TASKS and request["args"][0] in ids for request in requests)


@pytest.fixture
def stop_at_the_end():
    """The tables of bots still play when the test ends: abort them and let the worker drain
    before the database is emptied under it."""
    started = []
    yield started
    Table.objects.filter(pk__in=[table.pk for table in started]).update(status=TableStatus.ABORTED)
    assert wait_for(lambda: no_turn_of_these_tables_in_the_worker(started), timeout=30, every=0.2), (
        "the worker kept busy after the tables were aborted")


def persons_bot_waits(person) -> list[float]:
    """How long `person` waits for a Beginner's answer, move after move."""
    table = table_against_a_bot(person, level="beginner")
    rng = random.Random(7)
    waits = []
    for _ in range(PERSON_MOVES):
        match = match_of(table)
        if match.table.status != TableStatus.PLAYING:
            break
        assert match.to_move == 0
        started = time.monotonic()
        actions.play_move(table.pk, person, match.seq, pick_move(match.game().view(0), rng))
        assert wait_for(lambda: match_of(table).to_move in (0, None), timeout=30, every=0.01), "the bot never moved"
        waits.append(time.monotonic() - started)
    return waits


def assert_quick_and_still_playing(waits, bot_tables) -> None:
    before = moves_so_far(bot_tables)
    assert wait_for(lambda: moves_so_far(bot_tables) > before, timeout=30), "the tables of bots stopped"
    assert len(waits) >= 3
    # First come, first served, the Beginner's answer queued behind the Expert turns: 1.2 to 2.4 s,
    # at least three Expert decisions. Fair, it waits at most for the one decision already under
    # way (a whole budget when the worker has just taken one): a loaded machine stretches that,
    # not into a queue.
    expert_decision = DEFAULT_BUDGET_MS / 1000
    assert statistics.median(waits) < 2 * expert_decision, waits
    assert max(waits) < 3 * expert_decision + 0.2, waits


@pytest.mark.django_db(transaction=True)
def test_a_persons_bot_answers_quickly_while_one_staff_members_expert_tables_play(
        running_worker, staff, alice, settings, stop_at_the_end):
    settings.BOT_TABLES_PER_STAFF = BOT_TABLES
    bot_tables = stop_at_the_end
    bot_tables += [actions.create_bot_table(staff, rules="septica", players=4, level="expert", style="expert",
                                             options={"match": "points-8"})
                   for _ in range(BOT_TABLES)]
    assert wait_for(lambda: moves_so_far(bot_tables) >= BOT_TABLES, timeout=60), "the tables of bots never started"

    assert_quick_and_still_playing(persons_bot_waits(alice), bot_tables)


@pytest.mark.django_db(transaction=True)
def test_a_persons_bot_answers_quickly_while_someone_elses_idle_expert_tables_play(
        running_worker, bob, alice, settings, stop_at_the_end):
    """Bob made tables with three Expert bots each and walked away: a bot stands in for him everywhere."""
    settings.OPEN_TABLES_PER_PERSON = BOT_TABLES
    idle_tables = stop_at_the_end
    idle_tables += [table_against_a_bot(bob, players=4, level="expert") for _ in range(BOT_TABLES)]
    waiting = list(idle_tables)
    while waiting:
        assert wait_for(lambda: any(match_of(table).to_move == 0 for table in waiting), timeout=60), "Bob never moved"
        for table in [table for table in waiting if match_of(table).to_move == 0]:
            make_deadline_pass(table)
            tasks.turn_deadline(table.pk, match_of(table).seq)  # his time ran out
            assert Seat.objects.get(table=table, user=bob).standing_in
            waiting.remove(table)

    assert_quick_and_still_playing(persons_bot_waits(alice), idle_tables)
