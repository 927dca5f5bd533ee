"""Probes of the three things the site cannot work without: the database, the
channel layer and the Celery broker. Each answers quickly, even when down."""

from __future__ import annotations

import time
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from .celery import app as celery_app

PROBE_TIMEOUT = 2.0


def _timed(probe) -> dict:
    started = time.monotonic()
    try:
        detail = probe()
    except Exception as error:  # any failure of the probe means "down", with its reason
        return {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
    return {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1), **(detail or {})}


def check_database(alias: str = "default") -> dict:
    def probe():
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"engine": connections[alias].vendor}

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
    import asyncio
    import contextlib

    channel = await layer.new_channel("healthz.")
    await layer.send(channel, message)
    received = await asyncio.wait_for(layer.receive(channel), PROBE_TIMEOUT)
    # A cancelled receive is how Channels' layers let go of a channel (the
    # pub/sub layer unsubscribes then): without it each probe would leave one.
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.01)
    return received


def check_broker() -> dict:
    def probe():
        with celery_app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=PROBE_TIMEOUT)
        from .tasks import seconds_since_heartbeat

        detail = {
            "transport": celery_app.conf.broker_url.split(":", 1)[0],
            "seconds_since_worker_heartbeat": seconds_since_heartbeat(),
        }
        if settings.CELERY_EMBEDDED_WORKER:
            from . import embedded_worker

            detail["embedded_worker"] = embedded_worker.is_running()
        return detail

    return _timed(probe)


def check_all() -> dict:
    return {"database": check_database(), "channel_layer": check_channel_layer(), "broker": check_broker()}
