"""A chat line's checks and its insert, in SQL built once per process: a line is stored on
the sockets' database thread the moves queue on (games/consumers/table.py), where the
ORM's four queries and the rate's cache counters cost a line more than a move.

Both statements run in one transaction (games/actions/chat.py `say`). The first
reads what the line needs to know: whether the person may chat (active, not
banned, not muted), where they sit at the table and whether it is private; on
PostgreSQL it also locks the speaker's row, so that one person's lines are
checked and stored one after the other on every server (SQLite's
BEGIN IMMEDIATE already makes every writer wait its turn). The second inserts
the line only while the person's stored lines leave room in each of the
rate's windows, and gives back its id: counted in that statement, so in a
snapshot taken once the lock is held, with every line the lock waited for.
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


@dataclass(frozen=True)
class _Standing:
    sql: str
    person: Columns
    table: Columns


@cache
def _standing(using: str) -> _Standing:
    connection = connections[using]
    quote = connection.ops.quote_name
    user_model = get_user_model()
    person = columns(user_model, "u", connection,
                     [user_model._meta.get_field(name) for name in ("is_active", "banned", "chat_muted_until")])
    table = columns(Table, "t", connection, [Table._meta.get_field(name) for name in ("id", "private", "invite_code")])
    seat = Seat._meta
    seated = (
        f"EXISTS (SELECT 1 FROM {quote(seat.db_table)} {quote('s')}"
        f" WHERE {quote('s')}.{quote(seat.get_field('table').column)} = {table.sql[0]}"
        f" AND ({quote('s')}.{quote(seat.get_field('user').column)} = %s"
        f" OR {quote('s')}.{quote(seat.get_field('reserved_for').column)} = %s))"
    )
    sql = (
        f"SELECT {', '.join(person.sql + table.sql)}, {seated}"
        f" FROM {quote(user_model._meta.db_table)} {quote('u')}"
        f" LEFT OUTER JOIN {quote(Table._meta.db_table)} {quote('t')} ON {table.sql[0]} = %s"
        f" WHERE {quote('u')}.{quote(user_model._meta.pk.column)} = %s"
    )
    if connection.features.has_select_for_no_key_update and connection.features.has_select_for_update_of:
        # NO KEY: rows that only refer to the person (their moves, seats, this line) need not wait for it.
        sql += f" FOR NO KEY UPDATE OF {quote('u')}"
    return _Standing(sql, person, table)


def chat_standing(user_id: int, table_id: int) -> ChatStanding | None:
    """What a line of `user_id` at `table_id` is checked against, the person's row locked until the
    transaction ends; None when there is no such person."""
    using = router.db_for_write(ChatLine)
    connection = connections[using]
    read = _standing(using)
    with cursor_for(connection) as cursor:
        cursor.execute(read.sql, [user_id, user_id, table_id, user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    people = len(read.person.names)
    is_active, banned, muted_until = read.person.convert(connection, row[:people])
    found_id, private, invite_code = read.table.convert(connection, row[people: people + 3])
    seated = row[people + 3]
    return ChatStanding(bool(is_active), bool(banned), muted_until, found_id is not None, bool(private),
                        invite_code or "", bool(seated) and found_id is not None)


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple  # every column but the id, in the statement's order
    returns_id: bool  # else the id is the cursor's lastrowid


@cache
def _insert(using: str, windows: int) -> _Insert:
    connection = connections[using]
    quote = connection.ops.quote_name
    line = ChatLine._meta
    fields = tuple(field for field in line.concrete_fields if not field.primary_key)
    room_left = " AND ".join(
        f"(SELECT COUNT(*) FROM {quote(line.db_table)} {quote('c')}"
        f" WHERE {quote('c')}.{quote(line.get_field('author').column)} = %s"
        f" AND {quote('c')}.{quote(line.get_field('created_at').column)} > %s) < %s"
        for _ in range(windows)
    )
    sql = (
        f"INSERT INTO {quote(line.db_table)} ({', '.join(quote(field.column) for field in fields)})"
        f" SELECT {', '.join(['%s'] * len(fields))} WHERE {room_left}"
    )
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += f" RETURNING {quote(line.pk.column)}"
    return _Insert(sql, fields, returning)


def insert_line(line: ChatLine, rates: tuple[tuple[int, datetime.datetime], ...]) -> ChatLine | None:
    """Store `line` (its fields set) and give it its id, unless its author already said, for some
    (lines, since) of `rates`, that many lines since then: None, and nothing stored."""
    using = router.db_for_write(ChatLine)
    connection = connections[using]
    insert = _insert(using, len(rates))
    values = [field.get_db_prep_save(field.pre_save(line, add=True), connection) for field in insert.fields]
    created_at = ChatLine._meta.get_field("created_at")
    for lines, since in rates:
        values += [line.author_id, created_at.get_db_prep_value(since, connection), lines]
    with cursor_for(connection) as cursor:
        cursor.execute(insert.sql, values)
        if insert.returns_id:
            stored = cursor.fetchone()
            line.pk = stored[0] if stored is not None else None
        else:
            line.pk = cursor.lastrowid if cursor.rowcount == 1 else None
    if line.pk is None:
        return None
    line._state.adding, line._state.db = False, using
    return line
