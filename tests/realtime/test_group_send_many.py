"""The messages of one commit go out together (publish.publish -> group_send_many,
or on Redis from a plain thread group_send_many_blocking) and each reaches
exactly the members of its own group, on both channel layers."""

from __future__ import annotations

import asyncio
import logging
import socket
from functools import partial

import pytest
from django.conf import settings

from games.after_commit import publish
from septica_site.channel_layers import LocalChannelLayer, RedisPubSubLayer

pytestmark = pytest.mark.asyncio

COMMIT = [
    ("match.7", {"type": "match.changed", "match": 7, "seq": 12}),
    ("user.1", {"type": "matches.changed", "table": 7}),
    ("user.2", {"type": "matches.changed", "table": 7}),
]


async def hears(layer, channel, expected):
    assert await asyncio.wait_for(layer.receive(channel), 2) == expected


async def hears_nothing(layer, channel):
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.2)


async def check_one_commit(layer, send=None):
    at_table, alice, bob, elsewhere = [await layer.new_channel() for _ in range(4)]
    for group, channel in [("match.7", at_table), ("user.1", alice), ("user.2", bob), ("match.8", elsewhere)]:
        await layer.group_add(group, channel)

    await (send or layer.group_send_many)(COMMIT)

    await hears(layer, at_table, COMMIT[0][1])
    await hears(layer, alice, COMMIT[1][1])
    await hears(layer, bob, COMMIT[2][1])
    await hears_nothing(layer, elsewhere)
    await hears_nothing(layer, alice)  # once each


async def test_on_the_embedded_layer():
    await check_one_commit(LocalChannelLayer())


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (the CI's PostgreSQL and Redis run)")
async def test_on_redis_pub_sub():
    layer = RedisPubSubLayer(hosts=[settings.REDIS_URL], prefix="septica-test-many")
    try:
        await check_one_commit(layer)
    finally:
        await layer.flush()


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (the CI's PostgreSQL and Redis run)")
async def test_on_redis_pub_sub_from_a_thread_without_a_loop():
    layer = RedisPubSubLayer(hosts=[settings.REDIS_URL], prefix="septica-test-many")
    try:
        await check_one_commit(layer, send=partial(asyncio.to_thread, layer.group_send_many_blocking))
    finally:
        await layer.flush()


async def test_a_blocking_publish_to_a_redis_that_does_not_answer_is_logged_not_raised(caplog):
    with socket.socket() as listening:  # a port nothing answers on once closed
        listening.bind(("127.0.0.1", 0))
        port = listening.getsockname()[1]
    layer = RedisPubSubLayer(hosts=[f"redis://127.0.0.1:{port}/0"], prefix="septica-test-many")

    with caplog.at_level(logging.WARNING, logger="games.after_commit.publish"):
        await asyncio.to_thread(publish._send_all_blocking, layer, COMMIT)

    assert "could not publish to match.7, user.1, user.2" in caplog.text
