"""Alice and Bob at a public table, Charlie and Dave watching; sockets and moderators as elsewhere."""

from __future__ import annotations

import pytest

from tests.moderation.conftest import logged_in, moderator, moderators_group  # noqa: F401
from tests.play import start_table
from tests.realtime.conftest import (  # noqa: F401 -- the real ASGI application and its sockets
    application,
    fresh_realtime_state,
    headers_for,
    sockets,
    token_for,
)


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, [bob], options={"match": "points-8"})


@pytest.fixture
def private_playing(alice, bob):
    return start_table(alice, [bob], private=True)


def path(table, invite: str | None = None) -> str:
    return f"/ws/tables/{table.pk}/" + (f"?invite={invite}" if invite else "")
