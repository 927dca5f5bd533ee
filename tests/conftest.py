"""Fixtures every part of the site's tests share."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# One definition of the browser fixtures for every folder: a second copy of
# the session-wide `browser` (a conftest importing it) would start a second
# Playwright in the same thread, which refuses.
from tests.browser.fixtures import (  # noqa: F401
    _asgi_server_process,
    asgi_live_server,
    browser,
    new_context,
    page,
    skip_without_chromium,
)

QUICK_ANALYSIS_MS = 20.0  # the judge's budget per decision in tests that do not ask for another


def pytest_configure(config):
    from django.conf import settings

    if not settings.configured:  # engine tests may run without Django (-p no:django)
        return
    # Real hashing takes a fifth of a second a password, which the tests do hundreds of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The live server's static handler serves files as they are in the source
    # tree, so pages must ask for them by their plain names, as with DEBUG on.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    settings.BOT_MOVE_DELAY_SECONDS = 0  # bots answer at once; nobody waits for them to look human
    # Every finished match queues its analysis: a quick judge keeps the workers of the whole session from
    # spending the machine on them (the analysis's own tests set theirs).
    settings.ANALYSIS_BUDGET_MS = QUICK_ANALYSIS_MS
    # Every test client comes from one address, and the cache (Redis) outlives a
    # test: allauth's per-address flood guards on log-in and sign-up would trip
    # across hundreds of tests in a minute. The other limits stay (tests of them set their own).
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login": None, "signup": None}
    # Tests make tables by the dozen, and on SQLite a rolled-back user's id comes
    # back in the next test, with the counts in the cache; tests/web/test_limits.py sets its own.
    settings.TABLE_CREATION_RATE = "10000/s"
    # A server runs fewer request threads than its pool has connections (HTTP_THREADS under
    # DATABASE_POOL_MAX), so a request waits at most for one being opened, and the pool's short
    # wait is its answer to a database that is gone. This process is no such server: tests post
    # from 20 threads at once, which wait for each other's connections. Servers and workers the
    # tests start are configured as in production (tests/site/test_database_outage.py).
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        pool["timeout"] = 10.0


def pytest_collection_modifyitems(config, items):
    skip_without_chromium(items)
    run_device_tests_once(items)
    # Playwright's sync API keeps an event loop running in this thread for as
    # long as the browser is open; the asyncio tests cannot run beside it, so
    # the browser tests go last.
    items.sort(key=uses_the_browser)


ENGINE_TESTS = Path(__file__).parent / "engine"


def run_device_tests_once(items) -> None:
    """Practice plays in the browser against files the server only serves, and
    the rules engine imports nothing of Django (an import-linter contract):
    neither the database nor the channel layer takes part in their tests, so
    the PostgreSQL + Redis run of CI would repeat the embedded run's minutes
    to the letter."""
    if not os.environ.get("DATABASE_URL"):
        return
    on_the_device = pytest.mark.skip(reason="plays on the device alone: run in the embedded setup (CI's first run)")
    engine_alone = pytest.mark.skip(reason="the rules engine alone, without Django: run in the embedded setup (CI's first run)")
    for item in items:
        if "device" in item.keywords:
            item.add_marker(on_the_device)
        elif ENGINE_TESTS in Path(item.path).parents:
            item.add_marker(engine_alone)


def uses_the_browser(item) -> bool:
    """Under tests/browser/, or anywhere else through the `browser` fixture (`page` needs it)."""
    return "browser" in item.keywords or "browser" in getattr(item, "fixturenames", ())


@pytest.fixture(autouse=True)
def fresh_reliabilities():
    """Seats keep a person's reliability for a minute per process, and a process remembers the
    your-move checks it queued; user ids (and tests' seeds) come back after a rollback."""
    from games.after_commit.your_move import forget_queued_checks
    from games.leaving_view import forget_reliabilities

    forget_reliabilities()
    forget_queued_checks()
    yield
    forget_reliabilities()
    forget_queued_checks()


@pytest.fixture(autouse=True)
def fresh_account_limits():
    """allauth's limits (log-ins, sign-ups, resets per address) count in the
    cache, which outlives a test's database rollback: each test starts unused.
    Only the in-memory cache is emptied here: on Redis that would be FLUSHDB,
    which the broker shares; the account tests empty it themselves
    (account_limits_unused)."""
    from django.conf import settings

    if settings.configured and "locmem" in settings.CACHES["default"]["BACKEND"]:
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def push_services_resolve(monkeypatch):
    """No DNS where the tests run: the push services' names they subscribe at resolve (tests/notify/dns.py)."""
    from tests.notify.dns import PUBLIC_NAMES, resolving

    monkeypatch.setattr("notify.addresses.getaddrinfo", resolving(PUBLIC_NAMES))


@pytest.fixture
def account_limits_unused():
    """For the account tests: allauth's limits start unused whatever the cache (they use no worker)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def sent_tasks(monkeypatch):
    """The Celery tasks the after-commit modules send by name, as (name, args, options), kept instead of sent."""
    from septica_site.celery import app

    sent: list[tuple[str, tuple, dict]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args=(), **options: sent.append((name, tuple(args), options)))
    return sent


@pytest.fixture
def password():
    return "cards-on-the-table-7"


@pytest.fixture
def make_user(db, django_user_model, password):
    def make(username: str, email_verified: bool = True, **fields):
        """A player whose address is confirmed (allauth's EmailAddress), unless email_verified=False."""
        from allauth.account.models import EmailAddress

        fields.setdefault("email", f"{username}@example.com")
        user = django_user_model.objects.create_user(username=username, password=password, **fields)
        if fields["email"]:
            EmailAddress.objects.create(user=user, email=fields["email"], primary=True, verified=email_verified)
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob", display_name="Bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie", display_name="Charlie")


@pytest.fixture(autouse=True)
def quiet_before_the_flush(request):
    """A transactional test's flush waits until the workers and the servers write no more."""
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or bool(marker and marker.kwargs.get("transaction"))
    if "transactional_db" in request.fixturenames:
        request.getfixturevalue("transactional_db")  # set up first, so torn down (flushed) after this
    yield
    if transactional:
        from tests.quiet import database_quiet

        database_quiet()


@pytest.fixture(scope="session")
def database_threads_let_go(django_db_setup, django_db_blocker):
    """At the end of the run, the sockets' database threads and the event
    loops' re-reads give back their connections, so the test database can be
    dropped."""
    yield
    from games.consumers.database import close_database_threads_connections
    from games.consumers.loop_reads import close_loop_connections

    with django_db_blocker.unblock():
        close_database_threads_connections()
    close_loop_connections()


@pytest.fixture(scope="session")
def running_worker(django_db_setup):
    """A real Celery worker for the current settings.

    Embedded (no REDIS_URL): the worker thread inside this process, on the
    in-memory broker, exactly as the server runs it. With REDIS_URL: a
    separate `celery worker` process on Redis, as production runs it.
    """
    from django.conf import settings

    if settings.CELERY_EMBEDDED_WORKER:
        from septica_site import embedded_worker

        yield embedded_worker.start()
        embedded_worker.stop()  # before the test database goes
        return
    from tests.quiet import SESSION_WORKERS

    # Pushes and e-mails have a worker of their own (settings.NOTIFY_QUEUE), which reaches
    # the tests' push services on 127.0.0.1.
    SESSION_WORKERS.append(worker_name("notify"))
    notify_worker = worker_process(SESSION_WORKERS[-1], "--queues", settings.NOTIFY_QUEUE,
                                   PUSH_ALLOWED_NETWORKS="127.0.0.0/8")
    next(notify_worker)
    SESSION_WORKERS.append(worker_name("tests"))
    try:
        yield from worker_process(SESSION_WORKERS[-1])
    finally:
        notify_worker.close()


def worker_name(prefix: str) -> str:
    """A worker's node name of this test process, as `celery control` calls it."""
    import os
    import socket

    return f"{prefix}-{os.getpid()}@{socket.gethostname()}"


def worker_process(name: str, *options: str, **environment: str):
    """A `celery worker` process of four threads called `name`, on this process's broker, until closed
    (`options` added to its command line, `environment` to its environment)."""
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "celery", "-A", "septica_site", "worker", "--pool", "threads",
               "--concurrency", "4", "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
               "--hostname", name, *options]
    process = subprocess.Popen(command, env=worker_environment(**environment), start_new_session=True)
    try:
        from septica_site.celery import app

        deadline = time.monotonic() + 30
        while not app.control.ping(destination=[name], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the Celery worker process did not start")
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


def worker_environment(**extra: str) -> dict:
    """This process's environment, pointed at the test database, for a `celery worker` subprocess."""
    import os
    from urllib.parse import urlsplit

    from django.db import connection

    env = {"ANALYSIS_BUDGET_MS": str(QUICK_ANALYSIS_MS), **os.environ, "BOT_MOVE_DELAY_SECONDS": "0"}
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        env["DATABASE_URL"] = urlsplit(os.environ["DATABASE_URL"])._replace(path="/" + name).geturl()
    return {**env, **extra}
