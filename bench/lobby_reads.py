"""What reading the lobby again after a change costs a server: every table, or only the one the change names.

    .venv/bin/python bench/lobby_reads.py                                   # embedded SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/septica .venv/bin/python bench/lobby_reads.py

A server reads its shared lobby (games/consumers/shared_lists.py) after
every change, on its lists' database thread, whose turns at the interpreter
lock the moves' pushes on the event loop wait for (issue 14). With
``--tables`` open tables listed, this times, in one process and a database
of its own (as bench/on_commit.py makes one), the whole read, and the read
after one change that names its table (somebody joins one table, which
stays listed: its summary is new, the others are kept). Printed per read:
wall time and this process's CPU, the median of ``--rounds`` rounds of
``--reads`` reads each; on PostgreSQL the wall time includes the server's
work, which this process's CPU does not.
"""

from __future__ import annotations

import argparse

import on_commit  # bench/on_commit.py: its database of its own, its timing

BENCH_DB = "septica_bench_lobby_reads"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="open tables the lobby lists (default 100)")
    parser.add_argument("--reads", type=int, default=50, help="reads per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    on_commit.in_own_database(BENCH_DB, lambda: run(args.tables, args.reads, args.rounds))

def run(tables: int, reads: int, rounds: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import translation

    from games import actions
    from games.consumers.shared_lists import read_lobby

    people = get_user_model().objects
    listed = [
        actions.create_table(people.create_user(username=f"host{n}", email=f"host{n}@bench.invalid", password=None),
                             rules="septica", players=4, options={"match": "points-8"}).pk
        for n in range(tables)
    ]
    joined = listed[tables // 2]
    actions.join_table(joined, people.create_user(username="joiner", email="joiner@bench.invalid", password=None))
    translation.activate("en")
    before = read_lobby("en", 1, 0)
    assert len(before.shared) == tables

    def whole() -> None:
        read_lobby("en", 2, 1)

    def one_named() -> None:
        read_lobby("en", 2, 1, before, frozenset({joined}))

    print(f"{connection.vendor}, {tables} listed tables, {reads} reads a round, median of {rounds} rounds; per read:")
    for name, read in (("every table", whole), ("one table named by the change", one_named)):
        wall, cpu = on_commit.timed(read, reads, rounds)
        print(f"  {name}: {wall / 1000:7.2f} ms wall, {cpu / 1000:7.2f} ms CPU")


if __name__ == "__main__":
    main()
