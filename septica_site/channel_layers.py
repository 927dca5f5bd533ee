"""The channel layers: the embedded setup's in-memory one, and Redis pub/sub.

Both offer `group_send_many`, the group messages of one commit sent together
(games/notify.py): on Redis that is one pipelined round trip instead of one
PUBLISH per group, each waiting for the last behind channels_redis's lock.

The embedded setup's layer is Channels' in-memory layer, made to scale
with the number of open sockets.

Channels' `InMemoryChannelLayer` sweeps every channel and every group for
expired entries on each `receive` and each `group_send`, which is quadratic
in the sockets of a busy process (at 800 sockets the sweep cost more than
the moves). Expiry only matters on the scale of the layer's `expiry`
(a minute), so this layer sweeps at most once a second, and sends to a
group's members directly instead of through a task each (`send` never waits:
it puts on a queue or raises ChannelFull).
"""

from __future__ import annotations

import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

SWEEP_EVERY_SECONDS = 1.0


class LocalChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY_SECONDS:
            return
        self._swept_at = now
        super()._clean_expired()

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            with contextlib.suppress(ChannelFull):  # as Channels' layer does: a full channel misses it
                await self.send(channel, message)

    async def group_send_many(self, messages) -> None:
        for group, message in messages:
            await self.group_send(group, message)

    async def flush(self):
        await super().flush()
        self._swept_at = 0.0


class RedisPubSubLayer(RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer (4.3), with the messages of a commit pipelined."""

    async def group_send_many(self, messages) -> None:
        loop_layer = self._get_layer()  # this event loop's connections
        by_shard: dict = {}
        for group, message in messages:
            channel = loop_layer._get_group_channel_name(group)
            by_shard.setdefault(loop_layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, published in by_shard.items():
            # The shard's client draws on a connection pool, so publishing needs
            # none of the lock its (un)subscribing holds around the one pub/sub
            # connection: a burst of joins never delays a move's announcement.
            shard._ensure_redis()
            async with shard._redis.pipeline(transaction=False) as pipeline:
                for channel, data in published:
                    pipeline.publish(channel, data)
                await pipeline.execute()
