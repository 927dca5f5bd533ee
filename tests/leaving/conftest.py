"""People enough for a free-for-all, and API clients."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.realtime.conftest import application, fresh_realtime_state, headers_for, sockets  # noqa: F401  (sockets)


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


@pytest.fixture
def post():
    """POST a JSON body as `user` (None: nobody logged in); the response."""

    def send(user, url: str, body: dict | None = None):
        client = Client()
        if user is not None:
            client.force_login(user)
        return client.post(url, data=json.dumps(body or {}), content_type="application/json")

    return send


@pytest.fixture
def get():
    def read(user, url: str):
        client = Client()
        if user is not None:
            client.force_login(user)
        return client.get(url)

    return read
