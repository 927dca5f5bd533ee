"""Moderators, staff outside the group, and driving admin actions as a browser would."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client

from games.models import Table
from tests.play import start_table
from tests.realtime.conftest import (  # noqa: F401 -- the real ASGI application and its sockets, for test_live
    application,
    fresh_realtime_state,
    headers_for,
    sockets,
)
from tests.second_factor import staff_client

ADMIN = "/admin/"
PASSWORD = "cards-on-the-table-7"  # the `password` fixture's, which make_user gives everyone


@pytest.fixture
def moderators_group(db) -> Group:
    """The group the data migration made; a transactional test's flush empties it away, so make it again."""
    if not Group.objects.filter(name="Moderators").exists():
        importlib.import_module("games.migrations.0003_moderators_group").make_group(apps, None)
    return Group.objects.get(name="Moderators")


@pytest.fixture
def moderator(make_user, moderators_group):
    user = make_user("mod", display_name="Mod", is_staff=True)
    user.groups.add(moderators_group)
    return user


@pytest.fixture
def outsider_staff(make_user, moderators_group):
    """Staff, with every view permission a moderator has, but not in the Moderators group."""
    user = make_user("helpdesk", is_staff=True)
    user.user_permissions.set(moderators_group.permissions.exclude(codename="moderate"))
    return user


@pytest.fixture
def playing(alice, bob) -> Table:
    """Alice (seat 0, to move) and Bob at a running two-player septica table."""
    return start_table(alice, [bob], options={"match": "points-8"})


def logged_in(user) -> Client:
    """A browser with ``user`` logged in; staff log in with a second factor, as the admin demands."""
    if user.is_staff or user.is_superuser:
        return staff_client(user, PASSWORD)
    client = Client()
    client.force_login(user)
    return client


def changelist(model: str) -> str:
    app = "accounts" if model == "user" else "games"
    return f"{ADMIN}{app}/{model}/"


def run_action(client: Client, model: str, action: str, ids, **form):
    """Pick the rows, choose the action (which asks for a reason), then fill in its form.
    Returns (the reason page, the answer to the form)."""
    url = changelist(model)
    chosen = {"action": action, "_selected_action": [str(pk) for pk in ids]}
    asked = client.post(url, chosen)
    answered = client.post(url, {**chosen, "apply": "yes", **form}, follow=True)
    return asked, answered
