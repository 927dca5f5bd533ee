"""Resigning and the abort request over /ws/tables/<id>/: the site handles the resign move before the engine,
and every socket at the table sees the change."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import actions
from games.models import Match, TableStatus
from tests.play import play_moves, start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, [bob])


def path(table) -> str:
    return f"/ws/tables/{table.pk}/"


def status_of(table) -> str:
    return Match.objects.select_related("table").get(pk=table.pk).table.status


async def test_a_resign_over_the_socket_ends_the_match_for_everyone_at_the_table(
    playing, alice, bob, sockets, headers_for
):
    at_alice = await sockets(path(playing), headers_for(alice))
    at_bob = await sockets(path(playing), headers_for(bob))
    first = await at_alice.next("view")
    await at_bob.next("view")
    assert first["may_resign"] is True

    await at_alice.send({"type": "move", "seq": 99, "move": {"type": "resign"}})  # a stale seq is fine

    mine = await at_alice.next("view", where=lambda m: m["status"] == "finished")
    assert mine["result"]["winners"] == [1] and mine["may_resign"] is False and mine["seed"]
    theirs = await at_bob.next("view", where=lambda m: m["status"] == "finished")
    assert theirs["result"]["resigned"] == [0]
    assert await database_sync_to_async(status_of)(playing) == TableStatus.FINISHED


async def test_a_second_resign_over_the_socket_is_a_409(playing, alice, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")
    await at_alice.send({"type": "move", "seq": 0, "move": {"type": "resign"}})
    await at_alice.next("view", where=lambda m: m["status"] == "finished")

    await at_alice.send({"type": "move", "seq": 0, "move": {"type": "resign"}})

    refusal = await at_alice.next("error")
    assert refusal["status"] == 409


async def test_the_others_see_an_abort_request_arrive_live(playing, alice, bob, sockets, headers_for):
    def ask():
        table = playing
        from games.leaving_rules import abort_alone_allowed

        while abort_alone_allowed("septica", Match.objects.get(pk=table.pk).game().view(None)):
            play_moves(table, count=1)
        return actions.abort(table.pk, alice)

    at_bob = await sockets(path(playing), headers_for(bob))
    await at_bob.next("view")

    assert await database_sync_to_async(ask)() == "asked"

    seen = await at_bob.next("view", where=lambda m: m["abort_request"] is not None)
    assert seen["abort_request"]["asked_by"] == "Alice" and seen["abort_request"]["you_may_answer"] is True
