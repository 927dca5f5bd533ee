"""Committed moves per second through the JSON API, on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/septica REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/moves.py                        # 1, 10 and 100 matches, 20 s each
    ... bench/moves.py --levels 1,10 --seconds 5 --servers 1    # quicker
    ... bench/moves.py --rated-and-casual --levels 5,25           # rated beside casual tables

What it does, all on 127.0.0.1:

1. Creates a fresh database named ``septica_bench`` on the server of
   ``DATABASE_URL`` (dropping an earlier one of that name; never the database
   the URL names, nor a test database) and migrates it.
2. Starts ``--servers`` real server processes (``manage.py serve``: daphne,
   as in production) on ports 8101, 8102, ... against that database, with
   ``REDIS_URL`` passed through and no embedded Celery worker.
3. For each level (concurrent matches), makes two players with API tokens per
   match and a two-player septica table (first to 10 games) through
   ``games.actions``.
4. Drives every match from its own thread with ``http.client`` and
   ``Authorization: Bearer``: the seat to move reads its view (or reuses the
   answer to its previous move), picks one of ``view.legal_moves`` at random
   and posts ``{"seq", "move"}``, until the level's time budget runs out. A
   match that ends before (a fast run plays one in a few seconds) is played
   again: both players ask for the API's rematch and play on at its table.
5. Prints moves/s (committed moves, i.e. 200 answers to POST .../moves), the
   p50/p95 latency of those posts, and the number of 409s and other errors;
   then replays every match from its seed with ``verify_matches --all``.

Before each level, ``pgbench`` runs a move-shaped transaction on the same
database server (lock a match row, update it, append a log row, commit; on
tables of its own, one row per match of the level) for ``--pgbench-seconds``
with one client and with eight, and the row prints both figures and the
level's moves/s as a share of the eight clients' (the machine's speed
drifts, so each level is measured beside what the database itself does then).
``--no-pgbench`` skips it.

``--rated-and-casual`` measures what ratings cost: each level runs that many
rated tables and as many casual ones side by side, short matches (to 8
points, about a hundred moves), and when one ends both players ask for a
rematch (the API's, which keeps the table rated or casual) and play on, so
ratings are updated all through the run. One row per kind, with the matches
that ended and the p50 of the moves that ended them (the rated ones store the
outcomes and ratings in that move's transaction); after the run it checks
``recompute_ratings --check``.

Figures depend on the machine: the servers, PostgreSQL, Redis and the
clients all share its cores.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
BENCH_DB = "septica_bench"  # --bench-db names another, so two runs on one server need not collide
FIRST_PORT = 8101
HOST = "127.0.0.1"


# --- the database -----------------------------------------------------------------
def bench_database_url(database_url: str, name: str = BENCH_DB) -> str:
    parts = urlsplit(database_url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit("bench/moves.py measures PostgreSQL: DATABASE_URL must be a postgres:// URL.")
    if parts.path.lstrip("/") == name or name.startswith("test_"):
        sys.exit(f"bench/moves.py drops and remakes {name!r}: name another with --bench-db.")
    return urlunsplit(parts._replace(path="/" + name))


def create_bench_database(bench_url: str) -> None:
    import psycopg

    parts = urlsplit(bench_url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def setup_django(bench_url: str) -> None:
    os.environ.update(server_env(bench_url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "septica_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def server_env(bench_url: str) -> dict:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=bench_url,
        SEPTICA_NO_EMBEDDED_WORKER="1",
        CELERY_EMBEDDED_WORKER="0",
        SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-only-secret-key-" + "x" * 40,
        DEBUG="0",
        HTTPS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
    )
    return env


# --- what the database itself does ------------------------------------------------------
PGBENCH_SCRIPT = """\\set id random(1, :matches)
BEGIN;
SELECT seq FROM bench_match WHERE id = :id FOR UPDATE;
UPDATE bench_match SET seq = seq + 1, state = md5(random()::text) WHERE id = :id;
INSERT INTO bench_move (match_id, seq, move, created_at) SELECT :id, seq, '{"type": "play", "card": "7H"}', now()
  FROM bench_match WHERE id = :id;
COMMIT;
"""


def prepare_pgbench(bench_url: str, matches: int) -> None:
    """The move-shaped transaction's own two tables, one match row per concurrent match."""
    import psycopg

    with psycopg.connect(bench_url, autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS bench_move, bench_match")
        connection.execute("CREATE TABLE bench_match (id int PRIMARY KEY, seq int NOT NULL, state text NOT NULL)")
        connection.execute("CREATE TABLE bench_move (match_id int NOT NULL REFERENCES bench_match, seq int NOT NULL,"
                           " move jsonb NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (match_id, seq))")
        connection.execute("INSERT INTO bench_match SELECT i, 0, '' FROM generate_series(1, %s) i", [matches])


def pgbench_tps(bench_url: str, matches: int, clients: int, seconds: float) -> float | None:
    """Transactions a second of the move-shaped script with `clients` connections; None without pgbench."""
    parts = urlsplit(bench_url)
    prepare_pgbench(bench_url, max(matches, clients))
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
        script.write(PGBENCH_SCRIPT)
        script.flush()
        command = ["pgbench", "-n", "-M", "prepared", "-c", str(clients), "-j", str(min(clients, os.cpu_count() or 1)),
                   "-T", str(max(1, round(seconds))), "-D", f"matches={max(matches, clients)}", "-f", script.name,
                   "-h", parts.hostname or HOST, "-p", str(parts.port or 5432), "-U", parts.username or "postgres",
                   parts.path.lstrip("/")]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=True)
        except (OSError, subprocess.SubprocessError) as error:
            print(f"pgbench did not run: {error}", file=sys.stderr, flush=True)
            return None
    for line in done.stdout.splitlines():
        if line.startswith("tps = "):
            return float(line.split()[2])
    return None


# --- the servers --------------------------------------------------------------------
class Servers:
    def __init__(self, count: int, env: dict, log_dir: Path, niceness: dict[int, int] | None = None) -> None:
        """`niceness` maps a server's index to the niceness it runs at (default 0 for all)."""
        self.ports = [FIRST_PORT + i for i in range(count)]
        self.env, self.log_dir = env, log_dir
        self.niceness = niceness or {}
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> Servers:
        for index, port in enumerate(self.ports):
            log = open(self.log_dir / f"server-{port}.log", "wb")  # noqa: SIM115  (closed with the process)
            command = [sys.executable, "manage.py", "serve", "--host", HOST, "--port", str(port)]
            if self.niceness.get(index):
                command = ["nice", "-n", str(self.niceness[index]), *command]
            self.processes.append(
                subprocess.Popen(
                    command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            )
        for port, process in zip(self.ports, self.processes, strict=True):
            wait_until_serving(port, process)
        return self

    def __exit__(self, *exc) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def wait_until_serving(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server on port {port} exited with code {process.returncode}; see its log")
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/api/tables")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"the server on port {port} did not answer within {timeout:.0f} s")


# --- the matches ----------------------------------------------------------------------
@dataclass
class Seat:
    token: str
    connection: http.client.HTTPConnection | None = None


@dataclass
class Driven:
    table_id: int
    port: int
    seats: list[Seat]
    kind: str = "rated"  # or "casual"


# A long match (a thousand moves or so) seldom ends within a level; with --rated-and-casual matches are short
# (to 8 points), so that ratings change all through the run.
LONG_MATCH, SHORT_MATCH = {"match": "first-to-10"}, {"match": "points-8"}


def make_matches(level: int, count: int, *, kind: str = "rated", short: bool = False) -> list[Driven]:
    from accounts.models import ApiToken, User
    from games import actions

    matches = []
    for i in range(count):
        players = [
            User.objects.create_user(
                username=f"bench-{level}-{kind}-{i}-{seat}", email=f"bench-{level}-{kind}-{i}-{seat}@example.com",
                password=None,
            )
            for seat in range(2)
        ]
        table = actions.create_table(
            players[0], rules="septica", players=2, options=SHORT_MATCH if short else LONG_MATCH,
            seconds_per_move=86400, rated=kind == "rated",
        )
        actions.join_table(table.pk, players[1])
        tokens = [ApiToken.issue(player, "bench")[1] for player in players]
        matches.append(Driven(table.pk, 0, [Seat(token) for token in tokens], kind))
    return matches


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    end_latencies: list[float] = field(default_factory=list)  # the moves that ended a match
    conflicts: int = 0
    errors: int = 0
    reads: int = 0
    finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, other: Tally) -> None:
        with self.lock:
            self.latencies += other.latencies
            self.end_latencies += other.end_latencies
            self.conflicts += other.conflicts
            self.errors += other.errors
            self.reads += other.reads
            self.finished += other.finished


def call(seat: Seat, port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    if seat.connection is None:
        seat.connection = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Authorization": f"Bearer {seat.token}"}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    try:
        seat.connection.request(method, path, body=data, headers=headers)
        response = seat.connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    except (OSError, http.client.HTTPException):
        seat.connection.close()
        seat.connection = None
        raise


def drive(match: Driven, stop_at: float, total: Tally, seed: int, max_moves: int) -> None:
    """Play one match from one thread: the seat to move looks, picks a legal move, posts it.

    The answer to a move is the mover's new view, so it is reused when the same
    seat moves again (a take, then a lead); otherwise the next seat reads its own."""
    rng, mine = random.Random(seed), Tally()
    path = f"/api/tables/{match.table_id}"
    known: dict | None = None  # the view of the seat to move, if we hold it
    to_move: int | None = None
    try:
        while time.monotonic() < stop_at and len(mine.latencies) < max_moves:
            if known is None:
                to_move = to_move if to_move is not None else read(match, match.seats[0], path, mine)["to_move"]
                if to_move is None:
                    mine.finished += 1
                    path, known, to_move = play_again(match, mine), None, None
                    continue
                known = read(match, match.seats[to_move], path, mine)
            view = known["view"]
            if view["finished"] or view["to_move"] != view["seat"]:
                known = to_move = None
                continue
            started = time.perf_counter()
            status, answer = call(
                match.seats[view["seat"]],
                match.port,
                "POST",
                path + "/moves",
                {"seq": known["seq"], "move": rng.choice(view["legal_moves"])},
            )
            if status == 200:
                mine.latencies.append(time.perf_counter() - started)
                after = answer["view"]
                to_move = after["to_move"]
                known = answer if to_move == after["seat"] else None
                if after["finished"]:
                    mine.end_latencies.append(mine.latencies[-1])
                    mine.finished += 1
                    path, known, to_move = play_again(match, mine), None, None
            else:
                mine.conflicts += status == 409
                mine.errors += status != 409
                known = to_move = None
    except (OSError, http.client.HTTPException, KeyError, ValueError):
        mine.errors += 1
    finally:
        for seat in match.seats:
            if seat.connection is not None:
                seat.connection.close()
        total.add(mine)


def play_again(match: Driven, tally: Tally) -> str:
    """Both players ask for a rematch (the second joins the first's); the new table's path."""
    for seat in match.seats:
        status, table = call(seat, match.port, "POST", f"/api/tables/{match.table_id}/rematch")
        tally.reads += 1
        if status != 201:
            raise ValueError(f"rematch answered {status}")
    match.table_id = table["id"]
    return f"/api/tables/{match.table_id}"


def read(match: Driven, seat: Seat, path: str, tally: Tally) -> dict:
    status, table = call(seat, match.port, "GET", path)
    tally.reads += 1
    if status != 200:
        raise ValueError(f"GET {path} answered {status}")
    return table


def run_level(level: int, ports: list[int], seconds: float, max_moves: int,
              rated_and_casual: bool = False) -> list[dict]:
    """One row, or with `rated_and_casual` a row per kind (their matches played at the same time)."""
    if rated_and_casual:
        kinds = ("rated", "casual")
        matches = [match for kind in kinds for match in make_matches(level, level, kind=kind, short=True)]
    else:
        kinds, matches = ("rated",), make_matches(level, level)  # people only: rated, as the site makes it
    for i, match in enumerate(matches):
        match.port = ports[i % len(ports)]
    totals = {kind: Tally() for kind in kinds}
    started = time.monotonic()
    stop_at = started + seconds
    threads = [
        threading.Thread(target=drive, args=(match, stop_at, totals[match.kind], i, max_moves), daemon=True)
        for i, match in enumerate(matches)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    elapsed = time.monotonic() - started
    return [row_of(level, kind if rated_and_casual else "", totals[kind], elapsed) for kind in kinds]


def row_of(level: int, kind: str, total: Tally, elapsed: float) -> dict:
    latencies = sorted(total.latencies)
    return {
        "matches": level,
        "kind": kind,
        "moves": len(latencies),
        "seconds": elapsed,
        "moves_per_s": len(latencies) / elapsed if elapsed else 0.0,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p95_ms": percentile(latencies, 95) * 1000,
        "end_p50_ms": percentile(sorted(total.end_latencies), 50) * 1000,
        "conflicts": total.conflicts,
        "errors": total.errors,
        "reads": total.reads,
        "finished": total.finished,
    }


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


# --- the report ---------------------------------------------------------------------
def print_header(with_kind: bool) -> None:
    kind = f"{'kind':>7} " if with_kind else ""
    end = f" {'end p50':>8}" if with_kind else ""
    print(
        f"{'matches':>8} {kind}{'moves':>7} {'secs':>6} {'moves/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'409s':>5} {'errors':>6} {'reads':>6} {'finished':>8}{end} {'pgbench 1':>10} {'pgbench 8':>10} "
        f"{'share of 8':>10}",
        flush=True,
    )


def print_row(row: dict) -> None:
    kind = f"{row['kind']:>7} " if row["kind"] else ""
    end = f" {row['end_p50_ms']:>8.1f}" if row["kind"] else ""
    one, eight = row.get("pgbench_1"), row.get("pgbench_8")
    share = f"{row['moves_per_s'] / eight:.1%}" if eight else "-"
    print(
        f"{row['matches']:>8} {kind}{row['moves']:>7} {row['seconds']:>6.1f} {row['moves_per_s']:>8.1f} "
        f"{row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} {row['conflicts']:>5} {row['errors']:>6} "
        f"{row['reads']:>6} {row['finished']:>8}{end} {one or 0:>10.0f} {eight or 0:>10.0f} {share:>10}",
        flush=True,
    )


def check_ratings() -> int:
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = StringIO()
    try:
        call_command("recompute_ratings", "--check", stdout=out)
        code = 0
    except CommandError as refusal:
        out.write(str(refusal))
        code = 1
    print("recompute_ratings --check:", " ".join(out.getvalue().split()), flush=True)
    return code


def verify_all() -> int:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    try:
        call_command("verify_matches", "--all", stdout=out)
        code = 0
    except SystemExit as exit:
        code = exit.code or 0
    print("verify_matches --all:", out.getvalue().strip().splitlines()[-1], flush=True)
    return code


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,10,100", help="concurrent matches per level (default 1,10,100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="time budget per level (default 20)")
    parser.add_argument("--servers", type=int, default=2, help="server processes (default 2, ports 8101...)")
    parser.add_argument("--max-moves", type=int, default=5000, help="at most this many moves per match")
    parser.add_argument("--no-verify", action="store_true", help="skip replaying the matches afterwards")
    parser.add_argument("--rated-and-casual", action="store_true",
                        help="per level, that many rated and as many casual tables side by side, playing short "
                             "matches and rematches; a row for each kind")
    parser.add_argument("--bench-db", default=BENCH_DB, help=f"the database made afresh (default {BENCH_DB})")
    parser.add_argument("--pgbench-seconds", type=float, default=5.0,
                        help="pgbench's run with one client and with eight before each level (default 5 s each)")
    parser.add_argument("--no-pgbench", action="store_true", help="no pgbench run before the levels")
    args = parser.parse_args()
    args.levels = [int(level) for level in args.levels.split(",")]
    if not all(1 <= level <= 200 for level in args.levels) or not 1 <= args.servers <= 8:
        parser.error("levels must be 1 to 200 matches and servers 1 to 8")
    if not 1 <= args.seconds <= 300:
        parser.error("the time budget is 1 to 300 seconds per level")
    return args


def main() -> int:
    args = parse_args()
    database_url = os.environ.get("DATABASE_URL", "").strip()
    if not database_url:
        print(
            "bench/moves.py needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/septica);\n"
            f"it creates and uses its own database {BENCH_DB!r} on that server.",
            file=sys.stderr,
        )
        return 2
    bench_url = bench_database_url(database_url, args.bench_db)
    create_bench_database(bench_url)
    setup_django(bench_url)
    from django.db import connections

    redis = os.environ.get("REDIS_URL") or "none (in-memory channel layer per process)"
    print(
        f"database {args.bench_db} on {urlsplit(bench_url).hostname}; redis {redis}; "
        f"{args.servers} server process(es); {os.cpu_count()} CPUs (load {os.getloadavg()[0]:.1f}); "
        f"{args.seconds:.0f} s per level",
        flush=True,
    )
    with (
        tempfile.TemporaryDirectory(prefix="septica-bench-") as logs,
        Servers(args.servers, server_env(bench_url), Path(logs)) as servers,
    ):
        print_header(args.rated_and_casual)
        for level in args.levels:
            database = {}
            if not args.no_pgbench:
                database = {f"pgbench_{clients}": pgbench_tps(bench_url, level, clients, args.pgbench_seconds)
                            for clients in (1, 8)}
            for row in run_level(level, servers.ports, args.seconds, args.max_moves, args.rated_and_casual):
                print_row({**row, **database})
            connections.close_all()
    code = check_ratings() if args.rated_and_casual else 0
    if not args.no_verify:
        code = verify_all() or code
    return code


if __name__ == "__main__":
    sys.exit(main())
