"""The rows a move reads and writes, in SQL built once per process: the site's hottest write
skips Django's query building, which cost it more than the database's work did.

The move path reads the match, its table, its seats and their people in one
statement, and writes the log row and the new snapshot with one more on
PostgreSQL (two on SQLite, which has no data-modifying WITH).

The SQL is made from the models' own fields, and every value goes through
those fields' adapters (writing) and converters (reading), so what is
stored and read is exactly what the ORM would store and read, on
PostgreSQL and on SQLite alike.

On PostgreSQL the statements are prepared (games/sql/prepared.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connections, router

from ..models import AbortRequest, AbortRequestStatus, Match, Move, Seat, Table
from .prepared import cursor_for
from .rows import Columns, columns


@dataclass(frozen=True)
class _MatchRead:
    sql: str
    parts: tuple[Columns, ...]  # match, table, seat, user; then the open abort request's id


@cache
def _match_read(using: str, locked: bool = True) -> _MatchRead:
    connection = connections[using]
    quote = connection.ops.quote_name
    user_model = get_user_model()
    parts = (
        columns(Match, "m", connection),
        columns(Table, "t", connection),
        columns(Seat, "s", connection),
        columns(user_model, "u", connection),
    )
    lock = ""
    if locked and connection.features.has_select_for_update:  # SQLite has none: its writer holds the whole file
        of = (quote("m"),) if connection.features.has_select_for_update_of else ()
        lock = " " + connection.ops.for_update_sql(of=of)
    # Whether an abort request is open: the answer's "abort_request" then needs no read of its own.
    open_request = (
        f"(SELECT {quote('a')}.{quote('id')} FROM {quote(AbortRequest._meta.db_table)} {quote('a')}"
        f" WHERE {quote('a')}.{quote(AbortRequest._meta.get_field('table').column)} = {quote('t')}.{quote('id')}"
        f" AND {quote('a')}.{quote('status')} = %s LIMIT 1)"
    )
    sql = (
        f"SELECT {', '.join(column for part in parts for column in part.sql)}, {open_request}"
        f" FROM {quote(Match._meta.db_table)} {quote('m')}"
        f" INNER JOIN {quote(Table._meta.db_table)} {quote('t')} ON {quote('t')}.{quote('id')} = {parts[0].sql[0]}"
        f" LEFT OUTER JOIN {quote(Seat._meta.db_table)} {quote('s')}"
        f" ON {quote('s')}.{quote(Seat._meta.get_field('table').column)} = {quote('t')}.{quote('id')}"
        f" LEFT OUTER JOIN {quote(user_model._meta.db_table)} {quote('u')}"
        f" ON {quote('u')}.{quote(user_model._meta.pk.column)} = {quote('s')}.{quote(Seat._meta.get_field('user').column)}"
        f" WHERE {parts[0].sql[0]} = %s ORDER BY {quote('s')}.{quote('number')}{lock}"
    )
    return _MatchRead(sql, parts)


def locked_match_with_seats(match_id: int) -> tuple[Match, list[Seat]] | None:
    """The match, locked until the transaction ends, with its table, seats and their people.

    As `Match.objects.select_for_update(of=("self",)).select_related("table")`
    followed by the table's seats with `select_related("user")`, in one
    statement: `match.table`, `seat.table` and `seat.user` answer without a
    query. `match.open_abort_request_id` is the table's open abort request's
    id, or None. None when there is no such match."""
    return _read_match_with_seats(match_id, locked=True)


def match_with_seats(match_id: int) -> tuple[Match, list[Seat]] | None:
    """`locked_match_with_seats` without the lock: what a read of the table shows."""
    return _read_match_with_seats(match_id, locked=False)


def _read_match_with_seats(match_id: int, locked: bool) -> tuple[Match, list[Seat]] | None:
    using = router.db_for_write(Match) if locked else router.db_for_read(Match)
    connection = connections[using]
    read = _match_read(using, locked)
    with cursor_for(connection) as cursor:
        cursor.execute(read.sql, [AbortRequestStatus.OPEN.value, match_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    match_part, table_part, seat_part, user_part = read.parts
    widths = [len(part.names) for part in read.parts]
    ends = [sum(widths[: i + 1]) for i in range(4)]
    first = rows[0]
    match = match_part.build(using, connection, first[: ends[0]])
    table = table_part.build(using, connection, first[ends[0]: ends[1]])
    match.table = table  # which makes `table.match` answer `match` too
    match.open_abort_request_id = first[ends[3]]
    seats = []
    for row in rows:
        if row[ends[1]] is None:  # a table without seats (never made by the site)
            continue
        seat = seat_part.build(using, connection, row[ends[1]: ends[2]])
        seat.table = table
        seat.user = user_part.build(using, connection, row[ends[2]: ends[3]]) if seat.user_id is not None else None
        seats.append(seat)
    return match, seats


@dataclass(frozen=True)
class _Writes:
    log_sql: str
    log_fields: tuple
    snapshot_sql: dict[bool, str]  # by whether the match finished
    snapshot_fields: dict[bool, tuple]
    both_sql: dict[bool, str] | None  # PostgreSQL: the log row and the snapshot in one statement


SNAPSHOT_FIELDS = ("state", "seq", "to_move", "deadline")
FINISHED_FIELDS = ("result", "finished_at")


@cache
def _writes(using: str) -> _Writes:
    quote = connections[using].ops.quote_name
    log_fields = tuple(Move._meta.get_field(name) for name in ("match", "seq", "seat", "move", "actor", "user",
                                                                 "created_at"))
    log_sql = (
        f"INSERT INTO {quote(Move._meta.db_table)} ({', '.join(quote(field.column) for field in log_fields)})"
        f" VALUES ({', '.join('%s' for _ in log_fields)})"
    )
    snapshot_sql, snapshot_fields = {}, {}
    for finished in (False, True):
        fields = tuple(Match._meta.get_field(name) for name in SNAPSHOT_FIELDS + (FINISHED_FIELDS if finished else ()))
        snapshot_fields[finished] = fields
        snapshot_sql[finished] = (
            f"UPDATE {quote(Match._meta.db_table)} SET {', '.join(f'{quote(field.column)} = %s' for field in fields)}"
            f" WHERE {quote(Match._meta.pk.column)} = %s AND {quote('seq')} = %s"
        )
    both_sql = None
    if connections[using].vendor == "postgresql":
        # One round trip instead of two: a data-modifying WITH runs exactly
        # once, whatever the main statement reads of it; the UPDATE's row
        # count is still the statement's.
        both_sql = {finished: f"WITH {quote('logged')} AS ({log_sql}) {sql}" for finished, sql in snapshot_sql.items()}
    return _Writes(log_sql, log_fields, snapshot_sql, snapshot_fields, both_sql)


def log_move_and_store(match: Match, old_seq: int, move: Move, finished: bool) -> bool:
    """Insert the move's log row and save the match's new snapshot fields.

    The snapshot is saved only if the match is still at `old_seq` (the caller
    holds its lock, so it always is, but the guard costs nothing). False when
    it was not: the caller raises, which rolls the log row back too."""
    using = router.db_for_write(Match)
    connection = connections[using]
    writes = _writes(using)
    log_values = [field.get_db_prep_save(getattr(move, field.attname), connection) for field in writes.log_fields]
    snapshot_values = [
        *(field.get_db_prep_save(getattr(match, field.attname), connection)
          for field in writes.snapshot_fields[finished]),
        match.pk,
        old_seq,
    ]
    with cursor_for(connection) as cursor:
        if writes.both_sql is not None:
            cursor.execute(writes.both_sql[finished], log_values + snapshot_values)
        else:
            cursor.execute(writes.log_sql, log_values)
            cursor.execute(writes.snapshot_sql[finished], snapshot_values)
        return cursor.rowcount == 1


# What a move may change (`_store` in games/actions/moves.py writes them),
# read again by a server that holds the table's earlier state (games/consumers/snapshots.py).
MOVED_MATCH_FIELDS = ("state", "seq", "to_move", "deadline", "result", "started_at", "finished_at", "abort_reason")


@cache
def moved_read(using: str, many: bool = False) -> tuple[str, Columns, Columns]:
    """The re-read's SQL, each row starting with the match's id: for one match
    (`%s`), or on PostgreSQL for several (`ANY(%s)`, a list of ids)."""
    connection = connections[using]
    quote = connection.ops.quote_name
    match_part = columns(Match, "m", connection, [Match._meta.get_field(name) for name in MOVED_MATCH_FIELDS])
    table_part = columns(Table, "t", connection, [Table._meta.get_field("status")])
    match_id = f"{quote('m')}.{quote(Match._meta.pk.column)}"
    sql = (
        f"SELECT {', '.join((match_id, *match_part.sql, *table_part.sql))}"
        f" FROM {quote(Match._meta.db_table)} {quote('m')}"
        f" INNER JOIN {quote(Table._meta.db_table)} {quote('t')}"
        f" ON {quote('t')}.{quote('id')} = {match_id}"
        f" WHERE {match_id} = {'ANY(%s)' if many else '%s'}"
    )
    return sql, match_part, table_part


def moved_fields(match_id: int) -> tuple[dict, str] | None:
    """The match's MOVED_MATCH_FIELDS (by name) and its table's status, or None when it is gone."""
    using = router.db_for_read(Match)
    connection = connections[using]
    sql, match_part, table_part = moved_read(using)
    with cursor_for(connection) as cursor:
        cursor.execute(sql, [match_id])
        row = cursor.fetchone()
    return None if row is None else moved_fields_of_row(connection, row, match_part, table_part)


def moved_fields_of_row(connection, row, match_part: Columns, table_part: Columns) -> tuple[dict, str]:
    """A re-read's row as `moved_fields` gives it (its leading id left out), through the fields' converters."""
    width = len(match_part.names)
    values = match_part.convert(connection, row[1 : 1 + width])
    (status,) = table_part.convert(connection, row[1 + width :])
    return dict(zip(MOVED_MATCH_FIELDS, values, strict=True)), status
