"""Playwright in Debian's Chromium against a live server.

The browser is the system's /usr/bin/chromium (a Playwright browser download
does not work here). Where no Chromium exists the browser tests skip, saying
why; CI installs it, so there they always run.
"""

from __future__ import annotations

import os
import shutil
import time

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
# Without these, Chromium keeps trying to reach Google on a machine with no
# network, and some of its connections time out slowly.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# The sync Playwright API runs its own event loop; Django must allow ORM
# calls from test code while that loop exists in the thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def skip_without_chromium(items) -> None:
    """Where Chromium is missing, the tests that open it are skipped, saying why."""
    if os.path.exists(CHROMIUM):
        return
    reason = f"no Chromium at {CHROMIUM}: install Debian's chromium package to run the browser tests"
    for item in items:
        if "browser" in item.keywords or "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_context(browser):
    """Make fresh browser contexts (separate people); all are closed after the test."""
    contexts = []

    def make(**options):
        options.setdefault("viewport", {"width": 390, "height": 780})
        # Playwright's wait_for_function runs its expression through eval(),
        # which the site's Content-Security-Policy refuses; tests/browser/test_csp.py
        # opens its contexts with bypass_csp=False to hold every page to the policy.
        options.setdefault("bypass_csp", True)
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context):
    return new_context().new_page()


# --- an ASGI live server, for pages that use websockets ---------------------------------------
class AsgiServer:
    """`manage.py serve` (daphne: HTTP and websockets) in a subprocess; restart() stops and starts it."""

    def __init__(self, port: int, env: dict, log_path):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.env = env
        self.log_path = log_path
        self.process = None

    def __str__(self) -> str:
        return self.url

    def start(self) -> None:
        # A server that just stopped may still hold the port for a moment on a
        # loaded machine: a start that dies at once is tried again.
        for attempt in range(3):
            if self._start_once(timeout=45):
                return
            self.stop()
            time.sleep(1 + attempt)
        raise RuntimeError(f"the ASGI server did not start; see {self.log_path}")

    def _start_once(self, timeout: float) -> bool:
        import subprocess
        import sys
        import urllib.error
        import urllib.request
        from pathlib import Path

        manage = Path(__file__).resolve().parents[2] / "manage.py"
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen([sys.executable, str(manage), "serve", "--port", str(self.port)],
                                            env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1)
                return True
            except urllib.error.HTTPError:
                return True  # it answers (healthz may report the worker missing: there is none here)
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    return False
                time.sleep(0.1)

    def stop(self) -> None:
        import subprocess

        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def _server_environment() -> dict:
    """This process's environment, pointed at the test database, for a `manage.py serve` subprocess."""
    from urllib.parse import urlsplit

    from django.db import connection

    env = {**os.environ, "SEPTICA_NO_EMBEDDED_WORKER": "1", "DEBUG": "1", "HTTPS": "0",
           "BOT_MOVE_DELAY_SECONDS": "0", "FOLLOWING_REFRESH_SECONDS": "1"}
    if not os.environ.get("REDIS_URL"):
        # Embedded, what a test's own process publishes never reaches this server's sockets: a replay
        # page waiting for its analysis then learns of it only by asking the API, so it asks often.
        env["ANALYSIS_PAGE_CHECK_SECONDS"] = "1"
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        env["DATABASE_URL"] = urlsplit(os.environ["DATABASE_URL"])._replace(path="/" + name).geturl()
    return env


@pytest.fixture(scope="session")
def _asgi_server_process(django_db_setup, django_db_blocker):
    """One daphne server for the session, on the test database.

    Embedded, the channel layer lives in that process's memory, so a change
    reaches the sockets only when it is made through that server (the pages or
    its HTTP API), never through services called in the test process. With
    REDIS_URL either way works.
    """
    import socket
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with django_db_blocker.unblock():
        env = _server_environment()
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"asgi-live-server-{os.getpid()}.log"
    server = AsgiServer(port, env, log_path)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def asgi_live_server(_asgi_server_process, transactional_db):
    """A daphne server speaking HTTP and websockets, sharing the test database (committed data)."""
    if _asgi_server_process.process is None or _asgi_server_process.process.poll() is not None:
        _asgi_server_process.start()  # a test stopped it and failed before starting it again
    return _asgi_server_process
