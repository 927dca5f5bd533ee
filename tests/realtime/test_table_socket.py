"""/ws/tables/<id>/: who may connect, what each viewer is sent, moves over
the socket, refusals, throttling, resync and presence.

Alice and Bob play a two-player septica table with a known deal (Alice
holds KH AD KS 8C and leads; Bob holds 7C 9S TD JH); Charlie is outside it.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games import actions, presence
from games.consumers.base import BURST, FLOOD_CLOSE_AFTER, MAX_MESSAGE_BYTES
from games.models import Match
from tests.play import HiddenCardWatch, fix_deck, pick_move, start_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

DECK_ALICE_LEADS = ["KH", "7C", "AD", "9S", "KS", "TD", "8C", "JH"]


def known_deck():
    rest = [rank + suit for rank in "789TJQKA" for suit in "CDHS" if rank + suit not in DECK_ALICE_LEADS]
    return DECK_ALICE_LEADS + rest


@pytest.fixture
def playing(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    fix_deck(table, decks=[known_deck()])
    return table


@pytest.fixture
def private_playing(alice, bob):
    return start_table(alice, [bob], private=True)


def path(table, invite: str | None = None) -> str:
    return f"/ws/tables/{table.pk}/" + (f"?invite={invite}" if invite else "")


def state_of(table) -> dict:
    return Match.objects.get(pk=table.pk).state


def seq_of(table) -> int:
    return Match.objects.get(pk=table.pk).seq


async def move_through_api(user, table, seq, move) -> int:
    def post():
        client = Client()
        client.force_login(user)
        return client.post(f"/api/tables/{table.pk}/moves", data=json.dumps({"seq": seq, "move": move}),
                           content_type="application/json")

    response = await sync_to_async(post)()
    return response.status_code


def bearer(secret: str) -> list:
    return [(b"authorization", f"Bearer {secret}".encode())]


# --- who may connect ----------------------------------------------------------------
async def test_a_seated_player_gets_their_own_view_with_its_seq_on_connect(playing, alice, sockets, headers_for):
    socket = await sockets(path(playing), headers_for(alice))

    view = await socket.next("view")

    assert view["your_seat"] == 0 and view["seq"] == 0
    assert sorted(view["view"]["hand"]) == sorted(["KH", "AD", "KS", "8C"])
    assert view["view"]["legal_moves"]


async def test_a_spectator_of_a_public_table_gets_the_spectator_view(playing, charlie, sockets, headers_for):
    socket = await sockets(path(playing), headers_for(charlie))

    view = await socket.next("view")

    assert view["your_seat"] is None
    assert view["view"]["hand"] == [] and view["view"]["legal_moves"] == []


async def test_an_anonymous_visitor_of_a_public_table_is_a_spectator(playing, sockets, headers_for):
    socket = await sockets(path(playing), headers_for(None))

    view = await socket.next("view")

    assert view["your_seat"] is None and view["view"]["hand"] == []


async def test_a_private_table_refuses_an_outsider_with_4404(private_playing, charlie, sockets, headers_for):
    socket = await sockets(path(private_playing), headers_for(charlie))

    refusal = await socket.next("error")

    assert refusal["status"] == 404
    assert await socket.close_code() == 4404
    assert not [message for message in socket.received if message["type"] == "view"]


async def test_a_private_table_refuses_a_wrong_invite(private_playing, charlie, sockets, headers_for):
    socket = await sockets(path(private_playing, invite="not-the-code"), headers_for(charlie))

    assert await socket.close_code() == 4404


async def test_a_private_table_admits_the_holder_of_the_invite_as_a_spectator(
    private_playing, charlie, sockets, headers_for
):
    socket = await sockets(path(private_playing, invite=private_playing.invite_code), headers_for(charlie))

    view = await socket.next("view")

    assert view["your_seat"] is None and view["view"]["hand"] == []


async def test_a_private_table_admits_its_players(private_playing, bob, sockets, headers_for):
    socket = await sockets(path(private_playing), headers_for(bob))

    assert (await socket.next("view"))["your_seat"] == 1


async def test_no_such_table_is_refused_with_4404(alice, sockets, headers_for):
    socket = await sockets("/ws/tables/999999/", headers_for(alice))

    assert await socket.close_code() == 4404


async def test_a_bearer_token_finds_its_seat_without_an_origin_header(playing, bob, sockets, token_for):
    secret = await database_sync_to_async(token_for)(bob)
    socket = await sockets(path(playing), bearer(secret))

    view = await socket.next("view")

    assert view["your_seat"] == 1
    assert sorted(view["view"]["hand"]) == sorted(["7C", "9S", "TD", "JH"])


async def test_a_token_in_the_query_string_works_too(playing, bob, sockets, token_for):
    secret = await database_sync_to_async(token_for)(bob)
    socket = await sockets(f"{path(playing)}?token={secret}", [])

    assert (await socket.next("view"))["your_seat"] == 1


async def test_an_unknown_token_is_refused_with_4401(playing, sockets):
    socket = await sockets(path(playing), bearer("sep_not-a-real-token"))

    refusal = await socket.next("error")

    assert refusal["status"] == 401
    assert await socket.close_code() == 4401


async def test_a_socket_from_another_sites_page_is_refused(playing, alice, application, headers_for):
    from channels.testing import WebsocketCommunicator

    communicator = WebsocketCommunicator(application, path(playing),
                                         headers=await headers_for(alice, origin=(b"origin", b"https://evil.example")))
    connected, _code = await communicator.connect()

    assert not connected


async def test_a_session_without_an_origin_header_is_refused(playing, alice, application, headers_for):
    from channels.testing import WebsocketCommunicator

    communicator = WebsocketCommunicator(application, path(playing), headers=await headers_for(alice, origin=None))
    connected, _code = await communicator.connect()

    assert not connected


# --- pushes ---------------------------------------------------------------------------
async def test_each_viewer_gets_their_own_new_view_after_a_move_through_the_api(
    playing, alice, bob, charlie, sockets, headers_for
):
    at_alice = await sockets(path(playing), headers_for(alice))
    at_bob = await sockets(path(playing), headers_for(bob))
    watching = await sockets(path(playing), headers_for(charlie))
    for socket in (at_alice, at_bob, watching):
        await socket.next("view")

    assert await move_through_api(alice, playing, 0, {"type": "play", "card": "KH"}) == 200

    alice_view = await at_alice.next("view", where=lambda m: m["seq"] == 1)
    bob_view = await at_bob.next("view", where=lambda m: m["seq"] == 1)
    spectator_view = await watching.next("view", where=lambda m: m["seq"] == 1)
    assert "KH" not in alice_view["view"]["hand"] and len(alice_view["view"]["hand"]) == 3
    assert sorted(bob_view["view"]["hand"]) == sorted(["7C", "9S", "TD", "JH"])
    assert [card["card"] for card in bob_view["view"]["table"]] == ["KH"]
    assert spectator_view["view"]["hand"] == [] and bob_view["view"]["legal_moves"]


async def test_the_others_see_a_bot_stop_standing_in_when_the_person_moves_again(
    playing, alice, bob, sockets, headers_for
):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")
    assert await move_through_api(alice, playing, 0, {"type": "play", "card": "KH"}) == 200

    def bob_runs_out_of_time():
        Match.objects.filter(pk=playing.pk).update(deadline=timezone.now() - timedelta(minutes=1))
        return actions.time_out_turn(playing.pk, 1)

    assert await database_sync_to_async(bob_runs_out_of_time)()
    await at_alice.next("view", where=lambda m: m["seats"][1]["standing_in"])

    assert await move_through_api(bob, playing, 1, {"type": "play", "card": "7C"}) == 200

    after = await at_alice.next("view", where=lambda m: m["seq"] == 2)
    if after["seats"][1]["standing_in"]:  # the move's push may come before the seat change's
        after = await at_alice.next("view", where=lambda m: not m["seats"][1]["standing_in"])
    assert after["seq"] == 2 and after["seats"][1]["standing_in"] is False


async def test_alice_never_sees_bobs_hand_in_any_message_over_a_whole_match(
    alice, bob, charlie, sockets, headers_for
):
    import random

    table = await database_sync_to_async(start_table)(alice, [bob], options={"match": "points-8"})
    at_alice = await sockets(path(table), headers_for(alice))
    at_bob = await sockets(path(table), headers_for(bob))
    watching = await sockets(path(table), headers_for(charlie))
    watch, rng = HiddenCardWatch(), random.Random(3)
    users = {0: alice, 1: bob}
    for _ in range(40):
        match = await database_sync_to_async(Match.objects.get)(pk=table.pk)
        if match.to_move is None:
            break
        game = await database_sync_to_async(match.game)()
        move = pick_move({"legal_moves": game.legal_moves()}, rng)
        await database_sync_to_async(actions.play_move)(table.pk, users[match.to_move], match.seq, move)
        new_seq = match.seq + 1
        state = (await database_sync_to_async(Match.objects.get)(pk=table.pk)).state
        spectator = await watching.next("view", where=lambda m, s=new_seq: m["seq"] == s)
        watch.saw_spectator_view(spectator["view"])
        for socket, seat in ((at_alice, 0), (at_bob, 1)):
            view = await socket.next("view", where=lambda m, s=new_seq: m["seq"] == s)
            watch.check(view, seat, state)
    for socket in (at_alice, at_bob, watching):
        for message in socket.received:
            if message["type"] != "view":
                assert "view" not in message and "hand" not in json.dumps(message)


async def test_a_socket_is_sent_each_seq_once(playing, alice, bob, sockets, headers_for):
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_bob.next("view")

    await database_sync_to_async(actions.play_move)(playing.pk, alice, 0, {"type": "play", "card": "KH"})
    await at_bob.next("view", where=lambda m: m["seq"] == 1)

    later = await at_bob.nothing_more()
    assert not [message for message in later if message["type"] == "view"]


async def test_seats_filling_reach_the_table_without_a_move(alice, bob, sockets, headers_for):
    table = await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2)
    at_alice = await sockets(path(table), headers_for(alice))
    assert (await at_alice.next("view"))["status"] == "open"

    await database_sync_to_async(actions.join_table)(table.pk, bob)

    started = await at_alice.next("view", where=lambda m: m["status"] == "playing")
    assert started["seats"][1]["name"] == "Bob" and len(started["view"]["hand"]) == 4


# --- moves over the socket ---------------------------------------------------------------
async def test_a_move_over_the_socket_answers_with_the_new_view_and_reaches_the_others(
    playing, alice, bob, sockets, headers_for
):
    at_alice = await sockets(path(playing), headers_for(alice))
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_alice.next("view")
    await at_bob.next("view")

    await at_alice.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "AD"}})

    mine = await at_alice.next("view", where=lambda m: m["seq"] == 1)
    assert "AD" not in mine["view"]["hand"]
    theirs = await at_bob.next("view", where=lambda m: m["seq"] == 1)
    assert [card["card"] for card in theirs["view"]["table"]] == ["AD"]
    assert await database_sync_to_async(seq_of)(playing) == 1


async def test_an_illegal_move_over_the_socket_is_a_400_and_changes_nothing(playing, alice, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")

    await at_alice.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "7C"}})

    error = await at_alice.next("error")
    assert error["status"] == 400 and error["seq"] == 0 and error["error"]
    assert await database_sync_to_async(seq_of)(playing) == 0


async def test_a_stale_move_over_the_socket_is_a_409_with_the_current_seq(
    playing, alice, bob, sockets, headers_for
):
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_bob.next("view")
    await database_sync_to_async(actions.play_move)(playing.pk, alice, 0, {"type": "play", "card": "KH"})

    await at_bob.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "7C"}})

    error = await at_bob.next("error")
    assert error["status"] == 409 and error["seq"] == 1
    assert await database_sync_to_async(seq_of)(playing) == 1


async def test_a_move_out_of_turn_over_the_socket_is_a_403(playing, bob, sockets, headers_for):
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_bob.next("view")

    await at_bob.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "7C"}})

    error = await at_bob.next("error")
    assert error["status"] == 403 and error["seq"] == 0


async def test_a_spectator_cannot_move(playing, charlie, sockets, headers_for):
    watching = await sockets(path(playing), headers_for(charlie))
    await watching.next("view")

    await watching.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "KH"}})

    assert (await watching.next("error"))["status"] == 403
    assert await database_sync_to_async(seq_of)(playing) == 0


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        "42",
        json.dumps({"no": "type"}),
        json.dumps({"type": "dance"}),
        json.dumps({"type": "move", "move": {"type": "play", "card": "KH"}}),
        json.dumps({"type": "move", "seq": 0}),
        json.dumps({"type": "move", "seq": 0, "move": "KH"}),
        json.dumps({"type": "sync", "seq": "zero"}),
    ],
)
async def test_a_malformed_message_gets_a_400_and_changes_nothing(playing, alice, sockets, headers_for, text):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")

    await at_alice.send_text(text)

    assert (await at_alice.next("error"))["status"] == 400
    assert await database_sync_to_async(seq_of)(playing) == 0
    await at_alice.send({"type": "ping"})
    assert await at_alice.next("pong") == {"type": "pong"}  # the socket lives on


async def test_an_oversized_message_gets_a_413_and_changes_nothing(playing, alice, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")
    padding = "x" * MAX_MESSAGE_BYTES
    await at_alice.send({"type": "move", "seq": 0, "move": {"type": "play", "card": "KH"}, "padding": padding})

    assert (await at_alice.next("error"))["status"] == 413
    assert await database_sync_to_async(seq_of)(playing) == 0


async def test_a_burst_of_messages_is_throttled_with_429(playing, alice, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")

    for _ in range(BURST + 10):
        await at_alice.send({"type": "ping"})

    answers = [await at_alice.receive() for _ in range(BURST + 10)]
    kinds = [answer["type"] for answer in answers]
    assert kinds.count("pong") >= BURST
    assert [answer["status"] for answer in answers if answer["type"] == "error"] == [429] * kinds.count("error")
    assert kinds.count("error") >= 5


async def test_a_flood_closes_the_socket_with_4429(playing, alice, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("view")

    for _ in range(BURST + FLOOD_CLOSE_AFTER + 5):
        await at_alice.send({"type": "ping"})

    assert await at_alice.close_code() == 4429


# --- resync ------------------------------------------------------------------------------
async def test_sync_after_a_gap_sends_the_current_view(playing, alice, bob, sockets, headers_for):
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_bob.next("view")
    await database_sync_to_async(actions.play_move)(playing.pk, alice, 0, {"type": "play", "card": "KH"})
    await at_bob.next("view", where=lambda m: m["seq"] == 1)
    await database_sync_to_async(actions.play_move)(playing.pk, bob, 1, {"type": "play", "card": "7C"})
    await at_bob.nothing_more()

    await at_bob.send({"type": "sync", "seq": 0})

    view = await at_bob.next("view")
    assert view["seq"] == 2 and "7C" not in view["view"]["hand"]


async def test_sync_answers_even_when_nothing_changed(playing, alice, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    first = await at_alice.next("view")

    await at_alice.send({"type": "sync", "seq": 0})

    again = await at_alice.next("view")
    assert again == first


async def test_a_reconnecting_client_gets_the_moves_it_missed(playing, alice, bob, sockets, headers_for):
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_bob.next("view")
    await at_bob.disconnect()
    await database_sync_to_async(actions.play_move)(playing.pk, alice, 0, {"type": "play", "card": "KH"})

    again = await sockets(path(playing), headers_for(bob))

    assert (await again.next("view"))["seq"] == 1


# --- presence -------------------------------------------------------------------------------
async def test_presence_shows_who_is_at_the_table_and_who_left(playing, alice, bob, charlie, sockets, headers_for):
    at_alice = await sockets(path(playing), headers_for(alice))
    await at_alice.next("presence", where=lambda m: m["present"] == [0])
    at_bob = await sockets(path(playing), headers_for(bob))
    await at_alice.next("presence", where=lambda m: m["present"] == [0, 1])
    await sockets(path(playing), headers_for(charlie))
    both = await at_alice.next("presence", where=lambda m: m["spectators"] == 1)
    assert both == {"type": "presence", "present": [0, 1], "spectators": 1}
    assert await sync_to_async(presence.is_present)(playing.pk, bob.pk)

    await at_bob.disconnect()

    left = await at_alice.next("presence", where=lambda m: m["present"] == [0])
    assert left["spectators"] == 1
    assert not await sync_to_async(presence.is_present)(playing.pk, bob.pk)
    assert await sync_to_async(presence.is_present)(playing.pk, alice.pk)


async def test_two_sockets_of_one_person_keep_them_present_until_both_close(
    playing, alice, bob, sockets, headers_for
):
    at_alice = await sockets(path(playing), headers_for(alice))
    first_bob = await sockets(path(playing), headers_for(bob))
    second_bob = await sockets(path(playing), headers_for(bob))
    # A socket takes its presence after sending the view and before the chat's history.
    await first_bob.next("chat_history")
    await second_bob.next("chat_history")
    await at_alice.next("presence", where=lambda m: m["present"] == [0, 1])

    await first_bob.disconnect()
    assert await sync_to_async(presence.is_present)(playing.pk, bob.pk)
    await second_bob.disconnect()

    await at_alice.next("presence", where=lambda m: m["present"] == [0])
    assert not await sync_to_async(presence.is_present)(playing.pk, bob.pk)


async def test_presence_expires_when_no_socket_refreshes_it(playing, bob):
    """A crashed server process cannot leave anyone present: nobody refreshes its counter."""
    import asyncio

    from django.core.cache import cache

    key = presence.key_for(playing.pk, bob.pk)
    await sync_to_async(presence.arrive)(key)
    assert await sync_to_async(presence.is_present)(playing.pk, bob.pk)

    await sync_to_async(cache.touch)(key, 1)
    await asyncio.sleep(1.2)

    assert not await sync_to_async(presence.is_present)(playing.pk, bob.pk)


async def test_a_socket_that_goes_away_while_it_connects_leaves_no_presence_behind(playing, bob, application, headers_for):
    """daphne raises Disconnected when a consumer sends to a socket its browser already closed (a tab
    closed while the table was still being sent): the consumer ends there, and must still leave the
    table, or its person shows as at the table until the presence expires."""
    from autobahn.exception import Disconnected
    from channels.testing import WebsocketCommunicator

    def closed_after_the_view(send):
        async def sending(message):
            if message["type"] == "websocket.send" and '"chat_history"' in message.get("text", ""):
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)
        return sending

    async def gone_mid_connect(scope, receive, send):
        await application(scope, receive, closed_after_the_view(send))

    communicator = WebsocketCommunicator(gone_mid_connect, path(playing), headers=await headers_for(bob))
    connected, _ = await communicator.connect()
    assert connected
    await communicator.wait(timeout=5)  # the application ended, without an error
    assert not await sync_to_async(presence.is_present)(playing.pk, bob.pk)
