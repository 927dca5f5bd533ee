"""The tutorial's move endpoint under odd input: always a JSON answer, never a 500,
for anybody (it needs no log-in)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

SAYING_END = reverse("tutorial_move", args=["septica", 5])
AMERICANA_SEVENS = reverse("tutorial_move", args=["americana", 2])


def post(client, url, text: str | bytes):
    return client.post(url, text, content_type="application/json")


def refusal(response) -> str:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    return response.json()["error"]


@pytest.mark.parametrize("kind", [[], {}, ["play"], 7, None, True])
def test_a_move_type_that_is_not_a_string_is_a_400(client, kind):
    response = post(client, SAYING_END, json.dumps({"move": {"type": kind}}))

    assert "Unknown move type" in refusal(response)


def test_a_done_move_type_that_is_not_a_string_is_a_400(client):
    body = {"done": [{"type": ["play"]}], "move": {"type": "end"}}

    assert "Unknown move type" in refusal(post(client, SAYING_END, json.dumps(body)))


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, '{"a":' * 2000 + "0" + "}" * 2000,
                                  '{"move": ' + "[" * 3000 + "]" * 3000 + "}"])
def test_deeply_nested_json_is_a_400(client, text):
    message = refusal(post(client, SAYING_END, text))

    assert "nested" in message or "larger" in message


def test_a_move_nested_a_little_too_deep_is_refused_for_its_nesting(client):
    move = {"type": "play", "card": json.loads("[" * 200 + "]" * 200)}

    assert "nested" in refusal(post(client, SAYING_END, json.dumps({"move": move})))


def test_a_body_over_the_limit_is_a_413(client):
    response = post(client, SAYING_END, json.dumps({"move": {"type": "end"}, "padding": "x" * 20_000}))

    assert response.status_code == 413
    assert "larger than" in response.json()["error"]


def test_a_post_without_a_csrf_token_gets_djangos_page_as_the_other_pages_do():
    response = post(Client(enforce_csrf_checks=True), SAYING_END, json.dumps({"move": {"type": "end"}}))

    assert response.status_code == 403


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6)
    | st.sampled_from(["play", "take", "end", "draw", "pass", "9C", "7S", "7H", "S", "H", "X", "suit", "card"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
MOVES = JSON_VALUES | st.dictionaries(st.sampled_from(["type", "card", "suit", "x"]), JSON_VALUES, max_size=3)
BODIES = (
    st.fixed_dictionaries({"move": MOVES}, optional={"done": st.lists(MOVES, max_size=3) | JSON_VALUES}).map(json.dumps)
    | JSON_VALUES.map(json.dumps)
    | st.binary(max_size=40)
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES, url=st.sampled_from([SAYING_END, AMERICANA_SEVENS]))
def test_any_body_gets_a_json_answer_never_a_500(client, body, url):
    response = post(client, url, body)

    assert response.status_code in (200, 400)
    assert isinstance(response.json(), dict)
