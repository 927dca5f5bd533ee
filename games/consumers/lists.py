"""`/ws/lobby/` and `/ws/me/`: the lobby's open tables and a person's matches, live.

Both send the same lists as GET /api/tables and GET /api/me/matches, on
connect and after each change; changes that come in a burst (a table filling
seat by seat) are answered once, after DEBOUNCE_SECONDS.
"""

from __future__ import annotations

import asyncio

from .. import notify
from ..api import lobby_summaries, my_matches_json
from .base import CLOSE_NOT_AUTHENTICATED, SepticaConsumer
from .database import db

DEBOUNCE_SECONDS = 0.1


class ListConsumer(SepticaConsumer):
    """Sends `build()` on connect and again (debounced) whenever its group says so."""

    kind = ""

    def groups_for(self) -> list[str]:
        raise NotImplementedError

    def build(self) -> dict:
        raise NotImplementedError

    async def connect(self):
        self.pending = None
        self.sent = None
        if self.scope.get("auth_error"):
            return await self.refuse(CLOSE_NOT_AUTHENTICATED, 401, self.scope["auth_error"])
        if not self.may_connect():
            return await self.refuse(CLOSE_NOT_AUTHENTICATED, 401, "Log in to see your matches.")
        self.joined = self.groups_for()
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_list()

    def may_connect(self) -> bool:
        return True

    async def disconnect(self, code):
        if self.pending is not None:
            self.pending.cancel()
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def send_list(self) -> None:
        data = await db(self.build)()
        if data != self.sent:
            self.sent = data
            await self.send_json({"type": self.kind, **data})

    async def changed(self, event) -> None:
        if self.pending is None:
            self.pending = asyncio.create_task(self._send_soon())

    async def _send_soon(self) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self.pending = None
        await self.send_list()


class LobbyConsumer(ListConsumer):
    kind = "lobby"

    def groups_for(self):
        return [notify.LOBBY_GROUP]

    def build(self):
        return {"tables": lobby_summaries(self.user)}

    async def lobby_changed(self, event):
        await self.changed(event)


class MyMatchesConsumer(ListConsumer):
    kind = "my_matches"

    def may_connect(self):
        return self.authenticated

    def groups_for(self):
        return [notify.user_group(self.user.pk)]

    def build(self):
        return my_matches_json(self.user)

    async def matches_changed(self, event):
        await self.changed(event)
