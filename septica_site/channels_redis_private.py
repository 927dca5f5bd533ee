"""channels_redis's private names that the site uses, all here: they let the Redis layer
(septica_site/channel_layers.py) publish a commit's messages in one round trip to the channels
and shards its subscribers listen on, tell its local groups to read again when its pub/sub
connection comes back, and read that connection with a loop of its own (one that notices when
the connection has gone silent).

The pub/sub layer keeps one `RedisPubSubLoopLayer` per event loop (its shards' connections,
its local channels and groups); these functions reach into it. channels_redis is pinned
(requirements.txt); tests/site/test_private_names.py fails when an upgrade changes any of them.
"""

from __future__ import annotations

from channels_redis.pubsub import RedisSingleShardConnection
from channels_redis.utils import _consistent_hash


def loop_layer(layer):
    """The running event loop's part of a `RedisPubSubChannelLayer` (made on first use)."""
    return layer._get_layer()


def group_channel(prefix: str, group: str) -> str:
    """The Redis channel that a group's messages are published on."""
    return f"{prefix}__group__{group}"


def shard_index(channel: str, shards: int) -> int:
    """Which of the layer's `shards` hosts carries `channel`."""
    return _consistent_hash(channel, shards)


def shard_client(loop_layer, index: int):
    """The redis.asyncio client a loop layer's shard publishes with (a connection pool, not its pub/sub)."""
    shard = loop_layer._shards[index]
    shard._ensure_redis()
    return shard._redis


def pubsub_connections(loop_layer) -> list:
    """The pub/sub connection of each of the loop layer's shards that has one yet."""
    connections = (shard._pubsub.connection if shard._pubsub is not None else None for shard in loop_layer._shards)
    return [connection for connection in connections if connection is not None]


def local_groups(loop_layer) -> list[str]:
    """The groups that this loop's channels are in."""
    marker = group_channel(loop_layer.prefix, "")
    return [name.removeprefix(marker) for name in list(loop_layer.groups)]


def deliver_locally(loop_layer, group: str, data: bytes) -> int:
    """Hand `data` (a serialized message) to this loop's channels in `group`, as if heard from
    Redis; how many took it."""
    delivered = 0
    for name in list(loop_layer.groups.get(group_channel(loop_layer.prefix, group), ())):
        queue = loop_layer.channels.get(name)
        if queue is not None:
            queue.put_nowait(data)
            delivered += 1
    return delivered


class _ShardReceivingOurWay(RedisSingleShardConnection):
    """A shard whose receive task runs the layer's `receive(pubsub, deliver)` instead of channels_redis's loop."""

    receive = None

    async def _do_receiving(self):
        await self.receive(lambda: self._pubsub, self._receive_message)


def receive_with(loop_layer, receive) -> None:
    """Have each of the loop layer's shards read its pub/sub connection with `receive(pubsub, deliver)`:
    `pubsub()` is the shard's redis-py `PubSub` (None before its first subscription), and
    `deliver(message)` hands a message that `PubSub.get_message` returned to the local channels.
    Idempotent; a shard that was already receiving channels_redis's way is switched over."""
    for shard in loop_layer._shards:
        if isinstance(shard, _ShardReceivingOurWay):
            continue
        shard.__class__ = _ShardReceivingOurWay
        shard.receive = receive
        if shard._receive_task is not None:
            shard._receive_task.cancel()
            shard._receive_task = None
            shard._ensure_receiver()


def connection_streams(connection):
    """The asyncio (reader, writer) of a redis-py connection (None, None when it is not connected):
    the tests fail its socket as the kernel does when it gives up on the peer."""
    return connection._reader, connection._writer
