"""With Redis unreachable a new websocket is accepted and closed cleanly with
code 4503 (try again soon), never a refused handshake, a 500 or a crashed
consumer, so the page polls meanwhile and its socket tries again."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator

from tests.play import start_table

from .conftest import ORIGIN

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def redis_unreachable(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "septica_site.channel_layers.RedisPubSubLayer",
            "CONFIG": {"hosts": [{"address": CLOSED_PORT_REDIS, "socket_connect_timeout": 0.5}]},
        }
    }
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CLOSED_PORT_REDIS,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, [bob], options={"match": "points-8"})


@pytest.mark.parametrize("path", ["/ws/tables/{id}/", "/ws/lobby/"])
async def test_a_new_socket_is_closed_with_4503_when_redis_is_unreachable(
    application, redis_unreachable, playing, path, caplog
):
    communicator = WebsocketCommunicator(application, path.format(id=playing.pk), headers=[ORIGIN])

    with caplog.at_level(logging.ERROR):
        connected, _subprotocol = await communicator.connect(timeout=5)
        closed = await communicator.receive_output(timeout=5)

    assert connected, "a refused handshake shows the browser no close code"
    assert closed == {"type": "websocket.close", "code": 4503}
    assert not [record for record in caplog.records if record.exc_info]  # no traceback logged


# --- Redis goes away under open sockets, and comes back ---------------------------------
@pytest.fixture
def own_redis(settings):
    from tests.site.redis_server import RedisServer, have_redis_server

    if not have_redis_server():
        pytest.skip("needs redis-server to start a Redis of its own")
    server = RedisServer()
    server.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "septica_site.channel_layers.RedisPubSubLayer",
            "CONFIG": {
                "hosts": [{"address": server.url, "socket_connect_timeout": 0.5, "socket_timeout": 2.0}],
                "prefix": "septica-test-unreachable",
                "resync_message": "games.after_commit.publish.resync_message",
            },
        }
    }
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    yield server
    server.stop()


async def test_an_open_socket_stays_open_when_redis_goes_away(application, own_redis, playing, headers_for):
    """Who is at the table lives in Redis: without it the dots stand still, the socket plays on."""
    import asyncio

    from games.models import Match

    match = await asyncio.to_thread(Match.objects.select_related("table").get, pk=playing.pk)
    mover = await asyncio.to_thread(lambda: playing.seats.get(number=match.to_move).user)
    move = (await asyncio.to_thread(match.game)).legal_moves()[0]
    socket = WebsocketCommunicator(application, f"/ws/tables/{playing.pk}/", headers=await headers_for(mover))
    assert (await socket.connect(timeout=5))[0]
    assert (await socket.receive_json_from(5))["type"] == "view"
    assert (await socket.receive_json_from(5))["type"] == "chat_history"
    assert (await socket.receive_json_from(5))["type"] == "presence"

    await asyncio.to_thread(own_redis.stop)
    await socket.send_json_to({"type": "ping"})  # a seated player's ping refreshes their presence, in Redis
    assert await socket.receive_json_from(5) == {"type": "pong"}
    await socket.send_json_to({"type": "move", "seq": match.seq, "move": move})

    answer = await socket.receive_json_from(5)
    assert answer["type"] == "view" and answer["seq"] == match.seq + 1  # stored and answered without Redis
    await socket.disconnect()


async def test_sockets_read_their_table_again_when_redis_comes_back(application, own_redis, playing, alice,
                                                                  headers_for):
    import asyncio

    from games import actions
    from games.models import Match

    socket = WebsocketCommunicator(application, f"/ws/tables/{playing.pk}/", headers=await headers_for(alice))
    assert (await socket.connect(timeout=5))[0]
    first = await socket.receive_json_from(5)
    assert first["type"] == "view" and first["seq"] == 0
    assert (await socket.receive_json_from(5))["type"] == "chat_history"
    assert (await socket.receive_json_from(5))["type"] == "presence"  # all settled before Redis goes

    await asyncio.to_thread(own_redis.stop)

    def move_without_redis():
        match = Match.objects.get(pk=playing.pk)
        mover = playing.seats.get(number=match.to_move).user
        actions.play_move(playing.pk, mover, match.seq, match.game().legal_moves()[0])

    await asyncio.to_thread(move_without_redis)  # stored; its push is lost
    await asyncio.to_thread(own_redis.start)

    message = await socket.receive_json_from(10)  # the layer reconnects and tells the table to read again
    while message["type"] != "view":
        message = await socket.receive_json_from(10)
    assert message["seq"] == 1
    await socket.disconnect()
