"""The lobby, built once per change per server process and language, shared by its sockets.

Each /ws/lobby/ socket reading the lobby itself, on connect and after every
change, on the moves' database thread, let a storm of anonymous connects
hold up other players' moves (figures in the README). So each server process listens to
the lobby group once (one channel of its own, not one per socket), and the
lobby is read on the lists' thread (consumers/database.py), never the
moves'. At most one read is in flight per language: whoever asks meanwhile
waits for it. A connect while nothing changed gets the list already built,
with no read at all.

A list is shared as `table_summary`'s per-state cache shares a table's
(games/presenters.py): anybody who has no seat at, and no seat kept at, any
listed table gets the very same list (encoded once); a person with a seat
gets theirs made from the rows in memory, exactly what GET /api/tables would
answer them.

Anonymous lobby sockets are counted per address (the one the HTTP side
counts: X-Forwarded-For only when BEHIND_PROXY is on) in each server
process; past LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS a socket is refused.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from dataclasses import dataclass, field

import orjson
from django.utils import translation

from ..after_commit import publish
from ..leaving_view import load_reliabilities
from ..models import Seat, Table
from ..presenters import table_summary
from ..reads import lobby_tables
from .database import lists_db

logger = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.1  # changes in a burst (a table filling seat by seat) are answered once
FRESH_SECONDS = 10.0  # a connect reads the lobby again after this long even without a change (a renamed person)
REJOIN_SECONDS = 3600.0
RESUBSCRIBE_SECONDS = 1.0
# A change's whole lists go out PUSH_BATCH sockets at a time, PUSH_PAUSE_SECONDS
# apart: a list of 100 tables is some 100 kB, and sent to hundreds of sockets
# at once it holds the event loop (and the sockets' writes) in front of the
# moves' pushes.
PUSH_BATCH = 2
PUSH_PAUSE_SECONDS = 0.002
CHANGES_KEPT = 64  # a lobby's changes since each of this many older ones, made once for all their sockets


@dataclass(eq=False)
class SharedLobby:
    """One read of the lobby in one language."""

    language: str
    number: int  # this process's builds, counted: a socket never goes back to an older one
    changes: int  # the hub's change count when the read began
    built_at: float
    rows: list[tuple[Table, list[Seat], dict]]  # each table, its seats, its presenters cache
    shared: list[dict]  # the summaries as anybody without a seat among them sees them
    people: frozenset[int]  # who has a seat, or a seat kept, at a listed table
    _text: str | None = field(default=None, repr=False)
    _changes: dict[int, EncodedText | None] = field(default_factory=dict, repr=False)

    def tables_for(self, viewer) -> list[dict]:
        """What GET /api/tables answers `viewer` (a user or None); `shared` itself when it is theirs."""
        viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
        if viewer_id is None or viewer_id not in self.people:
            return self.shared
        with translation.override(self.language):  # the caches hold this language's words
            return [
                table_summary(table, viewer, seats, cache)
                if any(viewer_id in (seat.user_id, seat.reserved_for_id) for seat in seats) else shown
                for (table, seats, cache), shown in zip(self.rows, self.shared, strict=True)
            ]

    @property
    def shared_text(self) -> str:
        """The socket message of `shared`, encoded once for every socket that gets it."""
        if self._text is None:
            self._text = encode(self.shared)
        return self._text

    def shared_changes_since(self, before: SharedLobby) -> EncodedText | None:
        """What changed from `before.shared` to `shared` (None: nothing), encoded once for every socket."""
        if before.number not in self._changes:
            # Sockets that connected at different times hold different lobbies: one entry for each.
            if len(self._changes) >= CHANGES_KEPT:
                del self._changes[next(iter(self._changes))]
            self._changes[before.number] = encode_changes(before.shared, self.shared)
        return self._changes[before.number]


class EncodedText(str):
    """A message's text that keeps its UTF-8, made once, for every socket it is sent to.

    The server (daphne) encodes each text frame it sends with `.encode("utf8")`,
    for every socket, over and over for the same text: this hands it the bytes
    made once. The frame's bytes are the same."""

    utf8: bytes

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        if encoding.lower().replace("-", "").replace("_", "") == "utf8":
            return self.utf8
        return super().encode(encoding, errors)


def encode(tables: list[dict]) -> EncodedText:
    return _encoded({"type": "lobby", "tables": tables})


def encode_changes(before: list[dict], after: list[dict]) -> EncodedText | None:
    """The `lobby_changes` message that turns the list `before` into `after`; None when they are the same.

    It names every listed table in order and carries the tables that are new
    or differ: a client keeps the summaries it has for the other ids and
    drops the ids no longer named."""
    sent = {table["id"]: table for table in before}
    order = [table["id"] for table in after]
    tables = [table for table in after if sent.get(table["id"]) != table]
    if not tables and order == [table["id"] for table in before]:
        return None
    return _encoded({"type": "lobby_changes", "order": order, "tables": tables})


def _encoded(message: dict) -> EncodedText:
    data = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    text = EncodedText(data.decode())
    text.utf8 = data
    return text


def read_lobby(language: str, number: int, changes: int) -> SharedLobby:
    """The lobby as it is now, in `language` (the active one: on the lists' thread)."""
    rows, shared, people = [], [], set()
    tables = [(table, list(table.seats.all())) for table in lobby_tables()]
    load_reliabilities(tables)  # every seated person's at once, not a read per table
    for table, seats in tables:
        cache = {}
        rows.append((table, seats, cache))
        shared.append(table_summary(table, None, seats, cache))
        people.update(person for seat in seats for person in (seat.user_id, seat.reserved_for_id) if person)
    return SharedLobby(language, number, changes, time.monotonic(), rows, shared, frozenset(people))


class LobbyHub:
    """A server process's lobby: its sockets, its subscription, its lists (one event loop)."""

    def __init__(self, layer) -> None:
        self.layer = layer
        self.sockets: set = set()
        self.anonymous: Counter[str] = Counter()
        self.changes = 0
        self.builds = 0
        self.lobbies: dict[str, SharedLobby] = {}  # fresh: no change since their read began
        self.newest: dict[str, SharedLobby] = {}  # the last read of each language, fresh or not
        self.building: dict[str, asyncio.Future] = {}
        self.pending: asyncio.Task | None = None
        self.listening: asyncio.Task | None = None
        self.subscribed: asyncio.Future | None = None

    # --- sockets ---------------------------------------------------------------------------
    async def join(self, socket) -> None:
        """Count `socket` in; from now on it is sent every change."""
        self.sockets.add(socket)
        await self.listen()

    def leave(self, socket) -> None:
        self.sockets.discard(socket)

    # --- changes -----------------------------------------------------------------------------
    async def listen(self) -> None:
        """Subscribe this process to the lobby group once; return when subscribed."""
        if self.subscribed is None:
            self.subscribed = asyncio.get_running_loop().create_future()
            self.listening = asyncio.create_task(self._listen())
        await asyncio.shield(self.subscribed)

    async def _listen(self) -> None:
        subscribed, channel = self.subscribed, None
        while True:
            try:
                if channel is None:
                    channel = await self.layer.new_channel()
                    await self.layer.group_add(publish.LOBBY_GROUP, channel)
                    if not subscribed.done():
                        subscribed.set_result(None)
                try:
                    message = await asyncio.wait_for(self.layer.receive(channel), REJOIN_SECONDS)
                except TimeoutError:
                    # The in-memory layer forgets a group's member after a day (group_expiry).
                    await self.layer.group_add(publish.LOBBY_GROUP, channel)
                    continue
                if message.get("type") == "lobby.changed":
                    self.changed()
            except Exception as error:  # noqa: BLE001 -- whatever the layer raised, the lobby must not stop updating
                if not subscribed.done():  # the connects waiting fail as they did, the next one tries again
                    subscribed.set_exception(error)
                    subscribed.exception()  # retrieved: the sockets waiting see it themselves
                    self.subscribed = self.listening = None
                    return
                logger.warning("lobby updates interrupted (%r): subscribing again", error)
                channel = None
                self.changed()  # what changed meanwhile is unknown: read the lobby again
                await asyncio.sleep(RESUBSCRIBE_SECONDS)

    def changed(self) -> None:
        self.changes += 1
        self.lobbies.clear()
        if self.pending is None:
            self.pending = asyncio.create_task(self._push_soon())

    async def _push_soon(self) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self.pending = None
        for language in {socket.language for socket in self.sockets}:
            lobby = await self.current(language)
            for number, socket in enumerate([socket for socket in self.sockets if socket.language == language]):
                if socket in self.sockets:
                    await socket.send_lobby(lobby)
                if number % PUSH_BATCH == PUSH_BATCH - 1:
                    await asyncio.sleep(PUSH_PAUSE_SECONDS)  # the moves' pushes go first
                    # Read again meanwhile (the next push's): the sockets not reached yet get that one.
                    lobby = max(lobby, self.newest[language], key=lambda built: built.number)

    # --- lists ---------------------------------------------------------------------------------
    async def current(self, language: str) -> SharedLobby:
        """The lobby in `language`, read after every change made before this call."""
        asked = self.changes
        while True:
            lobby = self.lobbies.get(language)
            if lobby is not None and lobby.changes >= asked and time.monotonic() - lobby.built_at < FRESH_SECONDS:
                return lobby
            building = self.building.get(language)
            if building is None:
                building = self.building[language] = asyncio.ensure_future(self._build(language))
            lobby = await asyncio.shield(building)
            if lobby.changes >= asked:
                return lobby

    async def _build(self, language: str) -> SharedLobby:
        self.builds += 1
        number, changes = self.builds, self.changes
        try:
            with translation.override(language):
                lobby = await lists_db(read_lobby)(language, number, changes)
        finally:
            del self.building[language]
        self.newest[language] = lobby
        if changes == self.changes:
            self.lobbies[language] = lobby
        return lobby


_hub: tuple[asyncio.AbstractEventLoop, LobbyHub] | None = None


def hub(layer) -> LobbyHub:
    """This process's lobby hub: one per event loop (a server has one; each test its own)."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub[0] is not loop or _hub[1].layer is not layer:
        _hub = (loop, LobbyHub(layer))
    return _hub[1]


