"""The messages of one commit go out together (notify.publish -> group_send_many)
and each reaches exactly the members of its own group, on both channel layers."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

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


async def check_one_commit(layer):
    at_table, alice, bob, elsewhere = [await layer.new_channel() for _ in range(4)]
    for group, channel in [("match.7", at_table), ("user.1", alice), ("user.2", bob), ("match.8", elsewhere)]:
        await layer.group_add(group, channel)

    await layer.group_send_many(COMMIT)

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
