"""Schemathesis fuzzes every operation of /api/openapi.json through the site's
own WSGI handler: requests built from the document, most with Alice's bearer
token, some with no credential, against a world holding real tables (playing,
open, finished, one Alice only watches).

Every answer must be JSON, within the document (its status listed, its body
fitting the schema), never a 500, and show Alice no card she may not see. The
run is bounded (EXAMPLES per operation) and repeatable: a fixed seed and no
example database, so CI fuzzes the same requests every time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import hypothesis
import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from werkzeug.test import Client as WsgiClient

from accounts.models import ApiToken
from api.routes import document
from games import actions
from games.actions.challenges import create_challenge
from games.models import Match, Seat
from tests.play import card_codes_in, deal_again_from, finished_match, start_table

pytestmark = pytest.mark.django_db

SEED = 20261202
EXAMPLES = 12
ANONYMOUS_EVERY = 4  # one request in this many goes without a credential
DOCUMENT = "/api/openapi.json"
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_schema_conformance")


@dataclass
class World:
    """The real rows the fuzzer's ids are steered to, and what Alice may see of each playing table."""

    alice: object
    token: str
    tables: dict[int, int | None]  # table id -> Alice's seat, None where she only watches
    ids: dict[str, list[int]]
    public: dict[int, tuple[int, set[str]]] = field(default_factory=dict)  # table -> (deal, cards all have seen)
    calls: int = 0

    def steer(self, path_parameters: dict | None) -> dict | None:
        """Four generated values in five become a real one of their kind (a table, a challenge, a person, a game);
        the rest stay as generated, to be refused."""
        if not path_parameters:
            return path_parameters
        steered = {}
        for name, value in path_parameters.items():
            known = self.ids.get(name)
            pick = value if isinstance(value, int) else len(value) if isinstance(value, str) else 0
            if known and pick % 5:
                value = known[pick % len(known)]
            steered[name] = value
        return steered

    def headers(self) -> dict:
        self.calls += 1
        return {} if self.calls % ANONYMOUS_EVERY == 0 else {"Authorization": f"Bearer {self.token}"}

    def hidden_from_alice(self, table_id: int) -> set[str]:
        """The stock and the other hands of a playing table, less what every spectator has seen this deal."""
        match = Match.objects.filter(pk=table_id, table__status="playing").first()
        if match is None:
            return set()
        seat = self.tables[table_id]
        # Through the bare handler too: Django's test client would connect the
        # closing of connections again when it is done.
        view = WsgiClient(schema.app).get(f"/api/tables/{table_id}", headers={"Host": "testserver"}).json["view"]
        deal, seen = self.public.get(table_id, (None, set()))
        if view["deal"] != deal:
            deal, seen = view["deal"], set()
        seen |= set(card_codes_in(view))
        self.public[table_id] = (deal, seen)
        state = match.state
        hidden = set(state["stock"])
        for number, hand in enumerate(state["hands"]):
            if number != seat:
                hidden |= set(hand)
        return hidden - seen

    def own_cards(self) -> set[str]:
        cards: set[str] = set()
        for table_id, seat in self.tables.items():
            match = Match.objects.filter(pk=table_id).first()
            if match is not None and match.state and seat is not None:
                cards |= set(match.state["hands"][seat])
        return cards

    def assert_no_hidden_card(self, path: str, answer) -> None:
        shown = set(card_codes_in(answer))
        if not shown:
            return
        about = re.match(r"/api/tables/(\d+)", path)
        if about and int(about.group(1)) in self.tables:
            leaked = shown & self.hidden_from_alice(int(about.group(1)))
        else:  # an answer about no one table of the world: no card hidden at any of them, her own aside
            hidden = set().union(*(self.hidden_from_alice(table_id) for table_id in self.tables))
            leaked = shown & (hidden - self.own_cards())
        assert not leaked, f"{path} showed Alice hidden cards {sorted(leaked)}"


@pytest.fixture
def world(alice, bob, charlie, make_user):
    dana = make_user("dana")
    playing = start_table(alice, [bob])
    americana = start_table(bob, [alice, charlie], rules="americana", players=3, options={"target": 101})
    watched = start_table(bob, [charlie])
    open_table = actions.create_table(alice, rules="septica", players=2, options={}, seconds_per_move=86400)
    finished = finished_match(alice, [dana]).table
    challenged = create_challenge(charlie, [alice], rules="septica", players=2, options={})
    challenging = create_challenge(alice, [bob, dana], rules="familie", players=3, options={})
    for seed, table in enumerate((playing, americana, watched), start=1):
        deal_again_from(table, seed)  # the same cards every run, as the same requests
    _, token = ApiToken.issue(alice, "fuzz")
    seats = {seat.table_id: seat.number for seat in Seat.objects.filter(user=alice)}
    tables = [playing, americana, watched, open_table, finished, challenged.table, challenging.table]
    return World(alice=alice, token=token, tables={table.pk: seats.get(table.pk) for table in tables},
                 ids={"table_id": [table.pk for table in tables], "challenge_id": [challenged.pk, challenging.pk],
                      "username": ["alice", "bob", "Charlie", "dana"], "rules": ["septica", "familie", "americana"]})


@pytest.fixture(autouse=True)
def transaction_kept_open():
    """Django's test client keeps the test's transaction open across its requests
    this way too; a request through the bare WSGI handler would close it."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


# Read from the site's own document, as /api/openapi.json serves it (the
# lazy pytest loader of schemathesis 4.32 fails on pytest 9).
schema = schemathesis.openapi.from_dict(
    document(), config=schemathesis.Config.from_dict(
        {"seed": SEED, "generation": {"max-examples": EXAMPLES, "database": "none"}}))
schema.app = get_wsgi_application()


@schema.parametrize()
# One world for all of an operation's examples, on purpose: what one request
# changes (a seat taken, a token revoked) is what the next one meets.
@hypothesis.settings(suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
def test_every_operation_answers_json_within_its_schema_and_shows_no_hidden_card(case, world):
    case.path_parameters = world.steer(case.path_parameters)

    response = case.call(headers={"Host": "testserver", **world.headers()})

    case.validate_response(response, checks=[getattr(schemathesis.checks, name) for name in CHECKS])
    content_type = response.headers.get("content-type", [""])[0]
    assert content_type.startswith("application/json"), f"{case.method} {case.formatted_path}: {content_type}"
    if case.method != "HEAD" and case.formatted_path != DOCUMENT:  # the document's examples are made-up cards
        world.assert_no_hidden_card(case.formatted_path, response.json())


def test_the_watch_catches_a_hand_shown_to_another_seat(world):
    """The check above can fail: Bob's hand in an answer about the table Alice plays at is a leak."""
    playing = next(iter(world.tables))
    bobs_hand = Match.objects.get(pk=playing).state["hands"][1]

    with pytest.raises(AssertionError, match="hidden cards"):
        world.assert_no_hidden_card(f"/api/tables/{playing}", {"view": {"hand": bobs_hand}})
    with pytest.raises(AssertionError, match="hidden cards"):
        world.assert_no_hidden_card("/api/me/matches", {"tables": [{"cards": bobs_hand}]})
