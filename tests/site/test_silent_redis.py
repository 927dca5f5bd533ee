"""A server whose pub/sub connection to Redis goes silent (a cut link: nothing refused, nothing
answered) tells its sockets to read their tables again within a few seconds of the link coming back.

The Redis layer (septica_site/channel_layers.py) pings a pub/sub connection that has heard
nothing for a moment and drops it when the answer is late; the next read connects again,
subscribes again and resyncs the local groups. Without that, a subscriber never notices: what
was published meanwhile is lost, and nobody is told to read again.

Between the layer and a Redis of the test's own stands a proxy that can go silent: it keeps
every connection open but drops whatever either side sends (as a cut link drops packets), and
fails new connections (a cut link lets them time out), until it resumes.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import errno
import os
import socket
import threading
import time

import pytest
import redis

from septica_site import channels_redis_private
from septica_site.channel_layers import RedisPubSubLayer
from tests.site.redis_server import RedisServer, free_port, have_redis_server

SILENT_SECONDS = 6.0  # well past the PING and its late answer, and past any read timeout
CATCH_UP_SECONDS = 3.0  # after the proxy resumes
RESYNC = {"type": "table.changed", "table": 7}  # games.after_commit.publish.resync_message("match.7")

pytestmark = pytest.mark.skipif(not have_redis_server(), reason="needs redis-server to start a Redis of its own")


class SilentProxy:
    """A TCP proxy to `upstream` on 127.0.0.1; while `silent`, it drops every byte either way and
    closes new connections at once, leaving the open ones open."""

    def __init__(self, upstream: int) -> None:
        self.upstream, self.port = upstream, free_port()
        self.silent = False
        self.sockets: list[socket.socket] = []
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.silent:
                client.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.upstream))
            self.sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if not self.silent:
                    target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            end.close()

    def close(self) -> None:
        self.listener.close()
        for end in self.sockets:
            end.close()


@pytest.fixture(scope="module")
def own_redis():
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def proxy(own_redis):
    proxy = SilentProxy(own_redis.port)
    yield proxy
    proxy.close()


def layer_through(url: str) -> RedisPubSubLayer:
    return RedisPubSubLayer(
        hosts=[{"address": url, "socket_connect_timeout": 0.5, "socket_timeout": 2.0}],  # as the settings have it
        prefix=f"silent-redis-{os.getpid()}", resync_message="games.after_commit.publish.resync_message",
    )


async def next_message(layer: RedisPubSubLayer, channel: str, within: float) -> dict:
    return await asyncio.wait_for(layer.receive(channel), within)


def run_on_a_loop_of_its_own(scenario, timeout: float):
    """Run `scenario()` on an event loop in a thread of its own, waiting for it at most `timeout`:
    a reader that spins never gives its loop back, and must not hang the test's."""
    done: concurrent.futures.Future = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(asyncio.run(scenario()))
        except BaseException as error:  # noqa: BLE001 - handed to the test
            done.set_exception(error)

    threading.Thread(target=run, daemon=True).start()
    return done.result(timeout)


def test_a_server_whose_pub_sub_connection_went_silent_resyncs_soon_after_it_comes_back(own_redis, proxy):
    publisher = redis.Redis(port=own_redis.port)  # another server, or the worker, with a link of its own

    async def scenario() -> float:
        layer = layer_through(proxy.url)
        try:
            channel = await layer.new_channel()
            await layer.group_add("match.7", channel)
            group_channel = channels_redis_private.group_channel(layer.prefix, "match.7")
            publisher.publish(group_channel, layer.serialize({"type": "before"}))
            assert await next_message(layer, channel, 5) == {"type": "before"}

            proxy.silent = True
            await asyncio.sleep(0.3)
            publisher.publish(group_channel, layer.serialize({"type": "lost"}))  # a move's push, lost on the way
            await asyncio.sleep(SILENT_SECONDS)
            proxy.silent = False
            resumed = time.monotonic()

            assert await next_message(layer, channel, CATCH_UP_SECONDS) == RESYNC
            caught_up = time.monotonic() - resumed
            await asyncio.sleep(0.5)  # the SUBSCRIBE crosses the proxy's threads; this publish does not
            publisher.publish(group_channel, layer.serialize({"type": "after"}))  # subscribed again
            assert await next_message(layer, channel, 5) == {"type": "after"}
            return caught_up
        finally:
            await layer.flush()

    caught_up = run_on_a_loop_of_its_own(scenario, SILENT_SECONDS + 20)
    assert caught_up <= CATCH_UP_SECONDS


def test_a_pub_sub_socket_the_kernel_gave_up_on_is_made_again_without_spinning(own_redis):
    """redis-py takes the socket's own timeout error (ETIMEDOUT) for the read timeout it was asked
    for and answers None at once, forever: a reader that trusted it would spin and hold its loop."""

    async def scenario() -> int:
        layer = layer_through(own_redis.url)
        try:
            channel = await layer.new_channel()
            await layer.group_add("match.7", channel)
            (connection,) = channels_redis_private.pubsub_connections(channels_redis_private.loop_layer(layer))
            reader, writer = channels_redis_private.connection_streams(connection)

            # What asyncio does when the kernel gives up on the peer: the stream fails with ETIMEDOUT.
            reader.set_exception(TimeoutError(errno.ETIMEDOUT, os.strerror(errno.ETIMEDOUT)))
            writer.transport.abort()
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            ticking = asyncio.create_task(tick())
            try:
                assert await next_message(layer, channel, 5) == RESYNC
            finally:
                ticking.cancel()
            return ticks
        finally:
            await layer.flush()

    ticks = run_on_a_loop_of_its_own(scenario, 20)
    assert ticks >= 10  # the loop went on with its other work meanwhile
