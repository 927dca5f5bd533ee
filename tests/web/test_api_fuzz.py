"""Schemathesis fuzzes every operation of /api/openapi.json against the live
test server (`manage.py serve`, daphne, on the test database): requests built
from the document, most with Alice's bearer token, one in four with none,
against a world holding real tables (playing, open, finished, one Alice only
watches), challenges and people.

Every answer must be JSON, within the document (its status listed, its body
fitting the schema), never a 500, and show Alice no card she may not see.
Requests are made both to fit the document and not to: one that does not fit
must be refused, one that does must be taken, or refused by the rules with a
code the document lists for that operation (`x-rule-codes`). The
run is bounded and repeatable: SEPTICA_FUZZ_EXAMPLES generated requests per
operation (.ci/run asks for more than the default), a fixed seed, the same
deals and no example database, so it sends the same requests every time.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import hypothesis
import pytest
import requests
import schemathesis

from accounts.models import ApiToken
from api.routes import document
from api.site import RULE_CODES
from games import actions
from games.actions.challenges import create_challenge
from games.models import Match, Seat
from tests.play import card_codes_in, deal_again_from, finished_match, start_table

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 20261202
EXAMPLES = int(os.environ.get("SEPTICA_FUZZ_EXAMPLES", "12"))
ANONYMOUS_EVERY = 4  # one request in this many goes without a credential
DOCUMENT = "/api/openapi.json"
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_schema_conformance", "negative_data_rejection")


def positive_data_acceptance(ctx, response, case):
    """Schemathesis's own check, except that a 400 with a code the document lists for the operation passes:
    the rules refuse some requests that fit the document (following yourself, a card you do not hold)."""
    if response.status_code == 400:
        listed = case.operation.definition.raw["responses"].get("400", {}).get(RULE_CODES, [])
        try:
            code = response.json().get("code")
        except ValueError:
            code = None
        if code in listed:
            return None
    return schemathesis.checks.positive_data_acceptance(ctx, response, case)


@dataclass
class World:
    """The real rows the fuzzer's ids are steered to, and what Alice may see of each playing table."""

    site: str
    alice: object
    token: str
    tables: list[int]
    ids: dict[str, list[int]]
    public: dict[int, tuple[int, set[str]]] = field(default_factory=dict)  # table -> (deal, cards all have seen)
    calls: int = 0

    def steer(self, path_parameters: dict | None) -> dict | None:
        """Four generated values in five become a real one of their kind (a table, a challenge, a person, a game);
        the rest stay as generated, to be refused. A value of the wrong type stays too: it is what a request
        made not to fit the document gets wrong."""
        if not path_parameters:
            return path_parameters
        steered = {}
        for name, value in path_parameters.items():
            known = self.ids.get(name)
            pick = value if isinstance(value, int) else len(value) if isinstance(value, str) else 0
            if known and pick % 5 and type(value) is type(known[0]):
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
        seat = self.seat_of_alice(table_id)
        view = requests.get(f"{self.site}/api/tables/{table_id}", timeout=30).json()["view"]
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

    def seat_of_alice(self, table_id: int) -> int | None:
        """Read at each answer: a request may have seated her (a join, an accepted challenge) or stood her up."""
        return Seat.objects.filter(table_id=table_id, user=self.alice).values_list("number", flat=True).first()

    def own_cards(self) -> set[str]:
        cards: set[str] = set()
        for table_id in self.tables:
            seat = self.seat_of_alice(table_id)
            match = Match.objects.filter(pk=table_id).first()
            if match is not None and match.state and seat is not None:
                cards |= set(match.state["hands"][seat])
        return cards

    def assert_no_hidden_card(self, path: str, answer) -> None:
        shown = set(card_codes_in(answer))
        if not shown:
            return
        about = re.match(r"/api/tables/(\d+)", path)
        table_id = int(about.group(1)) if about else None
        if path == "/api/tables" and isinstance(answer, dict) and "seats" in answer:
            table_id = answer["id"]  # the table she just made, with her hand if a bot made it start
        if table_id is not None and (table_id in self.tables or not about):
            leaked = shown & self.hidden_from_alice(table_id)
        else:  # an answer about no one table of the world: no card hidden at any of them, her own aside
            hidden = set().union(*(self.hidden_from_alice(table_id) for table_id in self.tables))
            leaked = shown & (hidden - self.own_cards())
        assert not leaked, f"{path} showed Alice hidden cards {sorted(leaked)}"


@pytest.fixture
def world(asgi_live_server, alice, bob, charlie, make_user):
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
    tables = [playing, americana, watched, open_table, finished, challenged.table, challenging.table]
    return World(site=asgi_live_server.url, alice=alice, token=token, tables=[table.pk for table in tables],
                 ids={"table_id": [table.pk for table in tables], "challenge_id": [challenged.pk, challenging.pk],
                      "username": ["alice", "bob", "Charlie", "dana"], "rules": ["septica", "familie", "americana"]})


# The site's own document, as /api/openapi.json serves it, read at collection
# (the lazy pytest loader of schemathesis 4.32 fails on pytest 9).
schema = schemathesis.openapi.from_dict(
    document(), config=schemathesis.Config.from_dict(
        {"seed": SEED, "generation": {"max-examples": EXAMPLES, "database": "none", "mode": "all",
                                       # No string may hold NUL (the API's description says so).
                                       "allow-x00": False}}))


@schema.parametrize()
# One world for all of an operation's examples, on purpose: what one request
# changes (a seat taken, a token revoked) is what the next one meets.
@hypothesis.settings(suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
def test_every_operation_answers_json_within_its_schema_and_shows_no_hidden_card(case, world):
    case.path_parameters = world.steer(case.path_parameters)

    response = case.call(base_url=world.site, headers=world.headers(), timeout=30)

    case.validate_response(response, checks=[*(getattr(schemathesis.checks, name) for name in CHECKS),
                                             positive_data_acceptance])
    content_type = response.headers.get("content-type", [""])[0]
    assert content_type.startswith("application/json"), (
        f"{case.method} {case.formatted_path} answered {response.status_code} as {content_type!r}: "
        f"{response.content[:200]!r}\n{case.as_curl_command()}")
    if case.method != "HEAD" and case.formatted_path != DOCUMENT:  # the document's examples are made-up cards
        world.assert_no_hidden_card(case.formatted_path, response.json())


def test_the_watch_catches_a_hand_shown_to_another_seat(world):
    """The check above can fail: Bob's hand in an answer about the table Alice plays at is a leak."""
    playing = world.tables[0]
    bobs_hand = Match.objects.get(pk=playing).state["hands"][1]

    with pytest.raises(AssertionError, match="hidden cards"):
        world.assert_no_hidden_card(f"/api/tables/{playing}", {"view": {"hand": bobs_hand}})
    with pytest.raises(AssertionError, match="hidden cards"):
        world.assert_no_hidden_card("/api/me/matches", {"tables": [{"cards": bobs_hand}]})
