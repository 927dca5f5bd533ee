"""Probes of the three things the site cannot work without: the database, the
channel layer and the Celery broker.

They run at once, each on a thread of its own, and the report is made when
all have answered or PROBE_BUDGET_SECONDS have passed, whichever is first: a
dependency that hangs (a database pool waiting for a connection, a Redis that
accepts and never answers) is "down" after a second, not after its own
timeout. A probe still running then finishes in the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from concurrent.futures import ThreadPoolExecutor, wait

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from accounts.middleware import PROXY_WARNING, forwarded_without_proxy
from accounts.second_factor import used_second_factor

from . import embedded_worker, tasks
from .celery import app as celery_app

PROBE_BUDGET_SECONDS = 1.0
PROBE_TIMEOUT = PROBE_BUDGET_SECONDS  # each probe's own bound, for what it can bound itself

# Enough threads for a few probes stuck at once (each frees itself on its own
# timeout) without starting new ones for every check a load balancer makes.
_probe_threads = ThreadPoolExecutor(max_workers=9, thread_name_prefix="healthz")


def _timed(probe) -> dict:
    started = time.monotonic()
    try:
        detail = probe()
    except Exception as error:  # any failure of the probe means "down", with its reason
        return {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
    return {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1), **(detail or {})}


def check_database(alias: str = "default") -> dict:
    def probe():
        connection = connections[alias]
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
            return {"engine": connection.vendor}
        finally:
            connection.close()  # a probe thread has no request end to give it back

    return _timed(probe)


def check_channel_layer() -> dict:
    def probe():
        layer = get_channel_layer()
        token = uuid.uuid4().hex
        message = async_to_sync(_round_trip)(layer, {"type": "healthz", "token": token})
        if message.get("token") != token:
            raise RuntimeError("the channel layer returned another message")
        return {"backend": type(layer).__name__}

    return _timed(probe)


async def _round_trip(layer, message: dict) -> dict:
    """Send `message` to a new channel and receive it, all on one event loop (the
    pub/sub layer subscribes per loop: a channel made on another loop hears nothing)."""
    async with asyncio.timeout(PROBE_TIMEOUT):
        channel = await layer.new_channel("healthz.")
        await layer.send(channel, message)
        received = await layer.receive(channel)
    # A cancelled receive is how Channels' layers let go of a channel (the
    # pub/sub layer unsubscribes then): without it each probe would leave one.
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.01)
    return received


def check_broker() -> dict:
    def probe():
        with celery_app.connection_for_write() as connection:
            # One retry at once (kombu waits 2 s before its first by default).
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=PROBE_TIMEOUT)
        detail = {
            "transport": celery_app.conf.broker_url.split(":", 1)[0],
            "seconds_since_worker_heartbeat": tasks.seconds_since_heartbeat(),
            "seconds_since_notify_worker_heartbeat": tasks.seconds_since_heartbeat(tasks.NOTIFY_HEARTBEAT_KEY),
        }
        if settings.CELERY_EMBEDDED_WORKER:
            detail["embedded_worker"] = embedded_worker.is_running()
        return detail

    return _timed(probe)


PROBES = {"database": check_database, "channel_layer": check_channel_layer, "broker": check_broker}


def check_all(budget: float | None = None) -> dict:
    """Every probe's answer, in at most about `budget` seconds (PROBE_BUDGET_SECONDS unless given)."""
    if budget is None:
        budget = PROBE_BUDGET_SECONDS
    futures = {name: _probe_threads.submit(probe) for name, probe in PROBES.items()}
    done, _pending = wait(futures.values(), timeout=budget)
    return {
        name: future.result() if future in done else {"ok": False, "error": f"no answer within {budget:g} s"}
        for name, future in futures.items()
    }


def warnings() -> list[str]:
    """What an operator should fix although everything answers."""
    return [PROXY_WARNING] if forwarded_without_proxy.is_set() else []


def may_see_details(request) -> bool:
    """Probe errors name hosts and ports: staff see them only in a session opened
    with a second factor, so a guessed or leaked password alone shows nothing more."""
    return request.user.is_staff and used_second_factor(request)


def summary(report: dict) -> dict:
    """What anyone may see: each dependency "ok" or "down", no versions, addresses or errors."""
    return {name: "ok" if part["ok"] else "down" for name, part in report.items()}
