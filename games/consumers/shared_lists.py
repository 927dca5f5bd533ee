"""The lobby, built once per change per server process and language, shared by its sockets.

Each /ws/lobby/ socket reading the lobby itself, on connect and after every
change, on the moves' database thread, let a storm of anonymous connects
hold up other players' moves (figures in the README). So each server process listens to
the lobby group once (one channel of its own, not one per socket), and the
lobby is read on the lists' thread (consumers/database.py), never the
moves'. At most one read is in flight per language: whoever asks meanwhile
waits for it. A connect while nothing changed gets the list already built,
with no read at all. A change names its table, and a read after it reads
only the tables named since the last one (and the listing's order), keeping
the others' rows and summaries: a read of every table each time cost 15-40
ms of the interpreter per change and server, in front of the moves' pushes.
Every table is read again at least every FRESH_SECONDS (a renamed person,
a reliability that changed elsewhere).

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

from septica_site.outage import database_unreachable

from ..after_commit import publish
from ..leaving_view import load_reliabilities
from ..models import Seat, Table
from ..presenters import table_summary
from ..reads import lobby_table_ids, lobby_tables, tables_with_seats
from .catch_up import behind
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
TABLE_CHANGES_KEPT = 1000  # the tables named since the oldest lobby that may be read in part (no socket reads)
CHANGES_KEPT = 64  # a lobby's changes since each of this many older ones, made once for all their sockets


@dataclass(eq=False)
class SharedLobby:
    """One read of the lobby in one language."""

    language: str
    number: int  # this process's builds, counted: a socket never goes back to an older one
    changes: int  # the hub's change count when the read began
    built_at: float
    whole_at: float  # when every table it lists was last read (the others were kept from an earlier lobby)
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


def read_lobby(language: str, number: int, changes: int, before: SharedLobby | None = None,
               changed: frozenset[int] = frozenset()) -> SharedLobby:
    """The lobby as it is now, in `language` (the active one: on the lists' thread).

    With `before` (a lobby in the same language) only the tables `changed`
    since it was read, and those it did not list, are read; the others keep
    its rows and summaries."""
    now = time.monotonic()
    kept = {} if before is None else {
        table.pk: (row, shown) for row, shown in zip(before.rows, before.shared, strict=True)
        if (table := row[0]).pk not in changed
    }
    if before is None:
        order, fresh = None, lobby_tables()
    else:
        order = list(lobby_table_ids())
        unread = [table_id for table_id in order if table_id not in kept]
        fresh = tables_with_seats().filter(pk__in=unread) if unread else []
    tables = [(table, list(table.seats.all())) for table in fresh]
    load_reliabilities(tables)  # every seated person's at once, not a read per table
    for table, seats in tables:
        cache = {}
        kept[table.pk] = ((table, seats, cache), table_summary(table, None, seats, cache))
    if order is None:
        order = [table.pk for table, _ in tables]
    # A table listed by the first read and closed before the second is not in `kept`: left out.
    listed = [kept[table_id] for table_id in order if table_id in kept]
    rows = [row for row, _ in listed]
    people = {person for _, seats, _ in rows for seat in seats for person in (seat.user_id, seat.reserved_for_id)
              if person}
    return SharedLobby(language, number, changes, now, now if before is None else before.whole_at, rows,
                       [shown for _, shown in listed], frozenset(people))


class LobbyHub:
    """A server process's lobby: its sockets, its subscription, its lists (one event loop)."""

    def __init__(self, layer) -> None:
        self.layer = layer
        self.sockets: set = set()
        self.anonymous: Counter[str] = Counter()
        self.changes = 0
        self.builds = 0
        self.changed_tables: dict[int, int] = {}  # a table's id: the number of the last change that named it
        self.unnamed_change = 0  # the number of the last change that named no table
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
                    table_id = message.get("table")
                    self.changed(table_id if type(table_id) is int else None)
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

    def changed(self, table_id: int | None = None) -> None:
        """The lobby changed at `table_id` (None: anywhere)."""
        self.changes += 1
        if table_id is None or len(self.changed_tables) >= TABLE_CHANGES_KEPT:
            self.unnamed_change = self.changes  # the next read reads every table
            self.changed_tables.clear()
        else:
            self.changed_tables[table_id] = self.changes
        self.lobbies.clear()
        if self.pending is None:
            self.pending = asyncio.create_task(self._push_soon())

    async def _push_soon(self) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self.pending = None
        try:
            await self.catch_up()
        except Exception as error:
            if not database_unreachable(error):
                raise
            # Its sockets stay open and are pushed this change once the database answers.
            logger.warning("the lobby could not be read, the database did not answer: %r", error)
            behind().note(self)

    async def catch_up(self) -> None:
        """Push every socket the lobby as it is now (after a change, or once the database answers again)."""
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
        before = self.newest.get(language)
        if before is not None and (self.unnamed_change > before.changes
                                   or time.monotonic() - before.whole_at >= FRESH_SECONDS):
            before = None
        changed = frozenset() if before is None else frozenset(
            table_id for table_id, change in self.changed_tables.items() if change > before.changes)
        try:
            with translation.override(language):
                lobby = await lists_db(read_lobby)(language, number, changes, before, changed)
        finally:
            del self.building[language]
        self.newest[language] = lobby
        self._forget_changes_read()
        if changes == self.changes:
            self.lobbies[language] = lobby
        return lobby

    def _forget_changes_read(self) -> None:
        """Drop the changes every lobby that may be read again in part has read since."""
        now = time.monotonic()
        oldest = min((built.changes for built in self.newest.values() if now - built.whole_at < FRESH_SECONDS),
                     default=self.changes)  # a lobby older than that is read whole next time
        for table_id in [table_id for table_id, change in self.changed_tables.items() if change <= oldest]:
            del self.changed_tables[table_id]


_hub: tuple[asyncio.AbstractEventLoop, LobbyHub] | None = None


def hub(layer) -> LobbyHub:
    """This process's lobby hub: one per event loop (a server has one; each test its own)."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub[0] is not loop or _hub[1].layer is not layer:
        _hub = (loop, LobbyHub(layer))
    return _hub[1]


