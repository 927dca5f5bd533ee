"""`/ws/lobby/` and `/ws/me/`: the lobby's open tables and a person's matches, live.

Both send the same lists as GET /api/tables and GET /api/me/matches, on
connect and after each change; changes that come in a burst (a table filling
seat by seat) are answered once, after DEBOUNCE_SECONDS. Both are read on the
lists' own database thread, never in the moves' queue. The lobby is read once
per change per server process and language and shared by its sockets
(consumers/shared_lists.py); My matches is one person's, read per socket.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils.translation import gettext as _

from septica_site.client_address import scope_address

from ..after_commit import publish
from ..reads import my_matches_json
from . import shared_lists
from .base import CLOSE_FLOODING, CLOSE_NOT_AUTHENTICATED, SepticaConsumer, database_failed
from .database import lists_db

DEBOUNCE_SECONDS = shared_lists.DEBOUNCE_SECONDS


# A channel layer alias that names none: Channels then gives the consumer no channel.
NO_CHANNEL = "none: the lobby hub pushes to anonymous sockets itself"


class LobbyConsumer(SepticaConsumer):
    """Sent the server's shared lobby on connect and after every change (the hub pushes it).

    A socket opened with `?changes=1` (the lobby page's) is sent the whole
    list once, then only what changed (`lobby_changes`): a list of 100 tables
    is some 110 kB, and the changes of one table about 1 kB."""

    async def __call__(self, scope, receive, send):
        # An anonymous lobby socket hears nothing through the channel layer:
        # without a channel of its own it costs no subscription (on Redis, a
        # SUBSCRIBE and an UNSUBSCRIBE for each of a storm's connects).
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            self.channel_layer_alias = NO_CHANNEL
        return await super().__call__(scope, receive, send)

    async def connect(self):
        self.hub = None
        self.address = None
        self.sent_text: str | None = None
        self.sent_number = 0
        self.sent_tables: list[dict] | None = None
        self.sent_lobby: shared_lists.SharedLobby | None = None  # when what was sent is a lobby's shared list
        self.wants_changes = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("changes") == ["1"]
        if self.scope.get("auth_error"):
            return await self.refuse(CLOSE_NOT_AUTHENTICATED, 401, self.scope["auth_error"])
        hub = shared_lists.hub(get_channel_layer())
        if not self.authenticated:
            address = scope_address(self.scope)
            if hub.anonymous[address] >= settings.LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS:
                return await self.refuse(
                    CLOSE_FLOODING, 429, _("Too many lobby connections from your address; log in or close some.")
                )
            hub.anonymous[address] += 1
            self.address = address
        self.hub = hub
        try:
            await hub.join(self)  # before the read: a change made meanwhile is pushed after it
            await self.accept()
            await self.send_lobby(await hub.current(self.language))
        except BaseException as error:
            # A connect that failed is neither counted nor pushed to; one accepted whose read
            # the database did not answer stays open, pushed to when it answers (base.py).
            if not (self.accepted and isinstance(error, Exception) and database_failed(error)):
                self.leave_hub()
            raise

    async def read_again(self) -> None:
        if self.hub is not None:
            await self.send_lobby(await self.hub.current(self.language))

    async def disconnect(self, code):
        self.leave_hub()

    def leave_hub(self) -> None:
        if self.hub is None:
            return
        self.hub.leave(self)
        if self.address is not None:
            self.hub.anonymous[self.address] -= 1
            if self.hub.anonymous[self.address] <= 0:
                del self.hub.anonymous[self.address]
        self.hub = None

    async def send_lobby(self, lobby: shared_lists.SharedLobby) -> None:
        """Send `lobby` as this viewer sees it, unless it is older than, or the same as, what was sent."""
        if lobby.number <= self.sent_number:
            return
        self.sent_number = lobby.number
        tables = lobby.tables_for(self.user)
        shared = tables is lobby.shared
        if self.wants_changes and self.sent_tables is not None:
            if shared and self.sent_lobby is not None:
                text = lobby.shared_changes_since(self.sent_lobby)
            else:
                text = shared_lists.encode_changes(self.sent_tables, tables)
        else:
            text = lobby.shared_text if shared else shared_lists.encode(tables)
            if text == self.sent_text:
                text = None
        self.sent_tables, self.sent_lobby = tables, lobby if shared else None
        if text is not None:
            self.sent_text = text
            await self.send(text_data=text)


class MyMatchesConsumer(SepticaConsumer):
    """A person's matches, read for their socket on connect and (debounced) whenever their group says so."""

    async def connect(self):
        self.pending = None
        self.sent = None
        if self.scope.get("auth_error"):
            return await self.refuse(CLOSE_NOT_AUTHENTICATED, 401, self.scope["auth_error"])
        if not self.authenticated:
            return await self.refuse(CLOSE_NOT_AUTHENTICATED, 401, "Log in to see your matches.")
        self.joined = [publish.user_group(self.user.pk)]
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_list()

    async def disconnect(self, code):
        if self.pending is not None:
            self.pending.cancel()
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    def build(self) -> dict:
        return my_matches_json(self.user)

    async def read_again(self) -> None:
        await self.send_list()

    async def send_list(self) -> None:
        data = await lists_db(self.build)()
        if data != self.sent:
            self.sent = data
            await self.send_json({"type": "my_matches", **data})

    async def matches_changed(self, event):
        if self.pending is None:
            self.pending = asyncio.create_task(self._send_soon())

    async def _send_soon(self) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self.pending = None
        with contextlib.suppress(Disconnected):  # the browser went meanwhile; its disconnect follows
            await self.on_its_own(self.send_list)
