"""The chat's rate under a burst: lines sent at once, on connections of their own, store exactly the limit.

Each line is checked and stored on its own database connection, as on
several servers (or several database threads of one), so nothing but the
database itself can make them wait for one another.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connections

from accounts.models import ApiToken
from bench.wsclient import WebSocket
from games.actions.chat import RATES, say
from games.errors import TooManyRequests
from games.models import ChatLine
from tests.realtime.test_two_servers import HOST, two_servers  # noqa: F401 -- two real servers on Redis

BURST = 30
LIMIT = RATES[0][0]


def at_once(count: int, work) -> list:
    """`work(number)` run `count` times, every run started together on a thread and a connection of its own."""
    start = threading.Barrier(count)

    def run(number: int):
        start.wait()
        try:
            return work(number)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


@pytest.mark.django_db(transaction=True)
def test_thirty_lines_sent_at_once_store_exactly_the_limit(alice, playing):
    def one_line(number: int) -> str:
        try:
            say(alice, playing.pk, text=f"line {number}")
        except TooManyRequests as refused:
            return refused.extra["code"]
        return "stored"

    answers = at_once(BURST, one_line)

    assert ChatLine.objects.filter(author=alice).count() == LIMIT
    assert sorted(answers) == ["chat_rate"] * (BURST - LIMIT) + ["stored"] * LIMIT


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL: two servers share the database and Redis")
def test_thirty_lines_sent_at_once_to_two_servers_store_exactly_the_limit(two_servers, alice, playing):  # noqa: F811
    _token, secret = ApiToken.issue(alice, "burst")

    def post_line(number: int) -> int:
        client = http.client.HTTPConnection(HOST, two_servers[number % 2], timeout=30)
        try:
            client.request("POST", f"/api/tables/{playing.pk}/chat", body=json.dumps({"text": f"line {number}"}),
                           headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
            return client.getresponse().status
        finally:
            client.close()

    statuses = at_once(BURST, post_line)

    assert ChatLine.objects.filter(author=alice).count() == LIMIT
    assert sorted(statuses) == [201] * LIMIT + [429] * (BURST - LIMIT)


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL: two servers share the database and Redis")
def test_thirty_lines_sent_at_once_over_sockets_on_two_servers_store_exactly_the_limit(
        two_servers, alice, playing):  # noqa: F811
    secrets = [ApiToken.issue(alice, f"socket {number}")[1] for number in range(6)]

    def count() -> int:
        try:
            return ChatLine.objects.filter(author=alice).count()
        finally:
            connections.close_all()  # a thread of asyncio's: no connection left open when the database goes

    async def stored() -> int:
        return await asyncio.to_thread(count)

    async def scenario() -> tuple[int, int]:
        sockets = [await WebSocket.connect(HOST, two_servers[number % 2], f"/ws/tables/{playing.pk}/",
                                           headers={"Authorization": f"Bearer {secret}"})
                   for number, secret in enumerate(secrets)]
        refused = 0
        try:
            for socket in sockets:  # each has its view and the chat's history: it is listening
                while (await socket.recv_json())["type"] != "chat_history":
                    pass
            await asyncio.gather(*(socket.send_json({"type": "chat", "text": f"line {number}"})
                                   for socket in sockets for number in range(BURST // len(sockets))))
            reading = {asyncio.ensure_future(socket.recv_json()): socket for socket in sockets}
            while refused + await stored() < BURST:  # every line stored, or refused to its socket
                done, _ = await asyncio.wait(reading, timeout=30, return_when=asyncio.FIRST_COMPLETED)
                assert done, f"{refused} refused and {await stored()} stored of {BURST}, then nothing"
                for finished in done:
                    socket = reading.pop(finished)
                    message = finished.result()
                    refused += message["type"] == "error" and message.get("code") == "chat_rate"
                    reading[asyncio.ensure_future(socket.recv_json())] = socket
            for pending in reading:
                pending.cancel()
        finally:
            for socket in sockets:
                await socket.close()
        return refused, await stored()

    refused, lines = asyncio.run(scenario())

    assert (lines, refused) == (LIMIT, BURST - LIMIT)
