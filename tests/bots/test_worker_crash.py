"""A worker that dies in the middle of a bot's turn costs a delay, never a lost or doubled move."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings

from games import tasks
from games.models import Actor, Move

from .conftest import log_replays, make_turn_old, match_of, moves_at, table_against_a_bot, wait_for


def bots_turn_with_its_task_lost(person, monkeypatch):
    """Alice moves; the bot's task is lost on the way (nothing is queued)."""
    import random

    from games import actions
    from tests.play import pick_move

    monkeypatch.setattr("games.after_commit.turns.schedule", lambda match_id, seq, turn: None)
    table = table_against_a_bot(person)
    rng = random.Random(4)
    while match_of(table).to_move == 0:
        match = match_of(table)
        actions.play_move(table.pk, person, match.seq, pick_move(match.game().view(0), rng))
    monkeypatch.undo()
    return table, match_of(table).seq


@pytest.mark.django_db(transaction=True)
def test_a_lost_bot_turn_is_found_by_the_sweeper_and_played_once(running_worker, alice, monkeypatch):
    table, seq = bots_turn_with_its_task_lost(alice, monkeypatch)
    assert not wait_for(lambda: moves_at(table.pk, seq), timeout=0.5)
    make_turn_old(table)

    tasks.sweep_deadlines.delay()
    tasks.sweep_deadlines.delay()  # two sweeps find it twice

    assert wait_for(lambda: match_of(table).to_move in (0, None)), "the bot never played"
    assert [move.actor for move in moves_at(table.pk, seq)] == [Actor.BOT]
    assert log_replays(table)


# --- a real worker process, killed mid-thought -----------------------------------------------
needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="a worker process to kill needs the Redis broker")
QUEUE = f"crash-test-{os.getpid()}"


def start_worker(**env: str) -> subprocess.Popen:
    from septica_site.celery import app
    from tests.conftest import worker_environment

    name = f"crash-{os.getpid()}-{time.monotonic_ns()}@%h"
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "septica_site",
        "worker",
        "--pool",
        "threads",
        "--concurrency",
        "2",
        "--loglevel",
        "WARNING",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-Q",
        QUEUE,
        "--hostname",
        name,
    ]
    process = subprocess.Popen(
        command, env=worker_environment(CELERY_VISIBILITY_TIMEOUT="2", **env), start_new_session=True
    )
    hostname = name.replace("%h", socket.gethostname())
    assert wait_for(lambda: process.poll() is None and app.control.ping([hostname], timeout=0.5), timeout=30)
    return process


def unacknowledged_tasks() -> int:
    """The tasks of this test's queue that a worker took and has not acknowledged.

    Only this queue's: tasks of earlier tests may still be acknowledged meanwhile."""
    import json

    import redis

    held = redis.Redis.from_url(settings.REDIS_URL).hvals("unacked")
    return sum(json.loads(message)[2] == QUEUE for message in held)  # [message, exchange, routing key]


@needs_redis
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_killing_the_worker_during_a_bots_turn_and_starting_another_gives_exactly_one_move(alice, monkeypatch):
    table, seq = bots_turn_with_its_task_lost(alice, monkeypatch)
    thinker = start_worker(BOT_THINK_SECONDS="60")
    try:
        tasks.bot_turn.apply_async((table.pk, seq), queue=QUEUE)
        assert wait_for(lambda: unacknowledged_tasks() == 1, timeout=20), "the worker never took the task"
        time.sleep(0.5)  # it is thinking now
    finally:
        os.killpg(thinker.pid, signal.SIGKILL)
        thinker.wait(timeout=10)
    assert not moves_at(table.pk, seq)
    time.sleep(2.5)  # past the visibility timeout: Redis gives the task to the next worker

    second = start_worker(BOT_THINK_SECONDS="0")
    try:
        assert wait_for(lambda: moves_at(table.pk, seq), timeout=60), "the task was never delivered again"
    finally:
        second.terminate()
        second.wait(timeout=30)

    assert [move.actor for move in moves_at(table.pk, seq)] == [Actor.BOT]
    assert Move.objects.filter(match_id=table.pk, seq__gte=seq).count() >= 1 and log_replays(table)
