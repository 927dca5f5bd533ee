"""With Redis away, a real server accepts a new socket and closes it with 4503.

A refused handshake reaches a browser as a failed connection with no code
(daphne answers it with HTTP 403): the page cannot tell "try again soon" from
"you may not". Accepted and closed with 4503, the page's socket knows to keep
trying while the page polls (static/js/live.js).
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from accounts.models import ApiToken
from bench.wsclient import Closed, HandshakeRefused, WebSocket
from games.consumers.base import CLOSE_UNAVAILABLE
from tests.play import start_table
from tests.realtime.test_two_servers import free_port
from tests.site.redis_server import RedisServer, have_redis_server
from tests.site.test_redis_down import HOST, Processes, others_gone, site_env, wait_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not have_redis_server(), reason="needs redis-server to start a Redis of its own"),
]


@pytest.fixture
def server_without_redis(transactional_db, tmp_path):
    """One server on a Redis of the test's own, which is stopped once the server is up: the server's port."""
    redis_server = RedisServer()
    redis_server.start()
    processes = Processes(tmp_path)
    port = free_port()
    log = processes.start("server", [sys.executable, "manage.py", "serve", "--host", HOST, "--port", str(port)],
                          site_env(redis_server.url))
    try:
        assert wait_for(lambda: b"is ready at" in log.read_bytes(), 30), log.read_text()
        redis_server.stop()
        yield port, log
    finally:
        processes.stop_all()
        redis_server.stop()
        others_gone()


async def close_code(port: int, path: str, headers: dict[str, str]) -> int | str:
    try:
        socket = await WebSocket.connect(HOST, port, path, headers=headers)
    except HandshakeRefused as refusal:
        return refusal.status_line
    try:
        while True:
            await asyncio.wait_for(socket.recv(), 10)
    except Closed as closed:
        return closed.code


def test_new_sockets_are_closed_with_4503_while_redis_is_away(server_without_redis, alice, bob):
    port, log = server_without_redis
    table = start_table(alice, [bob], options={"match": "points-8"})
    _token, secret = ApiToken.issue(alice, "redis away")
    bearer = {"Authorization": f"Bearer {secret}"}

    async def codes():
        return {
            "table": await close_code(port, f"/ws/tables/{table.pk}/", bearer),
            "lobby": await close_code(port, "/ws/lobby/", bearer),
            "anonymous lobby": await close_code(port, "/ws/lobby/", {}),
        }

    assert asyncio.run(codes()) == dict.fromkeys(("table", "lobby", "anonymous lobby"), CLOSE_UNAVAILABLE), \
        log.read_text(errors="replace")[-3000:]
