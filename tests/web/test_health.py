"""/healthz: 200 with the state of each part when all is well, 503 when one is down."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

from septica_site import health
from septica_site.celery import app as celery_app

CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


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
def test_it_reports_every_part_healthy(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] and body["channel_layer"]["ok"] and body["broker"]["ok"]
    assert body["database"]["engine"] in {"sqlite", "postgresql"}


@pytest.mark.django_db
def test_it_names_the_backends_in_use(client):
    body = client.get("/healthz").json()

    expected_layer = "RedisPubSubLayer" if settings.REDIS_URL else "LocalChannelLayer"
    assert body["channel_layer"]["backend"] == expected_layer
    assert body["broker"]["transport"] == ("redis" if settings.REDIS_URL else "memory")


@pytest.mark.django_db
def test_it_answers_503_when_the_database_is_down(client, broken_database):
    response = client.get("/healthz")

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
    assert response.json()["channel_layer"]["ok"] is False


@pytest.mark.django_db
def test_it_answers_503_when_the_broker_is_down(client, monkeypatch):
    monkeypatch.setattr(celery_app.conf, "broker_url", CLOSED_PORT_REDIS)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False


def test_it_is_never_cached(client, db):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
