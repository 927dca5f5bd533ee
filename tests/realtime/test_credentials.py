"""A socket ends with the credential that opened it.

Revoking a token closes the sockets opened with that token; logging out
closes the sockets of that session; a password change closes the person's
session sockets (their tokens still stand); a suspension or a ban closes all
of the person's sockets. Each is closed with an error (401) and then 4401.
And every move re-checks the credential itself, so a move is refused even
when the announcement never arrived (channel layers may lose a message).

Alice leads a two-player septica table against Bob (she holds KH AD KS 8C).
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Permission
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts import credentials
from accounts.models import ApiToken
from games.actions import moderation
from games.models import Match
from tests.play import fix_deck, start_table

from .test_table_socket import known_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FIRST_MOVE = {"type": "play", "card": "KH"}
ORIGIN = (b"origin", b"http://testserver")


@pytest.fixture
def playing(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    fix_deck(table, decks=[known_deck()])
    return table


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="moderate", content_type__app_label="games"))
    return user


class Browser:
    """A logged-in browser: its own session, the cookie its sockets send, and its HTTP client."""

    def __init__(self, user) -> None:
        self.client = Client()
        self.client.force_login(user)
        self.session_key = self.client.cookies["sessionid"].value

    @property
    def headers(self) -> list:
        return [ORIGIN, (b"cookie", f"sessionid={self.session_key}".encode())]

    def log_out(self) -> int:
        return self.client.post("/accounts/logout/").status_code


def path(table) -> str:
    return f"/ws/tables/{table.pk}/"


def bearer(secret: str) -> list:
    return [(b"authorization", f"Bearer {secret}".encode())]


def seq_of(table) -> int:
    return Match.objects.get(pk=table.pk).seq


async def browser_of(user) -> Browser:
    return await database_sync_to_async(Browser)(user)


async def token_of(user) -> tuple[ApiToken, str]:
    return await database_sync_to_async(ApiToken.issue)(user, "script")


async def opened(sockets, table, headers):
    socket = await sockets(path(table), headers)
    await socket.next("view")
    return socket


async def closed_for_its_credential(socket) -> bool:
    """The server said why (401), then closed with 4401."""
    error = await socket.next("error")
    return error["status"] == 401 and bool(error["error"]) and await socket.close_code() == 4401


async def still_open(socket) -> bool:
    await socket.send({"type": "ping"})
    await socket.next("pong")
    return True


# --- today's findings: 3 moves accepted each way, expected 0 ----------------------------------
async def test_a_token_socket_is_closed_when_its_token_is_revoked(playing, alice, sockets):
    token, secret = await token_of(alice)
    socket = await opened(sockets, playing, bearer(secret))

    assert await database_sync_to_async(token.revoke)()

    assert await closed_for_its_credential(socket)
    assert await database_sync_to_async(seq_of)(playing) == 0


async def test_a_session_socket_is_closed_when_that_session_logs_out(playing, alice, sockets):
    browser = await browser_of(alice)
    socket = await opened(sockets, playing, browser.headers)

    assert await database_sync_to_async(browser.log_out)() in (200, 302)

    assert await closed_for_its_credential(socket)


# --- the per-move check, for when the announcement is lost ------------------------------------
async def test_a_move_with_a_token_revoked_behind_the_sockets_back_is_refused(playing, alice, sockets):
    token, secret = await token_of(alice)
    socket = await opened(sockets, playing, bearer(secret))
    await database_sync_to_async(ApiToken.objects.filter(pk=token.pk).update)(revoked_at=timezone.now())

    await socket.send({"type": "move", "seq": 0, "move": FIRST_MOVE})

    assert await closed_for_its_credential(socket)
    assert await database_sync_to_async(seq_of)(playing) == 0


async def test_a_move_from_a_deactivated_persons_token_is_refused(playing, alice, sockets, django_user_model):
    _token, secret = await token_of(alice)
    socket = await opened(sockets, playing, bearer(secret))
    await database_sync_to_async(django_user_model.objects.filter(pk=alice.pk).update)(is_active=False)

    await socket.send({"type": "move", "seq": 0, "move": FIRST_MOVE})

    assert await closed_for_its_credential(socket)
    assert await database_sync_to_async(seq_of)(playing) == 0


async def test_a_move_from_a_session_deleted_behind_the_sockets_back_is_refused(playing, alice, sockets):
    browser = await browser_of(alice)
    socket = await opened(sockets, playing, browser.headers)
    await database_sync_to_async(Session.objects.filter(session_key=browser.session_key).delete)()

    await socket.send({"type": "move", "seq": 0, "move": FIRST_MOVE})

    assert await closed_for_its_credential(socket)
    assert await database_sync_to_async(seq_of)(playing) == 0


async def test_a_password_changed_behind_the_sockets_back_stops_session_moves_not_token_moves(
    playing, alice, sockets, django_user_model
):
    browser = await browser_of(alice)
    at_session = await opened(sockets, playing, browser.headers)
    _token, secret = await token_of(alice)
    at_token = await opened(sockets, playing, bearer(secret))
    new_hash = make_password("an-entirely-new-password-4")
    await database_sync_to_async(django_user_model.objects.filter(pk=alice.pk).update)(password=new_hash)

    await at_session.send({"type": "move", "seq": 0, "move": FIRST_MOVE})
    assert await closed_for_its_credential(at_session)
    assert await database_sync_to_async(seq_of)(playing) == 0

    await at_token.send({"type": "move", "seq": 0, "move": FIRST_MOVE})
    assert (await at_token.next("view", where=lambda m: m["seq"] == 1))["seq"] == 1


async def test_a_move_on_a_standing_session_or_token_is_accepted(playing, alice, bob, sockets):
    browser = await browser_of(alice)
    at_alice = await opened(sockets, playing, browser.headers)
    _token, secret = await token_of(bob)
    at_bob = await opened(sockets, playing, bearer(secret))

    await at_alice.send({"type": "move", "seq": 0, "move": FIRST_MOVE})
    await at_alice.next("view", where=lambda m: m["seq"] == 1)
    await at_bob.next("view", where=lambda m: m["seq"] == 1)
    await at_bob.send({"type": "move", "seq": 1, "move": {"type": "play", "card": "7C"}})

    assert (await at_bob.next("view", where=lambda m: m["seq"] == 2))["seq"] == 2


# --- which sockets each event closes --------------------------------------------------------
async def test_revoking_a_token_leaves_the_persons_other_token_and_session_sockets_open(playing, alice, sockets):
    revoked, revoked_secret = await token_of(alice)
    _kept, kept_secret = await token_of(alice)
    browser = await browser_of(alice)
    at_revoked = await opened(sockets, playing, bearer(revoked_secret))
    at_kept = await opened(sockets, playing, bearer(kept_secret))
    at_session = await opened(sockets, playing, browser.headers)

    await database_sync_to_async(revoked.revoke)()

    assert await closed_for_its_credential(at_revoked)
    assert await still_open(at_kept) and await still_open(at_session)


async def test_logging_out_leaves_the_persons_other_sessions_and_tokens_open(playing, alice, bob, sockets):
    leaving, staying, bobs = await browser_of(alice), await browser_of(alice), await browser_of(bob)
    _token, secret = await token_of(alice)
    at_leaving = await opened(sockets, playing, leaving.headers)
    lobby_leaving = await sockets("/ws/lobby/", leaving.headers)
    await lobby_leaving.next("lobby")
    at_staying = await opened(sockets, playing, staying.headers)
    at_token = await opened(sockets, playing, bearer(secret))
    at_bob = await opened(sockets, playing, bobs.headers)

    await database_sync_to_async(leaving.log_out)()

    assert await closed_for_its_credential(at_leaving)
    assert await closed_for_its_credential(lobby_leaving)  # every kind of socket, not only tables
    assert await still_open(at_staying) and await still_open(at_token) and await still_open(at_bob)


async def test_a_password_change_closes_the_persons_session_sockets_and_leaves_their_tokens(
    playing, alice, bob, sockets, password
):
    first, second, bobs = await browser_of(alice), await browser_of(alice), await browser_of(bob)
    _token, secret = await token_of(alice)
    at_first = await opened(sockets, playing, first.headers)
    at_second = await opened(sockets, playing, second.headers)
    at_token = await opened(sockets, playing, bearer(secret))
    at_bob = await opened(sockets, playing, bobs.headers)

    def change_password():
        alice.set_password("an-entirely-new-password-4")
        alice.save()

    await database_sync_to_async(change_password)()

    assert await closed_for_its_credential(at_first) and await closed_for_its_credential(at_second)
    assert await still_open(at_token) and await still_open(at_bob)


async def test_saving_a_profile_without_a_new_password_closes_nothing(playing, alice, sockets):
    browser = await browser_of(alice)
    socket = await opened(sockets, playing, browser.headers)

    def rename():
        alice.display_name = "Alice B."
        alice.save()

    await database_sync_to_async(rename)()

    assert await still_open(socket)
    assert socket.closed_with is None


@pytest.mark.parametrize("restrict", ["suspend", "ban"])
async def test_a_suspension_or_a_ban_closes_all_the_persons_sockets_and_no_one_elses(
    restrict, playing, alice, bob, moderator, sockets
):
    browser, bobs = await browser_of(alice), await browser_of(bob)
    _token, secret = await token_of(alice)
    at_session = await opened(sockets, playing, browser.headers)
    at_token = await opened(sockets, playing, bearer(secret))
    lobby = await sockets("/ws/lobby/", bearer(secret))
    await lobby.next("lobby")
    at_bob = await opened(sockets, playing, bobs.headers)
    watching = await opened(sockets, playing, [ORIGIN])

    def act():
        if restrict == "suspend":
            moderation.suspend_user(moderator, alice.pk, "cool off", timezone.now() + timedelta(days=1))
        else:
            moderation.ban_user(moderator, alice.pk, "cheating")

    await database_sync_to_async(act)()

    for socket in (at_session, at_token, lobby):
        assert await closed_for_its_credential(socket)
    assert await still_open(at_bob) and await still_open(watching)


async def test_closing_an_account_closes_all_its_sockets(playing, alice, bob, sockets):
    browser, bobs = await browser_of(alice), await browser_of(bob)
    _token, secret = await token_of(alice)
    at_session = await opened(sockets, playing, browser.headers)
    at_token = await opened(sockets, playing, bearer(secret))
    at_bob = await opened(sockets, playing, bobs.headers)

    def close_account():
        alice.is_active = False
        alice.save()

    await database_sync_to_async(close_account)()

    assert await closed_for_its_credential(at_session) and await closed_for_its_credential(at_token)
    assert await still_open(at_bob)


async def test_lifting_a_suspension_closes_nothing(playing, alice, moderator, sockets):
    await database_sync_to_async(moderation.suspend_user)(moderator, alice.pk, "cool off",
                                                         timezone.now() + timedelta(days=1))
    browser = await browser_of(alice)
    socket = await opened(sockets, playing, browser.headers)  # a suspended person may still watch

    await database_sync_to_async(moderation.lift_suspension)(moderator, alice.pk, "served")

    assert await still_open(socket)
    assert socket.closed_with is None


# --- what travels --------------------------------------------------------------------------
async def test_the_announcements_carry_no_session_key_and_no_token_secret(alice):
    layer = get_channel_layer()
    listening = await layer.new_channel()
    await layer.group_add(credentials.group(alice.pk), listening)
    token, secret = await token_of(alice)
    browser = await browser_of(alice)

    await database_sync_to_async(token.revoke)()
    await database_sync_to_async(browser.log_out)()

    heard = [await asyncio.wait_for(layer.receive(listening), 10) for _ in range(2)]
    assert [message["ended"] for message in heard] == ["token", "session"]
    travelled = json.dumps(heard)
    assert secret not in travelled and token.key_hash not in travelled
    assert browser.session_key not in travelled
