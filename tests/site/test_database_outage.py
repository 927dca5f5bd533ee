"""A server whose database stops answering answers 503 within a second, and answers again soon after it is back.

The database "stops answering" here through a gate on 127.0.0.1 in front of
it: open, it relays to the real PostgreSQL; shut, it drops the connections
it relayed and holds every new one without a word, as a host gone behind a
dead link does (bench/partition.py cuts real packets, in namespaces of its own).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client, override_settings
from django.urls import path

from septica_site import urls as site_urls
from septica_site.outage import database_unreachable
from tests.site.test_redis_down import others_gone

ROOT = Path(__file__).resolve().parents[2]
ANSWER_WITHIN = 1.0  # seconds: the bound for a server that lost its database


class Gate:
    """A TCP relay to `upstream` that can be shut (connections dropped, new ones held unanswered) and opened."""

    def __init__(self, upstream: tuple[str, int] | None) -> None:
        self.upstream, self.open = upstream, upstream is not None
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.relayed: list[socket.socket] = []
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def shut(self) -> None:
        with self.lock:
            self.open = False
            for end in self.relayed:
                hang_up(end)
            self.relayed.clear()

    def reopen(self) -> None:
        with self.lock:
            self.open = True

    def close(self) -> None:
        self.shut()
        self.listener.close()
        for end in self.held:
            hang_up(end)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                if not self.open:
                    self.held.append(client)
                    continue
                server = socket.create_connection(self.upstream)
                self.relayed += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, target), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                hang_up(end)


def hang_up(end: socket.socket) -> None:
    """Close the connection itself: a plain close() leaves it open while another thread is in recv() on it."""
    with contextlib.suppress(OSError):
        end.shutdown(socket.SHUT_RDWR)
    end.close()


SERVER = """
import json, sys, time
import django
django.setup()
from django.db import close_old_connections
from django.test import Client

client = Client(raise_request_exception=False)
for line in sys.stdin:
    path = line.strip()
    started = time.monotonic()
    response = client.get(path)
    close_old_connections()  # what a server does at each request's end (the test client does not)
    print(json.dumps({"path": path, "status": response.status_code, "seconds": time.monotonic() - started,
                      "type": response.get("Content-Type", ""), "retry_after": response.get("Retry-After"),
                      "body": response.content.decode()[:3000]}), flush=True)
"""


class Site:
    """A Django process on PostgreSQL through the gate, asked for pages one at a time (its answers as dicts)."""

    def __init__(self, database_url: str) -> None:
        env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "0", "HTTPS": "0", "LOG_LEVEL": "CRITICAL",
               "SECRET_KEY": "database-outage-test-" + "x" * 40, "ALLOWED_HOSTS": "testserver"}
        for name in ("REDIS_URL", "DATABASE_TEST_NAME"):
            env.pop(name, None)
        # Its log (each 503 is logged with its cause) goes nowhere: the answers are what is checked.
        self.process = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.get("/api/tables")  # a server's first request imports half the site: it was up before the outage

    def get(self, path: str) -> dict:
        self.process.stdin.write(path + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture
def held_database():
    """A PostgreSQL address that accepts connections and never answers (nothing behind the gate)."""
    gate = Gate(None)
    site = Site(f"postgres://postgres@127.0.0.1:{gate.port}/septica")
    yield site
    site.close()
    gate.close()


def test_an_api_request_the_database_cannot_answer_gets_503_within_a_second(held_database):
    for _ in range(3):  # one after another, while the pool keeps trying
        answer = held_database.get("/api/tables")
        assert answer["status"] == 503, answer
        assert answer["seconds"] < ANSWER_WITHIN, answer
        assert answer["type"] == "application/json"
        assert json.loads(answer["body"])["code"] == "database_unavailable"
        assert answer["retry_after"] == "5"


def test_a_page_the_database_cannot_answer_gets_the_try_again_page_with_503(held_database):
    answer = held_database.get("/leaderboard/septica/")
    assert answer["status"] == 503, answer
    assert answer["seconds"] < ANSWER_WITHIN, answer
    assert "text/html" in answer["type"]
    assert "Try again in a moment" in answer["body"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="the pool and its timeouts are PostgreSQL's")
def test_requests_answer_503_while_the_database_is_cut_and_200_soon_after_it_is_back():
    settings = connection.settings_dict
    gate = Gate((settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432)))
    site = Site(f"postgres://{settings['USER']}@127.0.0.1:{gate.port}/{settings['NAME']}")
    try:
        assert site.get("/api/tables")["status"] == 200
        gate.shut()
        cut = [site.get("/api/tables") for _ in range(3)]
        assert [answer["status"] for answer in cut] == [503] * 3, cut
        assert max(answer["seconds"] for answer in cut) < ANSWER_WITHIN, cut
        time.sleep(6)  # long enough for psycopg_pool's own backoff to have grown past a few seconds
        gate.reopen()
        reopened = time.monotonic()
        while (answer := site.get("/api/tables"))["status"] != 200 and time.monotonic() - reopened < 10:
            time.sleep(0.1)
        assert answer["status"] == 200, answer
        assert time.monotonic() - reopened < 4.0
    finally:
        site.close()
        gate.close()
        others_gone()


def fails_with(error: Exception):
    def view(request):
        raise error

    return view


# This module is the URL configuration of the test below: the site's 500 handler, views that fail.
handler500 = "septica_site.outage.server_error"
urlpatterns = [
    path("api/database-gone", fails_with(OperationalError("server closed the connection unexpectedly"))),
    path("api/bug", fails_with(ValueError("a bug"))),
    path("database-gone", fails_with(InterfaceError("connection already closed"))),
    *site_urls.urlpatterns,  # the middleware names some of the site's addresses
]


@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
@pytest.mark.parametrize(("path", "status", "kind"), [("/api/database-gone", 503, "application/json"),
                                                      ("/database-gone", 503, "text/html"),
                                                      ("/api/bug", 500, "application/json")])
def test_only_a_database_that_does_not_answer_makes_a_503(path, status, kind):
    answer = Client(raise_request_exception=False).get(path)
    assert answer.status_code == status
    assert kind in answer["Content-Type"]
    assert ("Retry-After" in answer) == (status == 503)


def test_an_error_raised_from_a_database_error_counts_as_one():
    try:
        try:
            raise OperationalError("timeout expired")
        except OperationalError as error:
            raise RuntimeError("the read failed") from error
    except RuntimeError as wrapped:
        assert database_unreachable(wrapped)
    assert not database_unreachable(ValueError("a bug"))
