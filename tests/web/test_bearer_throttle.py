"""The bad-token throttle: only failures are counted, a valid token always
works, a cache that is down never takes token requests with it, and a token
opens only the API, never an HTML form."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts import middleware, token_failures
from accounts.models import ApiToken
from tests.second_factor import staff_client

CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CLOSED_PORT_REDIS,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }


def bearer(secret: str, address: str = "10.0.0.1") -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}", "REMOTE_ADDR": address}


def fail_until_throttled(client) -> None:
    for attempt in range(token_failures.BEARER_FAILURE_LIMIT):
        assert client.get(reverse("api_me"), **bearer(f"sep_guess{attempt}")).status_code == 401


def test_a_valid_token_works_after_many_bad_ones_from_its_address(client, alice):
    _, secret = ApiToken.issue(alice, "script")
    fail_until_throttled(client)

    response = client.get(reverse("api_me"), **bearer(secret))

    assert response.status_code == 200
    assert response.json()["username"] == "alice"


def test_bad_tokens_past_the_limit_are_refused_with_429(client, alice):
    fail_until_throttled(client)

    refused = client.get(reverse("api_me"), **bearer("sep_one-more-guess"))

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["error"]
    assert client.get(reverse("api_me"), **bearer("sep_elsewhere", address="10.0.0.2")).status_code == 401


@pytest.mark.django_db
def test_token_requests_answer_when_the_cache_is_down(client, alice, cache_down, caplog):
    _, secret = ApiToken.issue(alice, "script")

    with caplog.at_level(logging.WARNING):
        good = client.get(reverse("api_me"), **bearer(secret))
        bad = client.get(reverse("api_me"), **bearer("sep_made-up"))

    assert good.status_code == 200
    assert bad.status_code == 401 and bad.json()["error"]
    assert any("token failure" in record.getMessage() for record in caplog.records)


def test_a_token_post_to_the_profile_form_changes_nothing_and_is_refused(alice):
    _, secret = ApiToken.issue(alice, "script")
    strict = Client(enforce_csrf_checks=True)

    response = strict.post(reverse("profile"), {"display_name": "Bot Alice", "preferred_language": ""}, **bearer(secret))

    assert response.status_code == 403
    assert "/api/" in response.json()["error"]
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_token_does_not_skip_csrf_beside_a_session(alice):
    _, secret = ApiToken.issue(alice, "script")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)

    response = strict.post(reverse("profile"), {"display_name": "Forged", "preferred_language": ""}, **bearer(secret))

    assert response.status_code == 403
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_token_does_not_open_an_html_page(client, alice):
    _, secret = ApiToken.issue(alice, "script")

    response = client.get(reverse("profile"), **bearer(secret))

    assert response.status_code == 403
    assert "error" in response.json()


@pytest.mark.django_db
def test_a_forwarded_request_without_behind_proxy_is_warned_about(client, make_user, password, settings, caplog):
    settings.BEHIND_PROXY = False
    middleware.forwarded_without_proxy.clear()

    with caplog.at_level(logging.WARNING):
        client.get(reverse("home"), HTTP_X_FORWARDED_FOR="203.0.113.7")
        client.get(reverse("home"), HTTP_X_FORWARDED_FOR="203.0.113.8")

    warnings = [record.getMessage() for record in caplog.records if "BEHIND_PROXY" in record.getMessage()]
    assert len(warnings) == 1  # once a process, not once a request
    staff = staff_client(make_user("root", is_staff=True), password)  # the details need a second factor
    assert "BEHIND_PROXY" in staff.get(reverse("healthz")).json()["warnings"][0]


@pytest.mark.django_db
def test_no_warning_behind_a_declared_proxy(client, settings, caplog):
    settings.BEHIND_PROXY = True
    middleware.forwarded_without_proxy.clear()

    with caplog.at_level(logging.WARNING):
        client.get(reverse("home"), HTTP_X_FORWARDED_FOR="203.0.113.7")

    assert not [record for record in caplog.records if "BEHIND_PROXY" in record.getMessage()]
