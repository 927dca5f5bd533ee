"""What one chat line costs the server that stores it, on the sockets' database thread the moves queue on.

    .venv/bin/python bench/chat_line.py                                   # embedded SQLite, the cache in memory
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/septica REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python bench/chat_line.py

A line said over a table's socket (games/consumers/table.py) is checked and
stored on the same database thread as the server's moves, and then
published: `bench/realtime.py --chat` (issue 19: chat must not slow moves)
sees what that costs the moves' pushes. This times the line alone, in one
process and a database of its own (as bench/on_commit.py makes one; with
``REDIS_URL`` the rate counts and the publish go to that Redis, as on the
servers): its socket's credential checked again, then `actions.chat.say`
(the person's chat state, their room at the table, the rate, the insert, the
publish after commit). Each line is a quick phrase from one of the players of
``--tables`` four-player tables in turn, so that none reaches the rate limit.
Printed: wall time and this process's CPU per line, the median of
``--rounds`` rounds of ``--lines`` lines; on PostgreSQL the wall time
includes the server's work, which this process's CPU does not.
"""

from __future__ import annotations

import argparse
import itertools

import on_commit  # bench/on_commit.py: its database of its own, its timing

BENCH_DB = "septica_bench_chat_line"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="four-player tables whose players take turns to talk")
    parser.add_argument("--lines", type=int, default=100, help="lines per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    on_commit.in_own_database(BENCH_DB, lambda: run(args.tables, args.lines, args.rounds), keep_redis=True)

def run(tables: int, lines: int, rounds: int) -> None:
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection

    from accounts import credentials
    from accounts.models import ApiToken
    from games import actions
    from games.actions.chat import say

    people = get_user_model().objects
    talkers = []
    for number in range(tables):
        seated = [people.create_user(username=f"t{number}p{seat}", email=f"t{number}p{seat}@bench.invalid", password=None)
                  for seat in range(4)]
        table = actions.create_table(seated[0], rules="septica", players=4, options={"match": "points-8"})
        for person in seated[1:]:
            actions.join_table(table.pk, person, invite_code=table.invite_code)
        for person in seated:
            token, _secret = ApiToken.issue(person, "bench")
            talkers.append((person, table.pk, credentials.Credential(person.pk, token_id=token.pk)))
    turns = itertools.cycle(talkers)

    def one_line():
        person, table_id, credential = next(turns)
        assert credentials.still_stands(credential)
        say(person, table_id, phrase="well_played")

    print(f"{connection.vendor}, cache {type(cache).__name__}, {len(talkers)} talkers, {lines} lines a round, "
          f"median of {rounds} rounds; per line:")
    wall, cpu = on_commit.timed(one_line, lines, rounds)
    print(f"  credential checked, line checked and stored and published: {wall:7.1f} us wall, {cpu:7.1f} us CPU")


if __name__ == "__main__":
    main()
