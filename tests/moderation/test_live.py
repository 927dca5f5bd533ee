"""Moderation seen live over websockets: an abort reaches the table's sockets with
its reason, a hidden table leaves the live lobby, and a suspended person's socket
is read-only (it still shows the table; its moves are refused)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.actions import moderation
from games.models import Match, Move
from tests.play import start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def path(table) -> str:
    return f"/ws/tables/{table.pk}/"


def first_legal_move(table):
    return Match.objects.get(pk=table.pk).game().legal_moves()[0]


def suspend(moderator, user):
    from datetime import timedelta

    from django.utils import timezone

    moderation.suspend_user(moderator, user.pk, "flooding", timezone.now() + timedelta(days=2))


async def test_an_abort_reaches_the_players_sockets_with_its_reason(moderator, playing, alice, bob, sockets,
                                                                   headers_for):
    socket = await sockets(path(playing), headers_for(bob))
    await socket.next("view")

    await database_sync_to_async(moderation.abort_table)(moderator, playing.pk, "Both players are one person")

    view = await socket.next("view", where=lambda m: m["status"] == "aborted")
    assert view["abort_reason"] == "Both players are one person"


async def test_a_hidden_table_leaves_the_live_lobby(moderator, alice, sockets, headers_for):
    table = await database_sync_to_async(start_table)(alice, [], players=2)
    lobby = await sockets("/ws/lobby/", headers_for(None))
    assert [t["id"] for t in (await lobby.next("lobby"))["tables"]] == [table.pk]

    await database_sync_to_async(moderation.set_table_flag)(moderator, table.pk, "hide", "rude table options")

    assert (await lobby.next("lobby", where=lambda m: not m["tables"]))["tables"] == []


async def test_a_socket_opened_before_a_suspension_is_closed_by_it(moderator, playing, alice, sockets, headers_for):
    # Closed at once (tests/realtime/test_credentials.py has the rest); she may reconnect, read-only (below).
    socket = await sockets(path(playing), headers_for(alice))
    assert (await socket.next("view"))["your_seat"] == 0
    await database_sync_to_async(suspend)(moderator, alice)

    refusal = await socket.next("error")
    assert refusal["status"] == 401 and "suspended" in refusal["error"]
    assert await socket.close_code() == 4401
    assert not await database_sync_to_async(Move.objects.filter(match_id=playing.pk, user=alice).exists)()


async def test_a_suspended_person_connects_read_only(moderator, playing, alice, sockets, headers_for):
    await database_sync_to_async(suspend)(moderator, alice)
    socket = await sockets(path(playing), headers_for(alice))

    view = await socket.next("view")
    assert view["your_seat"] == 0 and view["seats"][0]["standing_in"]
    # A card of her own hand: whether the bot standing in has already played her
    # turn (a worker may be running) or not, the refusal is about her, not the move.
    await socket.send({"type": "move", "seq": view["seq"], "move": {"type": "play", "card": view["view"]["hand"][0]}})

    refusal = await socket.next("error")
    assert refusal["status"] == 403
    assert not await database_sync_to_async(Move.objects.filter(match_id=playing.pk, user=alice).exists)()
