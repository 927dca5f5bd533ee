"""Passwords on allauth: a wrong old password on password change counts as a
failed log-in (issue 14, point 5), API tokens reach no password form, resets
are limited per address and per account (point 8), and reset links mailed
before allauth still work."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import ApiToken

# allauth counts in the cache, which outlives a test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("account_limits_unused")

NEW_PASSWORD = "a-whole-new-deck-42"
LOCKED = "Too many failed log-in attempts"


def change_password(client, old, address="10.0.0.1", **headers):
    return client.post(
        reverse("password_change"),
        {"oldpassword": old, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        REMOTE_ADDR=address,
        **headers,
    )


def log_in(client, login, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"login": login, "password": password}, REMOTE_ADDR=address)


@pytest.fixture
def without_allauths_per_minute_limit(settings):
    """allauth also allows 5 password-change posts a minute; without it, what
    refuses is the log-in lockout alone."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "change_password": None}


# --- point 5: old-password guesses count like log-in failures --------------------------------


def test_twelve_wrong_old_passwords_do_not_lead_to_the_right_one_being_accepted(client, alice, password):
    client.force_login(alice)
    for _ in range(12):
        change_password(client, "a-guess")

    response = change_password(client, password)

    alice.refresh_from_db()
    assert alice.check_password(password), "the password must not change after 12 guesses"
    assert response.status_code == 429


def test_after_the_failure_limit_even_the_right_old_password_is_refused(
        client, alice, password, settings, without_allauths_per_minute_limit):
    client.force_login(alice)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert change_password(client, "a-guess").status_code in (200, 429)

    response = change_password(client, password)

    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(password)
    # The same lock as log-in's: the account is locked there too, from anywhere.
    assert log_in(Client(), "alice", password, address="10.9.9.9").status_code == 429


def test_wrong_old_passwords_and_wrong_log_ins_add_up(client, alice, password, without_allauths_per_minute_limit):
    client.force_login(alice)
    for _ in range(3):
        change_password(client, "a-guess")
    client.logout()
    log_in(client, "alice@example.com", "another-guess", address="10.0.0.2")

    assert log_in(client, "alice", "still-wrong", address="10.0.0.3").status_code == 429
    assert log_in(client, "alice", password, address="10.0.0.4").status_code == 429


def test_below_the_limit_the_right_old_password_changes_it(client, alice, password, without_allauths_per_minute_limit):
    client.force_login(alice)
    for _ in range(4):
        change_password(client, "a-guess")

    response = change_password(client, password)

    assert response.url == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_a_wrong_old_password_is_said_on_the_page(client, alice):
    client.force_login(alice)

    page = change_password(client, "a-guess").content.decode()

    assert "Your current password is not that one." in page


# --- API tokens reach no password form -------------------------------------------------------


def test_an_api_token_cannot_change_the_password(client, alice, password):
    _token, secret = ApiToken.issue(alice, "script")

    response = change_password(client, password, HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert response.status_code in (302, 401, 403)
    assert not response.get("Location", "").endswith(reverse("password_change_done"))
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_an_api_token_cannot_save_the_profile(client, alice):
    _token, secret = ApiToken.issue(alice, "script")

    client.post(reverse("profile"), {"display_name": "Token Alice", "preferred_language": ""},
                HTTP_AUTHORIZATION=f"Bearer {secret}")

    alice.refresh_from_db()
    assert alice.display_name == "Alice"


# --- point 8: password-reset limits ----------------------------------------------------------


def ask_for_reset(client, email, address="10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_the_sixth_reset_email_in_a_minute_to_one_account_is_not_sent_and_the_page_says_so(client, alice):
    for _ in range(5):
        assert ask_for_reset(client, "alice@example.com").url == reverse("password_reset_done")
    assert len(mail.outbox) == 5

    # From another address and typed in another case: still the same account.
    response = ask_for_reset(client, "ALICE@example.com", address="10.7.7.7")

    assert response.status_code == 429
    assert "nothing was sent" in response.content.decode()
    assert len(mail.outbox) == 5


def test_one_address_cannot_ask_for_resets_for_everyone(client, alice, make_user):
    for number in range(20):
        make_user(f"p{number}")
        ask_for_reset(client, f"p{number}@example.com", address="10.3.3.3")
    assert len(mail.outbox) == 20

    response = ask_for_reset(client, "alice@example.com", address="10.3.3.3")

    assert response.status_code == 429
    assert len(mail.outbox) == 20
    assert ask_for_reset(client, "alice@example.com", address="10.4.4.4").url == reverse("password_reset_done")


def test_the_limits_are_settings(client, alice, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "2/m/key"}

    ask_for_reset(client, "alice@example.com")
    ask_for_reset(client, "alice@example.com")

    assert ask_for_reset(client, "alice@example.com").status_code == 429
    assert len(mail.outbox) == 2


# --- reset links ------------------------------------------------------------------------------


def test_a_reset_link_mailed_before_allauth_still_sets_a_new_password(client, alice, password):
    old_link = reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(alice.pk)),
        "token": default_token_generator.make_token(alice),
    })
    assert old_link.startswith("/accounts/password/reset/")

    form = client.get(old_link, follow=True)
    assert b"Choose a new password" in form.content
    done = client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert done.url == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_a_forged_old_style_reset_link_sets_nothing(client, alice, password):
    page = client.get(reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(alice.pk)), "token": "abc-123"}))

    assert b"This link no longer works" in page.content
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_the_reset_email_links_to_the_site_url_whatever_host_was_asked(client, alice, settings):
    settings.SITE_URL = "https://septica.example"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "another-name.example"]

    client.post(reverse("password_reset"), {"email": "alice@example.com"}, HTTP_HOST="another-name.example")

    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    assert link.startswith("https://septica.example/accounts/password/reset/key/")
    assert client.get(urlsplit(link).path).status_code == 302


def test_the_pages_keep_their_addresses_and_names(client):
    assert [reverse(name) for name in ("signup", "login", "logout", "password_change", "password_reset")] == [
        "/accounts/signup/", "/accounts/login/", "/accounts/logout/", "/accounts/password/change/",
        "/accounts/password/reset/"]
    assert client.get("/accounts/password/reset/sent/").url == reverse("password_reset_done")
    assert client.get(reverse("password_reset_done")).status_code == 200
    assert client.get(reverse("password_reset_complete")).status_code == 200
