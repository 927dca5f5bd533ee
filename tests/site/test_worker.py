"""Tasks and countdowns really run, embedded and on Redis."""

from __future__ import annotations

import time
import uuid

from django.core.cache import cache

from septica_site.tasks import HEARTBEAT_KEY, heartbeat
from tests.second_factor import staff_client


def wait_for(condition, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_the_worker_runs_a_task_after_its_countdown(running_worker):
    # A key of this test's own: beat's periodic heartbeat may run meanwhile.
    key = f"septica:test-countdown:{uuid.uuid4().hex}"
    sent = time.monotonic()

    heartbeat.apply_async(kwargs={"key": key}, countdown=1)

    time.sleep(0.5)
    assert cache.get(key) is None, "the task ran before its countdown"
    assert wait_for(lambda: cache.get(key) is not None), "the task never ran"
    assert time.monotonic() - sent >= 0.9, "the countdown was not respected"
    cache.delete(key)


def test_healthz_shows_how_long_ago_a_worker_was_seen(running_worker, make_user, password):
    heartbeat.delay()
    assert wait_for(lambda: cache.get(HEARTBEAT_KEY) is not None)
    client = staff_client(make_user("root", is_staff=True), password)  # the details are for staff with a second factor

    body = client.get("/healthz").json()

    assert 0 <= body["broker"]["seconds_since_worker_heartbeat"] < 20
