"""Deployments that share one Redis server on different database numbers do
not hear each other's pushes: pub/sub ignores the number, so the channel
layer's prefix carries it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from septica_site.channel_layers import RedisPubSubLayer

from .redis_server import RedisServer, have_redis_server

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not have_redis_server(), reason="needs redis-server to start a Redis of its own")


@pytest.fixture(scope="module")
def own_redis():
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def configs(own_redis) -> dict:
    """The layer's CONFIG as the settings make it, for database numbers 0 and 1."""
    return {number: layer_config(own_redis.url_for(number)) for number in (0, 1)}


def layer_config(redis_url: str, **env: str) -> dict:
    """CHANNEL_LAYERS["default"]["CONFIG"] as the settings make it for this environment."""
    environment = {**os.environ, "REDIS_URL": redis_url, **env}
    if "CHANNEL_LAYER_PREFIX" not in env:
        environment.pop("CHANNEL_LAYER_PREFIX", None)
    code = "import json; from django.conf import settings; print(json.dumps(settings.CHANNEL_LAYERS['default']['CONFIG']))"
    output = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=ROOT, env=environment,
        capture_output=True, text=True, check=True,
    ).stdout


    return json.loads(output.strip().splitlines()[-1])


async def heard(listener: RedisPubSubLayer, speaker: RedisPubSubLayer, group: str = "match.7") -> bool:
    channel = await listener.new_channel()
    await listener.group_add(group, channel)
    try:
        await speaker.group_send(group, {"type": "match.changed", "match": 7, "seq": 1})
        await asyncio.wait_for(listener.receive(channel), 0.5)
        return True
    except TimeoutError:
        return False
    finally:
        await listener.group_discard(group, channel)


def test_the_default_prefix_names_the_database_number(own_redis, configs):
    assert configs[0]["prefix"] == "septica-0"
    assert configs[1]["prefix"] == "septica-1"
    assert layer_config(own_redis.url_for(3), CHANNEL_LAYER_PREFIX="blue")["prefix"] == "blue"


def test_layers_on_different_database_numbers_do_not_hear_each_other(configs):
    first = RedisPubSubLayer(**configs[0])
    second = RedisPubSubLayer(**configs[1])
    again_first = RedisPubSubLayer(**configs[0])

    async def scenario():
        try:
            assert await heard(first, again_first)  # one deployment's servers do hear each other
            assert not await heard(first, second)
            assert not await heard(second, first)
        finally:
            for layer in (first, second, again_first):
                await layer.flush()

    asyncio.run(scenario())


def test_a_blocking_publish_stays_in_its_own_deployment(configs):
    first = RedisPubSubLayer(**configs[0])
    second = RedisPubSubLayer(**configs[1])

    async def scenario():
        channel = await first.new_channel()
        await first.group_add("lobby", channel)
        try:
            await asyncio.to_thread(first.group_send_many_blocking, [("lobby", {"type": "lobby.changed"})])
            assert (await asyncio.wait_for(first.receive(channel), 2))["type"] == "lobby.changed"
            await asyncio.to_thread(second.group_send_many_blocking, [("lobby", {"type": "lobby.changed"})])
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(first.receive(channel), 0.5)
        finally:
            await first.flush()
            await second.flush()

    asyncio.run(scenario())
