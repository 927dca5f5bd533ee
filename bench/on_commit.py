"""What it would cost a move's after-commit work to read the table's seats again, instead of
being handed the rows the move read under its lock (games/actions/on_commit.py).

    .venv/bin/python bench/on_commit.py                                   # embedded SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/septica .venv/bin/python bench/on_commit.py

It makes a database of its own (a temporary SQLite file, or ``septica_bench_on_commit``
on the server of ``DATABASE_URL``, dropped again at the end; never the database the URL
names), starts a two-player table and a four-player one (two people, two bots), and
times, outside any transaction as after a commit:

- the read the after-commit work would make: the table's Seat rows with their people;
- the reads it makes today when handed no seats: the people to tell (publish) and the
  seat to move (``turns.turn_at``).

Printed per read: wall time and this process's CPU, the median of ``--rounds`` rounds
of ``--reads`` reads each. On PostgreSQL the wall time includes the round trip and the
server's work, which this process's CPU does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "septica_bench_on_commit"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=1000, help="reads per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    in_own_database(BENCH_DB, lambda: run(args.reads, args.rounds))


def in_own_database(name: str, work, keep_redis: bool = False) -> None:
    """Set Django up on a fresh database of the bench's own, `name`, run `work()`, and drop the database.

    `keep_redis`: the cache and the channel layer on `REDIS_URL` as on the servers, not in memory."""
    redis_url = os.environ.get("REDIS_URL")
    with tempfile.TemporaryDirectory() as directory:
        bench_url = use_own_database(os.environ.get("DATABASE_URL"), directory, name)
        if keep_redis and redis_url:
            os.environ["REDIS_URL"] = redis_url
        try:
            setup_django()
            work()
        finally:
            if bench_url is not None:
                from django.db import connections

                connections.close_all()
                drop_database(bench_url)


def use_own_database(url: str | None, directory: str, name: str = BENCH_DB) -> str | None:
    """Point the settings at a fresh database of the bench's own, `name`; its URL on PostgreSQL."""
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "septica_site.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key-" + "x" * 40,
        "HTTPS": "0",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "SEPTICA_NO_EMBEDDED_WORKER": "1",
    })
    os.environ.pop("REDIS_URL", None)  # no pushes or tasks leave this process
    if not url:
        os.environ["SQLITE_PATH"] = str(Path(directory) / "bench.sqlite3")
        return None
    bench_url = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    drop_database(bench_url)
    with admin_connection(bench_url) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = bench_url
    return bench_url


def admin_connection(bench_url: str):
    import psycopg

    return psycopg.connect(urlunsplit(urlsplit(bench_url)._replace(path="/postgres")), autocommit=True)


def drop_database(bench_url: str) -> None:
    name = urlsplit(bench_url).path.lstrip("/")
    with admin_connection(bench_url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def run(reads: int, rounds: int) -> None:
    from django.db import connection

    from games.after_commit import publish, turns

    print(f"{connection.vendor}, {reads} reads a round, median of {rounds} rounds; per read:")
    for players, table in tables().items():
        match = table.match
        match.refresh_from_db()

        def seats_with_people(table_id=table.pk):
            from games.models import Seat

            return list(Seat.objects.filter(table_id=table_id).select_related("user").order_by("number"))

        def reads_without_seats(table_id=table.pk, seq=match.seq):
            publish._people_messages(table_id)
            turns.turn_at(table_id, seq)

        assert len(seats_with_people()) == players
        for name, read in (("seats with their people (1 query)", seats_with_people),
                           ("today's reads without seats (2 queries)", reads_without_seats)):
            wall, cpu = timed(read, reads, rounds)
            print(f"  {players} seats, {name}: {wall:7.1f} us wall, {cpu:7.1f} us CPU")


def tables() -> dict:
    """A started two-player table and a started four-player one (two people, two bots), by seats."""
    from django.contrib.auth import get_user_model

    from games import actions

    users = [get_user_model().objects.create_user(username=f"bench{i}", email=f"bench{i}@example.com", password="x") for i in range(4)]
    made = {}
    for players, bots, people in ((2, [], users[:2]), (4, [2, 3], users[2:])):
        table = actions.create_table(people[0], rules="septica", players=players, options={},
                                     seconds_per_move=86400, bots=[actions.BotSpec(seat=seat) for seat in bots])
        for user in people[1:]:
            actions.join_table(table.pk, user, invite_code=table.invite_code)
        table.refresh_from_db()
        made[players] = table
    return made


def timed(read, reads: int, rounds: int) -> tuple[float, float]:
    """Median wall and CPU microseconds per call of `read`, after a warm-up."""
    for _ in range(min(reads, 200)):
        read()
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(reads):
            read()
        walls.append((time.perf_counter() - wall) / reads * 1e6)
        cpus.append((time.process_time() - cpu) / reads * 1e6)
    return statistics.median(walls), statistics.median(cpus)


if __name__ == "__main__":
    main()
