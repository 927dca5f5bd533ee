"""/api/openapi.json is a valid OpenAPI 3.1 document of the whole JSON API: every address under
/api/ with the methods it answers, both ways to log in, and answers that are true (real answers,
refusals included, fit the schema documented for their status, with no key it does not list).
Bodies of the wrong shape are still the site's 400s, never ninja's 422s.

Alice and Bob play; Charlie is outside their tables.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from accounts.models import ApiToken
from accounts.preferences import DEFAULTS
from api.schemas.account import PreferencesToSave, PreferenceValues
from games.leaving_rules import abort_alone_allowed
from notify import push
from notify.models import NotificationKind
from notify.notifications import notify
from tests.closed_schemas import close_objects
from tests.notify.push_service import Browser
from tests.play import deal_again_from, pick_move, play_moves, seated_table, start_table

pytestmark = pytest.mark.django_db

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
# Under /api/ but no operation of this API: the docs page (HTML) and the websockets' own AsyncAPI document.
NOT_OPERATIONS = {"api_docs", "api_websocket_schema"}
SAMPLE_ARGUMENTS = {"int": "1", "str": "alice", "slug": "septica"}


# --- the document itself ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def document(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = Client().get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


@pytest.fixture(scope="module")
def strict(document) -> dict:
    """The components with every object closed: an answer's key the schema does not list is an error."""
    components = copy.deepcopy(document["components"])
    for schema in components["schemas"].values():
        close_objects(schema, untyped_too=True)
    return components


def test_it_is_a_valid_openapi_3_1_document(document):
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_anyone_may_read_it_and_it_is_the_same_in_every_language(document):
    answer = Client(headers={"Accept-Language": "ro"}).get(reverse("api_openapi"))

    assert answer.status_code == 200 and answer.json() == document
    assert reverse("api_openapi") == "/api/openapi.json"


def test_operation_ids_are_unique_and_every_operation_has_a_summary(document):
    found = [operation for item in document["paths"].values() for operation in item.values()]

    ids = [operation["operationId"] for operation in found]
    assert len(ids) == len(set(ids))
    assert all(operation["summary"] and operation["tags"] for operation in found)


# --- every address, with its methods ------------------------------------------------------------
def api_patterns(resolver=None, prefix: str = "") -> list[tuple[str, URLPattern]]:
    """Every URL pattern of the site under api/, with its whole route."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += api_patterns(entry, route)
        elif route.startswith("api/") and entry.name not in NOT_OPERATIONS:
            found.append((route, entry))
    return found


def openapi_path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def sample_address(route: str) -> str:
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda found: SAMPLE_ARGUMENTS[found.group(1) or "str"], route)


def methods_answered(client: Client, address: str) -> list[str]:
    """The methods the address answers: each is asked in turn (bodies empty), those not 405 count."""
    return [method for method in METHODS if client.generic(method, address, "{}", "application/json").status_code != 405]


def test_every_address_under_api_is_in_the_document_with_the_methods_it_answers(document, alice):
    client = Client()
    client.force_login(alice)
    routes = {route for route, _pattern in api_patterns()}
    assert len(routes) >= 25

    for route in sorted(routes):
        documented = [method.upper() for method in document["paths"].get(openapi_path(route), {})]
        answered = methods_answered(client, sample_address(route))
        assert documented and sorted(documented) == sorted(answered), route


def test_the_document_lists_no_address_the_site_does_not_have(document):
    routes = {openapi_path(route) for route, _pattern in api_patterns()}

    assert set(document["paths"]) == routes


def test_every_url_name_of_the_api_keeps_its_address():
    assert reverse("api_tables") == "/api/tables"
    assert reverse("api_table", args=[42]) == "/api/tables/42"
    assert reverse("api_answer_abort", args=[42]) == "/api/tables/42/abort/answer"
    assert reverse("api_my_matches") == "/api/me/matches"
    assert reverse("api_me") == "/api/me"
    assert reverse("api_player", args=["alice"]) == "/api/players/alice"
    assert reverse("api_leaderboard", args=["septica"]) == "/api/leaderboard/septica"
    assert reverse("api_challenge_withdraw", args=[3]) == "/api/challenges/3/withdraw"
    assert reverse("api_notifications_read") == "/api/notifications/read"


@pytest.mark.parametrize(("address", "allowed"), [
    ("/api/tables", "GET, POST"), ("/api/me", "GET, HEAD"), ("/api/me/preferences", "GET, HEAD, POST"),
    ("/api/players/bob/follow", "POST, DELETE"), ("/api/tables/1/moves", "POST"), ("/api/tables/1", "GET"),
])
def test_a_method_an_address_does_not_answer_is_a_json_405_naming_the_others_in_order(alice, address, allowed):
    client = Client()
    client.force_login(alice)

    response = client.put(address)

    assert response.status_code == 405 and response["Content-Type"] == "application/json"
    assert response["Allow"] == allowed and allowed in response.json()["error"]


@pytest.mark.parametrize("address", ["/api/nothing-here", "/api/", "/api/tables/abc", "/api/openapi.json/",
                                     "/api/tables/", "/api/me/"])
def test_an_unknown_address_under_api_is_a_json_404(address):
    response = Client().get(address)

    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert "/api/docs/" in response.json()["error"]


# --- logging in ---------------------------------------------------------------------------------------
def test_both_ways_to_log_in_are_security_schemes(document):
    schemes = document["components"]["securitySchemes"]

    assert schemes["bearer"]["type"] == "http" and schemes["bearer"]["scheme"] == "bearer"
    assert reverse("api_tokens") in schemes["bearer"]["description"]
    assert schemes["session"] == {**schemes["session"], "type": "apiKey", "in": "cookie", "name": "sessionid"}
    assert schemes["csrf"] == {**schemes["csrf"], "type": "apiKey", "in": "header", "name": "X-CSRFToken"}


def operations(document):
    for address, item in document["paths"].items():
        for method, operation in item.items():
            yield address, method.upper(), operation


def test_every_post_and_delete_asks_for_a_token_or_the_session_with_its_csrf_header(document):
    for _address, method, operation in operations(document):
        if method in {"POST", "DELETE"}:
            assert operation["security"] == [{"bearer": []}, {"session": [], "csrf": []}]


def test_public_reads_say_a_log_in_is_optional(document):
    assert {} in document["paths"]["/api/tables"]["get"]["security"]
    assert {} in document["paths"]["/api/tables/{table_id}"]["get"]["security"]
    assert {} not in document["paths"]["/api/me/matches"]["get"]["security"]


def test_a_session_post_without_its_csrf_header_is_refused_at_every_post_and_delete(document, alice):
    page = Client(enforce_csrf_checks=True)
    page.force_login(alice)

    for address, method, _operation in operations(document):
        if method in {"POST", "DELETE"}:
            sample = re.sub(r"{(\w+)}", lambda found: "alice" if found.group(1) == "username" else "1", address)
            response = page.generic(method, sample, "{}", "application/json")
            assert response.status_code == 403 and "CSRF" in response.json()["error"], (method, address)


def test_a_bearer_token_needs_no_csrf_header(alice):
    _token, secret = ApiToken.issue(alice, "script")
    script = Client(enforce_csrf_checks=True, headers={"Authorization": f"Bearer {secret}"})

    response = script.post("/api/tables", {"rules": "septica", "players": 2}, content_type="application/json")

    assert response.status_code == 201


# --- real answers fit their documented schemas ------------------------------------------------------
class Answers:
    """Checks answers against the schema documented for their path, method and status."""

    def __init__(self, document: dict, strict: dict) -> None:
        self.document, self.strict = document, strict
        self.validators: dict[str, Draft202012Validator] = {}

    def check(self, response, method: str, path: str) -> dict:
        answers = self.document["paths"][path][method.lower()]["responses"]
        status = str(response.status_code)
        assert status in answers, f"{method} {path} answered {status}, which is not documented"
        schema = answers[status]["content"]["application/json"]["schema"]
        body = response.json()
        errors = sorted(self.validator(schema).iter_errors(body), key=lambda error: list(error.path))
        assert not errors, f"{method} {path} {status}: " + "; ".join(
            f"{list(error.absolute_path)}: {error.message}" for error in errors[:5])
        return body

    def validator(self, schema: dict) -> Draft202012Validator:
        key = json.dumps(schema, sort_keys=True)
        if key not in self.validators:
            self.validators[key] = Draft202012Validator({**schema, "components": self.strict},
                                                        format_checker=Draft202012Validator.FORMAT_CHECKER)
        return self.validators[key]


@pytest.fixture(scope="module")
def answers(document, strict) -> Answers:
    return Answers(document, strict)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, address: str, body=None, method: str = "post"):
    return getattr(client, method)(address, data=json.dumps({} if body is None else body),
                                   content_type="application/json")


def test_a_table_made_joined_and_played_answers_as_documented(answers, alice, bob, charlie):
    as_alice, as_bob = logged_in(alice), logged_in(bob)

    made = answers.check(post(as_alice, "/api/tables", {"rules": "septica", "players": 2}), "POST", "/api/tables")
    table = made["id"]
    answers.check(as_alice.get("/api/tables"), "GET", "/api/tables")
    joined = answers.check(post(as_bob, f"/api/tables/{table}/join"), "POST", "/api/tables/{table_id}/join")
    assert joined["seat"] == 1 and joined["view"]["hand"]
    view = answers.check(as_alice.get(f"/api/tables/{table}"), "GET", "/api/tables/{table_id}")["view"]
    played = post(as_alice, f"/api/tables/{table}/moves", {"seq": 0, "move": view["legal_moves"][0]})
    assert answers.check(played, "POST", "/api/tables/{table_id}/moves")["seq"] == 1
    stale = post(as_bob, f"/api/tables/{table}/moves", {"seq": 0, "move": {"type": "take"}})
    assert stale.status_code == 409 and answers.check(stale, "POST", "/api/tables/{table_id}/moves")["seq"] == 1
    spectator = answers.check(logged_in(charlie).get(f"/api/tables/{table}"), "GET", "/api/tables/{table_id}")
    assert spectator["view"]["hand"] == [] and spectator["view"]["seat"] is None
    answers.check(as_bob.get("/api/me/matches"), "GET", "/api/me/matches")


@pytest.mark.parametrize(("rules", "players", "options"), [
    ("septica", 2, {}), ("septica", 4, {"teams": True}), ("septica", 3, {}), ("familie", 3, {}),
    ("americana", 2, {"jokers": True}), ("americana", 4, {}),
])
def test_every_answer_of_a_whole_match_is_as_documented(answers, make_user, rules, players, options):
    people = [make_user(f"player{seat}") for seat in range(players)]
    table = start_table(people[0], people[1:], rules=rules, players=players, options=options)
    deal_again_from(table, seed=1)  # the same match every run
    clients = [logged_in(person) for person in people]
    rng = random.Random(7)
    looked = answers.check(clients[0].get(f"/api/tables/{table.pk}"), "GET", "/api/tables/{table_id}")
    for _turn in range(2000):
        if looked["status"] != "playing":
            break
        seat = looked["to_move"]
        mine = answers.check(clients[seat].get(f"/api/tables/{table.pk}"), "GET", "/api/tables/{table_id}")
        move = pick_move(mine["view"], rng)
        looked = answers.check(post(clients[seat], f"/api/tables/{table.pk}/moves", {"seq": mine["seq"], "move": move}),
                               "POST", "/api/tables/{table_id}/moves")
    assert looked["status"] == "finished" and looked["seed"] and looked["view"]["finished"]
    answers.check(clients[1].get("/api/me/matches"), "GET", "/api/me/matches")
    answers.check(clients[0].get(f"/api/players/{people[0].username}"), "GET", "/api/players/{username}")
    answers.check(clients[0].get(f"/api/leaderboard/{rules}"), "GET", "/api/leaderboard/{rules}")
    answers.check(post(clients[0], f"/api/tables/{table.pk}/rematch"), "POST", "/api/tables/{table_id}/rematch")


def test_a_private_table_with_bots_and_leaving_answer_as_documented(answers, alice, bob):
    as_alice, as_bob = logged_in(alice), logged_in(bob)
    made = answers.check(post(as_alice, "/api/tables", {"rules": "americana", "players": 3, "private": True}),
                         "POST", "/api/tables")
    invite = made["invite_url"].rstrip("/").rsplit("/", 1)[1]
    hidden = as_bob.get(f"/api/tables/{made['id']}")
    assert hidden.status_code == 404 and answers.check(hidden, "GET", "/api/tables/{table_id}")
    answers.check(as_bob.get(f"/api/tables/{made['id']}?invite={invite}"), "GET", "/api/tables/{table_id}")
    answers.check(post(as_bob, f"/api/tables/{made['id']}/join", {"invite": invite}),
                  "POST", "/api/tables/{table_id}/join")
    answers.check(post(as_bob, f"/api/tables/{made['id']}/leave"), "POST", "/api/tables/{table_id}/leave")
    seated = answers.check(post(as_alice, f"/api/tables/{made['id']}/bot", {"seat": 2, "level": "expert"}),
                           "POST", "/api/tables/{table_id}/bot")
    assert seated["seats"][2]["bot"]["level"] == "expert"
    refused = post(as_bob, f"/api/tables/{made['id']}/bot", {"seat": 1})  # gone, Bob may not see it any more
    assert refused.status_code == 404 and answers.check(refused, "POST", "/api/tables/{table_id}/bot")["code"]


def test_resigning_aborting_and_taking_a_seat_back_answer_as_documented(answers, alice, bob, charlie):
    as_alice, as_bob = logged_in(alice), logged_in(bob)
    young = seated_table(alice, [bob])
    aborted = answers.check(post(as_alice, f"/api/tables/{young.pk}/abort"), "POST", "/api/tables/{table_id}/abort")
    assert aborted["abort"] == "aborted" and aborted["status"] == "aborted" and aborted["abort_reason"]
    later = seated_table(alice, [bob, charlie])
    match = play_moves(later, 1)
    while abort_alone_allowed("septica", match.game().view(0)):  # until aborting means asking the others
        match = play_moves(later, 1, seed=match.seq)
    asked = answers.check(post(as_alice, f"/api/tables/{later.pk}/abort"), "POST", "/api/tables/{table_id}/abort")
    assert asked["abort"] == "asked" and asked["abort_request"]["asked_by_seat"] == 0
    answered = post(as_bob, f"/api/tables/{later.pk}/abort/answer", {"accept": False})
    assert answers.check(answered, "POST", "/api/tables/{table_id}/abort/answer")["abort"] == "declined"
    back = post(as_bob, f"/api/tables/{later.pk}/back")
    answers.check(back, "POST", "/api/tables/{table_id}/back")
    resigned = post(as_bob, f"/api/tables/{later.pk}/moves", {"seq": 0, "move": {"type": "resign"}})
    assert answers.check(resigned, "POST", "/api/tables/{table_id}/moves")["seats"][1]["resigned"]


def test_the_chat_answers_as_documented(answers, alice, bob, charlie):
    table = seated_table(alice, [bob])
    as_alice = logged_in(alice)

    said = post(as_alice, f"/api/tables/{table.pk}/chat", {"phrase": "thanks"})
    assert answers.check(said, "POST", "/api/tables/{table_id}/chat")["line"]["phrase"] == "thanks"
    answers.check(post(as_alice, f"/api/tables/{table.pk}/chat", {"text": "Noroc, Bob"}),
                  "POST", "/api/tables/{table_id}/chat")
    room = answers.check(logged_in(bob).get(f"/api/tables/{table.pk}/chat"), "GET", "/api/tables/{table_id}/chat")
    assert [line.get("phrase", line.get("text")) for line in room["lines"]] == ["thanks", "Noroc, Bob"]
    spectators = answers.check(Client().get(f"/api/tables/{table.pk}/chat"), "GET", "/api/tables/{table_id}/chat")
    assert spectators["room"] == "spectators"
    refused = post(as_alice, f"/api/tables/{table.pk}/chat", {"text": "x" * 301})
    assert refused.status_code == 400 and answers.check(refused, "POST", "/api/tables/{table_id}/chat")["code"]


def test_the_analysis_answers_as_documented(answers, alice, bob, settings, django_capture_on_commit_callbacks):
    from games import tasks

    settings.ANALYSIS_ROUNDS, settings.ANALYSIS_DECISIONS_PER_RUN, settings.ANALYSIS_SLOTS = 4, 1000, 100
    table = seated_table(alice, [bob])
    path = "/api/tables/{table_id}/analysis"
    early = logged_in(alice).get(f"/api/tables/{table.pk}/analysis")
    assert early.status_code == 409 and answers.check(early, "GET", path)["code"] == "match_not_over"
    match = play_moves(table)
    assert answers.check(Client().get(f"/api/tables/{table.pk}/analysis"), "GET", path)["status"] == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        tasks.analyse_match(match.pk, 0)
    ready = answers.check(Client().get(f"/api/tables/{table.pk}/analysis", headers={"Accept-Language": "ro"}),
                          "GET", path)
    assert ready["status"] == "ready" and ready["decisions"] and len(ready["totals"]) == 2


def test_the_account_answers_as_documented(answers, alice):
    as_alice = logged_in(alice)

    assert answers.check(as_alice.get("/api/me"), "GET", "/api/me")["username"] == "alice"
    answers.check(as_alice.get("/api/me/preferences"), "GET", "/api/me/preferences")
    saved = post(as_alice, "/api/me/preferences", {"sounds": True})
    assert answers.check(saved, "POST", "/api/me/preferences")["preferences"]["sounds"] is True
    unknown = post(as_alice, "/api/me/preferences", {"volume": 11})
    assert unknown.status_code == 400 and answers.check(unknown, "POST", "/api/me/preferences")["code"]
    anonymous = Client().get("/api/me")
    assert anonymous.status_code == 401 and answers.check(anonymous, "GET", "/api/me")


def test_a_preference_schema_for_each_preference():
    assert set(PreferenceValues.model_fields) == set(DEFAULTS) == set(PreferencesToSave.model_fields)


def test_people_and_challenges_answer_as_documented(answers, alice, bob, charlie):
    as_alice, as_bob = logged_in(alice), logged_in(bob)

    answers.check(post(as_alice, "/api/players/bob/follow"), "POST", "/api/players/{username}/follow")
    answers.check(as_alice.get("/api/me/following"), "GET", "/api/me/following")
    answers.check(post(as_alice, "/api/players/bob/follow", method="delete"), "DELETE", "/api/players/{username}/follow")
    answers.check(post(as_alice, "/api/players/charlie/block"), "POST", "/api/players/{username}/block")
    answers.check(post(as_alice, "/api/players/charlie/block", method="delete"), "DELETE",
                  "/api/players/{username}/block")
    yourself = post(as_alice, "/api/players/alice/follow")
    assert yourself.status_code == 400 and answers.check(yourself, "POST", "/api/players/{username}/follow")
    nobody = Client().get("/api/players/nobody")
    assert nobody.status_code == 404 and answers.check(nobody, "GET", "/api/players/{username}")
    answers.check(as_alice.get("/api/leaderboard/septica"), "GET", "/api/leaderboard/{rules}")
    no_rules = Client().get("/api/leaderboard/chess")
    assert no_rules.status_code == 404 and answers.check(no_rules, "GET", "/api/leaderboard/{rules}")

    made = answers.check(post(as_alice, "/api/challenges", {"rules": "septica", "players": 3,
                                                            "usernames": ["bob", "charlie"]}),
                         "POST", "/api/challenges")
    answers.check(as_bob.get("/api/challenges"), "GET", "/api/challenges")
    answers.check(as_bob.get("/api/me/matches"), "GET", "/api/me/matches")
    answers.check(post(as_bob, f"/api/challenges/{made['id']}/accept"), "POST", "/api/challenges/{challenge_id}/accept")
    answers.check(post(logged_in(charlie), f"/api/challenges/{made['id']}/decline"),
                  "POST", "/api/challenges/{challenge_id}/decline")
    again = post(as_bob, f"/api/challenges/{made['id']}/accept")
    assert again.status_code == 409 and answers.check(again, "POST", "/api/challenges/{challenge_id}/accept")
    answers.check(post(as_alice, f"/api/challenges/{made['id']}/withdraw"), "POST",
                  "/api/challenges/{challenge_id}/withdraw")


@pytest.fixture
def vapid_key(settings, tmp_path):
    """The site's web push key, made in the test's own VAR_DIR (as tests/notify/ do)."""
    settings.VAR_DIR, settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = tmp_path, "", ""
    push.vapid.cache_clear()
    yield
    push.vapid.cache_clear()


def test_notifications_and_web_push_answer_as_documented(answers, bob, vapid_key):
    as_bob = logged_in(bob)
    notify(bob, NotificationKind.FINISHED, title="Table 3 finished", url="/tables/3/", tag="table-3")
    subscription = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc123", "keys": Browser().keys()}

    answers.check(Client().get("/api/push/key"), "GET", "/api/push/key")
    answers.check(post(as_bob, "/api/push/subscriptions", subscription), "POST", "/api/push/subscriptions")
    answers.check(post(as_bob, "/api/push/subscriptions", {"endpoint": subscription["endpoint"]}, "delete"),
                  "DELETE", "/api/push/subscriptions")
    forged = post(as_bob, "/api/push/subscriptions", {"endpoint": "http://localhost/", "keys": {}})
    assert forged.status_code == 400 and answers.check(forged, "POST", "/api/push/subscriptions")
    assert answers.check(as_bob.get("/api/notifications"), "GET", "/api/notifications")["unread"] == 1
    answers.check(post(as_bob, "/api/notifications/read"), "POST", "/api/notifications/read")


def test_refusals_around_the_views_fit_the_error_schema(answers, alice):
    page = Client(enforce_csrf_checks=True)
    page.force_login(alice)

    answers.check(page.post("/api/tables", {}, content_type="application/json"), "POST", "/api/tables")
    answers.check(Client().post("/api/tables", "{}", content_type="application/json"), "POST", "/api/tables")
    too_large = post(logged_in(alice), "/api/tables", {"padding": "x" * 20_000})
    assert too_large.status_code == 413 and answers.check(too_large, "POST", "/api/tables")
    bad_token = Client(headers={"Authorization": "Bearer nope"}).get("/api/tables")
    assert bad_token.status_code == 401 and answers.check(bad_token, "GET", "/api/tables")


# --- bodies of the wrong shape ------------------------------------------------------------------------
WRONG_BODIES = ["[]", '"a move"', "5", "null", "true", "{not json"]


@pytest.mark.parametrize("body", WRONG_BODIES)
@pytest.mark.parametrize("address", [
    "/api/tables", "/api/tables/{id}/join", "/api/tables/{id}/bot", "/api/tables/{id}/moves",
    "/api/tables/{id}/abort/answer", "/api/tables/{id}/chat", "/api/me/preferences", "/api/challenges",
    "/api/notifications/read", "/api/push/subscriptions",
])
def test_a_body_of_the_wrong_shape_is_a_400_with_an_error_never_a_422(alice, bob, address, body):
    table = seated_table(alice, [bob])

    response = logged_in(alice).post(address.format(id=table.pk), data=body, content_type="application/json")

    assert response.status_code == 400, (address, body, response.content[:200])
    assert response["Content-Type"] == "application/json" and isinstance(response.json()["error"], str)


@pytest.mark.parametrize("move", [{"seq": "seven", "move": {"type": "take"}}, {"seq": 0, "move": 3},
                                  {"seq": 0, "move": {"type": "play", "card": 7}}, {"seq": 0}])
def test_a_move_of_the_wrong_shape_is_a_400_with_an_error(alice, bob, move):
    table = seated_table(alice, [bob])

    response = post(logged_in(alice), f"/api/tables/{table.pk}/moves", move)

    assert response.status_code == 400 and response.json()["error"]


@pytest.mark.parametrize("body", [{"rules": 7, "players": "two"}, {"rules": "septica", "players": 2, "bots": "no"},
                                  {"rules": "septica", "players": 2, "seconds_per_move": "soon"},
                                  {"rules": "septica", "players": 2, "rated": "yes"}])
def test_fields_of_the_wrong_type_keep_todays_sentences(alice, body):
    response = post(logged_in(alice), "/api/tables", body)

    assert response.status_code == 400 and response.json()["error"]
    assert "validation" not in response.json()["error"].lower()


# --- what the document forbids is refused, what it allows is taken -------------------------------------------
def open_table(alice):
    from games import actions

    return actions.create_table(alice, rules="septica", players=3, options={}, seconds_per_move=86400)


def test_notification_ids_sent_as_null_are_refused_and_mark_nothing(answers, bob):
    notify(bob, NotificationKind.CHALLENGE, title="Alice challenges you")

    refused = post(logged_in(bob), "/api/notifications/read", {"ids": None})

    assert refused.status_code == 400 and answers.check(refused, "POST", "/api/notifications/read")["code"]
    assert logged_in(bob).get("/api/notifications").json()["unread"] == 1


def test_a_bot_seat_sent_as_null_is_refused_and_seats_no_bot(answers, alice):
    table = open_table(alice)

    refused = post(logged_in(alice), f"/api/tables/{table.pk}/bot", {"seat": None})

    assert refused.status_code == 400 and answers.check(refused, "POST", "/api/tables/{table_id}/bot")["code"] == \
        "bad_seat"
    assert not table.seats.exclude(bot_level="").exists()


def test_a_chat_line_with_a_null_text_beside_its_phrase_is_refused_and_not_said(answers, alice, bob):
    table = seated_table(alice, [bob])

    refused = post(logged_in(alice), f"/api/tables/{table.pk}/chat", {"phrase": "oops", "text": None})

    assert refused.status_code == 400 and answers.check(refused, "POST", "/api/tables/{table_id}/chat")["code"] == \
        "bad_text"
    assert logged_in(alice).get(f"/api/tables/{table.pk}/chat").json()["lines"] == []


def test_an_invite_that_is_no_string_is_refused_and_seats_nobody(answers, alice, bob):
    table = open_table(alice)

    refused = post(logged_in(bob), f"/api/tables/{table.pk}/join", {"invite": {}})

    assert refused.status_code == 400 and answers.check(refused, "POST", "/api/tables/{table_id}/join")["code"] == \
        "bad_invite"
    assert not table.seats.filter(user=bob).exists()


def test_a_whole_number_written_with_a_point_is_the_number(answers, alice):
    """JSON Schema's "integer" takes 3.0, as JSON does: the document's promise."""
    made = post(logged_in(alice), "/api/tables", {"rules": "septica", "players": 3.0, "seconds_per_move": 600.0})

    assert made.status_code == 201, made.json()
    assert answers.check(made, "POST", "/api/tables")["players"] == 3


def test_an_empty_chat_body_is_outside_the_document_as_it_is_refused(document):
    assert document["paths"]["/api/tables/{table_id}/chat"]["post"]["requestBody"]["required"] is True


@pytest.mark.parametrize(("method", "path", "code"), [
    ("post", "/api/players/{username}/follow", "yourself"), ("delete", "/api/players/{username}/block", "yourself"),
    ("post", "/api/tables", "bad_bot_seat"), ("post", "/api/tables/{table_id}/moves", "card-not-held"),
    ("post", "/api/challenges", "challenge_yourself"), ("post", "/api/tables/{table_id}/chat", "empty_line"),
])
def test_the_rules_refusals_of_requests_that_fit_the_document_are_listed_with_their_codes(document, method, path,
                                                                                         code):
    refused = document["paths"][path][method]["responses"]["400"]

    assert code in refused["x-rule-codes"] and f"`{code}`" in refused["description"]


def test_the_codes_listed_are_the_ones_the_site_answers(answers, alice, bob):
    yourself = post(logged_in(alice), "/api/players/alice/follow")
    bad_seat = post(logged_in(alice), "/api/tables", {"rules": "septica", "players": 2, "bots": [{"seat": 2}]})

    assert answers.check(yourself, "POST", "/api/players/{username}/follow")["code"] == "yourself"
    assert answers.check(bad_seat, "POST", "/api/tables")["code"] == "bad_bot_seat"


# --- the docs page -------------------------------------------------------------------------------------------
def test_the_docs_page_links_the_document_and_lists_every_operation(document, client):
    page = client.get(reverse("api_docs")).content.decode()

    assert 'href="/api/openapi.json"' in page
    for address, method, _operation in operations(document):
        assert f"<td><code>{method}</code></td><td><code>{address}</code></td>" in page


def test_the_docs_page_lists_the_operations_in_romanian_too(client):
    page = client.get(reverse("api_docs"), headers={"Accept-Language": "ro"}).content.decode()

    assert "Fă o mutare sau abandonează" in page
    assert "The open public tables, newest first" not in page
