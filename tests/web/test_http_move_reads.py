"""What a move and a look over HTTP cost the database: the token's read, then the table's
one read (with whether an abort request is open) or the locked read and the move's write.
An open abort request is still read and shown."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import ApiToken
from games import actions
from games.leaving_rules import abort_alone_allowed
from games.models import Match
from tests.play import start_table


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(user, 'script')[1]}"}


def statements(reads) -> list[str]:
    return [(query["sql"] or "?").split()[0].upper() for query in reads]


@pytest.mark.django_db(transaction=True)
def test_a_look_and_a_move_read_the_table_once(client, alice, bob):
    table = start_table(alice, [bob], players=2)
    match = Match.objects.get(pk=table.pk)
    mover = alice if match.to_move == 0 else bob
    headers = bearer(mover)
    client.get("/api/me", **headers)  # the token's first use writes its last_used_at
    client.get(f"/api/tables/{table.pk}", **headers)  # and the seated people's reliability is read once a minute

    with CaptureQueriesContext(connection) as look:
        answer = client.get(f"/api/tables/{table.pk}", **headers).json()
    move = answer["view"]["legal_moves"][0]
    with CaptureQueriesContext(connection) as moving:
        moved = client.post(f"/api/tables/{table.pk}/moves", json.dumps({"seq": answer["seq"], "move": move}),
                            content_type="application/json", **headers)

    assert answer["abort_request"] is None and moved.status_code == 200
    assert moved.json()["seq"] == answer["seq"] + 1 and moved.json()["abort_request"] is None
    assert len(look) == 2, [query["sql"] for query in look]  # the token, the table with its match and seats
    # the token, the locked read, the log row with the snapshot (two statements on SQLite)
    assert len([s for s in statements(moving) if s not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]) <= 4


@pytest.mark.django_db(transaction=True)
def test_an_open_abort_request_is_read_and_shown_on_a_look_and_after_a_move(client, alice, bob):
    table = start_table(alice, [bob], players=2)
    match = Match.objects.get(pk=table.pk)
    while abort_alone_allowed("septica", match.game().view(0)):  # until aborting means asking the other player
        player = alice if match.to_move == 0 else bob
        actions.play_move(table.pk, player, match.seq, match.game().legal_moves()[0])
        match = Match.objects.get(pk=table.pk)
    assert actions.abort(table.pk, alice) == "asked"
    mover = alice if match.to_move == 0 else bob
    headers = bearer(mover)

    look = client.get(f"/api/tables/{table.pk}", **headers).json()
    moved = client.post(f"/api/tables/{table.pk}/moves",
                        json.dumps({"seq": look["seq"], "move": look["view"]["legal_moves"][0]}),
                        content_type="application/json", **headers).json()

    assert look["abort_request"]["asked_by"] == "Alice"
    assert moved["abort_request"]["asked_by"] == "Alice"
