"""How a person likes the table to play (one tap, taking by itself, sounds): kept in the profile,
read by the table page, saved through POST /api/me/preferences."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from accounts.preferences import table_preferences

pytestmark = pytest.mark.django_db

DEFAULTS = {"one_tap": True, "auto_take": False, "sounds": False, "chat_text": True}


def client_for(user, **options) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


def save(client, body, **extra):
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post("/api/me/preferences", data=data, content_type="application/json", **extra)


def stored(user) -> dict:
    user.refresh_from_db()
    return {name: getattr(user, name) for name in DEFAULTS}


def test_a_new_account_and_a_guest_start_with_one_tap_on_and_the_rest_off(alice):
    assert table_preferences(alice) == DEFAULTS
    assert table_preferences(AnonymousUser()) == DEFAULTS
    assert table_preferences(None) == DEFAULTS


def test_saving_one_preference_keeps_the_others_and_answers_them_all(alice):
    response = save(client_for(alice), {"sounds": True})

    assert response.status_code == 200
    assert response.json() == {"preferences": {"one_tap": True, "auto_take": False, "sounds": True, "chat_text": True}}
    assert stored(alice) == {"one_tap": True, "auto_take": False, "sounds": True, "chat_text": True}


def test_all_three_at_once_and_read_back(alice):
    client = client_for(alice)
    save(client, {"one_tap": False, "auto_take": True, "sounds": True})

    answer = client.get("/api/me/preferences").json()

    assert answer == {"preferences": {"one_tap": False, "auto_take": True, "sounds": True, "chat_text": True}}
    assert stored(alice) == answer["preferences"]


@pytest.mark.parametrize("body,code", [
    ({"one_tap": "yes"}, "not_boolean"),
    ({"sounds": 1}, "not_boolean"),
    ({"auto_take": None}, "not_boolean"),
    ({"volume": True}, "unknown_preference"),
    ([True], "bad_body"),
    ("not json", "bad_body"),
])
def test_bad_input_is_a_json_400_with_a_code_and_stores_nothing(alice, body, code):
    response = save(client_for(alice), body)

    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["error"]
    assert stored(alice) == DEFAULTS


def test_a_mixed_body_stores_nothing_when_one_part_is_wrong(alice):
    response = save(client_for(alice), {"sounds": True, "one_tap": "off"})

    assert response.status_code == 400 and stored(alice) == DEFAULTS


def test_anonymous_callers_get_a_json_401():
    response = save(Client(), {"sounds": True})

    assert response.status_code == 401 and response.json()["code"] == "not_logged_in"
    assert Client().get("/api/me/preferences").status_code == 401


def test_a_session_needs_its_csrf_token_and_an_api_token_needs_none(alice):
    _, secret = ApiToken.issue(alice, "script")

    refused = save(client_for(alice, enforce_csrf_checks=True), {"sounds": True})
    by_token = save(Client(enforce_csrf_checks=True), {"sounds": True}, HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert refused.status_code == 403 and refused["Content-Type"] == "application/json"
    assert by_token.status_code == 200 and stored(alice)["sounds"] is True


def test_the_profile_page_shows_and_saves_them(alice):
    client = client_for(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Play a card with one tap" in page and "Sounds at the table" in page
    assert re.search(r"<legend>At the table</legend>(?:(?!</fieldset>).)*id_one_tap", page, re.S)
    assert 'id="id_one_tap" checked' in page and 'id="id_sounds">' in page

    response = client.post(reverse("profile"), {"display_name": "Alice", "preferred_language": "",
                                                "email_on_your_move": "on", "auto_take": "on", "sounds": "on"})

    assert response.status_code == 302
    assert stored(alice) == {"one_tap": False, "auto_take": True, "sounds": True, "chat_text": True}
