"""Staff and moderators open the admin only with a second factor: TOTP codes
computed here as an authenticator app does (RFC 6238), no mocks."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from tests.second_factor import Authenticator, confirm_with_code, log_in, set_up_totp, staff_client, totp_code

# allauth counts in the cache, which outlives a test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("account_limits_unused")

ADMIN = "/admin/"


@pytest.fixture
def staff(make_user):
    return make_user("helpdesk", is_staff=True)


def test_staff_without_a_second_factor_are_sent_to_set_one_up(client, staff):
    client.force_login(staff)

    response = client.get(ADMIN)

    assert response.status_code == 302
    assert response.url.startswith(reverse("mfa_activate_totp"))


def test_staff_who_logged_in_with_the_password_alone_cannot_open_the_admin(client, staff, password):
    log_in(client, "helpdesk", password)
    app = set_up_totp(client, password)  # set up now: this session still had only the password

    response = client.get(ADMIN)

    assert response.status_code == 302
    assert response.url.startswith(reverse("mfa_reauthenticate"))
    assert client.get(f"{ADMIN}accounts/user/").status_code == 302
    # Typing a code opens it.
    assert confirm_with_code(client, app).status_code == 302
    assert client.get(ADMIN).status_code == 200


def test_logging_in_with_the_password_asks_for_the_code_and_then_opens_the_admin(staff, password):
    staff_client(staff, password)  # first visit: sets TOTP up
    client = Client()

    first = log_in(client, "helpdesk", password)
    assert first.url.startswith(reverse("mfa_authenticate"))
    assert client.get(ADMIN).status_code == 302, "the password alone logs nobody in"

    client.post(reverse("mfa_authenticate"), {"code": staff._tests_authenticator.code()})

    assert client.get(ADMIN).status_code == 200


def test_a_wrong_code_does_not_open_the_admin(staff, password):
    staff_client(staff, password)
    client = Client()
    log_in(client, "helpdesk", password)
    right = {totp_code(staff._tests_authenticator.secret, ahead) for ahead in (-1, 0, 1)}
    wrong = next(code for code in ("000000", "123456", "999999") if code not in right)

    page = client.post(reverse("mfa_authenticate"), {"code": wrong})

    assert page.status_code == 200 and b"Incorrect code" in page.content
    assert client.get(ADMIN).status_code == 302


def test_a_code_is_taken_only_once(staff, password):
    first = staff_client(staff, password)
    app: Authenticator = staff._tests_authenticator
    used = next(iter(app.typed))
    client = Client()
    log_in(client, "helpdesk", password)

    client.post(reverse("mfa_authenticate"), {"code": used})

    assert client.get(ADMIN).status_code == 302
    assert first.get(ADMIN).status_code == 200


def test_the_admins_own_log_in_form_hands_over_to_the_sites(client, staff, password):
    response = client.get(f"{ADMIN}login/?next={ADMIN}games/table/")

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next=%2Fadmin%2Fgames%2Ftable%2F"


def test_a_password_only_post_to_the_admins_form_still_opens_no_admin_page(client, staff, password):
    client.post(f"{ADMIN}login/", {"username": "helpdesk", "password": password})

    assert client.get(ADMIN).status_code == 302


def test_a_superuser_needs_a_second_factor_too(client, make_user):
    root = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(root)

    assert client.get(ADMIN).url.startswith(reverse("mfa_activate_totp"))


def test_players_pages_need_no_second_factor(client, staff):
    client.force_login(staff)

    assert client.get(reverse("profile")).status_code == 200
    assert client.get(reverse("lobby")).status_code == 200


def test_staff_must_confirm_their_address_before_setting_up_totp(client, make_user, password):
    # Else whoever signed up with someone else's address could lock its owner out with their own TOTP.
    make_user("newstaff", is_staff=True, email_verified=False)
    client.force_login(EmailAddress.objects.get(email="newstaff@example.com").user)

    page = client.get(ADMIN, follow=True)

    assert page.redirect_chain[-1][0] == reverse("mfa_index")
    assert "verified your email address" in page.content.decode()
    assert client.get(ADMIN).status_code == 302


def test_the_admins_password_change_is_the_sites_which_counts_guesses(staff, password):
    client = staff_client(staff, password)

    response = client.get(f"{ADMIN}password_change/")

    assert response.status_code == 302 and response.url == reverse("password_change")
    client.post(f"{ADMIN}password_change/", {"old_password": "a-guess", "new_password1": "x-new-deck-42",
                                              "new_password2": "x-new-deck-42"})
    staff.refresh_from_db()
    assert staff.check_password(password)
