"""The channel layers: the embedded setup's in-memory one, and Redis pub/sub.

Both offer `group_send_many`, the group messages of one commit sent together
(games/notify.py): on Redis that is one pipelined round trip instead of one
PUBLISH per group, each waiting for the last behind channels_redis's lock.
The Redis layer also offers `group_send_many_blocking`, the same from a plain
thread (a database thread after its commit, a Celery worker) with a plain
Redis client: no event loop has to be woken to carry it.

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
import threading
import time

import redis
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash, decode_hosts

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


# A blocking publish holds a server's database thread (after its commit), and
# the next moves of the server's sockets wait for it: it must not hang there
# when Redis does not answer (it answers in well under a millisecond when
# well). The clients resync after a lost push.
BLOCKING_PUBLISH_TIMEOUT_SECONDS = 0.5


def _publish_command(channel: str, data: bytes) -> bytes:
    """PUBLISH channel data, in the Redis protocol (RESP)."""
    name = channel.encode()
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(name), name, len(data), data)


class RedisPubSubLayer(RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer (4.3), with the messages of a commit pipelined."""

    def __init__(self, *args, hosts=None, prefix: str = "asgi", **kwargs) -> None:
        super().__init__(*args, hosts=hosts, prefix=prefix, **kwargs)
        self._hosts = decode_hosts(hosts)
        self._prefix = prefix
        self._blocking_clients: dict[int, redis.Redis] = {}
        self._blocking_clients_lock = threading.Lock()

    def group_send_many_blocking(self, messages) -> None:
        """`group_send_many` for a thread without an event loop: it returns once Redis has them.

        The channel names and the encoding are the loop layers' own
        (`_get_group_channel_name`, `serialize`), so every server's
        subscribers hear these exactly as they hear `group_send`."""
        by_shard: dict[int, list] = {}
        for group, message in messages:
            channel = f"{self._prefix}__group__{group}"
            by_shard.setdefault(_consistent_hash(channel, len(self._hosts)), []).append(
                (channel, self.serialize(message))
            )
        for shard, published in by_shard.items():
            pool = self._blocking_client(shard).connection_pool
            connection = pool.get_connection()
            try:
                # One write of all the PUBLISH commands, then their answers
                # (each a count of subscribers): what a pipeline does, without
                # its per-command bookkeeping, which cost four times the rest.
                connection.send_packed_command([b"".join(_publish_command(channel, data) for channel, data in published)])
                for _ in published:
                    connection.read_response()
            except BaseException:
                connection.disconnect()  # its answers may be half read: never reuse it
                raise
            finally:
                pool.release(connection)

    def _blocking_client(self, shard: int) -> redis.Redis:
        client = self._blocking_clients.get(shard)
        if client is None:
            with self._blocking_clients_lock:
                client = self._blocking_clients.get(shard)
                if client is None:
                    host = dict(self._hosts[shard])
                    if "address" not in host:  # sentinels and the like: the loop layers' way only
                        raise NotImplementedError("a blocking publish needs a Redis address")
                    host.update(
                        socket_timeout=BLOCKING_PUBLISH_TIMEOUT_SECONDS,
                        socket_connect_timeout=BLOCKING_PUBLISH_TIMEOUT_SECONDS,
                    )
                    client = self._blocking_clients[shard] = redis.Redis.from_url(host.pop("address"), **host)
        return client

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
