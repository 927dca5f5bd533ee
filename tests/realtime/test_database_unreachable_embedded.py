"""Sockets live through a database they cannot reach: the embedded setup (SQLite).

SQLite has no port to cut (test_database_unreachable.py cuts PostgreSQL's):
here the sockets' database threads lose their connections and every new one
fails to open the file, as when the disk it lives on goes away. It is the
real driver failing at the real connect ("unable to open database file", an
OperationalError); nothing is mocked. A thread that holds a connection made
before keeps it, which stands in for another server that still reaches the
database: it moves and creates tables while this one cannot read them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection, connections

from games import actions
from games.consumers.database import close_database_threads_connections
from tests.play import start_table

from .test_websocket_schema import PROTOCOL

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "septica_site.db_backends.sqlite3",
                       reason="SQLite's file taken away; PostgreSQL is cut at its port in test_database_unreachable.py"),
]

CAUGHT_UP_WITHIN = 5.0  # seconds after the database answers again: the partition drill's bound


class SocketsDatabase:
    """The server's sockets' way to the database: cut (their threads' connections closed, new ones failing) or not."""

    def __init__(self, gone_to: str) -> None:
        self.settings = connections["default"].settings_dict  # every thread's connection reads this one dict
        self.name, self.gone_to = self.settings["NAME"], gone_to

    async def cut(self) -> None:
        self.settings["NAME"] = self.gone_to
        await asyncio.to_thread(close_database_threads_connections)

    def heal(self) -> None:
        self.settings["NAME"] = self.name


@pytest.fixture
def sockets_database(transactional_db, tmp_path):
    database = SocketsDatabase(str(tmp_path / "unmounted" / "septica.sqlite3"))  # a directory that is not there
    yield database
    database.heal()


@pytest.fixture
def other_server(transactional_db):
    """A thread with a connection of its own, opened before any cut: moves made there still reach the database."""
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="other-server")
    thread.submit(lambda: connection.ensure_connection()).result()  # its own: looked up on that thread
    yield lambda function, *args: asyncio.get_running_loop().run_in_executor(thread, partial(function, *args))
    thread.submit(connections.close_all).result()
    thread.shutdown()


class Heard(logging.Handler):
    """The warnings the consumers log, to wait for one: a read that failed sends its socket nothing."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.said: list[str] = []
        self.changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        with self.changed:
            self.said.append(record.getMessage())
            self.changed.notify_all()

    async def saying(self, words: str, timeout: float = 10) -> None:
        def heard() -> bool:
            with self.changed:
                return self.changed.wait_for(lambda: any(words in said for said in self.said), timeout)

        assert await asyncio.to_thread(heard), f"no warning with {words!r} in {self.said}"


@pytest.fixture
def warnings_heard():
    heard, logger = Heard(), logging.getLogger("games.consumers")
    logger.addHandler(heard)
    yield heard
    logger.removeHandler(heard)


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, [bob], options={"match": "points-8"})


def first_move(table) -> dict:
    table.match.refresh_from_db()
    return table.match.game().legal_moves()[0]


async def still_open(socket) -> None:
    await socket.send({"type": "ping"})
    await socket.next("pong")


async def seated(sockets, headers_for, table, *users):
    opened = [await sockets(f"/ws/tables/{table.pk}/", headers_for(user)) for user in users]
    for socket in opened:
        await socket.next("view", where=lambda message: message["seq"] == 0)
        await socket.next("chat_history")  # read after the view: the socket is all there once it came
    return opened


async def test_a_move_is_refused_with_503_the_socket_stays_open_and_the_same_seq_is_taken_later(
        playing, alice, bob, sockets, headers_for, sockets_database):
    move = await database_sync_to_async(first_move)(playing)
    at_alice, at_bob = await seated(sockets, headers_for, playing, alice, bob)

    await sockets_database.cut()
    await at_alice.send({"type": "move", "seq": 0, "move": move})
    refused = await at_alice.next("error")
    assert refused["status"] == 503 and refused["code"] == "database_unavailable", refused
    assert "database" in refused["error"]
    PROTOCOL.check("/ws/tables/{table_id}/", "subscribe", refused)  # as the AsyncAPI document lists it
    await still_open(at_alice)

    sockets_database.heal()
    await at_alice.send({"type": "move", "seq": 0, "move": move})
    assert (await at_alice.next("view", where=lambda message: message["seq"] == 1))["to_move"] == 1
    assert (await at_bob.next("view", where=lambda message: message["seq"] == 1))["to_move"] == 1


async def test_the_refusal_is_in_the_sockets_language(playing, alice, sockets, headers_for, sockets_database):
    move = await database_sync_to_async(first_move)(playing)
    headers = [*(await headers_for(alice)), (b"accept-language", b"ro")]
    socket = await sockets(f"/ws/tables/{playing.pk}/", headers)
    await socket.next("chat_history")

    await sockets_database.cut()
    await socket.send({"type": "move", "seq": 0, "move": move})
    refused = await socket.next("error")
    assert refused["code"] == "database_unavailable" and "baza de date" in refused["error"], refused


async def test_a_chat_line_is_refused_with_503_to_its_writer_and_can_be_said_again(
        playing, alice, sockets, headers_for, sockets_database):
    (at_alice,) = await seated(sockets, headers_for, playing, alice)

    await sockets_database.cut()
    await at_alice.send({"type": "chat", "phrase": "thanks"})
    refused = await at_alice.next("error")
    assert refused["status"] == 503 and refused["about"] == "chat" and refused["code"] == "database_unavailable"
    PROTOCOL.check("/ws/tables/{table_id}/", "subscribe", refused)
    await still_open(at_alice)

    sockets_database.heal()
    await at_alice.send({"type": "chat", "phrase": "thanks"})
    assert (await at_alice.next("chat"))["line"]["phrase"] == "thanks"


async def test_a_socket_opened_while_the_database_is_away_is_closed_with_4503(playing, sockets, headers_for,
                                                                              sockets_database):
    await sockets_database.cut()
    socket = await sockets(f"/ws/tables/{playing.pk}/", headers_for(None))  # accepted: a close code to read
    assert await socket.close_code() == 4503
    assert socket.received == []  # no message: the page's retries keep backing off


async def test_a_table_socket_catches_up_on_a_move_it_could_not_read(playing, alice, bob, sockets, headers_for,
                                                                    sockets_database, other_server):
    move = await database_sync_to_async(first_move)(playing)
    at_alice, at_bob = await seated(sockets, headers_for, playing, alice, bob)

    await sockets_database.cut()
    await other_server(actions.play_move, playing.pk, alice, 0, move)  # announced: this server cannot read it
    await at_alice.send({"type": "sync"})  # handled after the announcement's read, which failed as this does
    assert (await at_alice.next("error"))["status"] == 503
    await still_open(at_bob)

    sockets_database.heal()
    # Nothing more is announced (Bob waits): each socket reads again by itself.
    for socket in (at_alice, at_bob):
        view = await socket.next("view", timeout=CAUGHT_UP_WITHIN, where=lambda message: message["seq"] == 1)
        assert view["to_move"] == 1


async def test_the_lobby_and_my_matches_catch_up_on_a_table_they_could_not_read(alice, bob, sockets, headers_for,
                                                                               sockets_database, other_server,
                                                                               warnings_heard):
    lobby = await sockets("/ws/lobby/", headers_for(None))
    mine = await sockets("/ws/me/", headers_for(bob))
    assert (await lobby.next("lobby"))["tables"] == []
    assert (await mine.next("my_matches"))["tables"] == []

    await sockets_database.cut()
    table = await other_server(partial(actions.create_table, alice, rules="septica", players=3, options={},
                                       seconds_per_move=86400))
    await other_server(actions.join_table, table.pk, bob)  # announced to the lobby and to Bob: unread here
    await warnings_heard.saying("the lobby could not be read")
    await warnings_heard.saying("MyMatchesConsumer: the database did not answer")
    await still_open(lobby)
    await still_open(mine)

    sockets_database.heal()
    listed = await lobby.next("lobby", timeout=CAUGHT_UP_WITHIN)
    assert [shown["id"] for shown in listed["tables"]] == [table.pk]
    mine_now = await mine.next("my_matches", timeout=CAUGHT_UP_WITHIN)
    assert [shown["id"] for shown in mine_now["tables"]] == [table.pk]
