"""The channel layers: the embedded setup's in-memory one, and Redis pub/sub.

Both offer `group_send_many`, the group messages of one commit sent together
(games/after_commit/publish.py): on Redis that is one pipelined round trip instead of one
PUBLISH per group, each waiting for the last behind channels_redis's lock.
The Redis layer also offers `group_send_many_blocking`, the same from a plain
thread (a database thread after its commit, a Celery worker) with a plain
Redis client: no event loop has to be woken to carry it.

When Redis cannot be reached, the Redis layer says so with one error type
(`ChannelLayerUnavailable`, which the consumers turn into a clean refusal of
the handshake; the pages poll meanwhile), loses pushes rather than failing
their callers, and logs the outage in one line a few seconds instead of a
traceback a second. When its pub/sub connection is restored it tells every
local group to read again what it shows (`resync_message`, a setting): the
pushes published meanwhile were lost.

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

import asyncio
import contextlib
import logging
import threading
import time

import redis
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash, decode_hosts
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

# What redis-py raises when Redis is down, refuses, or does not answer in time.
UNREACHABLE = (redis.RedisError, OSError, asyncio.TimeoutError)
OUTAGE_LOG_EVERY_SECONDS = 10.0


class ChannelLayerUnavailable(Exception):
    """Redis cannot be reached: a socket cannot join its groups now (it may try again soon)."""

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

    def __init__(self, *args, hosts=None, prefix: str = "asgi", resync_message: str | None = None, **kwargs) -> None:
        super().__init__(*args, hosts=hosts, prefix=prefix, **kwargs)
        self._hosts = decode_hosts(hosts)
        self._prefix = prefix
        self._blocking_clients: dict[int, redis.Redis] = {}
        self._blocking_clients_lock = threading.Lock()
        self._resync_message = import_string(resync_message) if resync_message else None
        self._resyncers: dict[asyncio.AbstractEventLoop, _Resyncer] = {}

    # --- Redis unreachable ---------------------------------------------------------------
    async def new_channel(self, prefix: str = "specific."):
        try:
            return await self._get_layer().new_channel(prefix)
        except UNREACHABLE as error:
            raise ChannelLayerUnavailable(repr(error)) from error

    async def group_add(self, group, channel):
        loop_layer = self._get_layer()
        try:
            await loop_layer.group_add(group, channel)
        except UNREACHABLE as error:
            raise ChannelLayerUnavailable(repr(error)) from error
        self._hear_reconnects(loop_layer)

    async def group_discard(self, group, channel):
        try:
            await self._get_layer().group_discard(group, channel)
        except UNREACHABLE as error:
            # Redis forgets a lost connection's subscriptions by itself.
            logger.info("could not unsubscribe from %s: %r", group, error)

    async def group_send(self, group, message):
        try:
            await self._get_layer().group_send(group, message)
        except UNREACHABLE as error:  # the sockets read again when Redis is back
            logger.warning("could not publish to %s: %r", group, error)

    def _hear_reconnects(self, loop_layer) -> None:
        """Have each shard's pub/sub connection call us back whenever it connects again."""
        loop = asyncio.get_running_loop()
        resyncer = self._resyncers.get(loop)
        if resyncer is None or resyncer.loop_layer is not loop_layer:
            resyncer = self._resyncers[loop] = _Resyncer(self, loop_layer)
        for shard in loop_layer._shards:
            connection = shard._pubsub.connection if shard._pubsub is not None else None
            if connection is not None:
                # Kept as a weak method, once: registering again changes nothing.
                connection.register_connect_callback(resyncer.reconnected)

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


class _Resyncer:
    """Tells one event loop's local groups to read again after its pub/sub connection came back."""

    def __init__(self, layer: RedisPubSubLayer, loop_layer) -> None:
        self.layer, self.loop_layer = layer, loop_layer

    async def reconnected(self, _connection) -> None:
        # redis-py calls this after it subscribed again to every channel, so
        # whatever is published from now on is heard: reading now misses nothing.
        if self.layer._resync_message is None:
            return
        marker = f"{self.loop_layer.prefix}__group__"
        told = 0
        for group_channel, members in list(self.loop_layer.groups.items()):
            message = self.layer._resync_message(group_channel.removeprefix(marker))
            if message is None:
                continue
            data = self.layer.serialize(message)
            for name in list(members):
                queue = self.loop_layer.channels.get(name)
                if queue is not None:
                    queue.put_nowait(data)
                    told += 1
        logger.warning("Redis pub/sub connection restored: %d local sockets read again", told)


class _OutageInOneLine(logging.Filter):
    """channels_redis logs a traceback every second while Redis is down; one line every few seconds says it."""

    def __init__(self) -> None:
        super().__init__()
        self.logged_at = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, UNREACHABLE):
            return True
        now = time.monotonic()
        if now - self.logged_at < OUTAGE_LOG_EVERY_SECONDS:
            return False
        self.logged_at = now
        record.msg, record.args, record.exc_info, record.exc_text = "Redis pub/sub unreachable: %r", (error,), None, None
        return True


logging.getLogger("channels_redis.pubsub").addFilter(_OutageInOneLine())
