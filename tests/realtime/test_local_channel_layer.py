"""The embedded setup's channel layer delivers like Channels' in-memory one,
without sweeping every socket on every message."""

from __future__ import annotations

import asyncio

import pytest

from septica_site import channel_layers
from septica_site.channel_layers import LocalChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_group_send_reaches_every_member_and_nobody_else():
    layer = LocalChannelLayer()
    alice, bob, carol = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table-1", alice)
    await layer.group_add("table-1", bob)
    await layer.group_add("table-2", carol)

    await layer.group_send("table-1", {"type": "match.changed", "seq": 4})

    assert await asyncio.wait_for(layer.receive(alice), 1) == {"type": "match.changed", "seq": 4}
    assert await asyncio.wait_for(layer.receive(bob), 1) == {"type": "match.changed", "seq": 4}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(carol), 0.05)


async def test_a_member_that_left_hears_nothing_more():
    layer = LocalChannelLayer()
    alice = await layer.new_channel()
    await layer.group_add("table-1", alice)
    await layer.group_discard("table-1", alice)

    await layer.group_send("table-1", {"type": "match.changed", "seq": 5})

    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(alice), 0.05)


async def test_a_full_channel_misses_the_message_and_the_others_still_get_it():
    layer = LocalChannelLayer(capacity=1)
    slow, quick = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", slow)
    await layer.group_add("table-1", quick)
    await layer.group_send("table-1", {"type": "match.changed", "seq": 1})
    assert await layer.receive(quick) == {"type": "match.changed", "seq": 1}

    await layer.group_send("table-1", {"type": "match.changed", "seq": 2})  # `slow` still holds seq 1

    assert await asyncio.wait_for(layer.receive(quick), 1) == {"type": "match.changed", "seq": 2}
    assert await layer.receive(slow) == {"type": "match.changed", "seq": 1}


async def test_expired_messages_are_still_swept_and_their_channel_leaves_its_groups(monkeypatch):
    monkeypatch.setattr(channel_layers, "SWEEP_EVERY_SECONDS", 0.0)
    layer = LocalChannelLayer(expiry=0)
    gone, listening = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", gone)
    await layer.send(gone, {"type": "match.changed", "seq": 1})  # never read: it expires
    await asyncio.sleep(0.01)

    await layer.group_add("table-1", listening)
    await layer.group_send("table-1", {"type": "match.changed", "seq": 2})

    assert gone not in layer.groups["table-1"], "a socket whose messages expired unread is dropped from its groups"
