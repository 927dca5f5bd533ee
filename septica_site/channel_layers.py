"""The channel layers: the embedded setup's in-memory one, and Redis pub/sub.

Both offer `group_send_many`, the group messages of one commit sent together
(games/after_commit/publish.py): on Redis that is one pipelined round trip instead of one
PUBLISH per group, each waiting for the last behind channels_redis's lock.
The Redis layer also offers `group_send_many_blocking`, the same from a plain
thread (a database thread after its commit, a Celery worker) with a plain
Redis client: no event loop has to be woken to carry it.

When Redis cannot be reached, the Redis layer says so with one error type
(`ChannelLayerUnavailable`, which the consumers turn into a socket accepted
and closed at once with 4503, "try again soon"; the pages poll meanwhile), loses pushes rather than failing
their callers, and logs the outage in one line a few seconds instead of a
traceback a second. When its pub/sub connection is restored it tells every
local group to read again what it shows (`resync_message`, a setting): the
pushes published meanwhile were lost. A pub/sub connection that has gone
silent (a cut link fails no read) is noticed by a PING that goes unanswered,
and dropped, so it too is restored and its groups read again (`_receive`).

The embedded setup's layer is Channels' in-memory layer, made to scale
with the number of open sockets: it sweeps for expired messages at most once
a second (septica_site/channels_private.py), and sends to a group's members
directly instead of through a task each (`send` never waits: it puts on a
queue or raises ChannelFull).

What they reach of Channels' and channels_redis's insides is in
septica_site/channels_private.py and septica_site/channels_redis_private.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time

import redis
from channels.exceptions import ChannelFull
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts
from django.utils.module_loading import import_string

from . import channels_redis_private as loop_layers
from .channels_private import InMemoryLayerWithSweepHook

logger = logging.getLogger(__name__)

# What redis-py raises when Redis is down, refuses, or does not answer in time.
UNREACHABLE = (redis.RedisError, OSError, asyncio.TimeoutError)
OUTAGE_LOG_EVERY_SECONDS = 10.0


class ChannelLayerUnavailable(Exception):
    """Redis cannot be reached: a socket cannot join its groups now (it may try again soon)."""


SWEEP_EVERY_SECONDS = 1.0  # expiry matters on the scale of the layer's `expiry`, a minute


class LocalChannelLayer(InMemoryLayerWithSweepHook):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.swept_at = 0.0

    def sweep_due(self) -> bool:
        now = time.monotonic()
        if now - self.swept_at < SWEEP_EVERY_SECONDS:
            return False
        self.swept_at = now
        return True

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self.sweep_expired()
        for channel in list(self.groups.get(group, {})):
            with contextlib.suppress(ChannelFull):  # as Channels' layer does: a full channel misses it
                await self.send(channel, message)

    async def group_send_many(self, messages) -> None:
        for group, message in messages:
            await self.group_send(group, message)

    async def flush(self):
        await super().flush()
        self.swept_at = 0.0


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
        self.hosts = decode_hosts(hosts)
        self.prefix = prefix
        self.blocking_clients: dict[int, redis.Redis] = {}
        self.blocking_clients_lock = threading.Lock()
        self.resync_message = import_string(resync_message) if resync_message else None
        self.resyncers: dict[asyncio.AbstractEventLoop, _Resyncer] = {}

    def _loop_layer(self):
        """This event loop's part of the layer, its pub/sub connections read by `_receive`."""
        loop_layer = loop_layers.loop_layer(self)
        loop_layers.receive_with(loop_layer, _receive)
        return loop_layer

    # --- Redis unreachable ---------------------------------------------------------------
    async def new_channel(self, prefix: str = "specific."):
        try:
            return await self._loop_layer().new_channel(prefix)
        except UNREACHABLE as error:
            raise ChannelLayerUnavailable(repr(error)) from error

    async def group_add(self, group, channel):
        loop_layer = self._loop_layer()
        try:
            await loop_layer.group_add(group, channel)
        except UNREACHABLE as error:
            raise ChannelLayerUnavailable(repr(error)) from error
        self._hear_reconnects(loop_layer)

    async def group_discard(self, group, channel):
        try:
            await self._loop_layer().group_discard(group, channel)
        except UNREACHABLE as error:
            # Redis forgets a lost connection's subscriptions by itself.
            logger.info("could not unsubscribe from %s: %r", group, error)

    async def group_send(self, group, message):
        try:
            await self._loop_layer().group_send(group, message)
        except UNREACHABLE as error:  # the sockets read again when Redis is back
            logger.warning("could not publish to %s: %r", group, error)

    def _hear_reconnects(self, loop_layer) -> None:
        """Have each shard's pub/sub connection call us back whenever it connects again."""
        loop = asyncio.get_running_loop()
        resyncer = self.resyncers.get(loop)
        if resyncer is None or resyncer.loop_layer is not loop_layer:
            resyncer = self.resyncers[loop] = _Resyncer(self, loop_layer)
        for connection in loop_layers.pubsub_connections(loop_layer):
            # Kept as a weak method, once: registering again changes nothing.
            connection.register_connect_callback(resyncer.reconnected)

    def group_send_many_blocking(self, messages) -> None:
        """`group_send_many` for a thread without an event loop: it returns once Redis has them.

        The channel names, shards and encoding are the loop layers' own, so
        every server's subscribers hear these exactly as they hear `group_send`."""
        by_shard: dict[int, list] = {}
        for group, message in messages:
            channel = loop_layers.group_channel(self.prefix, group)
            by_shard.setdefault(loop_layers.shard_index(channel, len(self.hosts)), []).append(
                (channel, self.serialize(message))
            )
        for shard, published in by_shard.items():
            pool = self._blocking_client(shard).connection_pool
            connection = pool.get_connection()
            try:
                # One write of all the PUBLISH commands, then their answers
                # (each a count of subscribers): what a pipeline does, without
                # its per-command bookkeeping.
                connection.send_packed_command([b"".join(_publish_command(channel, data) for channel, data in published)])
                for _ in published:
                    connection.read_response()
            except BaseException:
                connection.disconnect()  # its answers may be half read: never reuse it
                raise
            finally:
                pool.release(connection)

    def _blocking_client(self, shard: int) -> redis.Redis:
        client = self.blocking_clients.get(shard)
        if client is None:
            with self.blocking_clients_lock:
                client = self.blocking_clients.get(shard)
                if client is None:
                    host = dict(self.hosts[shard])
                    if "address" not in host:  # sentinels and the like: the loop layers' way only
                        raise NotImplementedError("a blocking publish needs a Redis address")
                    host.update(
                        socket_timeout=BLOCKING_PUBLISH_TIMEOUT_SECONDS,
                        socket_connect_timeout=BLOCKING_PUBLISH_TIMEOUT_SECONDS,
                    )
                    client = self.blocking_clients[shard] = redis.Redis.from_url(host.pop("address"), **host)
        return client

    async def group_send_many(self, messages) -> None:
        loop_layer = self._loop_layer()  # this event loop's connections
        by_shard: dict[int, list] = {}
        for group, message in messages:
            channel = loop_layers.group_channel(self.prefix, group)
            by_shard.setdefault(loop_layers.shard_index(channel, len(self.hosts)), []).append(
                (channel, self.serialize(message))
            )
        for shard, published in by_shard.items():
            # The shard's client draws on a connection pool, so publishing needs
            # none of the lock its (un)subscribing holds around the one pub/sub
            # connection: a burst of joins never delays a move's announcement.
            async with loop_layers.shard_client(loop_layer, shard).pipeline(transaction=False) as pipeline:
                for channel, data in published:
                    pipeline.publish(channel, data)
                await pipeline.execute()


# A pub/sub connection only reads, so one that went silent (a cut link, a
# host gone without a word) fails no read: left alone it is never made again
# and its groups are never told to read again, and after the link heals the
# pushes lost meanwhile trickle in at the pace of TCP's backed-off
# retransmissions. So a connection that has heard nothing for a while is sent
# a PING, and one whose PING goes unanswered is dropped: the next read
# connects again, subscribes again and calls `_Resyncer.reconnected`.
PING_AFTER_SECONDS = 1.0
PONG_WITHIN_SECONDS = 2.0
POLL_SECONDS = 0.1  # channels_redis's own: how long a read waits before the loop looks around
RECONNECT_PAUSE_SECONDS = 0.5  # between attempts while Redis cannot be reached
PUBLISHED = ("message", "pmessage")


async def _receive(pubsub, deliver) -> None:
    """A shard's pub/sub reader: channels_redis's loop, plus the PING and the drop above.

    It never spins: redis-py 8 takes a timeout error of the socket's own (the
    kernel giving up on an unanswered connection) for the read timeout it was
    asked for, and answers None at once, every time, without reconnecting. A
    read that comes back empty without having waited is treated as that: the
    connection is dropped."""
    loop = asyncio.get_running_loop()
    silence = _Silence(loop)
    while True:
        try:
            subscriber = pubsub()
            if subscriber is None or not subscriber.subscribed:
                await asyncio.sleep(POLL_SECONDS)
                continue
            if silence.ping_due():
                await subscriber.ping()
                silence.pinged()
            asked_at = loop.time()
            message = await subscriber.get_message(timeout=POLL_SECONDS)
            if message is not None:
                silence.heard()
                if message["type"] in PUBLISHED:
                    deliver(message)
            elif loop.time() - asked_at < POLL_SECONDS / 2:
                await _drop(subscriber, silence, "its socket failed")
                await asyncio.sleep(RECONNECT_PAUSE_SECONDS)
            elif silence.pong_late():
                await _drop(subscriber, silence, "no answer to a PING")
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the reader must outlive anything; unreachable Redis is logged in one line
            receive_logger.exception("Unexpected exception in receive task")
            silence.heard()  # a connection made from now on starts with a clean slate
            await asyncio.sleep(RECONNECT_PAUSE_SECONDS)


async def _drop(subscriber, silence: _Silence, why: str) -> None:
    connection = subscriber.connection
    if connection is not None and connection.is_connected:
        logger.warning("Redis pub/sub connection dropped (%s): connecting again", why)
        await connection.disconnect(nowait=True)
    silence.heard()


class _Silence:
    """How long a pub/sub connection has heard nothing, and whether its PING is overdue."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.heard_at = loop.time()
        self.pinged_at: float | None = None

    def heard(self) -> None:
        self.heard_at, self.pinged_at = self.loop.time(), None

    def ping_due(self) -> bool:
        return self.pinged_at is None and self.loop.time() - self.heard_at >= PING_AFTER_SECONDS

    def pinged(self) -> None:
        self.pinged_at = self.loop.time()

    def pong_late(self) -> bool:
        return self.pinged_at is not None and self.loop.time() - self.pinged_at >= PONG_WITHIN_SECONDS


class _Resyncer:
    """Tells one event loop's local groups to read again after its pub/sub connection came back."""

    def __init__(self, layer: RedisPubSubLayer, loop_layer) -> None:
        self.layer, self.loop_layer = layer, loop_layer

    async def reconnected(self, _connection) -> None:
        # redis-py calls this after it subscribed again to every channel, so
        # whatever is published from now on is heard: reading now misses nothing.
        if self.layer.resync_message is None:
            return
        told = 0
        for group in loop_layers.local_groups(self.loop_layer):
            message = self.layer.resync_message(group)
            if message is not None:
                told += loop_layers.deliver_locally(self.loop_layer, group, self.layer.serialize(message))
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


receive_logger = logging.getLogger("channels_redis.pubsub")  # where channels_redis's own reader logged
receive_logger.addFilter(_OutageInOneLine())
