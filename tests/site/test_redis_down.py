"""Redis goes away in the middle of matches, and comes back.

Two servers and a worker run on a Redis of this test's own (never the shared
one). While it is down, pages, /healthz and the API answer at once and moves
are stored; a new socket is refused cleanly (the page polls meanwhile). Signing
up, logging in and asking for a password reset work. When
it is back, without a restart (the worker too): the bot's reply that could not be queued is
played, and a socket on the other server that missed a move hears of it.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.db import connection

from accounts.models import ApiToken
from bench.wsclient import Closed, HandshakeRefused, WebSocket
from games.models import Actor, Match, Move
from tests.conftest import worker_environment
from tests.play import start_table
from tests.realtime.test_two_servers import free_port, test_database_url

from .redis_server import RedisServer, have_redis_server

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
QUICK = 2.0  # seconds: what "answers at once" allows on this shared machine
CATCH_UP = 15.0  # seconds after Redis is back
NEW_PASSWORD = "a-whole-new-deck-42"

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not have_redis_server(), reason="needs redis-server to start a Redis of its own"),
]


def wait_for(condition, timeout: float, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    return condition()


@pytest.fixture
def own_redis():
    server = RedisServer()
    server.start()
    yield server
    server.stop()


def site_env(redis_url: str) -> dict:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=test_database_url(), REDIS_URL=redis_url, SEPTICA_NO_EMBEDDED_WORKER="1",
        CELERY_EMBEDDED_WORKER="0", SECRET_KEY="redis-down-test-" + "x" * 40, DEBUG="0", HTTPS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost", LOG_LEVEL="WARNING", BOT_MOVE_DELAY_SECONDS="0",
    )
    env.pop("DATABASE_TEST_NAME", None)
    env.pop("CHANNEL_LAYER_PREFIX", None)
    return env


class Processes:
    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: list[subprocess.Popen] = []

    def start(self, name: str, command: list[str], env: dict) -> Path:
        log = self.log_dir / f"{name}.log"
        with open(log, "wb") as output:
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        self.running.append(process)
        return log

    def stop_all(self) -> None:
        for process in self.running:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.running:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def site(own_redis, transactional_db, tmp_path):
    """Two servers and a worker on `own_redis`; yields the servers' ports, their logs, the worker and its log."""
    processes = Processes(tmp_path)
    ports = [free_port(), free_port()]
    env = site_env(own_redis.url)
    logs = [processes.start(f"server-{port}", [sys.executable, "manage.py", "serve", "--host", HOST, "--port",
                                               str(port)], env) for port in ports]
    worker_env = worker_environment(**{key: env[key] for key in ("REDIS_URL", "SECRET_KEY", "DEBUG", "LOG_LEVEL")})
    worker_env.pop("DATABASE_TEST_NAME", None)
    worker_command = [sys.executable, "-m", "celery", "-A", "septica_site", "worker", "--pool", "threads",
                      "--concurrency", "2", "--loglevel", "WARNING", "--without-gossip", "--without-mingle"]
    worker_log = processes.start("worker", worker_command, worker_env)
    worker = processes.running[-1]
    try:
        for log in logs:
            assert wait_for(lambda log=log: b"is ready at" in log.read_bytes(), 30), log.read_text()
        assert wait_for(lambda: _worker_answers(own_redis), 60), worker_log.read_text()
        yield ports, logs, worker, worker_log
    finally:
        processes.stop_all()
        others_gone()


def others_gone() -> None:
    """Wait until the stopped processes' database sessions have ended, so the test database can be dropped."""
    if connection.vendor != "postgresql":
        return

    def others() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid()")
            return cursor.fetchone()[0]

    wait_for(lambda: others() == 0, 10)


def _worker_answers(redis_server: RedisServer) -> bool:
    return redis_server.answers() and bool(subprocess.run(
        [sys.executable, "-m", "celery", "-A", "septica_site", "inspect", "ping", "--timeout", "1"],
        cwd=ROOT, env=site_env(redis_server.url), capture_output=True).returncode == 0)


def request(port: int, method: str, path: str, secret: str | None = None, body: dict | None = None):
    """(status, JSON or text, seconds taken)."""
    client = http.client.HTTPConnection(HOST, port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    started = time.monotonic()
    client.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = client.getresponse()
    raw = response.read()
    elapsed = time.monotonic() - started
    client.close()
    try:
        content = json.loads(raw)
    except ValueError:
        content = raw.decode(errors="replace")
    return response.status, content, elapsed


def post_form(port: int, path: str, fields: dict) -> tuple[int, str]:
    """A browser's form post, in a session of its own: (status, where it is sent next)."""
    client = http.client.HTTPConnection(HOST, port, timeout=10)
    client.request("GET", path)
    page = client.getresponse()
    page.read()
    cookies = SimpleCookie()
    for header in page.headers.get_all("Set-Cookie") or []:
        cookies.load(header)
    token = cookies["csrftoken"].value
    client.request("POST", path, body=urlencode({**fields, "csrfmiddlewaretoken": token}), headers={
        "Cookie": f"csrftoken={token}", "Content-Type": "application/x-www-form-urlencoded"})
    answer = client.getresponse()
    answer.read()
    client.close()
    return answer.status, answer.getheader("Location") or ""


def move(port: int, secret: str, table_id: int) -> tuple[int, float]:
    status, view, _ = request(port, "GET", f"/api/tables/{table_id}", secret)
    assert status == 200
    status, answer, elapsed = request(port, "POST", f"/api/tables/{table_id}/moves", secret,
                                      {"seq": view["seq"], "move": view["view"]["legal_moves"][0]})
    assert status == 200, answer
    return view["seq"], elapsed


def move_until_the_bots_turn(port: int, secret: str, table_id: int) -> tuple[int, float]:
    """The person moves (a trick may give them the lead again) until it is the bot's
    turn; the seq at which the bot is to move, and the slowest answer."""
    slowest = 0.0
    while True:
        seq, elapsed = move(port, secret, table_id)
        slowest = max(slowest, elapsed)
        if closing_connection(to_move, table_id) == 1:
            return seq + 1, slowest


def closing_connection(function, *args):
    """Run `function` in this thread, then give back the thread's database connection
    (the test database is dropped at the end, which open connections prevent)."""
    try:
        return function(*args)
    finally:
        connection.close()


def seq_of(table_id: int) -> int:
    return Match.objects.values_list("seq", flat=True).get(pk=table_id)


def bot_answered(table_id: int, seq: int) -> bool:
    return Move.objects.filter(match_id=table_id, seq=seq, actor=Actor.BOT).exists()


def to_move(table_id: int) -> int | None:
    return Match.objects.values_list("to_move", flat=True).get(pk=table_id)


async def view_at_least(socket: WebSocket, seq: int, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        message = await asyncio.wait_for(socket.recv_json(), max(0.01, deadline - time.monotonic()))
        if message["type"] == "view" and message["seq"] >= seq:
            return message


async def open_socket(port: int, table_id: int, secret: str) -> WebSocket:
    return await WebSocket.connect(HOST, port, f"/ws/tables/{table_id}/", headers={"Authorization": f"Bearer {secret}"})


async def refused_cleanly(port: int, table_id: int, secret: str) -> str:
    """How a handshake made while Redis is down ends: accepted, then closed with 4503 (try again soon)."""
    try:
        socket = await open_socket(port, table_id, secret)
    except HandshakeRefused as refusal:
        raise AssertionError(f"the handshake was refused ({refusal}), not closed with 4503") from None
    try:
        while True:
            await asyncio.wait_for(socket.recv_json(), 5)
    except Closed as closed:
        assert closed.code == 4503, f"closed with {closed.code}"
        return f"closed with {closed.code}"


def test_the_site_keeps_answering_without_redis_and_catches_up_when_it_returns(site, own_redis, alice, bob):
    (first, second), logs, worker, worker_log = site
    _token, alice_secret = ApiToken.issue(alice, "redis down")
    _token, bob_secret = ApiToken.issue(bob, "redis down")
    status, created, _ = request(first, "POST", "/api/tables", alice_secret, {
        "rules": "septica", "players": 2, "seconds_per_move": 86400,
        "bots": [{"seat": 1, "level": "beginner", "style": "balanced"}]})
    assert status == 201, created
    against_bot = created["id"]
    against_bob = start_table(alice, [bob], options={"match": "points-8"}).pk
    assert wait_for(lambda: to_move(against_bot) == 0, 15), "the bot never opened"
    while to_move(against_bob) == 1:
        move(first, bob_secret, against_bob)

    async def db(function, *args):
        return await asyncio.to_thread(closing_connection, function, *args)

    async def scenario():
        watcher = await open_socket(second, against_bob, bob_secret)  # bob watches from the other server
        try:
            await view_at_least(watcher, await db(seq_of, against_bob), 10)

            # All well: a move through one server reaches the other, and the bot answers.
            bots_turn, _ = await asyncio.to_thread(move_until_the_bots_turn, first, alice_secret, against_bot)
            assert await db(wait_for, lambda: bot_answered(against_bot, bots_turn), 15)
            assert await db(wait_for, lambda: to_move(against_bot) == 0, 15)

            own_redis.stop()

            # Pages, /healthz and the API answer at once; moves are stored.
            for path in ("/", f"/tables/{against_bot}/", "/play/"):
                status, _body, elapsed = await asyncio.to_thread(request, first, "GET", path)
                assert status == 200 and elapsed < QUICK, (path, status, elapsed)
            status, health, health_took = await asyncio.to_thread(request, first, "GET", "/healthz")
            assert status == 503 and health_took < 1.3, (status, health_took)
            assert health == {"ok": False, "database": "ok", "channel_layer": "down", "broker": "down"}
            status, _me, elapsed = await asyncio.to_thread(request, second, "GET", "/api/me", alice_secret)
            assert status == 200 and elapsed < QUICK

            # Signing up, logging in and asking for a reset work (allauth's limits count in memory meanwhile).
            dana = {"username": "dana", "email": "dana@example.com"}
            assert await asyncio.to_thread(post_form, first, "/accounts/signup/", {
                **dana, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}) == (302, "/")
            assert await asyncio.to_thread(post_form, second, "/accounts/login/", {
                "login": "dana", "password": NEW_PASSWORD}) == (302, "/")
            status, _sent = await asyncio.to_thread(post_form, first, "/accounts/password/reset/",
                                                    {"email": dana["email"]})
            assert status == 302

            bots_turn, slowest = await asyncio.to_thread(move_until_the_bots_turn, first, alice_secret, against_bot)
            assert slowest < QUICK, f"a move took {slowest:.2f} s without Redis"
            assert await db(seq_of, against_bot) == bots_turn  # stored; the bot cannot answer yet
            missed_seq, elapsed = await asyncio.to_thread(move, first, alice_secret, against_bob)
            assert elapsed < QUICK
            assert await db(seq_of, against_bob) == missed_seq + 1

            # A new socket is refused cleanly, so the page falls back to polling.
            await refused_cleanly(first, against_bot, alice_secret)

            own_redis.start()
            back = time.monotonic()

            # Without a restart: the bot's reply is queued again and played ...
            assert await db(wait_for, lambda: bot_answered(against_bot, bots_turn), CATCH_UP), \
                "the bot never answered the move made while Redis was down"
            bot_caught_up = time.monotonic() - back
            # ... the socket on the other server learns of the move it missed ...
            await view_at_least(watcher, missed_seq + 1, CATCH_UP - (time.monotonic() - back))
            watcher_caught_up = time.monotonic() - back
            print(f"without Redis: /healthz answered 503 in {health_took:.2f} s, the slowest move took {slowest:.2f} s; "
                  f"after Redis came back: the bot answered in {bot_caught_up:.1f} s, "
                  f"the other server's socket caught up in {watcher_caught_up:.1f} s")
            # ... and new sockets connect again.
            again = await open_socket(first, against_bot, alice_secret)
            assert (await view_at_least(again, bots_turn + 1, 10))["your_seat"] == 0
            await again.close()
        finally:
            await watcher.close()

    try:
        asyncio.run(scenario())
    except AssertionError as failure:
        servers = "\n".join(f"--- {log.name} ---\n" + log.read_text(errors="replace")[-4000:] for log in logs)
        raise AssertionError(f"{failure}\n{servers}") from failure
    assert worker.poll() is None, "the worker exited: " + worker_log.read_text(errors="replace")[-3000:]
    for log in logs:
        text = log.read_text(errors="replace")
        assert "Internal Server Error" not in text, text[-3000:]
