"""/healthz: 200 with the state of each part when all is well, 503 when one is
down, within a second whatever hangs; details for staff only."""

from __future__ import annotations

import socket
import time

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

from septica_site import health
from septica_site.celery import app as celery_app
from tests.second_factor import log_in
from tests.second_factor import staff_client as logged_in_with_second_factor

CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def hung_port():
    """A port that accepts connections and never answers: a dependency that hangs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


@pytest.fixture
def staff_client(make_user, password, account_limits_unused):
    """Staff logged in with their password and a second factor."""
    return logged_in_with_second_factor(make_user("root", is_staff=True), password)


@pytest.fixture
def everything_hangs(monkeypatch, settings, hung_port, tmp_path):
    """The database, the channel layer and the broker all accept and never answer
    (the SQLite database, which cannot hang that way, is missing instead)."""
    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("sqlite3"):
        broken = {"ENGINE": default["ENGINE"], "NAME": str(tmp_path / "missing" / "nowhere.sqlite3")}
    else:
        broken = {**default, "PORT": str(hung_port), "HOST": "127.0.0.1", "OPTIONS": {"connect_timeout": 5}}
    monkeypatch.setattr(health, "connections", ConnectionHandler({"default": broken}))
    hung_redis = f"redis://127.0.0.1:{hung_port}/0"
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "septica_site.channel_layers.RedisPubSubLayer", "CONFIG": {"hosts": [hung_redis]}}
    }
    monkeypatch.setattr(celery_app.conf, "broker_url", hung_redis)


@pytest.fixture
def broken_database(monkeypatch, tmp_path):
    """A database the site cannot open: a closed port, or a file in a missing folder."""
    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("sqlite3"):
        broken = {"ENGINE": default["ENGINE"], "NAME": str(tmp_path / "missing" / "nowhere.sqlite3")}
    else:
        broken = {**default, "PORT": "1", "HOST": "127.0.0.1", "OPTIONS": {}}
    monkeypatch.setattr(health, "connections", ConnectionHandler({"default": broken}))


@pytest.mark.django_db
def test_it_reports_every_part_healthy(staff_client):
    response = staff_client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] and body["channel_layer"]["ok"] and body["broker"]["ok"]
    assert body["database"]["engine"] in {"sqlite", "postgresql"}


@pytest.mark.django_db
def test_it_names_the_backends_in_use(staff_client):
    body = staff_client.get("/healthz").json()

    expected_layer = "RedisPubSubLayer" if settings.REDIS_URL else "LocalChannelLayer"
    assert body["channel_layer"]["backend"] == expected_layer
    assert body["broker"]["transport"] == ("redis" if settings.REDIS_URL else "memory")


@pytest.mark.django_db
def test_it_answers_503_when_the_database_is_down(staff_client, broken_database):
    response = staff_client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["database"]["ok"] is False and body["database"]["error"]
    assert body["channel_layer"]["ok"] is True


@pytest.mark.django_db
def test_it_answers_503_when_the_channel_layer_is_down(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [CLOSED_PORT_REDIS]}}
    }

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["channel_layer"] == "down"


@pytest.mark.django_db
def test_it_answers_503_when_the_broker_is_down(client, monkeypatch):
    monkeypatch.setattr(celery_app.conf, "broker_url", CLOSED_PORT_REDIS)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["broker"] == "down"


def test_it_is_never_cached(client, db):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


@pytest.mark.django_db
def test_anonymous_callers_see_only_ok_or_down(client, broken_database):
    body = client.get("/healthz").json()

    assert body == {"ok": False, "database": "down", "channel_layer": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_staff_logged_in_with_a_password_alone_see_only_ok_or_down(client, make_user, password, broken_database,
                                                                   account_limits_unused):
    make_user("root", is_staff=True)
    log_in(client, "root", password)

    body = client.get("/healthz").json()

    assert body == {"ok": False, "database": "down", "channel_layer": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_it_answers_503_within_a_second_when_everything_hangs(staff_client, everything_hangs, monkeypatch):
    # A budget far below the probes' own timeouts (5 s for Redis and for the
    # database's connect): an answer that waited for them would be 5 s late and
    # would give their errors, not the budget's. The bound leaves a loaded
    # machine seconds for the request itself.
    monkeypatch.setattr(health, "PROBE_BUDGET_SECONDS", 0.2)
    monkeypatch.setattr(health, "PROBE_TIMEOUT", 5.0)
    started = time.monotonic()
    response = staff_client.get("/healthz")
    elapsed = time.monotonic() - started

    assert response.status_code == 503
    body = response.json()
    assert not any(body[part]["ok"] for part in ("database", "channel_layer", "broker"))
    assert body["channel_layer"]["error"] == body["broker"]["error"] == "no answer within 0.2 s"
    assert elapsed < 3.0, f"/healthz took {elapsed:.2f} s"
