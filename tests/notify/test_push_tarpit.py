"""A person whose devices sit at a host that never answers cannot hold up anybody else's
game: pushes go out on workers of their own, with short timeouts, to a few devices."""

from __future__ import annotations

import random
import time

import pytest
from django.conf import settings

from games import actions
from notify.models import NotificationKind, PushSubscription
from notify.notifications import notify
from tests.bots.conftest import match_of, table_against_a_bot, wait_for
from tests.notify.push_service import Browser
from tests.notify.tarpit import Tarpit
from tests.play import pick_move


def bot_answer_seconds(table, person, rng) -> float:
    """How long the bot took to hand the turn back to `person` after the move that passed it the turn."""
    while True:
        match = match_of(table)
        assert match.to_move == 0, "the match ended"
        started = time.monotonic()
        actions.play_move(table.pk, person, match.seq, pick_move(match.game().view(0), rng))
        if match_of(table).to_move != 0:
            break
    assert wait_for(lambda: match_of(table).to_move in (0, None), timeout=30), "the bot never answered"
    return time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_pushes_to_a_host_that_never_answers_do_not_delay_a_bot_at_another_table(
        running_worker, alice, bob, reach_the_local_push_services):
    table = table_against_a_bot(bob)
    rng = random.Random(5)
    before = bot_answer_seconds(table, bob, rng)

    with Tarpit() as tarpit:
        for device in range(getattr(settings, "PUSH_DEVICES_MAX", 20)):
            PushSubscription.objects.create(user=alice, endpoint=tarpit.url(f"/push/{device}"), **Browser().keys())
        for challenge in range(8):
            notify(alice, NotificationKind.CHALLENGE, title=f"Challenge {challenge}", tag=f"challenge-{challenge}")
        assert tarpit.wait_for_connections(2, timeout=10), "no push reached the host"

        during = bot_answer_seconds(table, bob, rng)

    assert during < before + 1.0, f"the bot answered in {during:.1f} s (before the pushes: {before:.2f} s)"
    # The host hung up: its devices fail twice more at most and are dropped, and the worker is idle again.
    assert wait_for(lambda: not PushSubscription.objects.filter(user=alice).exists(), timeout=60)


@pytest.mark.parametrize("task", ["notify.deliver_push", "games.your_move_email", "games.tasks.remind",
                                  "games.tasks.send_reminders"])
def test_pushes_and_emails_go_to_the_queue_the_bots_worker_does_not_take(task):
    from septica_site.celery import app

    assert app.amqp.router.route({}, task)["queue"].name == settings.NOTIFY_QUEUE
    assert app.amqp.router.route({}, "games.tasks.bot_turn")["queue"].name == app.conf.task_default_queue


def test_healthz_shows_how_long_ago_the_push_and_email_worker_was_seen(running_worker, make_user, password):
    from django.core.cache import cache

    from septica_site.tasks import NOTIFY_HEARTBEAT_KEY, heartbeat
    from tests.second_factor import staff_client

    cache.delete(NOTIFY_HEARTBEAT_KEY)
    heartbeat.apply_async(kwargs={"key": NOTIFY_HEARTBEAT_KEY}, queue=settings.NOTIFY_QUEUE)
    assert wait_for(lambda: cache.get(NOTIFY_HEARTBEAT_KEY) is not None, timeout=20), "no worker takes the queue"
    client = staff_client(make_user("root", is_staff=True), password)

    assert 0 <= client.get("/healthz").json()["broker"]["seconds_since_notify_worker_heartbeat"] < 20
