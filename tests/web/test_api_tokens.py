"""Personal API tokens: made and revoked on the tokens page, used by scripts as
``Authorization: Bearer <secret>``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken, hash_token_secret
from tests.second_factor import staff_client


@pytest.fixture(autouse=True)
def fresh_cache():
    # The bearer failure counter lives in the cache, which outlives a test.
    cache.clear()
    yield
    cache.clear()


def bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def create_token(client, name="my bot") -> str:
    response = client.post(reverse("api_tokens"), {"name": name})
    assert response.status_code == 200
    return response.context["secret"]


def test_it_creates_a_token_and_shows_the_secret_once(client, alice):
    client.force_login(alice)

    response = client.post(reverse("api_tokens"), {"name": "my bot"})
    secret = response.context["secret"]
    page = response.content.decode()

    assert secret in page
    assert "it will not be shown again" in page
    assert secret not in client.get(reverse("api_tokens")).content.decode()
    assert "my bot" in client.get(reverse("api_tokens")).content.decode()


def test_only_the_hash_of_the_secret_is_stored(client, alice):
    client.force_login(alice)

    secret = create_token(client)

    token = ApiToken.objects.get(user=alice)
    assert token.key_hash == hash_token_secret(secret)
    assert secret[:10] == token.hint
    stored = [str(value) for value in ApiToken.objects.values_list().get()]
    assert not any(secret in value for value in stored)


def test_a_token_needs_a_name(client, alice):
    client.force_login(alice)

    response = client.post(reverse("api_tokens"), {"name": ""})

    assert response.context["secret"] is None
    assert not ApiToken.objects.exists()


def test_the_tokens_page_lists_only_your_own_tokens(client, alice, bob):
    ApiToken.issue(bob, "bob's script")
    client.force_login(alice)
    create_token(client, "alice's script")

    page = client.get(reverse("api_tokens")).content.decode()

    assert "alice&#x27;s script" in page
    assert "bob&#x27;s script" not in page


def test_a_bearer_token_answers_api_me_as_its_owner(alice):
    _, secret = ApiToken.issue(alice, "script")

    response = Client().get(reverse("api_me"), **bearer(secret))

    assert response.status_code == 200
    assert response.json() == {
        "id": alice.pk,
        "username": "alice",
        "display_name": "Alice",
        "preferred_language": "",
    }
    assert ApiToken.objects.get().last_used_at is not None


def test_api_me_answers_for_a_logged_in_session(client, alice):
    client.force_login(alice)

    assert client.get(reverse("api_me")).json()["username"] == "alice"


@pytest.mark.django_db
def test_api_me_refuses_an_anonymous_caller_with_401_json(client):
    response = client.get(reverse("api_me"))

    assert response.status_code == 401
    assert response.json() == {"error": "Log in, or send Authorization: Bearer <token>."}
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_token_is_refused_with_401(client, alice):
    token, secret = ApiToken.issue(alice, "script")
    token.revoke()

    response = client.get(reverse("api_me"), **bearer(secret))

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json() == {"error": "The token is unknown or revoked."}


@pytest.mark.django_db
def test_a_token_is_refused_off_the_api(client):
    response = client.get(reverse("home"), **bearer("sep_made-up"))

    assert response.status_code == 403
    assert "error" in response.json()


def test_a_token_of_a_deactivated_player_is_refused(client, alice):
    _, secret = ApiToken.issue(alice, "script")
    alice.is_active = False
    alice.save()

    assert client.get(reverse("api_me"), **bearer(secret)).status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "Basic YWxpY2U6c2VjcmV0", "sep_abc", "Bearer a b"])
def test_a_malformed_authorization_header_on_the_api_is_401(client, header):
    response = client.get(reverse("api_me"), HTTP_AUTHORIZATION=header)

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.django_db
def test_another_scheme_off_the_api_is_left_alone(client):
    # e.g. a proxy's Basic auth in front of the whole site
    assert client.get(reverse("home"), HTTP_AUTHORIZATION="Basic YWxpY2U6c2VjcmV0").status_code == 200


def test_the_refused_request_never_reaches_the_view(client, alice):
    token, secret = ApiToken.issue(alice, "script")
    token.revoke()
    client.force_login(alice)

    response = client.post(reverse("profile"), {"display_name": "Hacked", "preferred_language": ""}, **bearer(secret))

    assert response.status_code == 403
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_bearer_requests_to_the_api_need_no_csrf_token_but_sessions_do(alice):
    _, secret = ApiToken.issue(alice, "script")
    strict = Client(enforce_csrf_checks=True)

    scripted = strict.post(reverse("api_tables"), {}, content_type="application/json", **bearer(secret))
    assert scripted.status_code != 403  # judged on its body, not refused for want of a CSRF cookie

    strict.force_login(alice)
    forged = strict.post(reverse("profile"), {"display_name": "Forged", "preferred_language": ""})
    assert forged.status_code == 403
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_last_used_is_written_at_most_once_a_minute(client, alice, django_assert_num_queries):
    token, secret = ApiToken.issue(alice, "script")
    client.get(reverse("api_me"), **bearer(secret))
    first_use = ApiToken.objects.get().last_used_at

    with django_assert_num_queries(1):  # the token lookup, and no write
        client.get(reverse("api_me"), **bearer(secret))
    assert ApiToken.objects.get().last_used_at == first_use

    ApiToken.objects.update(last_used_at=timezone.now() - timedelta(minutes=2))
    client.get(reverse("api_me"), **bearer(secret))
    assert ApiToken.objects.get().last_used_at > first_use


def test_revoking_asks_first_then_revokes(client, alice):
    token, secret = ApiToken.issue(alice, "script")
    client.force_login(alice)
    url = reverse("revoke_api_token", args=[token.pk])

    confirm = client.get(url)
    assert confirm.status_code == 200
    assert "Revoke the token" in confirm.content.decode()
    token.refresh_from_db()
    assert token.is_active

    response = client.post(url)
    assert response.url == reverse("api_tokens")
    token.refresh_from_db()
    assert not token.is_active
    assert Client().get(reverse("api_me"), **bearer(secret)).status_code == 401
    assert re.search(r"revoked", client.get(reverse("api_tokens")).content.decode())


def test_another_players_token_cannot_be_revoked(client, alice, bob):
    token, secret = ApiToken.issue(bob, "bob's script")
    client.force_login(alice)

    assert client.get(reverse("revoke_api_token", args=[token.pk])).status_code == 404
    assert client.post(reverse("revoke_api_token", args=[token.pk])).status_code == 404
    token.refresh_from_db()
    assert token.is_active


def test_a_token_cannot_make_or_revoke_tokens(client, alice):
    token, secret = ApiToken.issue(alice, "script")

    assert client.post(reverse("api_tokens"), {"name": "more"}, **bearer(secret)).status_code == 403
    assert client.post(reverse("revoke_api_token", args=[token.pk]), **bearer(secret)).status_code == 403
    assert ApiToken.objects.count() == 1
    token.refresh_from_db()
    assert token.is_active


def test_a_staff_token_does_not_open_the_admin(client, make_user):
    admin = make_user("root", is_staff=True, is_superuser=True)
    _, secret = ApiToken.issue(admin, "script")

    assert client.get(reverse("admin:index"), **bearer(secret)).status_code == 403


def test_failed_token_attempts_are_limited_per_address(client, alice):
    _, secret = ApiToken.issue(alice, "script")
    for attempt in range(20):
        assert client.get(reverse("api_me"), REMOTE_ADDR="10.0.0.1", **bearer(f"sep_guess{attempt}")).status_code == 401

    refused = client.get(reverse("api_me"), REMOTE_ADDR="10.0.0.1", **bearer("sep_guess-again"))
    assert refused.status_code == 429
    assert "Retry-After" in refused

    assert client.get(reverse("api_me"), REMOTE_ADDR="10.0.0.1", **bearer(secret)).status_code == 200
    assert client.get(reverse("api_me"), REMOTE_ADDR="10.0.0.2", **bearer("sep_other")).status_code == 401


def test_the_admin_shows_players_and_tokens_without_their_secrets(make_user, alice, password):
    staff = make_user("root", is_staff=True, is_superuser=True)
    token, secret = ApiToken.issue(alice, "script")
    client = staff_client(staff, password)  # the admin asks staff for a second factor

    assert client.get(reverse("admin:accounts_user_change", args=[alice.pk])).status_code == 200
    assert client.get(reverse("admin:accounts_user_add")).status_code == 200
    listing = client.get(reverse("admin:accounts_apitoken_changelist") + "?revoked=no")
    assert listing.status_code == 200
    assert token.hint in listing.content.decode()
    page = client.get(reverse("admin:accounts_apitoken_change", args=[token.pk])).content.decode()
    assert secret not in page
    assert client.get(reverse("admin:accounts_apitoken_add")).status_code == 403
