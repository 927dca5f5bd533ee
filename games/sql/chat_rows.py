"""A chat line's checks and its insert, in SQL built once per process: a line is stored on
the sockets' database thread the moves queue on (games/consumers/table.py), where the
ORM's four queries and the rate's cache counters cost a line more than a move.

One statement reads what the line needs to know: whether the person may chat
(active, not banned, not muted), where they sit at the table and whether it is
private, and how many lines they said in each of the rate's windows, counted
from the stored lines themselves (so the limit holds on every server, and
when the cache is away). A second inserts the line and gives back its id.
Every value goes through the models' own adapters and converters, so what is
read and stored is what the ORM would read and store.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connections, router

from ..models import ChatLine, Seat, Table
from .prepared import cursor_for
from .rows import Columns, columns


@dataclass(frozen=True)
class ChatStanding:
    is_active: bool
    banned: bool
    muted_until: datetime.datetime | None
    table_found: bool
    private: bool
    invite_code: str
    seated: bool  # seated at the table, or a seat kept for them
    said_since: tuple[int, ...]  # lines said since each of the `since` times asked about


@dataclass(frozen=True)
class _Standing:
    sql: str
    person: Columns
    table: Columns


@cache
def _standing(using: str, windows: int) -> _Standing:
    connection = connections[using]
    quote = connection.ops.quote_name
    user_model = get_user_model()
    person = columns(user_model, "u", connection,
                     [user_model._meta.get_field(name) for name in ("is_active", "banned", "chat_muted_until")])
    table = columns(Table, "t", connection, [Table._meta.get_field(name) for name in ("id", "private", "invite_code")])
    seat, line = Seat._meta, ChatLine._meta
    seated = (
        f"EXISTS (SELECT 1 FROM {quote(seat.db_table)} {quote('s')}"
        f" WHERE {quote('s')}.{quote(seat.get_field('table').column)} = {table.sql[0]}"
        f" AND ({quote('s')}.{quote(seat.get_field('user').column)} = %s"
        f" OR {quote('s')}.{quote(seat.get_field('reserved_for').column)} = %s))"
    )
    said = [
        f"(SELECT COUNT(*) FROM {quote(line.db_table)} {quote('c')}"
        f" WHERE {quote('c')}.{quote(line.get_field('author').column)} = {quote('u')}.{quote(user_model._meta.pk.column)}"
        f" AND {quote('c')}.{quote(line.get_field('created_at').column)} > %s)"
        for _ in range(windows)
    ]
    sql = (
        f"SELECT {', '.join(person.sql + table.sql)}, {seated}, {', '.join(said)}"
        f" FROM {quote(user_model._meta.db_table)} {quote('u')}"
        f" LEFT OUTER JOIN {quote(Table._meta.db_table)} {quote('t')} ON {table.sql[0]} = %s"
        f" WHERE {quote('u')}.{quote(user_model._meta.pk.column)} = %s"
    )
    return _Standing(sql, person, table)


def chat_standing(user_id: int, table_id: int, since: tuple[datetime.datetime, ...]) -> ChatStanding | None:
    """What a line of `user_id` at `table_id` is checked against; None when there is no such person."""
    using = router.db_for_write(ChatLine)
    connection = connections[using]
    read = _standing(using, len(since))
    created_at = ChatLine._meta.get_field("created_at")
    times = [created_at.get_db_prep_value(moment, connection) for moment in since]
    with cursor_for(connection) as cursor:
        cursor.execute(read.sql, [user_id, user_id, *times, table_id, user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    people = len(read.person.names)
    is_active, banned, muted_until = read.person.convert(connection, row[:people])
    found_id, private, invite_code = read.table.convert(connection, row[people: people + 3])
    seated, *said = row[people + 3:]
    return ChatStanding(bool(is_active), bool(banned), muted_until, found_id is not None, bool(private),
                        invite_code or "", bool(seated) and found_id is not None, tuple(int(n) for n in said))


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple  # every column but the id, in the statement's order
    returns_id: bool  # else the id is the cursor's lastrowid


@cache
def _insert(using: str) -> _Insert:
    connection = connections[using]
    quote = connection.ops.quote_name
    fields = tuple(field for field in ChatLine._meta.concrete_fields if not field.primary_key)
    sql = (
        f"INSERT INTO {quote(ChatLine._meta.db_table)} ({', '.join(quote(field.column) for field in fields)})"
        f" VALUES ({', '.join(['%s'] * len(fields))})"
    )
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += f" RETURNING {quote(ChatLine._meta.pk.column)}"
    return _Insert(sql, fields, returning)


def insert_line(line: ChatLine) -> ChatLine:
    """Store `line` (its fields set, autocommit: the one write of a chat line) and give it its id."""
    using = router.db_for_write(ChatLine)
    connection = connections[using]
    insert = _insert(using)
    values = [field.get_db_prep_save(field.pre_save(line, add=True), connection) for field in insert.fields]
    with cursor_for(connection) as cursor:
        cursor.execute(insert.sql, values)
        line.pk = cursor.fetchone()[0] if insert.returns_id else cursor.lastrowid
    line._state.adding, line._state.db = False, using
    return line
