"""Chat over /ws/tables/<id>/: who hears a line, refused lines, history on connect.

Alice and Bob play a public table; Charlie and Dave watch it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import ChatLine, ChatRoom
from players.models import Block

from .conftest import path

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def at_table(sockets, headers_for, table, user, invite=None):
    socket = await sockets(path(table, invite), headers_for(user))
    history = await socket.next("chat_history")
    return socket, history


def chats(messages) -> list[dict]:
    return [message for message in messages if message["type"] == "chat"]


async def test_a_players_line_reaches_the_other_player_with_its_author(playing, alice, bob, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)

    await alice_socket.send({"type": "chat", "text": "  Hai noroc!  "})
    line = (await bob_socket.next("chat"))["line"]

    assert line["text"] == "Hai noroc!" and line["words"] == "Hai noroc!" and line["room"] == ChatRoom.PLAYERS
    assert line["author"] == {"name": "Alice", "username": "alice", "profile_url": "/players/alice/"}
    assert line["at"] and line["id"]
    assert (await alice_socket.next("chat"))["line"]["id"] == line["id"]  # the writer sees it stored


async def test_a_quick_phrase_arrives_as_its_code_and_words(playing, alice, bob, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)

    await alice_socket.send({"type": "chat", "phrase": "well_played"})
    line = (await bob_socket.next("chat"))["line"]

    assert line["phrase"] == "well_played" and line["words"] == "Well played" and "text" not in line


async def test_a_reader_who_blocks_the_author_never_receives_the_line(playing, alice, bob, sockets, headers_for):
    await database_sync_to_async(Block.objects.create)(blocker=bob, blocked=alice)
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)

    await alice_socket.send({"type": "chat", "text": "can you hear me?"})
    await alice_socket.next("chat")

    assert not chats(await bob_socket.nothing_more())


async def test_a_spectators_line_stays_in_the_spectators_chat(playing, alice, charlie, dave, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    charlie_socket, history = await at_table(sockets, headers_for, playing, charlie)
    dave_socket, _ = await at_table(sockets, headers_for, playing, dave)
    assert history["room"] == ChatRoom.SPECTATORS

    await charlie_socket.send({"type": "chat", "text": "Bob holds the seven!"})
    line = (await dave_socket.next("chat"))["line"]

    assert line["room"] == ChatRoom.SPECTATORS and line["words"] == "Bob holds the seven!"
    assert not chats(await alice_socket.nothing_more())


async def test_players_never_hear_the_spectators_and_spectators_never_hear_the_players(
        playing, alice, charlie, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    charlie_socket, _ = await at_table(sockets, headers_for, playing, charlie)

    await alice_socket.send({"type": "chat", "phrase": "noroc"})
    await alice_socket.next("chat")

    assert not chats(await charlie_socket.nothing_more())


async def test_an_anonymous_spectator_reads_the_spectators_chat_but_may_not_write(
        playing, charlie, sockets, headers_for):
    charlie_socket, _ = await at_table(sockets, headers_for, playing, charlie)
    anonymous, history = await at_table(sockets, headers_for, playing, None)
    assert history["room"] == ChatRoom.SPECTATORS

    await charlie_socket.send({"type": "chat", "text": "hello all"})
    assert (await anonymous.next("chat"))["line"]["words"] == "hello all"
    await anonymous.send({"type": "chat", "text": "me too"})

    refusal = await anonymous.next("error")
    assert refusal["status"] == 401 and refusal["error"] == "Log in to chat."


REFUSED = [
    ({"type": "chat", "text": "x" * 301}, 400, "line_too_long"),
    ({"type": "chat", "text": "   "}, 400, "empty_line"),
    ({"type": "chat", "text": ""}, 400, "empty_line"),
    ({"type": "chat", "text": 7}, 400, "empty_line"),
    ({"type": "chat", "text": "hi", "phrase": "thanks"}, 400, "text_or_phrase"),
    ({"type": "chat"}, 400, "text_or_phrase"),
    ({"type": "chat", "phrase": "rude_word"}, 400, "unknown_phrase"),
    ({"type": "chat", "phrase": ["thanks"]}, 400, "unknown_phrase"),
]


@pytest.mark.parametrize(("message", "status", "code"), REFUSED)
async def test_a_refused_line_answers_the_writer_only_and_is_stored_nowhere(
        playing, alice, bob, sockets, headers_for, message, status, code):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)

    await alice_socket.send(message)
    refusal = await alice_socket.next("error")

    assert refusal["status"] == status and refusal["code"] == code and refusal["error"] and refusal["about"] == "chat"
    assert not chats(await bob_socket.nothing_more())
    assert not await database_sync_to_async(ChatLine.objects.exists)()


async def test_a_line_of_300_characters_is_said(playing, alice, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)

    await alice_socket.send({"type": "chat", "text": "é" * 300})

    assert (await alice_socket.next("chat"))["line"]["text"] == "é" * 300


async def test_a_muted_person_is_told_until_when_and_nobody_hears_them(playing, alice, bob, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    until = timezone.now() + timedelta(days=3)
    await database_sync_to_async(type(alice).objects.filter(pk=alice.pk).update)(chat_muted_until=until)

    await alice_socket.send({"type": "chat", "phrase": "thanks"})
    refusal = await alice_socket.next("error")

    assert refusal["status"] == 403 and refusal["code"] == "muted"
    assert refusal["error"] == f"A moderator muted you from chat until {until:%Y-%m-%d %H:%M} UTC."
    assert not chats(await bob_socket.nothing_more())
    assert not await database_sync_to_async(ChatLine.objects.exists)()


async def test_a_spectator_of_a_private_table_has_no_chat(private_playing, charlie, sockets, headers_for):
    socket, history = await at_table(sockets, headers_for, private_playing, charlie, private_playing.invite_code)
    assert (history["room"], history["lines"]) == (None, [])

    await socket.send({"type": "chat", "text": "let me in"})
    refusal = await socket.next("error")

    assert refusal["status"] == 403 and refusal["code"] == "no_chat_here"
    assert not await database_sync_to_async(ChatLine.objects.exists)()


async def test_the_sixth_line_in_ten_seconds_is_refused_with_the_limits(playing, alice, bob, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    for number in range(5):
        await alice_socket.send({"type": "chat", "text": f"line {number}"})
        await bob_socket.next("chat")

    await alice_socket.send({"type": "chat", "text": "one too many"})
    refusal = await alice_socket.next("error")

    assert refusal["status"] == 429 and refusal["code"] == "chat_rate"
    assert "5 lines in 10 seconds" in refusal["error"] and "60 in 10 minutes" in refusal["error"]
    assert not chats(await bob_socket.nothing_more())
    assert await database_sync_to_async(ChatLine.objects.count)() == 5


async def test_the_last_100_lines_come_on_connect_oldest_first(playing, alice, bob, charlie, sockets, headers_for):
    def say_many():
        ChatLine.objects.bulk_create(
            [ChatLine(table=playing, room=ChatRoom.PLAYERS, author=alice, text=f"line {n}") for n in range(120)]
            + [ChatLine(table=playing, room=ChatRoom.SPECTATORS, author=charlie, text="from the stands")])

    await database_sync_to_async(say_many)()
    _, history = await at_table(sockets, headers_for, playing, bob)

    assert history["room"] == ChatRoom.PLAYERS
    assert [line["text"] for line in history["lines"]] == [f"line {n}" for n in range(20, 120)]


async def test_the_history_leaves_out_blocked_authors_and_free_text_when_chat_text_is_off(
        playing, alice, bob, charlie, dave, sockets, headers_for):
    def say_some():
        ChatLine.objects.create(table=playing, room=ChatRoom.SPECTATORS, author=charlie, text="charlie writes")
        ChatLine.objects.create(table=playing, room=ChatRoom.SPECTATORS, author=charlie, phrase="good_game")
        ChatLine.objects.create(table=playing, room=ChatRoom.SPECTATORS, author=bob, text="bob watches")
        Block.objects.create(blocker=dave, blocked=bob)
        type(dave).objects.filter(pk=dave.pk).update(chat_text=False)

    await database_sync_to_async(say_some)()
    _, history = await at_table(sockets, headers_for, playing, dave)

    assert [line["words"] for line in history["lines"]] == ["Good game"]


async def test_a_reader_with_chat_text_off_receives_only_quick_phrases(playing, alice, bob, sockets, headers_for):
    # Read when the socket connects (and again in the background every READER_SETTINGS_SECONDS).
    await database_sync_to_async(type(bob).objects.filter(pk=bob.pk).update)(chat_text=False)
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)

    await alice_socket.send({"type": "chat", "text": "free words"})
    await alice_socket.next("chat")
    await alice_socket.send({"type": "chat", "phrase": "thanks"})

    assert (await bob_socket.next("chat"))["line"]["phrase"] == "thanks"
    assert [line["line"]["phrase"] for line in chats(bob_socket.received)] == ["thanks"]


async def test_a_name_with_a_script_tag_travels_as_plain_data(playing, alice, bob, sockets, headers_for):
    await database_sync_to_async(type(alice).objects.filter(pk=alice.pk).update)(display_name="<script>x</script>")
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)

    await alice_socket.send({"type": "chat", "text": "<script>alert(1)</script>"})
    line = (await bob_socket.next("chat"))["line"]

    assert line["author"]["name"] == "<script>x</script>" and line["words"] == "<script>alert(1)</script>"


async def test_a_romanian_reader_reads_the_phrases_in_romanian(playing, alice, bob, sockets, headers_for):
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    ro_headers = [*(await headers_for(bob)), (b"accept-language", b"ro")]
    bob_socket = await sockets(path(playing), ro_headers)
    await bob_socket.next("chat_history")

    await alice_socket.send({"type": "chat", "phrase": "well_played"})
    line = (await bob_socket.next("chat"))["line"]

    assert line["words"] == "Bine jucat"


async def test_a_line_never_holds_up_the_move_behind_it_while_settings_are_read_again(
    playing, alice, bob, sockets, headers_for, monkeypatch
):
    """A socket handles its messages one at a time: a line whose reader's settings are due to be read
    again must not wait for that read (on the lists' thread, here held busy) before the move after it."""
    import asyncio
    import threading

    from channels.layers import get_channel_layer

    from games.after_commit import publish
    from games.chat_reads import line_fields
    from games.consumers import table as table_consumer
    from games.consumers.database import lists_db

    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    view = next(m for m in alice_socket.received if m["type"] == "view")
    line = await database_sync_to_async(ChatLine.objects.create)(
        table=playing, room=ChatRoom.PLAYERS, author=alice, phrase="hello")
    fields = await database_sync_to_async(line_fields)(line)
    monkeypatch.setattr(table_consumer, "READER_SETTINGS_SECONDS", 0.0)  # Bob's settings are due at once

    gate = threading.Event()
    holding = asyncio.ensure_future(lists_db(gate.wait)(10))  # the lists' one thread, busy until the gate opens
    try:
        await get_channel_layer().group_send(publish.match_group(playing.pk), {"type": "chat.line", "line": fields})
        await alice_socket.send({"type": "move", "seq": view["seq"], "move": view["view"]["legal_moves"][0]})
        moved = await bob_socket.next("view", timeout=5, where=lambda m: m["seq"] == view["seq"] + 1)
        assert not gate.is_set() and moved["seq"] == view["seq"] + 1
        assert any(m["type"] == "chat" for m in bob_socket.received)  # the line went by the settings held
    finally:
        gate.set()
        await holding


async def test_a_block_whose_announcement_was_lost_holds_from_the_settings_read_again(
    playing, alice, bob, sockets, headers_for, monkeypatch
):
    from games.consumers import table as table_consumer

    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    # Stored without its announcement, as when the channel layer loses it: the settings held age out.
    await database_sync_to_async(Block.objects.bulk_create)([Block(blocker=bob, blocked=alice)])
    monkeypatch.setattr(table_consumer, "READER_SETTINGS_SECONDS", 0.0)  # due at once: read again in the background

    await alice_socket.send({"type": "chat", "phrase": "hello"})
    await alice_socket.next("chat")
    await bob_socket.nothing_more()  # the line went by the settings held, and they are read again meanwhile
    await alice_socket.send({"type": "chat", "phrase": "thanks"})
    await alice_socket.next("chat")
    await bob_socket.nothing_more()

    assert [line["line"]["phrase"] for line in chats(bob_socket.received)] == ["hello"]


async def test_the_writers_socket_answers_while_its_line_is_being_stored(
    playing, alice, bob, sockets, headers_for, monkeypatch
):
    """A line is stored in a task of its own: the writer's socket goes on with its other messages (the
    moves' pushes, here a ping) meanwhile, and its lines keep their order."""
    import threading

    from asgiref.sync import sync_to_async

    from games.consumers import table as table_consumer

    gate = threading.Event()
    storing = table_consumer.say

    def slow_say(*args, **kwargs):
        gate.wait(10)
        return storing(*args, **kwargs)

    monkeypatch.setattr(table_consumer, "say", slow_say)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    try:
        await bob_socket.send({"type": "chat", "phrase": "thanks"})
        await bob_socket.send({"type": "chat", "phrase": "hello"})
        await bob_socket.send({"type": "ping"})
        await bob_socket.next("pong", timeout=5)
        assert not gate.is_set() and not chats(bob_socket.received)
    finally:
        await sync_to_async(gate.set)()
    said = [(await bob_socket.next("chat"))["line"]["phrase"] for _ in range(2)]
    assert said == ["thanks", "hello"]


async def test_a_block_made_while_the_socket_is_open_holds_for_the_very_next_line(playing, alice, bob, sockets, headers_for):
    from players.relations import block

    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    await alice_socket.send({"type": "chat", "phrase": "hello"})
    assert (await bob_socket.next("chat"))["line"]["phrase"] == "hello"  # the settings are held

    await database_sync_to_async(block)(bob, "alice")
    await alice_socket.send({"type": "chat", "phrase": "thanks"})
    await alice_socket.next("chat")

    assert not chats(await bob_socket.nothing_more())


async def test_an_unblock_lets_the_very_next_line_through(playing, alice, bob, sockets, headers_for):
    from players.relations import unblock

    await database_sync_to_async(Block.objects.create)(blocker=bob, blocked=alice)
    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    await alice_socket.send({"type": "chat", "phrase": "hello"})
    await alice_socket.next("chat")
    assert not chats(await bob_socket.nothing_more())

    await database_sync_to_async(unblock)(bob, "alice")
    await alice_socket.send({"type": "chat", "phrase": "thanks"})

    assert (await bob_socket.next("chat"))["line"]["phrase"] == "thanks"


async def test_turning_free_text_off_holds_for_the_very_next_line(playing, alice, bob, sockets, headers_for):
    from accounts.preferences import save_preferences

    alice_socket, _ = await at_table(sockets, headers_for, playing, alice)
    bob_socket, _ = await at_table(sockets, headers_for, playing, bob)
    await alice_socket.send({"type": "chat", "text": "first"})
    assert (await bob_socket.next("chat"))["line"]["text"] == "first"

    await database_sync_to_async(save_preferences)(bob, {"chat_text": False})
    await alice_socket.send({"type": "chat", "text": "second"})
    await alice_socket.next("chat")
    await alice_socket.send({"type": "chat", "phrase": "thanks"})

    assert (await bob_socket.next("chat"))["line"]["phrase"] == "thanks"
    assert [line["line"].get("text") for line in chats(bob_socket.received)] == ["first", None]
