"""Sockets under odd input: deep JSON, or a NUL character (which PostgreSQL's
text cannot hold), is an error message and the socket lives on; an id no row can have, or a private table seen from outside, is refused
exactly as a missing table is.

Alice and Bob play a two-player table; Charlie is outside it.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games.models import ChatLine, Match
from tests.play import start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MISSING_ID = 987654


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, [bob])


@pytest.fixture
def private_playing(alice, bob):
    return start_table(alice, [bob], private=True)


def seq_of(table) -> int:
    return Match.objects.get(pk=table.pk).seq


async def refusal_at(sockets, path: str, headers) -> tuple[list[dict], int]:
    """What a refused viewer receives, and the close code."""
    socket = await sockets(path, headers)
    code = await socket.close_code()
    return socket.received, code


DEEP = [
    "[" * 5000 + "]" * 5000,
    '{"a":' * 2000 + "0" + "}" * 2000,
    json.dumps({"type": "move", "seq": 0, "move": {"type": "play", "card": json.loads("[" * 200 + "]" * 200)}}),
]


@pytest.mark.parametrize("text", DEEP)
async def test_deeply_nested_json_gets_a_400_and_the_table_socket_lives_on(playing, alice, sockets, headers_for, text):
    at_alice = await sockets(f"/ws/tables/{playing.pk}/", headers_for(alice))
    await at_alice.next("view")

    await at_alice.send_text(text)

    refusal = await at_alice.next("error")
    assert refusal["status"] == 400 and "nested" in refusal["error"]
    assert await database_sync_to_async(seq_of)(playing) == 0
    await at_alice.send({"type": "ping"})
    assert await at_alice.next("pong") == {"type": "pong"}


async def test_deeply_nested_json_gets_a_400_on_the_lobby_socket_too(sockets, headers_for):
    lobby = await sockets("/ws/lobby/", headers_for())

    await lobby.send_text("[" * 5000 + "]" * 5000)

    assert (await lobby.next("error"))["status"] == 400
    await lobby.send({"type": "ping"})
    assert await lobby.next("pong") == {"type": "pong"}


@pytest.mark.parametrize("message", [{"type": "chat", "text": "noroc\u0000"}, {"type": "move\u0000", "seq": 0},
                                     {"type": "move", "seq": 0, "move": {"type": "play", "card": "7\u0000H"}}])
async def test_a_nul_character_gets_a_400_and_nothing_is_said_or_played(playing, alice, sockets, headers_for, message):
    at_alice = await sockets(f"/ws/tables/{playing.pk}/", headers_for(alice))
    await at_alice.next("view")

    await at_alice.send_text(json.dumps(message))

    refusal = await at_alice.next("error")
    assert refusal["status"] == 400 and "NUL" in refusal["error"]
    assert await database_sync_to_async(seq_of)(playing) == 0
    assert not await database_sync_to_async(ChatLine.objects.exists)()
    await at_alice.send({"type": "ping"})
    assert await at_alice.next("pong") == {"type": "pong"}


@pytest.mark.parametrize("huge", [2**63, 2**64 + 5, 10**40])
async def test_an_id_no_row_can_have_is_refused_as_a_missing_table(alice, sockets, headers_for, huge):
    huge_answer = await refusal_at(sockets, f"/ws/tables/{huge}/", headers_for(alice))
    missing_answer = await refusal_at(sockets, f"/ws/tables/{MISSING_ID}/", headers_for(alice))

    assert huge_answer == missing_answer
    assert huge_answer[1] == 4404


async def test_an_outsider_of_a_private_table_is_refused_as_for_a_missing_table(
    private_playing, charlie, sockets, headers_for
):
    private_answer = await refusal_at(sockets, f"/ws/tables/{private_playing.pk}/", headers_for(charlie))
    missing_answer = await refusal_at(sockets, f"/ws/tables/{MISSING_ID}/", headers_for(charlie))

    assert private_answer == missing_answer
    assert private_answer == ([{"type": "error", "status": 404, "error": "There is no such table."}], 4404)
