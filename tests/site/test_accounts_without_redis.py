"""Log-in, sign-up and password reset keep working while Redis is away.

allauth's limits count in the cache, which is Redis in the PostgreSQL +
Redis setup. Here the cache is a Redis of this test's own (never the shared
one), stopped in the middle: the pages answer as they do with Redis, the
limits count in the server's memory meanwhile, and the log-in lock-out
(django-axes, in the database) holds.
"""

from __future__ import annotations

import socket
import time

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from septica_site import cache
from tests.second_factor import log_in, set_up_totp

from .redis_server import RedisServer, have_redis_server

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(not settings.REDIS_URL, reason="the embedded setup keeps its cache in memory, not in Redis"),
    pytest.mark.skipif(not have_redis_server(), reason="needs redis-server to start a Redis of its own"),
]

NEW_PASSWORD = "a-whole-new-deck-42"


@pytest.fixture
def own_redis():
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def limits_on_own_redis(settings, own_redis):
    """The site's cache, and allauth's limits as in production (the suite turns two off), on `own_redis`."""
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": own_redis.url}}
    limits = {name: rate for name, rate in settings.ACCOUNT_RATE_LIMITS.items() if name != "login"}
    settings.ACCOUNT_RATE_LIMITS = {**limits, "signup": "20/m/ip"}
    yield own_redis
    cache.outage.forget()
    cache.memory.clear()


def sign_up(client: Client, username: str):
    return client.post(reverse("signup"), {"username": username, "email": f"{username}@example.com",
                                           "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})


def logged_in(client: Client) -> str | None:
    return client.get(reverse("api_me")).json().get("username")


def test_log_in_sign_up_and_reset_answer_with_redis_stopped(limits_on_own_redis, alice, password):
    assert log_in(Client(), "alice", password).url == reverse("home")  # with Redis
    limits_on_own_redis.stop()

    client = Client()
    assert log_in(client, "alice", password).url == reverse("home")
    assert logged_in(client) == "alice"

    newcomer = Client()
    assert sign_up(newcomer, "dana").url == reverse("home")
    assert logged_in(newcomer) == "dana"

    reset = Client().post(reverse("password_reset"), {"email": "alice@example.com"})
    assert reset.status_code == 302
    assert [message.to for message in mail.outbox if "alice@example.com" in message.to]

    limits_on_own_redis.start()
    assert log_in(Client(), "alice", password).url == reverse("home")


def test_the_password_lock_out_holds_with_redis_stopped(limits_on_own_redis, alice, password):
    limits_on_own_redis.stop()
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "alice", "not-it")

    response = log_in(client, "alice", password)

    assert response.status_code == 429
    assert "Too many failed log-in attempts" in response.content.decode()
    assert logged_in(client) is None


def test_limits_count_in_memory_while_redis_is_away_and_say_so_once(limits_on_own_redis, alice, settings, caplog):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "2/m/key"}
    limits_on_own_redis.stop()

    for _ in range(3):
        Client().post(reverse("password_reset"), {"email": "alice@example.com"})

    assert len([message for message in mail.outbox if "alice@example.com" in message.to]) == 2
    assert len([record for record in caplog.records if "Redis is unreachable" in record.getMessage()]) == 1


def test_the_second_factor_works_and_a_code_is_still_taken_once_with_redis_stopped(
        limits_on_own_redis, alice, password):
    setting_up = Client()
    log_in(setting_up, "alice", password)
    app = set_up_totp(setting_up, password)
    limits_on_own_redis.stop()

    client = Client()
    assert log_in(client, "alice", password).url.startswith(reverse("mfa_authenticate"))
    code = app.code()
    assert client.post(reverse("mfa_authenticate"), {"code": code}).status_code == 302
    assert logged_in(client) == "alice"

    again = Client()
    log_in(again, "alice", password)
    replayed = again.post(reverse("mfa_authenticate"), {"code": code})
    assert replayed.status_code == 200 and "Incorrect code." in replayed.content.decode()
    assert logged_in(again) is None


@pytest.fixture
def limits_on_a_hung_redis(settings):
    """A Redis that accepts connections and never answers (a network cut rather than a stop)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        location = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
        settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": location}}
        limits = {name: rate for name, rate in settings.ACCOUNT_RATE_LIMITS.items() if name != "login"}
        settings.ACCOUNT_RATE_LIMITS = {**limits, "signup": "20/m/ip"}
        yield
    cache.outage.forget()
    cache.memory.clear()


def test_a_redis_that_hangs_costs_one_timeout_not_one_per_count(limits_on_a_hung_redis, alice, password):
    # Each count is four calls to the cache and a reset makes three counts: at
    # the cache's 0.5 s timeout a call, asking Redis each time would take 12 s here.
    for page in ("login", "signup", "password_reset"):
        Client().get(reverse(page))  # the first requests' own start-up is not what is measured
    started = time.monotonic()
    assert log_in(Client(), "alice", password).url == reverse("home")
    assert sign_up(Client(), "dana").url == reverse("home")
    assert Client().post(reverse("password_reset"), {"email": "alice@example.com"}).status_code == 302
    elapsed = time.monotonic() - started

    assert elapsed < 3.0, f"the three pages took {elapsed:.2f} s"
