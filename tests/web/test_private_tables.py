"""A private table does not exist for an outsider: every address answers them
exactly as it answers for a table that was never created.

Alice and Bob sit at a private table; Charlie is logged in, has no seat and no
invite. For each address and each stage of the table, Charlie's answer is
compared with the answer for an id no table has.
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games import actions
from games.models import Match, Move, Seat, Table, TableStatus
from tests.play import finished_match, seated_table

pytestmark = pytest.mark.django_db

MISSING_ID = 987654
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')  # new for every page

API = [
    ("get", "/api/tables/{id}"),
    ("post", "/api/tables/{id}/join"),
    ("post", "/api/tables/{id}/leave"),
    ("post", "/api/tables/{id}/moves"),
    ("post", "/api/tables/{id}/rematch"),
    ("post", "/api/tables/{id}/back"),
]
PAGES = [
    ("get", "/tables/{id}/"),
    ("get", "/tables/{id}/replay/"),
    ("get", "/tables/{id}/replay.json"),
    ("post", "/play/{id}/join/"),
    ("post", "/play/{id}/leave/"),
    ("post", "/matches/{id}/rematch/"),
    ("post", "/tables/{id}/report/"),
]


@pytest.fixture
def as_charlie(charlie):
    """A fresh session for each request, so one answer's messages never show in the next."""

    class FreshClient:
        def __getattr__(self, method):
            client = Client()
            client.force_login(charlie)
            return getattr(client, method)

    return FreshClient()


def open_private(alice, bob):
    return actions.create_table(alice, rules="septica", players=3, options={}, private=True)


def playing_private(alice, bob):
    return seated_table(alice, [bob], private=True)


def finished_private(alice, bob):
    return finished_match(alice, [bob], private=True).table


STAGES = {"open": open_private, "playing": playing_private, "finished": finished_private}


def ask(client, method: str, url: str):
    if method == "get":
        return client.get(url)
    if url.startswith("/api/"):
        body = {"seq": 0, "move": {"type": "play", "card": "KH"}}
        return client.post(url, data=json.dumps(body), content_type="application/json")
    return client.post(url, {"seat": "0", "reason": "rude"})


def what_the_visitor_sees(response, table_id: int) -> dict:
    """Status, where it leads, what it says: everything but the id the visitor typed."""
    typed = re.compile(rf"/{table_id}(?=[/.])")  # the id in an address the page repeats
    body = typed.sub("/<id>", CSRF_TOKEN.sub("", response.content.decode()))
    messages = [str(message) for message in get_messages(response.wsgi_request)]
    location = typed.sub("/<id>", response.get("Location", ""))
    return {"status": response.status_code, "location": location, "type": response.get("Content-Type"),
            "body": body, "messages": messages}


def nothing_changed(table: Table, before: tuple) -> bool:
    return before == state_of(table)


def state_of(table: Table) -> tuple:
    return (Table.objects.filter(rematch_of=table).count(), Move.objects.filter(match_id=table.pk).count(),
            sorted(Seat.objects.filter(table=table).values_list("number", "user_id", "standing_in")),
            Table.objects.get(pk=table.pk).status, Match.objects.get(pk=table.pk).seq)


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize(("method", "url"), API + PAGES)
def test_an_outsider_is_answered_as_if_the_private_table_did_not_exist(alice, bob, as_charlie, stage, method, url):
    table = STAGES[stage](alice, bob)
    before = state_of(table)

    outsider = what_the_visitor_sees(ask(as_charlie, method, url.format(id=table.pk)), table.pk)
    missing = what_the_visitor_sees(ask(as_charlie, method, url.format(id=MISSING_ID)), MISSING_ID)

    assert outsider == missing
    assert outsider["status"] in (302, 404)
    assert nothing_changed(table, before)


@pytest.mark.parametrize(("method", "url"), [(m, u) for m, u in API if m == "post"])
def test_the_api_says_there_is_no_such_table_or_match_for_a_private_one(alice, bob, as_charlie, method, url):
    table = playing_private(alice, bob)

    response = ask(as_charlie, method, url.format(id=table.pk))

    assert response.status_code == 404
    assert response.json()["error"] in ("There is no such table.", "There is no such match.")


def test_a_player_of_a_private_table_still_hears_why_they_cannot_act(alice, bob):
    table = playing_private(alice, bob)
    client = Client()
    client.force_login(bob)

    response = ask(client, "post", f"/api/tables/{table.pk}/leave")

    assert response.status_code == 409
    assert "can no longer leave" in response.json()["error"]


def test_an_outsider_of_a_public_table_still_learns_they_have_no_seat(alice, bob, as_charlie):
    table = seated_table(alice, [bob])

    response = ask(as_charlie, "post", f"/api/tables/{table.pk}/moves")

    assert response.status_code == 403
    assert response.json()["error"] == "You have no seat at this table."


def test_a_player_kept_a_seat_in_a_private_rematch_is_told_they_have_no_seat_yet(alice, bob):
    old = finished_match(alice, [bob], private=True).table
    rematch = actions.rematch(old.pk, alice)
    client = Client()
    client.force_login(bob)

    response = ask(client, "post", f"/api/tables/{rematch.pk}/leave")

    assert response.status_code == 403
    assert rematch.status == TableStatus.OPEN
