"""Websockets share the API's bad-token throttle: only failures count, so a
valid token opens its socket whatever guesses came from its address before."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.token_failures import BEARER_FAILURE_LIMIT
from tests.play import start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def bearer(secret: str) -> list:
    return [(b"authorization", f"Bearer {secret}".encode())]


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, [bob], options={"match": "points-8"})


async def test_a_valid_token_opens_its_socket_after_many_bad_ones(playing, alice, sockets, token_for):
    path = f"/ws/tables/{playing.pk}/"
    for attempt in range(BEARER_FAILURE_LIMIT):
        refused = await sockets(path, bearer(f"sep_guess{attempt}"))
        assert await refused.close_code() == 4401

    throttled = await sockets(path, bearer("sep_one-more-guess"))
    assert "Too many" in (await throttled.next("error"))["error"]

    secret = await database_sync_to_async(token_for)(alice)
    socket = await sockets(path, bearer(secret))
    assert (await socket.next("view"))["your_seat"] == 0
