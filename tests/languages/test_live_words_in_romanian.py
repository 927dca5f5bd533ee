"""Lists, views and refusals pushed over websockets read in the language of
the page that opened the socket (menu cookie, profile, Accept-Language); a
script's socket reads English unless its handshake asks otherwise."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import actions
from games.models import Match
from tests.play import start_table
from tests.realtime.conftest import *  # noqa: F403 -- the websocket fixtures: sockets, headers_for, token_for


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_live_lobby_speaks_the_browsers_language(alice, sockets, headers_for):
    await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2)
    romanian = await sockets("/ws/lobby/", [*await headers_for(None), (b"accept-language", b"ro-RO,ro;q=0.9")])
    english = await sockets("/ws/lobby/", await headers_for(None))

    ro_words = (await romanian.next("lobby"))["tables"][0]["words"]
    en_words = (await english.next("lobby"))["tables"][0]["words"]
    assert (ro_words["options"], ro_words["time"]) == ("cel mai bun din 3 jocuri", "1 zi")
    assert (en_words["options"], en_words["time"]) == ("best of 3 games", "1 day")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_my_matches_live_follow_the_language_menu_over_the_profile(alice, bob, make_user, sockets, headers_for):
    dorin = await database_sync_to_async(make_user)("dorin", preferred_language="ro")
    await database_sync_to_async(start_table)(dorin, [bob])
    by_profile = await sockets("/ws/me/", headers_for(dorin))
    cookie_header = dict(await headers_for(dorin))[b"cookie"]
    by_menu = await sockets("/ws/me/", [(b"origin", b"http://testserver"), (b"cookie", cookie_header + b"; django_language=en")])

    assert (await by_profile.next("my_matches"))["tables"][0]["words"]["options"] == "cel mai bun din 3 jocuri"
    assert (await by_menu.next("my_matches"))["tables"][0]["words"]["options"] == "best of 3 games"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_refused_move_on_the_live_table_is_said_in_romanian(alice, bob, sockets, headers_for):
    table = await database_sync_to_async(start_table)(alice, [bob])
    match = await database_sync_to_async(Match.objects.get)(pk=table.pk)
    waiting = alice if match.to_move == 1 else bob
    socket = await sockets(f"/ws/tables/{table.pk}/", [*await headers_for(waiting), (b"accept-language", b"ro")])
    view = await socket.next("view")

    await socket.send({"type": "move", "seq": view["seq"], "move": {"type": "end"}})

    refusal = await socket.next("error")
    assert (refusal["status"], refusal["error"]) == (403, "Nu e rândul tău.")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_script_on_a_socket_reads_english_unless_its_handshake_asks(make_user, bob, sockets, token_for):
    dorin = await database_sync_to_async(make_user)("dorin", preferred_language="ro")
    await database_sync_to_async(start_table)(dorin, [bob])
    secret = await database_sync_to_async(token_for)(dorin)
    script = await sockets("/ws/me/", [(b"authorization", f"Bearer {secret}".encode())])
    asking = await sockets("/ws/me/", [(b"authorization", f"Bearer {secret}".encode()), (b"accept-language", b"ro")])

    assert (await script.next("my_matches"))["tables"][0]["words"]["options"] == "best of 3 games"
    assert (await asking.next("my_matches"))["tables"][0]["words"]["options"] == "cel mai bun din 3 jocuri"
