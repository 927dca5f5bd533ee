"""The production path: two server processes on Redis, a socket on each.

A move made through one server's HTTP API reaches the socket connected to
the other, through the Redis channel layer. Needs REDIS_URL (CI runs the
suite on Redis); the servers use the test database pytest-django created.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import selectors
import socket
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings

from accounts.models import ApiToken
from bench.wsclient import Closed, WebSocket
from tests.play import start_table

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
SERVER_SECRET_KEY = "two-servers-test-" + "x" * 40

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL: two servers share moves through Redis"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def test_database_url() -> str:
    """A URL for the database this test run uses (pytest-django's test database)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


def server_env() -> dict:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=test_database_url(), REDIS_URL=settings.REDIS_URL, SEPTICA_NO_EMBEDDED_WORKER="1",
        CELERY_EMBEDDED_WORKER="0", SECRET_KEY=SERVER_SECRET_KEY, DEBUG="0", HTTPS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost", LOG_LEVEL="WARNING",
    )
    env.pop("DATABASE_TEST_NAME", None)
    return env


def start_server(port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", HOST, "--port", str(port)],
        cwd=ROOT, env=server_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        # Unbuffered: a buffered reader may hold the "ready" line behind a warning
        # read with it, where wait_ready's select() cannot see it.
        bufsize=0,
    )


def wait_ready(process: subprocess.Popen, timeout: float = 30) -> None:
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline, output = time.monotonic() + timeout, b""
    while time.monotonic() < deadline:
        if selector.select(timeout=0.5):
            line = process.stdout.readline()
            output += line
            if b"is ready at" in line:
                return
            if not line and process.poll() is not None:
                break
    process.kill()
    raise RuntimeError(f"the server did not start:\n{output.decode(errors='replace')}")


@pytest.fixture
def two_servers(transactional_db):
    ports = [free_port(), free_port()]
    processes = [start_server(port) for port in ports]
    try:
        for process in processes:
            wait_ready(process)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def post_move(port: int, secret: str, table_id: int, seq: int, move: dict) -> int:
    client = http.client.HTTPConnection(HOST, port, timeout=10)
    body = json.dumps({"seq": seq, "move": move})
    client.request("POST", f"/api/tables/{table_id}/moves", body=body,
                   headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    status = client.getresponse().status
    client.close()
    return status


async def message_where(socket: WebSocket, wanted, timeout: float = 10) -> dict:
    """The first message `wanted(message)` accepts, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        message = await asyncio.wait_for(socket.recv_json(), max(0.01, deadline - time.monotonic()))
        if wanted(message):
            return message


async def view_with_seq(socket: WebSocket, seq: int, timeout: float = 10) -> dict:
    return await message_where(socket, lambda message: message["type"] == "view" and message["seq"] == seq, timeout)


def test_a_move_through_either_server_reaches_the_socket_on_the_other(two_servers, alice, bob):
    first, second = two_servers
    table = start_table(alice, [bob], options={"match": "points-8"})
    _token, alice_secret = ApiToken.issue(alice, "two servers")
    _token, bob_secret = ApiToken.issue(bob, "two servers")
    table.match.refresh_from_db()
    first_move = _a_legal_move(table)

    async def scenario():
        path = f"/ws/tables/{table.pk}/"
        at_alice = await WebSocket.connect(HOST, first, path, headers={"Authorization": f"Bearer {alice_secret}"})
        at_bob = await WebSocket.connect(HOST, second, path, headers={"Authorization": f"Bearer {bob_secret}"})
        try:
            assert (await view_with_seq(at_bob, 0))["your_seat"] == 1
            assert (await view_with_seq(at_alice, 0))["your_seat"] == 0

            status = await asyncio.to_thread(post_move, first, alice_secret, table.pk, 0, first_move)
            assert status == 200
            pushed = await view_with_seq(at_bob, 1)  # made on server 1, pushed by server 2
            assert pushed["to_move"] == 1 and pushed["view"]["legal_moves"]

            status = await asyncio.to_thread(post_move, second, bob_secret, table.pk, 1, pushed["view"]["legal_moves"][0])
            assert status == 200
            assert (await view_with_seq(at_alice, 2))["seq"] == 2  # made on server 2, pushed by server 1
        finally:
            await at_alice.close()
            await at_bob.close()

    asyncio.run(scenario())


def _a_legal_move(table) -> dict:

    return table.match.game().legal_moves()[0]


def test_revoking_a_token_closes_its_socket_on_the_other_server(two_servers, alice, bob):
    first, second = two_servers
    table = start_table(alice, [bob], options={"match": "points-8"})
    revoked, revoked_secret = ApiToken.issue(alice, "revoked")
    _kept, kept_secret = ApiToken.issue(alice, "kept")
    cookie = server_session_cookie(alice)

    async def scenario():
        path = f"/ws/tables/{table.pk}/"
        at_revoked = await WebSocket.connect(HOST, second, path, headers={"Authorization": f"Bearer {revoked_secret}"})
        at_kept = await WebSocket.connect(HOST, second, path, headers={"Authorization": f"Bearer {kept_secret}"})
        try:
            await view_with_seq(at_revoked, 0)
            await view_with_seq(at_kept, 0)

            assert await asyncio.to_thread(revoke_through_the_page, first, cookie, revoked.pk) == 302

            error = await message_of_type(at_revoked, "error")
            assert error["status"] == 401 and error["error"]
            with pytest.raises(Closed) as closed:
                await asyncio.wait_for(at_revoked.recv_json(), 10)
            assert closed.value.code == 4401
            await at_kept.send_json({"type": "ping"})
            assert (await message_of_type(at_kept, "pong"))["type"] == "pong"
        finally:
            await at_revoked.close()
            await at_kept.close()

    asyncio.run(scenario())


def server_session_cookie(user) -> str:
    """A session the servers accept (signed with their key), as a log-in there would make."""
    with override_settings(SECRET_KEY=SERVER_SECRET_KEY):
        client = Client()
        client.force_login(user)
    return client.cookies["sessionid"].value


def revoke_through_the_page(port: int, session_key: str, token_id: int) -> int:
    """What the person's browser does: open the token's revoke page, then press Revoke."""
    path = f"/accounts/tokens/{token_id}/revoke/"
    client = http.client.HTTPConnection(HOST, port, timeout=10)
    client.request("GET", path, headers={"Cookie": f"sessionid={session_key}"})
    page = client.getresponse()
    page.read()
    csrf = SimpleCookie()
    for header in page.headers.get_all("Set-Cookie") or []:
        csrf.load(header)
    token = csrf["csrftoken"].value
    client.request("POST", path, body=urlencode({"csrfmiddlewaretoken": token}), headers={
        "Cookie": f"sessionid={session_key}; csrftoken={token}", "Content-Type": "application/x-www-form-urlencoded"})
    status = client.getresponse().status
    client.close()
    return status


async def message_of_type(socket: WebSocket, kind: str, timeout: float = 10) -> dict:
    return await message_where(socket, lambda message: message["type"] == kind, timeout)
