"""Sockets whose own read failed because the database did not answer, read again once it answers.

A socket reads on its own after an announcement (a move made through
another server, a seat taken) and on connect. While the database is cut off
those reads fail: the socket stays open and is noted here. One task per
server process then tries one noted socket's read every RETRY_SECONDS, not
each socket on its own: every try waits out the pool's timeout on the one
database thread (consumers/database.py), in front of the moves, and forty
sockets trying each second would queue up more waiting than a second holds.
Once a read answers, every other noted socket reads at once, so each
catches up within a second or so of the database's return even when no
announcement comes. An announcement that gets through meanwhile brings a
socket its view as usual; its catch-up then sends nothing (the view is the
one it has).
"""

from __future__ import annotations

import asyncio
import logging

from septica_site.outage import database_unreachable

logger = logging.getLogger(__name__)

RETRY_SECONDS = 1.0


class Behind:
    """The noted sockets (anything with `async catch_up()`) of one event loop, and the task retrying them."""

    def __init__(self) -> None:
        self.waiting: dict[object, None] = {}  # an ordered set: the longest waiting is tried first
        self.retrying: asyncio.Task | None = None

    def note(self, socket) -> None:
        self.waiting[socket] = None
        if self.retrying is None or self.retrying.done():
            self.retrying = asyncio.create_task(self._retry())

    def forget(self, socket) -> None:
        self.waiting.pop(socket, None)

    async def _retry(self) -> None:
        while self.waiting:
            await asyncio.sleep(RETRY_SECONDS)
            first = next(iter(self.waiting), None)
            if first is not None and await self._catch_up(first):
                await asyncio.gather(*(self._catch_up(socket) for socket in list(self.waiting)))

    async def _catch_up(self, socket) -> bool:
        """Whether the database answered `socket`'s read (noted again meanwhile: it stays)."""
        if socket not in self.waiting:
            return True
        del self.waiting[socket]  # before the read: one that fails again notes it anew
        try:
            await socket.catch_up()
        except Exception as error:  # noqa: BLE001 -- a task's error would go unseen: logged, the socket dropped
            if database_unreachable(error):
                self.waiting[socket] = None
                return False
            logger.warning("a socket could not catch up after the database came back: %r", error)
        return True


_behind: tuple[asyncio.AbstractEventLoop, Behind] | None = None


def behind() -> Behind:
    """This process's noted sockets: one set per event loop (a server has one; each test its own)."""
    global _behind
    loop = asyncio.get_running_loop()
    if _behind is None or _behind[0] is not loop:
        _behind = (loop, Behind())
    return _behind[1]
