"""A partition drill: servers, a worker, beat, PostgreSQL and Redis each on a host of their own, cut apart while matches are played.

    sudo .venv/bin/python bench/partition.py           # 20 matches; server 1 from Redis, server 1 from
                                                       # PostgreSQL, the worker from Redis, 20 s each
    sudo .venv/bin/python bench/partition.py --phases a --matches 4 --cut-seconds 5   # what CI runs

Runs as root (it makes network namespaces) and needs `ip` (iproute2), `nft`
(Debian: apt-get install nftables), `redis-server` and PostgreSQL's server
binaries under /usr/lib/postgresql/*/bin.

The hosts are network namespaces this script makes and removes: one per
process (PostgreSQL, Redis, two servers, a Celery worker with the `notify`
queue's worker beside it, beat) and one for
the clients, this script itself, which moves into it after making them. They
meet on a bridge inside a namespace of its own, on 10.231.0.0/24; nothing
is routed anywhere else, and the machine's own namespace gets no interface,
address, route or rule. PostgreSQL is a fresh cluster (`initdb`, trust
authentication, in a temporary directory), Redis keeps nothing on disk; the
servers run as the README's Production section runs them (`manage.py serve`
each, `celery worker --pool threads`, `celery worker -Q notify`, `celery beat`).

Every match is a four-player septica table with two people and two bots
(Beginner, at BOT_MOVE_DELAY_SECONDS 0.3). One person of each table watches
it from a socket on server 1 and the other from server 2 (alternating by
table); one moves over that socket, the other through `POST
/api/tables/<id>/moves` to their own server, as the table page does when its
socket is down. Both behave as the page does: a gap in seq, a refusal or a
reconnect asks for the whole view (`sync`), and a socket that closes is
opened again.

A cut drops every packet between two hosts both ways (nftables rules in the
cut host's namespace), as a dead switch port or a firewall would: nothing is
refused, connections just stop answering. Each phase lets the matches play,
cuts for `--cut-seconds`, heals, and prints:

* the moves acknowledged during the cut (people's, answered to them; bots',
  stored), and the first bot move stored after the heal;
* the requests to server 1 during the cut (a GET of a table every quarter
  second, and the HTTP moves its people send): how many, their statuses and
  answer times (p50/max);
* catch-up: at the heal, each socket's seq against its match's seq in the
  database; the time until every socket had at least that (max, and how many
  were behind), and how many sockets were opened again;
* whether any process exited (none may: nothing is restarted).

At the end the people stop, the bots are let finish their turns, every
acknowledged move is looked up in the log (lost: missing or another move at
its seq; doubled: acknowledged twice or stored twice), and `verify_matches
--all` replays every match. `--json` writes the figures for
tests/site/test_partition.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import glob
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

try:  # imported as bench.partition (the tests)
    from bench.moves import percentile
    from bench.wsclient import Closed, HandshakeRefused, WebSocket
except ImportError:  # run as a script: bench/ is on the path
    from moves import percentile
    from wsclient import Closed, HandshakeRefused, WebSocket

ROOT = Path(__file__).resolve().parents[1]
SUBNET = "10.231.0"  # private, and only ever inside the namespaces made here
HOSTS = {"postgres": 2, "redis": 3, "server1": 11, "server2": 12, "worker": 21, "beat": 22, "client": 100}
SERVERS = ("server1", "server2")
PORT = 8000
CLONE_NEWNET = 0x40000000
PHASES = {
    "a": ("server 1 cut from Redis", "server1", "redis"),
    "b": ("server 1 cut from PostgreSQL", "server1", "postgres"),
    "c": ("the worker cut from Redis", "worker", "redis"),
}
CATCH_UP_TARGET = 5.0  # seconds after the heal
ANSWER_TARGET = 1.0  # seconds: a server that lost its database answers 503 within this
MOVE_ANSWER_SECONDS = 8.0  # as the table page waits for a socket move's answer (static/js/table/connection.js)
REQUEST_TIMEOUT = 10.0  # what this client waits for any HTTP answer: a hang shows as this
PROBE_EVERY = 0.25
CATCH_UP_WAIT = 20.0  # how long to wait for the sockets after a heal before calling them behind
BOTS_BACK_WAIT = 60.0  # how long to wait for the first bot move after a heal


# --- the hosts ---------------------------------------------------------------------------------
def namespace_problem() -> str | None:
    """Why this machine cannot run the drill, or None when it can."""
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    for tool, package in (("ip", "iproute2"), ("nft", "nftables"), ("redis-server", "redis-server"),
                          ("runuser", "util-linux")):
        if shutil.which(tool) is None:
            return f"`{tool}` is missing (Debian: apt-get install -y {package})"
    if not postgres_bin():
        return "PostgreSQL's server binaries are missing (/usr/lib/postgresql/*/bin/initdb)"
    probe = f"septica-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
    return Path(found[-1]).parent if found else None


def address(host: str) -> str:
    return f"{SUBNET}.{HOSTS[host]}"


class Network:
    """The hosts' namespaces on a bridge in a namespace of its own; `close()` removes all of them."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.bridge = f"{tag}-bridge"
        self.made: list[str] = []

    def ns(self, host: str) -> str:
        return f"{self.tag}-{host}"

    def create(self) -> None:
        self._namespace(self.bridge)
        ip("-n", self.bridge, "link", "add", "br0", "type", "bridge")
        ip("-n", self.bridge, "link", "set", "br0", "up")
        for host, number in HOSTS.items():
            ns = self._namespace(self.ns(host))
            # Both ends are made inside namespaces of this drill's own: the machine's gets neither.
            ip("-n", self.bridge, "link", "add", f"v{number}", "type", "veth", "peer", "name", "eth0", "netns", ns)
            ip("-n", self.bridge, "link", "set", f"v{number}", "master", "br0", "up")
            ip("-n", ns, "addr", "add", f"{address(host)}/24", "dev", "eth0")
            ip("-n", ns, "link", "set", "eth0", "up")

    def _namespace(self, name: str) -> str:
        ip("netns", "add", name)
        self.made.append(name)
        ip("-n", name, "link", "set", "lo", "up")
        return name

    def command(self, host: str, command: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.ns(host), *command]

    def enter(self, host: str) -> None:
        """Move this process (its main thread, and every thread it starts later) into `host`'s namespace."""
        libc = ctypes.CDLL(None, use_errno=True)
        descriptor = os.open(f"/run/netns/{self.ns(host)}", os.O_RDONLY)
        try:
            if libc.setns(descriptor, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), f"setns into {self.ns(host)} failed")
        finally:
            os.close(descriptor)

    def cut(self, host: str, other: str) -> None:
        """Drop every packet between `host` and `other`, both ways: nothing refused, nothing answered."""
        rules = (f"table inet cut_{other} {{\n"
                 f"  chain input {{ type filter hook input priority 0; ip saddr {address(other)} drop; }}\n"
                 f"  chain output {{ type filter hook output priority 0; ip daddr {address(other)} drop; }}\n"
                 "}\n")
        subprocess.run(self.command(host, ["nft", "-f", "-"]), input=rules, text=True, check=True)

    def heal(self, host: str, other: str) -> None:
        subprocess.run(self.command(host, ["nft", "delete", "table", "inet", f"cut_{other}"]), check=True)

    def close(self) -> None:
        """Stop whatever still runs in the namespaces (never this process), then remove them."""
        for name in self.made:
            for pid in self.pids(name):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        for name in reversed(self.made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self.made.clear()

    @staticmethod
    def pids(name: str) -> list[int]:
        found = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
        return [int(pid) for pid in found if int(pid) != os.getpid()]


def ip(*arguments: str) -> None:
    subprocess.run(["ip", *arguments], check=True, capture_output=True)


# --- the processes -----------------------------------------------------------------------------------
class Processes:
    def __init__(self, network: Network, scratch: Path) -> None:
        self.network, self.scratch = network, scratch
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, host: str, command: list[str], env: dict | None = None) -> None:
        with open(self.scratch / f"{name}.log", "wb") as log:
            self.running[name] = subprocess.Popen(
                self.network.command(host, command), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self, name: str, lines: int = 30) -> str:
        text = (self.scratch / f"{name}.log").read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def exited(self) -> dict[str, int]:
        return {name: process.returncode for name, process in self.running.items() if process.poll() is not None}

    def stop_all(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for process in self.running.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)


def start_postgres(processes: Processes, scratch: Path) -> str:
    data = scratch / "postgres"
    data.mkdir()
    shutil.chown(scratch, "postgres")
    shutil.chown(data, "postgres")
    binaries = postgres_bin()
    subprocess.run(["runuser", "-u", "postgres", "--", str(binaries / "initdb"), "-D", str(data), "-A", "trust",
                    "-U", "postgres", "--no-sync", "-E", "UTF8"], check=True, capture_output=True)
    with open(data / "pg_hba.conf", "a") as rules:  # initdb trusts only the local socket and 127.0.0.1
        rules.write(f"host all all {SUBNET}.0/24 trust\n")
    processes.start("postgres", "postgres", [
        "runuser", "-u", "postgres", "--", str(binaries / "postgres"), "-D", str(data),
        "-c", f"listen_addresses={address('postgres')}", "-c", "port=5432", "-c", f"unix_socket_directories={data}",
        "-c", "fsync=off", "-c", "max_connections=200",
    ])
    return f"postgres://postgres@{address('postgres')}:5432/septica"


def start_redis(processes: Processes) -> str:
    processes.start("redis", "redis", ["redis-server", "--bind", address("redis"), "--port", "6379", "--save", "",
                                       "--appendonly", "no", "--protected-mode", "no"])
    return f"redis://{address('redis')}:6379/0"


def wait_until(condition, timeout: float, what: str, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            value = condition()
            if value:
                return value
        time.sleep(every)
    raise RuntimeError(f"{what} within {timeout:.0f} s")


def postgres_answers(url: str) -> bool:
    import psycopg

    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", connect_timeout=2, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = 'septica'").fetchone():
            connection.execute('CREATE DATABASE "septica"')
    return True


def redis_answers(url: str) -> bool:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()


def site_env(database_url: str, redis_url: str, scratch: Path) -> dict:
    env = {name: value for name, value in os.environ.items()
           if name not in ("DATABASE_TEST_NAME", "CHANNEL_LAYER_PREFIX", "SQLITE_PATH", "PYTEST_CURRENT_TEST")}
    env.update(
        DATABASE_URL=database_url, REDIS_URL=redis_url, SEPTICA_VAR_DIR=str(scratch / "var"),
        SECRET_KEY="partition-drill-only-" + "x" * 40, DEBUG="0", HTTPS="0",
        ALLOWED_HOSTS=",".join(address(server) for server in SERVERS), LOG_LEVEL="WARNING", EMAIL_URL="dummy:",
        SEPTICA_NO_EMBEDDED_WORKER="1", CELERY_EMBEDDED_WORKER="0", BOT_MOVE_DELAY_SECONDS="0.3",
        DJANGO_SETTINGS_MODULE="septica_site.settings",
    )
    return env


def start_site(processes: Processes, env: dict, scratch: Path) -> None:
    python = sys.executable
    for server in SERVERS:
        processes.start(server, server, [python, "manage.py", "serve", "--host", address(server), "--port", str(PORT)],
                        env)
    processes.start("worker", "worker", [python, "-m", "celery", "-A", "septica_site", "worker", "--pool", "threads",
                                         "--concurrency", "8", "--loglevel", "WARNING"], env)
    # Pushes and e-mails have a queue of their own (README, Production); its worker shares the
    # worker's host, so cutting the worker from Redis cuts both.
    processes.start("notify", "worker", [python, "-m", "celery", "-A", "septica_site", "worker", "-Q", "notify",
                                         "--pool", "threads", "--concurrency", "4", "--loglevel", "WARNING",
                                         "--hostname", "notify@%h"], env)
    processes.start("beat", "beat", [python, "-m", "celery", "-A", "septica_site", "beat", "--loglevel", "WARNING",
                                     "--schedule", str(scratch / "celerybeat-schedule")], env)
    for server in SERVERS:
        wait_until(lambda server=server: get(server, "/api/tables")[0] == 200, 90, f"{server} did not answer")


def setup_django(env: dict) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- HTTP ----------------------------------------------------------------------------------------
def request(server: str, method: str, path: str, token: str | None = None, body: dict | None = None,
            timeout: float = REQUEST_TIMEOUT) -> tuple[int, dict, float]:
    """(status, JSON body, seconds); status 0 when no answer came within `timeout`."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(address(server), PORT, timeout=timeout)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        try:
            answer = json.loads(raw or b"{}")
        except ValueError:
            answer = {}
        return response.status, answer, time.monotonic() - started
    except (OSError, http.client.HTTPException):
        return 0, {}, time.monotonic() - started
    finally:
        connection.close()


def get(server: str, path: str, token: str | None = None) -> tuple[int, dict]:
    status, answer, _ = request(server, "GET", path, token, timeout=5)
    return status, answer


# --- the matches and their people --------------------------------------------------------------------
@dataclass
class Person:
    table_id: int
    seat: int
    token: str
    server: str
    moves_over: str  # "socket" or "http"
    socket: WebSocket | None = None
    seq: int = -1
    view: dict | None = None
    opened: int = 0  # sockets opened, the first included
    in_flight: tuple[int, dict, float] | None = None  # (seq, move, sent at) of a socket move awaiting its answer
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Drill:
    people: list[Person]
    acks: list[tuple] = field(default_factory=list)  # table, seq, move, when (wall clock), server, socket/http
    # Every socket move sent, by (table, seq): a move whose answer never came (the page gave up
    # waiting) may still be stored later, and the person, seeing the seq still theirs, moves again
    # at that seq; the view past it then acknowledges whichever of their moves was stored.
    sent: dict[tuple[int, int], list[dict]] = field(default_factory=dict)
    answers: list[tuple[float, str, str, int, float]] = field(default_factory=list)  # when, server, what, status, s
    stop: asyncio.Event = field(default_factory=asyncio.Event)


def make_matches(count: int) -> list[Person]:
    from accounts.models import ApiToken, User
    from games import actions
    from games.actions.checks import BotSpec

    people = []
    for number in range(count):
        users = [User.objects.create_user(username=f"drill{number}p{seat}", email=f"drill{number}p{seat}@drill.invalid",
                                          password=None, email_on_your_move=False) for seat in range(2)]
        table = actions.create_table(users[0], rules="septica", players=4, options={"match": "first-to-10"},
                                     seconds_per_move=86400, bots=[BotSpec(2, "beginner"), BotSpec(3, "beginner")])
        actions.join_table(table.pk, users[1])
        seats = dict(table.seats.values_list("user_id", "number"))
        for index, user in enumerate(users):
            server = SERVERS[(number + index) % 2]
            people.append(Person(table.pk, seats[user.pk], ApiToken.issue(user, "drill")[1], server,
                                 "socket" if index == 0 else "http"))
    return people


async def watch(person: Person, drill: Drill) -> None:
    """The person's socket, opened again whenever it closes (as static/js/live.js does), until the drill stops."""
    delay = 0.5
    while not drill.stop.is_set():
        try:
            person.socket = await asyncio.wait_for(WebSocket.connect(
                address(person.server), PORT, f"/ws/tables/{person.table_id}/",
                {"Authorization": f"Bearer {person.token}"}), REQUEST_TIMEOUT)
        except (HandshakeRefused, OSError, asyncio.IncompleteReadError, TimeoutError):
            person.socket = None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)
            continue
        person.opened += 1
        delay = 0.5
        if person.opened > 1:
            await send(person, {"type": "sync", "seq": person.seq})
        try:
            while True:
                heard(person, await person.socket.recv_json(), drill)
        except (Closed, ConnectionError, asyncio.IncompleteReadError):
            person.socket = None
            if person.in_flight is not None:  # the page asks over HTTP where things stand
                person.in_flight = None
            await asyncio.sleep(delay)


def heard(person: Person, message: dict, drill: Drill) -> None:
    kind = message.get("type")
    if kind == "view":
        seq = message["seq"]
        if seq < person.seq:
            return
        gap = seq > person.seq + 1 and person.seq >= 0
        person.seq, person.view = seq, message
        if person.in_flight is not None and seq > person.in_flight[0]:
            sent_seq, move, _sent = person.in_flight
            drill.acks.append((person.table_id, sent_seq, move, time.time(), person.server, "socket"))
            person.in_flight = None
        if gap:
            asyncio.ensure_future(send(person, {"type": "sync", "seq": person.seq}))
        person.changed.set()
    elif kind == "error" and message.get("about") != "chat":
        if person.in_flight is not None:
            person.in_flight = None
        asyncio.ensure_future(send(person, {"type": "sync", "seq": person.seq}))
        person.changed.set()


async def send(person: Person, message: dict) -> bool:
    socket = person.socket
    if socket is None:
        return False
    try:
        await socket.send_json(message)
        return True
    except (ConnectionError, RuntimeError):
        return False


async def play(person: Person, drill: Drill, rng: random.Random) -> None:
    """When the view says it is this person's turn: think a moment, then move (over the socket or HTTP)."""
    while not drill.stop.is_set():
        person.changed.clear()
        view = (person.view or {}).get("view") or {}
        if person.in_flight is not None and time.monotonic() - person.in_flight[2] > MOVE_ANSWER_SECONDS:
            person.in_flight = None
            await send(person, {"type": "sync", "seq": person.seq})
        if person.in_flight is None and view.get("to_move") == person.seat and view.get("legal_moves") \
                and not view.get("finished"):
            await asyncio.sleep(rng.uniform(0.2, 0.6))
            if person.view is not None and person.view["view"] is view and not drill.stop.is_set():
                await move(person, drill, person.seq, rng.choice(view["legal_moves"]))
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(person.changed.wait(), 1.0)


async def move(person: Person, drill: Drill, seq: int, chosen: dict) -> None:
    if person.moves_over == "socket":
        person.in_flight = (seq, chosen, time.monotonic())
        drill.sent.setdefault((person.table_id, seq), []).append(chosen)
        if not await send(person, {"type": "move", "seq": seq, "move": chosen}):
            person.in_flight = None
        return
    status, answer, seconds = await asyncio.to_thread(
        request, person.server, "POST", f"/api/tables/{person.table_id}/moves", person.token,
        {"seq": seq, "move": chosen})
    drill.answers.append((time.time(), person.server, "move", status, seconds))
    if status == 200:
        drill.acks.append((person.table_id, seq, chosen, time.time(), person.server, "http"))
        if answer.get("seq", -1) > person.seq:
            person.seq, person.view = answer["seq"], {"type": "view", **answer}
    elif status:
        await send(person, {"type": "sync", "seq": person.seq})
    else:
        await asyncio.sleep(1.0)  # no answer at all: the page would show it is offline and try again


async def probe(server: str, token: str, table_id: int, until: float, drill: Drill) -> None:
    """A GET of a table every PROBE_EVERY seconds to `server` until `until` (monotonic), each answer noted."""
    while time.monotonic() < until:
        started = time.monotonic()
        status, _answer, seconds = await asyncio.to_thread(request, server, "GET", f"/api/tables/{table_id}", token)
        drill.answers.append((time.time(), server, "get", status, seconds))
        await asyncio.sleep(max(0.0, PROBE_EVERY - (time.monotonic() - started)))


# --- the phases ----------------------------------------------------------------------------------------
def stored_seqs(table_ids: list[int]) -> dict[int, int]:
    from django.db import close_old_connections

    from games.models import Match

    close_old_connections()
    return dict(Match.objects.filter(pk__in=table_ids).values_list("pk", "seq"))


def bot_moves_between(started: float, ended: float | None = None) -> tuple[int, float | None]:
    """Bot moves stored from `started` (to `ended`), and when the first was stored (wall clock)."""
    from datetime import UTC, datetime

    from django.db.models import Min

    from games.models import Actor, Move

    moves = Move.objects.filter(actor=Actor.BOT, created_at__gte=datetime.fromtimestamp(started, UTC))
    if ended is not None:
        moves = moves.filter(created_at__lt=datetime.fromtimestamp(ended, UTC))
    found = moves.aggregate(first=Min("created_at"))
    return moves.count(), found["first"].timestamp() if found["first"] else None


async def run_phase(key: str, network: Network, processes: Processes, drill: Drill, args) -> dict:
    title, host, other = PHASES[key]
    people = drill.people
    table_ids = sorted({person.table_id for person in people})
    await asyncio.sleep(args.settle_seconds)
    watcher = next(person for person in people if person.server == "server1")
    opened_before = sum(person.opened for person in people)
    cut_at = time.time()
    network.cut(host, other)
    probing = asyncio.create_task(probe("server1", watcher.token, watcher.table_id,
                                        time.monotonic() + args.cut_seconds, drill))
    await asyncio.sleep(args.cut_seconds)
    await probing
    network.heal(host, other)
    healed_at, healed = time.time(), time.monotonic()
    stored = await asyncio.to_thread(stored_seqs, table_ids)
    behind = {id(person): stored[person.table_id] for person in people if person.seq < stored[person.table_id]}
    caught: dict[int, float] = {}
    while behind and len(caught) < len(behind) and time.monotonic() - healed < CATCH_UP_WAIT:
        for person in people:
            if id(person) in behind and id(person) not in caught and person.seq >= behind[id(person)]:
                caught[id(person)] = time.monotonic() - healed
        await asyncio.sleep(0.05)
    first_bot_after = None
    while first_bot_after is None and time.monotonic() - healed < BOTS_BACK_WAIT:
        _, first_bot_after = await asyncio.to_thread(bot_moves_between, healed_at)
        await asyncio.sleep(0.2)
    bots_during, _ = await asyncio.to_thread(bot_moves_between, cut_at, healed_at)
    answered = [entry for entry in drill.answers if entry[1] == "server1" and cut_at <= entry[0] - entry[4] < healed_at]
    times = sorted(entry[4] for entry in answered)
    return {
        "phase": key, "title": title, "cut_seconds": args.cut_seconds,
        "acked_during_cut": sum(cut_at <= ack[3] < healed_at for ack in drill.acks),
        "bot_moves_during_cut": bots_during,
        "first_bot_move_after_heal_s": None if first_bot_after is None else round(first_bot_after - healed_at, 2),
        "requests": len(answered),
        "statuses": dict(Counter(str(entry[3]) for entry in answered)),
        "answer_p50_s": round(percentile(times, 50), 3) if times else None,
        "answer_max_s": round(times[-1], 3) if times else None,
        "sockets": len(people), "sockets_behind_at_heal": len(behind),
        "sockets_caught_up": len(caught),
        "catch_up_max_s": round(max(caught.values()), 2) if caught else 0.0,
        "sockets_opened_again": sum(person.opened for person in people) - opened_before,
        "exited": processes.exited(),
    }


def phase_report(figures: dict) -> str:
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(figures["statuses"].items())) or "none"
    first_bot = figures["first_bot_move_after_heal_s"]
    return "\n".join([
        f"({figures['phase']}) {figures['title']}, {figures['cut_seconds']:g} s",
        f"    moves acknowledged during the cut: {figures['acked_during_cut']} people's, "
        f"{figures['bot_moves_during_cut']} bots' stored; first bot move after the heal: "
        f"{'none' if first_bot is None else f'{first_bot:.2f} s'}",
        f"    requests to server 1 during the cut: {figures['requests']} ({statuses}); answered in "
        f"p50 {fmt_seconds(figures['answer_p50_s'])}, max {fmt_seconds(figures['answer_max_s'])}",
        f"    sockets behind at the heal: {figures['sockets_behind_at_heal']} of {figures['sockets']}, caught up "
        f"{figures['sockets_caught_up']}, the last {figures['catch_up_max_s']:.2f} s after the heal; "
        f"sockets opened again: {figures['sockets_opened_again']}",
        f"    processes exited: {figures['exited'] or 'none'}",
    ])


def fmt_seconds(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f} ms"


def verdict(phases: list[dict], checked: dict) -> list[str]:
    """What missed the drill's targets (empty: all met)."""
    missed = []
    for figures in phases:
        name = f"({figures['phase']})"
        if figures["sockets_caught_up"] < figures["sockets_behind_at_heal"] or \
                figures["catch_up_max_s"] > CATCH_UP_TARGET:
            missed.append(f"{name} sockets not caught up within {CATCH_UP_TARGET:g} s of the heal")
        if figures["exited"]:
            missed.append(f"{name} processes exited: {figures['exited']}")
        if figures["phase"] == "b" and (figures["answer_max_s"] or 0) > ANSWER_TARGET:
            missed.append(f"{name} a request to server 1 took {figures['answer_max_s']:.2f} s")
        if figures["phase"] == "b" and set(figures["statuses"]) - {"503", "200"}:
            missed.append(f"{name} statuses other than 503: {figures['statuses']}")
    if checked["lost"] or checked["doubled"]:
        missed.append(f"{checked['lost']} acknowledged moves lost, {checked['doubled']} doubled")
    if checked["verify_exit"]:
        missed.append(f"verify_matches --all: {checked['verify']}")
    return missed


# --- the end -----------------------------------------------------------------------------------------
def settled(table_ids: list[int], quiet_seconds: float = 3.0, timeout: float = 40.0) -> None:
    """Wait until no match has moved for `quiet_seconds` (the bots finish their turns), at most `timeout`."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = stored_seqs(table_ids)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_seconds:
            return
        time.sleep(0.2)


def check_log(drill: Drill) -> dict:
    from io import StringIO

    from django.core.management import call_command

    from games.models import Actor, Move

    stored = {(row["match_id"], row["seq"]): row for row in
              Move.objects.filter(match_id__in={ack[0] for ack in drill.acks}).values("match_id", "seq", "move",
                                                                                         "actor")}
    acked = Counter((table, seq) for table, seq, *_ in drill.acks)
    lost, stored_earlier = [], 0
    for ack in drill.acks:
        move = stored.get(ack[:2], {}).get("move")
        if move == ack[2]:
            continue
        if ack[5] == "socket" and move in drill.sent.get(ack[:2], []):
            stored_earlier += 1  # their earlier move at that seq, unanswered then, is the one stored
        else:
            lost.append((*ack, stored.get(ack[:2])))
    doubled = sum(count - 1 for count in acked.values())
    unanswered = sum(row["actor"] == Actor.PERSON and key not in acked for key, row in stored.items())
    out = StringIO()
    try:
        call_command("verify_matches", "--all", stdout=out)
        code = 0
    except SystemExit as exit:
        code = exit.code or 0
    lines = out.getvalue().strip().splitlines()
    return {"acknowledged": len(drill.acks), "lost": len(lost), "lost_moves": [repr(entry) for entry in lost[:10]],
            "acknowledged_as_earlier_move": stored_earlier,
            "doubled": doubled,
            "stored_unanswered": unanswered, "verify": lines[-1] if lines else "", "verify_exit": code,
            "verify_lines": lines[:20]}


# --- main ----------------------------------------------------------------------------------------------
async def drill_matches(people: list[Person], network: Network, processes: Processes, args) -> tuple[Drill, list]:
    drill = Drill(people)
    rng = random.Random(args.seed)
    tasks = [asyncio.create_task(watch(person, drill)) for person in people]
    tasks += [asyncio.create_task(play(person, drill, random.Random(rng.random()))) for person in people]
    phases = []
    try:
        for key in args.phases:
            figures = await run_phase(key, network, processes, drill, args)
            phases.append(figures)
            print(phase_report(figures), flush=True)
        await asyncio.sleep(args.settle_seconds)
    finally:
        drill.stop.set()
        for person in people:
            if person.socket is not None:
                await person.socket.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return drill, phases


def run(args) -> int:
    problem = namespace_problem()
    if problem:
        print(f"bench/partition.py cannot run here: {problem}", file=sys.stderr)
        return 2
    network = Network(args.tag or f"sp{os.getpid()}")
    scratch = Path(tempfile.mkdtemp(prefix="septica-partition-"))
    processes = Processes(network, scratch)
    code = 1
    try:
        network.create()
        network.enter("client")
        started = time.monotonic()
        database_url = start_postgres(processes, scratch)
        redis_url = start_redis(processes)
        wait_until(lambda: postgres_answers(database_url), 60, "PostgreSQL did not answer")
        wait_until(lambda: redis_answers(redis_url), 30, "Redis did not answer")
        env = site_env(database_url, redis_url, scratch)
        setup_django(env)
        start_site(processes, env, scratch)
        people = make_matches(args.matches)
        print(f"{args.matches} matches ({len(people)} people, {2 * args.matches} bots) on PostgreSQL, Redis, "
              f"two servers, a worker, a notify worker and beat, each in a namespace of its own; ready after "
              f"{time.monotonic() - started:.0f} s; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
              flush=True)
        from django.db import connections

        connections.close_all()
        drill, phases = asyncio.run(drill_matches(people, network, processes, args))
        settled(sorted({person.table_id for person in people}))
        checked = check_log(drill)
        print(f"acknowledged moves {checked['acknowledged']}: lost {checked['lost']}, doubled {checked['doubled']} "
              f"(people's moves stored without an answer reaching them: {checked['stored_unanswered']}; "
              f"socket moves whose seq was taken by the same person's earlier unanswered move: "
              f"{checked['acknowledged_as_earlier_move']})", flush=True)
        for line in checked["lost_moves"]:
            print(f"    lost: {line}", flush=True)
        print(f"verify_matches --all: {checked['verify']}", flush=True)
        for line in checked["verify_lines"][:-1]:
            print(f"    {line}", flush=True)
        missed = verdict(phases, checked)
        print("targets: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps({"phases": phases, "checked": checked, "missed": missed}, indent=1))
        code = 0 if not missed else 1
    finally:
        processes.stop_all()
        if args.logs:
            Path(args.logs).mkdir(parents=True, exist_ok=True)
            for log in scratch.glob("*.log"):
                shutil.copy(log, args.logs)
        if code and args.keep_logs:
            for name in processes.running:
                print(f"--- {name}\n{processes.log(name)}", file=sys.stderr)
        network.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return code


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", default="abc", help="which cuts, in order: a, b, c (default abc)")
    parser.add_argument("--matches", type=int, default=20, help="live matches (default 20)")
    parser.add_argument("--cut-seconds", type=float, default=20.0, help="how long each cut lasts (default 20)")
    parser.add_argument("--settle-seconds", type=float, default=8.0,
                        help="play before each cut and after the last (default 8)")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--keep-logs", action="store_true", help="print the processes' logs' ends when a target is missed")
    parser.add_argument("--logs", help="copy the processes' logs into this directory at the end")
    parser.add_argument("--tag", help="the namespaces' prefix (default sp<pid>)")
    args = parser.parse_args(argv)
    if not set(args.phases) <= set(PHASES) or not 1 <= args.matches <= 50:
        parser.error("phases among a, b, c; 1 to 50 matches")
    if not 1 <= args.cut_seconds <= 120 or not 0 <= args.settle_seconds <= 120:
        parser.error("cuts of 1 to 120 s, settling 0 to 120 s")
    return args


def main() -> int:
    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    return run(parse_args())


if __name__ == "__main__":
    sys.exit(main())
