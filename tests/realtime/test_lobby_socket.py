"""/ws/lobby/ and /ws/me/: the lobby and My matches, live."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import actions
from games.models import Match
from tests.play import start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def ids(message) -> list[int]:
    return [table["id"] for table in message["tables"]]


async def test_the_lobby_lists_open_tables_on_connect(alice, sockets, headers_for):
    table = await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2)
    lobby = await sockets("/ws/lobby/", headers_for(None))

    assert ids(await lobby.next("lobby")) == [table.pk]


async def test_a_new_open_table_appears_in_the_lobby_and_leaves_when_full(alice, bob, sockets, headers_for):
    lobby = await sockets("/ws/lobby/", headers_for(bob))
    assert ids(await lobby.next("lobby")) == []

    table = await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2)
    appeared = await lobby.next("lobby", where=lambda m: m["tables"])
    assert ids(appeared) == [table.pk] and appeared["tables"][0]["seats_taken"] == 1

    await database_sync_to_async(actions.join_table)(table.pk, bob)
    assert ids(await lobby.next("lobby", where=lambda m: not m["tables"])) == []


async def test_private_tables_stay_out_of_the_live_lobby(alice, sockets, headers_for):
    lobby = await sockets("/ws/lobby/", headers_for(None))
    await lobby.next("lobby")

    await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2, private=True)

    assert all(message["tables"] == [] for message in await lobby.nothing_more() if message["type"] == "lobby")


async def test_my_matches_needs_a_login(sockets, headers_for):
    mine = await sockets("/ws/me/", headers_for(None))

    assert (await mine.next("error"))["status"] == 401
    assert await mine.close_code() == 4401


async def test_my_matches_lights_up_when_it_becomes_my_move(alice, bob, sockets, headers_for):
    table = await database_sync_to_async(start_table)(alice, [bob], options={"match": "points-8"})
    mine = await sockets("/ws/me/", headers_for(bob))
    first = await mine.next("my_matches")
    assert ids(first) == [table.pk] and first["your_move"] == 0  # Alice (seat 0) leads

    match = await database_sync_to_async(Match.objects.get)(pk=table.pk)
    game = await database_sync_to_async(match.game)()
    await database_sync_to_async(actions.play_move)(table.pk, alice, 0, game.legal_moves()[0])

    lit = await mine.next("my_matches", where=lambda m: m["your_move"] == 1)
    assert lit["tables"][0]["to_move"] == lit["tables"][0]["your_seat"] == 1


async def test_a_rematch_invitation_reaches_my_matches(alice, bob, sockets, headers_for):
    from tests.play import play_moves

    table = await database_sync_to_async(start_table)(alice, [bob], options={"match": "points-8"})
    await database_sync_to_async(play_moves)(table)
    mine = await sockets("/ws/me/", headers_for(bob))
    assert (await mine.next("my_matches"))["invitations"] == []

    rematch = await database_sync_to_async(actions.rematch)(table.pk, alice)

    invited = await mine.next("my_matches", where=lambda m: m["invitations"])
    assert [table["id"] for table in invited["invitations"]] == [rematch.pk]


async def test_my_matches_over_a_bearer_token(alice, bob, sockets, token_for):
    table = await database_sync_to_async(start_table)(alice, [bob])
    secret = await database_sync_to_async(token_for)(bob)
    mine = await sockets("/ws/me/", [(b"authorization", f"Bearer {secret}".encode())])

    assert ids(await mine.next("my_matches")) == [table.pk]


async def test_an_anonymous_socket_is_let_in_while_the_sessions_thread_is_busy(alice, sockets, headers_for):
    """A socket without a session cookie reads no session: an anonymous storm never queues on that thread,
    while a signed-in socket still reads its session there (and waits for it)."""
    import asyncio
    import threading

    from asgiref.sync import SyncToAsync

    table = await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2)
    signed_in_headers = await headers_for(alice)
    held = threading.Event()
    busy = asyncio.get_running_loop().run_in_executor(SyncToAsync.single_thread_executor, held.wait, 30)
    try:
        lobby = await sockets("/ws/lobby/", headers_for(None))
        assert ids(await lobby.next("lobby")) == [table.pk]
        signed_in = asyncio.ensure_future(sockets("/ws/lobby/", signed_in_headers))
        await asyncio.sleep(0.3)
        assert not signed_in.done()  # its session is read on the held thread
    finally:
        held.set()
        await busy
    mine = await signed_in
    assert (await mine.next("lobby"))["tables"][0]["id"] == table.pk
