"""A move the rules refuse over the table's websocket is answered in the socket's language, with cards as faces,
and with the refusal's code and params, as the API answers them.

The table is the known septica deal of tests/realtime/test_table_socket.py: Alice leads, Bob holds 7C.
"""

from __future__ import annotations

import pytest

from tests.play import fix_deck, start_table
from tests.realtime.conftest import *  # noqa: F403 -- the websocket fixtures: sockets, headers_for
from tests.realtime.test_table_socket import known_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def playing(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    fix_deck(table, decks=[known_deck()])
    return table


@pytest.mark.parametrize(("language", "said"), [("en", "You do not hold 7♣."), ("ro", "Nu ai 7♣ în mână.")])
async def test_a_card_not_held_is_refused_in_the_sockets_language(playing, alice, sockets, headers_for, language, said):
    socket = await sockets(f"/ws/tables/{playing.pk}/", [*await headers_for(alice),
                                                        (b"accept-language", language.encode())])
    await socket.next("view")

    await socket.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "7C"}})

    refusal = await socket.next("error")
    assert (refusal["status"], refusal["error"], refusal["seq"]) == (400, said, 0)
    assert (refusal["code"], refusal["params"]) == ("card-not-held", {"seat": 0, "card": "7C"})  # as the API says it
