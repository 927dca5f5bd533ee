"""Fixtures for websocket tests: the real ASGI application, sockets as a
seated player, a spectator, an API script or nobody, and message helpers."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from accounts.models import ApiToken

os.environ.setdefault("SEPTICA_NO_EMBEDDED_WORKER", "1")

ORIGIN = (b"origin", b"http://testserver")
TIMEOUT = 10


@pytest.fixture
def application(settings, database_threads_let_go):
    # Imported here, after pytest-django put "testserver" into ALLOWED_HOSTS:
    # the origin check reads the setting when the application is built.
    from septica_site.asgi import application

    return application


@pytest.fixture(autouse=True)
def fresh_realtime_state():
    from games.consumers import snapshots

    cache.clear()
    snapshots._recent.clear()
    snapshots._loading.clear()
    snapshots._moving.clear()
    yield
    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer):  # forget old sockets (Redis pub/sub forgets them itself)
        layer.groups.clear()
        layer.channels.clear()


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.fixture
def headers_for():
    """Websocket headers for a user's browser session (with the site's Origin); None: anonymous.
    Awaitable; `sockets` awaits it for you."""

    async def headers(user=None, origin=ORIGIN):
        result = [origin] if origin else []
        if user is not None:
            result.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
        return result

    return headers


@pytest.fixture
def token_for():
    def token(user) -> str:
        _token, secret = ApiToken.issue(user, "script")
        return secret

    return token


class Socket:
    """A WebsocketCommunicator that keeps every message it received (to check them all for leaks)."""

    def __init__(self, application, path: str, headers) -> None:
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.received: list[dict] = []
        self.closed_with: int | None = None

    async def connect(self) -> bool:
        connected, _code = await self.communicator.connect(timeout=TIMEOUT)
        return connected

    async def receive(self, timeout: float = TIMEOUT) -> dict:
        output = await self.communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            self.closed_with = output.get("code")
            raise ConnectionClosed(self.closed_with)
        message = json.loads(output["text"])
        self.received.append(message)
        return message

    async def next(self, kind: str, timeout: float = TIMEOUT, where=lambda message: True) -> dict:
        """The next message of that type (and matching `where`), skipping others."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no {kind!r} message within {timeout} s")
            message = await self.receive(left)
            if message["type"] == kind and where(message):
                return message

    async def nothing_more(self, wait: float = 0.3) -> list[dict]:
        """Whatever comes until `wait` seconds pass quietly (receive_nothing, unlike a timed-out
        receive, leaves the application running)."""
        got = []
        while not await self.communicator.receive_nothing(wait):
            got.append(await self.receive())
        return got

    async def send(self, message) -> None:
        await self.communicator.send_json_to(message)

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def close_code(self, timeout: float = TIMEOUT) -> int | None:
        """Wait for the server to close the socket; its close code."""
        try:
            while True:
                await self.receive(timeout)
        except ConnectionClosed as closed:
            return closed.code

    async def disconnect(self) -> None:
        if not self.communicator.future.done():
            await self.communicator.disconnect()


class ConnectionClosed(Exception):
    def __init__(self, code) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


@pytest_asyncio.fixture
async def sockets(application):
    """Open sockets with `await open(path, headers)`; all are closed after the test."""
    opened: list[Socket] = []

    async def open_socket(path: str, headers) -> Socket:
        if inspect.isawaitable(headers):
            headers = await headers
        socket = Socket(application, path, headers)
        opened.append(socket)
        assert await socket.connect(), f"{path} refused the handshake"
        return socket

    yield open_socket
    for socket in opened:
        with contextlib.suppress(Exception):  # already closed by the server
            await socket.disconnect()
