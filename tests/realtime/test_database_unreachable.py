"""Sockets live through a database that does not answer (issue 40's partition drill, phase b).

A real server process (daphne, `manage.py serve`) reaches PostgreSQL through
the gate of tests/site/test_database_outage.py: open, it relays; shut, it
drops the connections it relayed and holds every new one unanswered, as a
link cut in the middle does. A move sent while the gate is shut is answered
with a 503 refusal and the socket stays open; the same move, the same seq,
is accepted once the gate opens. A read a socket makes on its own (after a
move made through another server) that fails meanwhile is made again when
the database answers, with no announcement to prompt it.

Before this, the first database call that failed ended the consumer
("Exception inside application"): the server closed the socket.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection

from accounts.models import ApiToken
from bench.wsclient import WebSocket
from tests.play import start_table
from tests.site.test_database_outage import Gate

from .test_two_servers import (
    HOST,
    free_port,
    message_of_type,
    message_where,
    post_move,
    server_env,
    view_with_seq,
    wait_ready,
)
from .test_websocket_schema import PROTOCOL

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL") or not settings.REDIS_URL,
                       reason="the gate stands in front of PostgreSQL's port, and the servers share moves through "
                              "Redis; embedded SQLite has no port to cut (test_database_unreachable_embedded.py)"),
]

ANSWER_WITHIN = 5.0  # seconds: a refusal, not the minutes a dead link takes
CAUGHT_UP_WITHIN = 5.0  # seconds after the heal: the drill's bound


def start(port: int, database_url: str | None = None) -> subprocess.Popen:
    env = server_env()
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    return subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", HOST, "--port", str(port)],
        cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        bufsize=0,
    )


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def gate(transactional_db):
    db = connection.settings_dict
    gate = Gate((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    gate.url = f"postgres://{db['USER']}@127.0.0.1:{gate.port}/{db['NAME']}"
    yield gate
    gate.close()


@pytest.fixture
def gated_server(gate):
    """A server whose database is behind the gate: its port."""
    port = free_port()
    process = start(port, gate.url)
    try:
        wait_ready(process)
        yield port
    finally:
        stop([process])


@pytest.fixture
def direct_server(transactional_db):
    """A second server, straight to PostgreSQL (the drill's server 2): its port."""
    port = free_port()
    process = start(port)
    try:
        wait_ready(process)
        yield port
    finally:
        stop([process])


def bearer(user) -> dict:
    _token, secret = ApiToken.issue(user, "database unreachable")
    return {"Authorization": f"Bearer {secret}"}


def first_move(table) -> dict:
    table.match.refresh_from_db()
    return table.match.game().legal_moves()[0]


async def answer_to_move(socket: WebSocket, seq: int) -> dict:
    """The move's answer: its view (seq + 1) or an error."""
    return await message_where(
        socket, lambda message: message["type"] == "error" or (message["type"] == "view" and message["seq"] > seq))


async def still_open(socket: WebSocket) -> None:
    await socket.send_json({"type": "ping"})
    await message_of_type(socket, "pong")


def test_a_move_the_database_cannot_take_is_refused_with_503_and_taken_again_once_it_answers(gate, gated_server,
                                                                                            alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    move = first_move(table)
    path = f"/ws/tables/{table.pk}/"
    bearer_alice, bearer_bob = bearer(alice), bearer(bob)

    async def scenario():
        at_alice = await WebSocket.connect(HOST, gated_server, path, headers=bearer_alice)
        at_bob = await WebSocket.connect(HOST, gated_server, path, headers=bearer_bob)
        try:
            await view_with_seq(at_alice, 0)
            await view_with_seq(at_bob, 0)

            gate.shut()
            sent = time.monotonic()
            await at_alice.send_json({"type": "move", "seq": 0, "move": move})
            refused = await answer_to_move(at_alice, 0)
            assert time.monotonic() - sent < ANSWER_WITHIN
            assert refused["status"] == 503 and refused["code"] == "database_unavailable", refused
            assert refused["error"]
            PROTOCOL.check("/ws/tables/{table_id}/", "subscribe", refused)
            await still_open(at_alice)
            await still_open(at_bob)

            gate.reopen()
            healed = time.monotonic()
            while True:  # the same move, the same seq, until the pool has a connection again (each try answered)
                await at_alice.send_json({"type": "move", "seq": 0, "move": move})
                answer = await answer_to_move(at_alice, 0)
                if answer["type"] == "view":
                    break
                assert answer["status"] == 503 and time.monotonic() - healed < 10, answer
            assert answer["seq"] == 1
            assert (await view_with_seq(at_bob, 1))["to_move"] == 1
        finally:
            await at_alice.close()
            await at_bob.close()

    asyncio.run(scenario())
    table.match.refresh_from_db()
    assert table.match.seq == 1 and table.match.moves.count() == 1  # taken once


def test_a_socket_whose_own_read_failed_catches_up_when_the_database_answers(gate, gated_server, direct_server,
                                                                              alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    move = first_move(table)
    path = f"/ws/tables/{table.pk}/"
    _token, alice_secret = ApiToken.issue(alice, "script")
    bearer_alice, bearer_bob = bearer(alice), bearer(bob)

    async def scenario():
        cut_off = await WebSocket.connect(HOST, gated_server, path, headers=bearer_alice)
        elsewhere = await WebSocket.connect(HOST, direct_server, path, headers=bearer_bob)
        try:
            await view_with_seq(cut_off, 0)
            await view_with_seq(elsewhere, 0)

            gate.shut()
            # Made through the other server: the cut-off one hears of it and cannot read it.
            assert await asyncio.to_thread(post_move, direct_server, alice_secret, table.pk, 0, move) == 200
            await view_with_seq(elsewhere, 1)
            # The socket's messages are handled in turn: once its sync is refused, its read after
            # the announcement (very likely heard by then, as the other server heard it) failed too.
            await cut_off.send_json({"type": "sync"})
            refused = await message_of_type(cut_off, "error")
            assert refused["status"] == 503 and refused["code"] == "database_unavailable", refused
            await still_open(cut_off)

            gate.reopen()
            # No announcement follows (it is Bob's turn, and he waits): the socket reads again by itself.
            assert (await view_with_seq(cut_off, 1, timeout=CAUGHT_UP_WITHIN + 2.5))["to_move"] == 1
        finally:
            await cut_off.close()
            await elsewhere.close()

    asyncio.run(scenario())
