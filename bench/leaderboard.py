"""The leaderboard and profile pages with 100,000 rated people and 1,000,000 outcomes, on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/septica_profiler REDIS_URL=redis://127.0.0.1:6379/13 \\
        HTTPS=0 SECRET_KEY=x .venv/bin/python bench/leaderboard.py            # seed (about a minute), then time
    ... bench/leaderboard.py --reuse --requests 50                           # time again on the seeded rows

What it does:

1. Creates a database named ``<the URL's database>_leaderboard`` (dropping an
   earlier one of that name; never the database the URL names), migrates it
   and fills it with SQL ``generate_series``: PEOPLE people, MATCHES finished
   two-player tables and matches (60% septica, 20% familie, 20% americana,
   finished over the last 200 days), two outcomes each (1,000,000 rows), a
   septica rating for every person and a familie rating for a third of them
   (rated matches 0..39, so a quarter are provisional; last rated over the
   last 150 days; 0.2% banned, 0.1% suspended), then ANALYZE.
2. Times ``--requests`` GETs of each page through Django's test Client in
   this process (the whole stack: middleware, session, queries, template),
   a warm-up first: the leaderboard page and its API for a visitor and for a
   signed-in person far outside the top (their rank comes from the counts per
   rating that players/reads.py keeps a minute in the cache, so one request a
   minute counts them), and the profile page and API of the person with the
   highest id (looked up by the index of lower(username)). Prints p50/p95/max
   in ms (target: p95 < 50) and the machine's load average, since other work
   on the machine shows in the figures.
3. Prints EXPLAIN (ANALYZE) of every query the signed-in leaderboard page
   and the profile make, so the indexes they use can be read off.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = 100_000
MATCHES = 500_000  # two outcomes each

SEED_SQL = [
    # People: bench000000 ... with display names; a few banned or suspended.
    """INSERT INTO accounts_user (password, is_superuser, username, first_name, last_name, is_staff, is_active,
        date_joined, email, display_name, preferred_language, email_on_your_move, one_tap, auto_take, sounds,
        suspended_until, banned, username_key, display_name_key)
    SELECT '!', false, 'bench' || lpad(i::text, 6, '0'), '', '', false, true, now(),
        'bench' || i || '@example.com', 'Player ' || i, '', false, true, false, false,
        CASE WHEN i % 1000 = 7 THEN now() + interval '3 days' END, i % 500 = 3,
        'bench' || lpad(i::text, 6, '0'), 'player ' || i
    FROM generate_series(1, %(people)s) AS i""",
    """INSERT INTO games_table (id, rules, players, options, seconds_per_move, private, invite_code, status,
        created_by_id, hidden, closed, rated, created_at)
    SELECT i, CASE WHEN i % 5 < 3 THEN 'septica' WHEN i % 5 = 3 THEN 'familie' ELSE 'americana' END, 2, '{}',
        86400, i % 50 = 0, 'bench' || i, 'finished', u.first_id + (i % %(people)s), false, false, i % 4 <> 0,
        now() - (i % 200) * interval '1 day'
    FROM generate_series(1, %(matches)s) AS i, (SELECT min(id) AS first_id FROM accounts_user) AS u""",
    """INSERT INTO games_match (table_id, seed, seed_sha256, seq, result, started_at, finished_at, abort_reason)
    SELECT id, '1', repeat('0', 64), 60, '{"scores": [5, 3], "winners": [0]}', created_at,
        created_at + interval '1 hour', '' FROM games_table""",
    """INSERT INTO games_seat (table_id, number, user_id, bot_level, bot_style, standing_in, resigned, joined_at)
    SELECT t.id, s.n, CASE WHEN s.n = 0 THEN t.created_by_id
                          ELSE u.first_id + ((t.created_by_id - u.first_id + 1 + (t.id * 37) % (%(people)s - 1))
                                             % %(people)s) END,
        '', '', false, false, t.created_at
    FROM games_table t, generate_series(0, 1) AS s(n), (SELECT min(id) AS first_id FROM accounts_user) AS u""",
    """INSERT INTO players_outcome (rules, seat, place, players, won, rated, resigned, stood_in_turns, finished_at,
        shown_before, shown_after, match_id, user_id)
    SELECT t.rules, s.number, s.number + 1, 2, s.number = 0, t.rated, false, (t.id + s.number) % 40 / 39,
        m.finished_at, CASE WHEN t.rated THEN 1000 + (t.id % 500) END,
        CASE WHEN t.rated THEN 1000 + (t.id % 500) + CASE WHEN s.number = 0 THEN 12 ELSE -12 END END,
        t.id, s.user_id
    FROM games_table t JOIN games_match m ON m.table_id = t.id JOIN games_seat s ON s.table_id = t.id""",
    """INSERT INTO players_rating (rules, mu, sigma, shown, rated_matches, last_rated_at, user_id)
    SELECT r.rules, 25 + 10 * (random() - 0.5), 2 + 4 * random(), 0, (random() * 40)::int,
        now() - random() * interval '150 days', u.id
    FROM accounts_user u, (VALUES ('septica'), ('familie')) AS r(rules)
    WHERE r.rules = 'septica' OR u.id % 3 = 0""",
    "UPDATE players_rating SET shown = round(1000 + 40 * (mu - 3 * sigma))",
    "SELECT setval(pg_get_serial_sequence('games_table', 'id'), (SELECT max(id) FROM games_table))",
    "ANALYZE",
]


def bench_database_url(database_url: str) -> str:
    parts = urlsplit(database_url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit("bench/leaderboard.py measures PostgreSQL: DATABASE_URL must be a postgres:// URL.")
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "_leaderboard"))


def create_database(bench_url: str) -> None:
    import psycopg

    parts = urlsplit(bench_url)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def setup_django(bench_url: str, migrate: bool) -> None:
    os.environ["DATABASE_URL"] = bench_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "septica_site.settings")
    os.environ.setdefault("HTTPS", "0")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test Client's host is allowed, as in the tests
    from django.conf import settings

    # Pages name their static files plainly, as the tests have them (no collectstatic manifest needed).
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def seed() -> None:
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        for statement in SEED_SQL:
            cursor.execute(statement.replace("%(people)s", str(PEOPLE)).replace("%(matches)s", str(MATCHES)))
    counts = {}
    with connection.cursor() as cursor:
        for table in ("accounts_user", "games_match", "players_outcome", "players_rating"):
            cursor.execute(f"SELECT count(*) FROM {table}")
            counts[table] = cursor.fetchone()[0]
    print(f"seeded in {time.perf_counter() - started:.1f} s: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))


def far_outside_the_top():
    """A listed person about two thirds down the septica leaderboard: the count of those above is the most work."""
    from players.reads import ranked

    rows = ranked("septica")
    return rows.select_related("user")[rows.count() * 2 // 3].user


def last_person():
    """The person with the highest id: the last a scan in id order would reach (matches are spread evenly)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.order_by("-pk").first()


def timed(client, url: str, requests: int) -> list[float]:
    for _ in range(5):
        assert client.get(url).status_code == 200, url
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, url
    return times


def report(label: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(f"{label:<48} p50 {statistics.median(times):6.1f} ms   p95 {p95:6.1f} ms   max {times[-1]:6.1f} ms")


def explain(client, url: str) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    print(f"\nEXPLAIN ANALYZE of the queries of {url}:")
    for query in captured.captured_queries:
        sql = query["sql"]
        if not sql.lstrip().upper().startswith("SELECT") or "django_session" in sql:
            continue
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) " + sql)
            plan = [row[0] for row in cursor.fetchall()]
        print(f"-- {sql[:160]}{'…' if len(sql) > 160 else ''}")
        for line in plan:
            if any(word in line for word in ("Scan", "Execution Time", "Join", "Sort", "Limit", "Aggregate")):
                print(f"     {line.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--reuse", action="store_true", help="time the rows an earlier run seeded")
    parser.add_argument("--no-explain", action="store_true")
    args = parser.parse_args()
    if "DATABASE_URL" not in os.environ:
        sys.exit("Set DATABASE_URL to a PostgreSQL server (see the docstring).")
    bench_url = bench_database_url(os.environ["DATABASE_URL"])
    if not args.reuse:
        create_database(bench_url)
    setup_django(bench_url, migrate=not args.reuse)
    if not args.reuse:
        seed()

    from django.test import Client
    from django.urls import reverse

    visitor, signed_in = Client(), Client()
    far, busy = far_outside_the_top(), last_person()
    signed_in.force_login(far)
    pages = [
        ("leaderboard page, visitor", visitor, reverse("leaderboard", args=["septica"])),
        ("leaderboard page, signed in, rank counted", signed_in, reverse("leaderboard", args=["septica"])),
        ("leaderboard API, visitor", visitor, reverse("api_leaderboard", args=["septica"])),
        ("leaderboard API, signed in, rank counted", signed_in, reverse("api_leaderboard", args=["septica"])),
        ("profile page (the last person)", visitor, reverse("player", args=[busy.username])),
        ("profile API (the last person)", visitor, reverse("api_player", args=[busy.username])),
    ]
    print(f"{args.requests} requests each through Django's test Client; {far.username} is "
          f"{signed_in.get(reverse('api_leaderboard', args=['septica'])).json()['you']['rank']:,}th; "
          f"{busy.username} has {busy.outcomes.count()} outcomes")
    print("load average before: " + ", ".join(f"{n:.1f}" for n in os.getloadavg()))
    for label, client, url in pages:
        report(label, timed(client, url, args.requests))
    print("load average over the last 1, 5 and 15 minutes: " + ", ".join(f"{n:.1f}" for n in os.getloadavg()))
    if not args.no_explain:
        from players.reads import forget_rating_counts

        forget_rating_counts()  # so the counts behind a rank outside the top are explained too
        explain(signed_in, reverse("leaderboard", args=["septica"]))
        explain(visitor, reverse("player", args=[busy.username]))


if __name__ == "__main__":
    main()
