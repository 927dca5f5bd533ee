"""One database read per table change per server process, shared by its sockets.

When a move is announced, every socket at that table in this process needs
the same rows (table, seats, match) and the same game; only the view differs
by seat. The first socket to ask loads them, the others wait for that load
or reuse it when it is recent enough (its seq at least the announced one).

A move changes only the match row (and the table's status, when it ends the
match): every change to seats is announced as "table changed", which loads
everything again. So after a move, a process that holds the table's earlier
state reads just that row and keeps the rest.

A snapshot is a tree of rows (table -> match, table -> seats -> people), with
no reference back up, so that reference counting frees it the moment the
last socket lets go of it: Django caches `seat.table` and `match.table` when
it loads them, and with those cycles every replaced snapshot waited for the
cyclic garbage collector, whose pauses were a busy server's slowest pushes.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from functools import cached_property, partial

from django.db.models import QuerySet

from septica_site.django_private import cache_prefetched, cached_related, forget_related

from ..engine import rules_for
from ..leaving_view import load_leaving_state
from ..models import Seat, Table
from ..reads import cache_seats, tables_with_seats
from . import loop_reads
from .database import db


@dataclass(frozen=True)
class Snapshot:
    table: Table  # with its match and seats cached; see `as_tree`
    game: object | None  # the engine game, None before the cards are dealt
    presented: dict = field(default_factory=dict, compare=False, repr=False)  # presenters.table_json's cache

    @classmethod
    def of(cls, table: Table, game) -> Snapshot:
        return cls(as_tree(table), game)

    @property
    def seq(self) -> int:
        return self.table.match.seq

    @cached_property  # every socket at the table asks, after every move
    def seated(self) -> list[tuple[int, int]]:
        return [(seat.number, seat.user_id) for seat in self.table.seats.all() if seat.user_id is not None]


def as_tree(table: Table) -> Table:
    """`table` without the cached references back to it (from its seats and its match).

    What reads a snapshot (the presenters, `may_watch`, `seated`) goes from
    the table down, never back up, so nothing misses them."""
    seats = list(table.seats.all())
    for seat in seats:
        forget_related(seat, "table")
    # The related manager's queryset names the table in its filter; a bare
    # one holding the same rows does not.
    cache_prefetched(table, "seats", seats, QuerySet(model=Seat))
    match = cached_related(table, "match")
    if match is not None:
        forget_related(match, "table")
    return table


def load_snapshot(table_id: int) -> Snapshot | None:
    """One query: the seats with their people, their table, its match and creator."""
    seats = list(
        Seat.objects.select_related("user", "table__match", "table__created_by").filter(table_id=table_id)
        .order_by("number")
    )
    if seats:
        table = seats[0].table
        for seat in seats:
            seat.table = table  # one shared instance, as a prefetch would leave them
        cache_seats(table, seats)  # the creator came with the seats (select_related), whether seated or not
    else:  # a table without seats (never made by the site): the two-query way
        table = tables_with_seats().filter(pk=table_id).first()
        if table is None:
            return None
        list(table.seats.all())  # prefetched now, in this thread, never later on the event loop
    load_leaving_state(table)  # reliability and an open abort request: presenting then reads nothing more
    return Snapshot.of(table, table.match.game() if table.match.state is not None else None)


async def reload_moved(known: Snapshot) -> Snapshot | None:
    """`known` as it stands after the moves since: one row read (on PostgreSQL without leaving the loop), the seats kept."""
    return moved_snapshot(known, await loop_reads.moved_fields(known.table.pk))


def moved_snapshot(known: Snapshot, found: tuple[dict, str] | None) -> Snapshot | None:
    """`known` with the match's fields and the table's status as read again (None: the table is gone)."""
    if found is None:
        return None
    fields, status = found
    # Copies (Django copies an instance's relation caches with it): the old
    # snapshot may still be in use by sockets sending it.
    table = copy.copy(known.table)
    table.status = status
    match = copy.copy(known.table.match)
    for name, value in fields.items():
        setattr(match, name, value)
    table.match = match
    return Snapshot.of(table, rules_for(table.rules).from_state(match.state) if match.state is not None else None)


_recent: dict[int, Snapshot] = {}
_loading: dict[int, asyncio.Future] = {}
_moving: dict[int, asyncio.Future] = {}  # a move a socket here is making: its snapshot, or None if refused
_watchers: dict[int, int] = {}


def watch(table_id: int) -> None:
    _watchers[table_id] = _watchers.get(table_id, 0) + 1


def unwatch(table_id: int) -> None:
    left = _watchers.get(table_id, 0) - 1
    if left > 0:
        _watchers[table_id] = left
    else:
        _watchers.pop(table_id, None)
        _recent.pop(table_id, None)


def known(table_id: int) -> Snapshot | None:
    """The latest state of the table this process holds, if any socket here watches it."""
    return _recent.get(table_id)


def remember(snapshot: Snapshot) -> None:
    table_id = snapshot.table.pk
    known = _recent.get(table_id)
    if table_id in _watchers and (known is None or snapshot.seq >= known.seq):
        _recent[table_id] = snapshot


async def making_move(table_id: int, move) -> tuple[Snapshot, object]:
    """Await `move()`, a socket's move at this table, which returns (its snapshot, the answer).

    The move's announcement comes back from the channel layer while the
    database thread that made it is still finishing, often before that
    thread has remembered the new snapshot: the sockets here wait for it
    instead of reading the same row again."""
    future = asyncio.get_running_loop().create_future()
    _moving[table_id] = future
    snapshot = None
    try:
        snapshot, answer = await move()
    finally:
        if _moving.get(table_id) is future:
            del _moving[table_id]
        future.set_result(snapshot)
    if snapshot is not None:  # None: made, but not read back (the database went), see TableConsumer._play
        remember(snapshot)
    return snapshot, answer


async def snapshot_at_least(table_id: int, seq: int) -> Snapshot | None:
    """The table as of seq `seq` or later: reused, shared with a load or a move in flight, or loaded."""
    known = _recent.get(table_id)
    if known is not None and known.seq >= seq:
        return known
    moving = _moving.get(table_id)
    if moving is not None:
        made = await asyncio.shield(moving)
        if made is not None and made.seq >= seq:
            return made
    loading = _loading.get(table_id)
    if loading is not None:
        shared = await asyncio.shield(loading)
        if shared is None or shared.seq >= seq:
            return shared
    known = _recent.get(table_id)
    if known is not None:
        return await _load(table_id, partial(reload_moved, known))
    return await fresh_snapshot(table_id)


async def fresh_snapshot(table_id: int) -> Snapshot | None:
    """The table as it is now (for a seat change, a sync, a new socket)."""
    return await _load(table_id, partial(db(load_snapshot), table_id))


async def _load(table_id: int, load) -> Snapshot | None:
    """`await load()`, shared with whoever asks for this table meanwhile."""
    future = asyncio.get_running_loop().create_future()
    _loading[table_id] = future
    try:
        snapshot = await load()
    except BaseException as error:
        future.set_exception(error)
        future.exception()  # mark retrieved: the waiters, if any, see it themselves
        raise
    finally:
        if _loading.get(table_id) is future:
            del _loading[table_id]
    future.set_result(snapshot)
    if snapshot is not None:
        remember(snapshot)
    return snapshot
