"""Every answer under /api/ is JSON with a status the docs list and an "error":
odd bodies, odd ids, the wrong method, no CSRF token, an unknown address or a
server fault never answer with an HTML page or a 500.

Alice and Bob play a two-player table; Charlie is outside it.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import include, path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Challenge, ChatLine, Match, Move
from notify.models import PushSubscription
from tests.notify.push_service import Browser
from tests.play import seated_table

pytestmark = pytest.mark.django_db

DOCUMENTED_STATUSES = {400, 401, 403, 404, 405, 409, 413, 429, 500}
HUGE_IDS = [2**63, 2**64 + 5, 10**40]
TABLE_ADDRESSES = [
    ("get", "/api/tables/{id}"),
    ("post", "/api/tables/{id}/join"),
    ("post", "/api/tables/{id}/leave"),
    ("post", "/api/tables/{id}/moves"),
    ("post", "/api/tables/{id}/rematch"),
    ("post", "/api/tables/{id}/back"),
]
PAGE_ADDRESSES = [
    ("get", "/tables/{id}/"),
    ("get", "/tables/{id}/invite/code/"),
    ("get", "/tables/{id}/replay/"),
    ("get", "/tables/{id}/replay.json"),
    ("post", "/tables/{id}/report/"),
    ("post", "/play/{id}/join/"),
    ("post", "/play/{id}/leave/"),
    ("post", "/matches/{id}/rematch/"),
]


def client_for(user, **options) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


@pytest.fixture
def as_alice(alice):
    return client_for(alice)


@pytest.fixture
def playing(alice, bob):
    return seated_table(alice, [bob])


def post_text(client, url: str, text: str | bytes):
    return client.post(url, data=text, content_type="application/json")


def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert isinstance(body["error"], str) and body["error"]
    return body


def deeply_nested(levels: int, opening: str = "[") -> str:
    closing = {"[": "]", '{"a":': "}"}[opening]
    return opening * levels + "0" + closing * levels


# --- deep JSON --------------------------------------------------------------------------------
@pytest.mark.parametrize("opening", ["[", '{"a":'])
@pytest.mark.parametrize("levels", [2000, 100_000])
def test_deeply_nested_json_is_a_clear_400_and_changes_nothing(playing, as_alice, opening, levels):
    response = post_text(as_alice, f"/api/tables/{playing.pk}/moves", deeply_nested(levels, opening))

    body = assert_json_error(response, 413 if levels == 100_000 else 400)
    assert "nested" in body["error"] or "larger" in body["error"]
    assert Match.objects.get(pk=playing.pk).seq == 0


@pytest.mark.parametrize(("method", "url"), [("post", "/api/notifications/read"),
                                           ("post", "/api/push/subscriptions"),
                                           ("delete", "/api/push/subscriptions"),
                                           ("post", "/api/me/preferences")])
def test_deeply_nested_json_is_a_clear_400_beyond_the_tables_too(as_alice, method, url):
    response = getattr(as_alice, method)(url, data=deeply_nested(2000, '{"a":'), content_type="application/json")

    assert_json_error(response, 400)


def test_a_move_nested_a_little_too_deep_is_refused_for_its_nesting(playing, as_alice):
    move = {"type": "play", "card": json.loads(deeply_nested(200))}

    response = post_text(as_alice, f"/api/tables/{playing.pk}/moves", json.dumps({"seq": 0, "move": move}))

    assert "nested" in assert_json_error(response, 400)["error"]
    assert not Move.objects.exists()


# --- sizes ----------------------------------------------------------------------------------------
def test_a_body_over_the_api_limit_is_a_413_in_json(playing, as_alice):
    body = json.dumps({"seq": 0, "move": {"type": "end"}, "padding": "x" * 20_000})

    answer = assert_json_error(post_text(as_alice, f"/api/tables/{playing.pk}/moves", body), 413)

    assert "larger than 16384 bytes" in answer["error"]


def test_a_body_over_djangos_upload_limit_is_a_413_in_json(playing, as_alice):
    body = json.dumps({"padding": "x" * 3_000_000})

    assert_json_error(post_text(as_alice, f"/api/tables/{playing.pk}/moves", body), 413)


def test_a_form_body_over_djangos_upload_limit_is_a_413_in_json_too(playing, alice):
    script = client_for(alice, enforce_csrf_checks=True)

    response = script.post(f"/api/tables/{playing.pk}/moves", {"padding": "x" * 3_000_000})

    assert_json_error(response, 413)


def test_a_body_over_djangos_upload_limit_on_a_page_stays_an_html_answer(alice):
    response = client_for(alice).post("/accounts/profile/", {"display_name": "x" * 3_000_000})

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


# --- ids the database cannot hold --------------------------------------------------------------------
@pytest.mark.parametrize("huge", HUGE_IDS)
@pytest.mark.parametrize(("method", "url"), TABLE_ADDRESSES)
def test_an_id_too_large_for_the_database_is_a_json_404(as_alice, method, url, huge):
    address = url.format(id=huge)
    response = as_alice.get(address) if method == "get" else post_text(as_alice, address, "{}")

    assert_json_error(response, 404)


@pytest.mark.parametrize("huge", HUGE_IDS)
@pytest.mark.parametrize(("method", "url"), PAGE_ADDRESSES)
def test_an_id_too_large_for_the_database_is_a_404_page(as_alice, method, url, huge):
    response = getattr(as_alice, method)(url.format(id=huge))

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("huge", HUGE_IDS)
@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
def test_a_challenge_id_too_large_for_the_database_is_no_such_challenge(as_alice, answer, huge):
    response = post_text(as_alice, f"/api/challenges/{huge}/{answer}", "{}")

    assert assert_json_error(response, 404)["code"] == "no_such_challenge"


def test_the_largest_id_the_database_holds_is_just_a_missing_table(as_alice):
    assert_json_error(as_alice.post(f"/api/tables/{2**63 - 1}/back"), 404)


# --- the NUL character, which PostgreSQL's text cannot hold ---------------------------------------
NUL_IN_BODIES = [
    ("post", "/api/tables/{id}/chat", {"text": "noroc\x00"}),
    ("post", "/api/challenges", {"usernames": ["bob\x00"], "rules": "septica"}),
    ("post", "/api/tables", {"rules": "septica", "players": 2, "options": {"match\x00": "single"}}),
    ("post", "/api/tables/{id}/moves", {"seq": 0, "move": {"type": "play", "card": "7\x00H"}}),
    ("delete", "/api/push/subscriptions", {"endpoint": "https://push.example/\x00"}),
    ("post", "/api/me/preferences", {"sounds": "\x00"}),
    ("post", "/api/notifications/read", {"ids": ["\x00"]}),
]
NUL_IN_ADDRESSES = [
    ("get", "/api/players/bob%00"),
    ("post", "/api/players/bob%00/follow"),
    ("delete", "/api/players/bob%00/follow"),
    ("post", "/api/players/bob%00/block"),
    ("delete", "/api/players/bob%00/block"),
]


@pytest.mark.parametrize(("method", "url", "body"), NUL_IN_BODIES)
def test_json_with_a_nul_character_is_a_clear_400_and_changes_nothing(playing, as_alice, method, url, body):
    response = getattr(as_alice, method)(url.format(id=playing.pk), data=json.dumps(body),
                                         content_type="application/json")

    assert_json_error(response, 400)
    assert (ChatLine.objects.count(), Challenge.objects.count(), Move.objects.count()) == (0, 0, 0)
    assert Match.objects.count() == 1 and Match.objects.get(pk=playing.pk).seq == 0


@pytest.mark.parametrize(("method", "url"), NUL_IN_ADDRESSES)
def test_a_username_with_a_nul_character_is_no_such_player(as_alice, bob, method, url):
    assert assert_json_error(getattr(as_alice, method)(url), 404)["code"] == "no_such_player"


@pytest.mark.parametrize("url", ["/players/bob%00/", "/players/bob%00/follow/", "/tables/1/invite/ab%00/"])
def test_a_name_with_a_nul_character_in_a_page_address_is_a_404_page(as_alice, bob, url):
    response = as_alice.get(url)

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_push_subscription_is_kept_when_its_removal_names_it_with_a_nul(as_alice, alice):
    endpoint = "https://push.example/device"
    saved = as_alice.post("/api/push/subscriptions", content_type="application/json",
                          data=json.dumps({"endpoint": endpoint, "keys": Browser().keys()}))
    assert saved.status_code == 201, saved.content

    response = as_alice.delete("/api/push/subscriptions", content_type="application/json",
                               data=json.dumps({"endpoint": endpoint + "\x00"}))

    assert_json_error(response, 400)
    assert PushSubscription.objects.filter(user=alice, endpoint=endpoint).exists()


# --- CSRF, log-in, methods, addresses ------------------------------------------------------------------
def test_an_anonymous_post_without_a_csrf_token_is_a_json_403():
    response = Client(enforce_csrf_checks=True).post("/api/tables", data="{}", content_type="application/json")

    assert "CSRF" in assert_json_error(response, 403)["error"]


def test_a_session_post_without_its_csrf_token_is_a_json_403(playing, alice):
    page = client_for(alice, enforce_csrf_checks=True)

    response = page.post(f"/api/tables/{playing.pk}/moves", data="{}", content_type="application/json")

    assert "CSRF" in assert_json_error(response, 403)["error"]


def test_a_page_post_without_a_csrf_token_still_gets_the_html_page(alice):
    response = client_for(alice, enforce_csrf_checks=True).post("/accounts/profile/", {"display_name": "A"})

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")


def test_the_wrong_method_is_a_json_405_saying_which_are_allowed(playing, as_alice):
    response = as_alice.get(f"/api/tables/{playing.pk}/moves")

    body = assert_json_error(response, 405)
    assert response["Allow"] == "POST"
    assert "POST" in body["error"]


@pytest.mark.parametrize("url", ["/api/nothing-here", "/api/tables/abc", "/api/tables/1/moves/extra", "/api/"])
def test_an_unknown_api_address_is_a_json_404(as_alice, url):
    assert "/api/docs/" in assert_json_error(as_alice.get(url), 404)["error"]


def test_an_unknown_page_address_stays_an_html_404(as_alice):
    response = as_alice.get("/nothing-here/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def crash(request):
    raise RuntimeError("a fault in the server, not in the request")


def crash_page(request):
    raise RuntimeError("a fault in the server, not in the request")


urlpatterns = [path("api/crash", crash), path("crash/", crash_page), path("", include("septica_site.urls"))]


@pytest.mark.urls(__name__)
def test_a_fault_in_the_server_is_a_json_500_that_tells_nothing_of_the_fault(alice):
    response = client_for(alice, raise_request_exception=False).get("/api/crash")

    body = assert_json_error(response, 500)
    assert "fault in the server" not in json.dumps(body) and "RuntimeError" not in json.dumps(body)


@pytest.mark.urls(__name__)
def test_a_fault_in_the_server_on_a_page_stays_the_html_500(alice):
    response = client_for(alice, raise_request_exception=False).get("/crash/")

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.urls(__name__)
def test_with_debug_pages_on_the_api_still_answers_json(alice, settings):
    settings.DEBUG = True  # as embedded runs by default: Django's debug pages are HTML
    script = client_for(alice, raise_request_exception=False)

    assert_json_error(script.get("/api/crash"), 500)
    assert_json_error(script.get("/api/nothing-here"), 404)
    assert_json_error(post_text(script, "/api/tables", json.dumps({"padding": "x" * 3_000_000})), 413)


def test_the_docs_list_every_status_the_api_answers(client):
    page = client.get("/api/docs/").content.decode()

    for status in DOCUMENTED_STATUSES:
        assert f"<code>{status}</code>" in page


# --- anything at all, as a body -------------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
    | st.sampled_from(["play", "take", "end", "draw", "pass", "KH", "7C", "S", "H", "X"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
MOVES = JSON_VALUES | st.dictionaries(st.sampled_from(["type", "card", "suit", "seat", "x"]), JSON_VALUES, max_size=4)
BODIES = (
    st.fixed_dictionaries({"seq": JSON_VALUES | st.just(0), "move": MOVES})
    .map(json.dumps)
    | JSON_VALUES.map(json.dumps)
    | st.binary(max_size=40)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES)
def test_any_body_posted_as_a_move_gets_a_json_answer_never_a_500(playing, as_alice, body):
    response = post_text(as_alice, f"/api/tables/{playing.pk}/moves", body)

    assert response["Content-Type"] == "application/json"
    assert response.status_code in {200} | DOCUMENTED_STATUSES - {500}
    assert isinstance(response.json(), dict)


def test_no_answer_is_ever_html_for_an_api_address(playing, as_alice):
    answers = [
        as_alice.get(f"/api/tables/{playing.pk}"), as_alice.delete(f"/api/tables/{playing.pk}"),
        as_alice.put("/api/tables", data="{}"), as_alice.get("/api/me/"), Client().get("/api/me"),
        as_alice.options(f"/api/tables/{playing.pk}/moves"),
    ]

    assert [answer["Content-Type"] for answer in answers] == ["application/json"] * len(answers)


@pytest.mark.parametrize("with_token", [False, True])
def test_json_sent_as_multipart_to_the_live_server_is_answered_in_json(asgi_live_server, alice, with_token):
    """Twisted answered a body it could not parse as multipart itself: a bare 400, no JSON (schemathesis found it)."""
    import requests

    from accounts.models import ApiToken

    headers = {"Content-Type": "multipart/form-data"}
    if with_token:
        headers["Authorization"] = f"Bearer {ApiToken.issue(alice, 'multipart')[1]}"

    answer = requests.post(f"{asgi_live_server.url}/api/me/preferences", data=b'{"sounds": true}', headers=headers,
                           timeout=30)

    assert answer.headers["Content-Type"] == "application/json"
    if with_token:  # the body is read as JSON whatever it is labelled, as in-process
        assert answer.status_code == 200 and answer.json()["preferences"]["sounds"] is True
    else:
        assert answer.status_code == 403 and answer.json()["error"]
