"""Sign-up, log-in, passwords, profile and log-in rate limiting, as a player sees them."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse

# allauth counts in the cache, which outlives a test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("account_limits_unused")

User = get_user_model()
NEW_PASSWORD = "a-whole-new-deck-42"


def sign_up(client, username="dana", email="dana@example.com", password=NEW_PASSWORD, password2=None):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "email": email,
            "password1": password,
            "password2": password2 or password,
        },
    )


def log_in(client, username, password, address="10.0.0.1"):
    # allauth's form: one "login" field takes the username or the e-mail address.
    return client.post(reverse("login"), {"login": username, "password": password}, REMOTE_ADDR=address)


def logged_in_user(client):
    return client.get(reverse("api_me")).json().get("username")


def texts(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- sign up ------------------------------------------------------------------


@pytest.mark.django_db
def test_it_signs_up_and_logs_the_new_player_in(client):
    response = sign_up(client)

    assert response.status_code == 302
    assert response.url == reverse("home")
    user = User.objects.get(username="dana")
    assert user.email == "dana@example.com"
    assert user.check_password(NEW_PASSWORD)
    assert logged_in_user(client) == "dana"
    assert any("Welcome" in text for text in texts(response))


@pytest.mark.django_db
def test_it_refuses_a_weak_password_at_sign_up(client):
    response = sign_up(client, password="12345678")

    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    assert not User.objects.filter(username="dana").exists()


@pytest.mark.django_db
def test_it_refuses_a_password_too_like_the_username(client):
    response = sign_up(client, username="septicafan", password="septicafan1")

    assert "too similar" in response.content.decode()
    assert not User.objects.filter(username="septicafan").exists()


@pytest.mark.django_db
def test_it_refuses_two_different_passwords(client):
    response = sign_up(client, password2="another-deck-entirely-9")

    assert response.status_code == 200
    assert not User.objects.filter(username="dana").exists()


def test_it_refuses_a_taken_username_whatever_its_case(client, alice):
    response = sign_up(client, username="ALICE", email="other@example.com")

    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_it_refuses_a_taken_email_whatever_its_case(client, alice):
    response = sign_up(client, email="Alice@Example.COM")

    assert response.status_code == 200
    assert "An account with this e-mail address already exists" in response.content.decode()
    assert not User.objects.filter(username="dana").exists()


def test_a_logged_in_player_is_sent_home_from_sign_up(client, alice):
    client.force_login(alice)

    assert client.get(reverse("signup")).url == reverse("home")


# --- log in and out -----------------------------------------------------------


def test_it_logs_in_by_username(client, alice, password):
    response = log_in(client, "alice", password)

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert logged_in_user(client) == "alice"


def test_it_logs_in_by_email_or_username_in_another_case(client, alice, password):
    log_in(client, "ALICE@example.com", password)
    assert logged_in_user(client) == "alice"

    client.logout()
    log_in(client, "Alice", password)
    assert logged_in_user(client) == "alice"


def test_it_refuses_a_wrong_password(client, alice):
    response = log_in(client, "alice", "not-my-password")

    assert response.status_code == 200
    assert "Please enter a correct" in response.content.decode()
    assert logged_in_user(client) is None


def test_it_returns_to_the_page_asked_for_after_log_in(client, alice, password):
    response = client.post(
        reverse("login") + "?next=" + reverse("profile"),
        {"login": "alice", "password": password, "next": reverse("profile")},
    )

    assert response.url == reverse("profile")


def test_it_logs_out_only_by_post(client, alice):
    client.force_login(alice)

    assert client.get(reverse("logout")).status_code == 405
    assert logged_in_user(client) == "alice"

    response = client.post(reverse("logout"))
    assert response.url == reverse("home")
    assert logged_in_user(client) is None


# --- passwords ----------------------------------------------------------------


def test_it_changes_the_password(client, alice, password):
    client.force_login(alice)

    response = client.post(
        reverse("password_change"),
        {
            "oldpassword": password,
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )

    assert response.url == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert logged_in_user(client) == "alice", "the session that changed the password stays logged in"


def test_it_refuses_a_password_change_without_the_old_password(client, alice, password):
    client.force_login(alice)

    client.post(
        reverse("password_change"),
        {
            "oldpassword": "a-guess",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )

    alice.refresh_from_db()
    assert alice.check_password(password)


def reset_link(message) -> str:
    link = re.search(r"https?://\S+", message.body).group(0)
    assert link.startswith(settings.SITE_URL + "/")
    return urlsplit(link).path


def test_it_resets_a_forgotten_password_through_the_emailed_link(client, alice, password):
    response = client.post(reverse("password_reset"), {"email": "ALICE@example.com"})
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]

    form = client.get(reset_link(mail.outbox[0]), follow=True)
    assert b"Choose a new password" in form.content
    done = client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.url == reverse("password_reset_complete")

    assert log_in(client, "alice", password).status_code == 200, "the old password is gone"
    assert log_in(client, "alice", NEW_PASSWORD).url == reverse("home")
    assert logged_in_user(client) == "alice"


def test_a_reset_link_works_only_once(client, alice):
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = reset_link(mail.outbox[0])
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    again = client.get(link, follow=True)

    assert b"This link no longer works" in again.content


def test_it_sends_nothing_for_an_unknown_address_but_says_the_same(client, alice):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


# --- profile and language -----------------------------------------------------


def test_it_saves_the_profile(client, alice):
    client.force_login(alice)

    response = client.post(reverse("profile"), {"display_name": "Alice the Bold", "preferred_language": "ro"})

    assert response.url == reverse("profile")
    alice.refresh_from_db()
    assert (alice.display_name, alice.preferred_language) == ("Alice the Bold", "ro")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ro"
    assert "Profilul tău a fost salvat." in texts(response)  # said in the language just chosen


def test_following_the_browser_again_forgets_the_language_cookie(client, alice):
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ro"

    response = client.post(reverse("profile"), {"display_name": "", "preferred_language": ""})

    alice.refresh_from_db()
    assert alice.preferred_language == ""
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""


def test_the_profile_language_beats_the_browsers(client, make_user):
    client.force_login(make_user("dorin", preferred_language="ro"))

    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")

    assert response["Content-Language"] == "ro"


def test_the_language_menu_choice_beats_the_profile(client, make_user):
    client.force_login(make_user("dorin", preferred_language="ro"))
    client.post(reverse("set_language"), {"language": "en"})

    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ro")

    assert response["Content-Language"] == "en"


def test_without_a_preference_the_browser_decides(client, alice):
    client.force_login(alice)

    assert client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ro")["Content-Language"] == "ro"


def test_the_profile_needs_a_log_in(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


# --- log-in rate limiting (django-axes) ---------------------------------------


def fail(client, username, times, address="10.0.0.1"):
    for _ in range(times):
        log_in(client, username, "wrong-password", address)


def test_five_bad_passwords_lock_the_account_even_from_another_address(client, alice, password):
    fail(client, "alice", 5, address="10.0.0.1")

    response = log_in(client, "alice", password, address="10.9.9.9")

    assert response.status_code == 429
    assert "Too many failed log-in attempts; try again in 15 minutes." in response.content.decode()
    assert logged_in_user(client) is None


def test_the_lock_holds_however_the_account_is_typed(client, alice, password):
    fail(client, "ALICE", 3, address="10.0.0.1")
    fail(client, "alice@example.com", 2, address="10.0.0.2")

    assert log_in(client, "alice", password, address="10.0.0.3").status_code == 429


def test_an_address_is_locked_across_accounts(client, alice, bob, charlie, password):
    fail(client, "alice", 3, address="10.0.0.1")
    fail(client, "bob", 2, address="10.0.0.1")

    assert log_in(client, "charlie", password, address="10.0.0.1").status_code == 429
    assert log_in(client, "charlie", password, address="10.0.0.2").url == reverse("home")


def test_four_bad_passwords_and_then_the_right_one_logs_in(client, alice, password):
    fail(client, "alice", 4)

    assert log_in(client, "alice", password).url == reverse("home")


def test_a_successful_log_in_resets_the_count(client, alice, password):
    fail(client, "alice", 4)
    log_in(client, "alice", password)
    client.logout()

    fail(client, "alice", 4)

    assert log_in(client, "alice", password).url == reverse("home")


def test_a_password_reset_lifts_the_account_lock(client, alice):
    fail(client, "alice", 5, address="10.0.0.1")
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    form = client.get(reset_link(mail.outbox[0]), follow=True)
    client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert log_in(client, "alice", NEW_PASSWORD, address="10.0.0.2").url == reverse("home")
    assert not AccessAttempt.objects.filter(username="alice").exists()
