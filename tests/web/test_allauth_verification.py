"""E-mail verification on allauth: sign-up logs straight in and mails a link;
the site sends an address nothing else (no "your move" e-mail) until the link
is followed; accounts from before allauth start unconfirmed."""

from __future__ import annotations

import importlib
import re
from urllib.parse import urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from games.after_commit import your_move
from games.tasks import your_move_email
from tests.web.test_accounts import logged_in_user, sign_up

# allauth counts in the cache, which outlives a test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("account_limits_unused")

User = get_user_model()


@pytest.fixture(autouse=True)
def mail_here(settings, monkeypatch):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://septica.example"
    monkeypatch.setattr(your_move, "is_present", lambda table_id, user_id: False)


def confirmation_path(message) -> str:
    link = re.search(r"https?://\S+", message.body).group(0)
    assert link.startswith("https://septica.example/accounts/confirm-email/")
    return urlsplit(link).path


def test_sign_up_logs_in_at_once_and_mails_a_confirmation_link(client, db):
    response = sign_up(client)

    assert response.url == reverse("home")
    assert logged_in_user(client) == "dana", "playing needs no confirmed address"
    assert [message.to for message in mail.outbox] == [["dana@example.com"]]
    assert "/accounts/confirm-email/" in mail.outbox[0].body
    address = EmailAddress.objects.get(user__username="dana")
    assert (address.email, address.primary, address.verified) == ("dana@example.com", True, False)


def test_following_the_link_confirms_the_address(client, db):
    sign_up(client)
    path = confirmation_path(mail.outbox[0])

    page = client.get(path)
    assert page.status_code == 200 and b"dana@example.com" in page.content
    client.post(path)

    assert EmailAddress.objects.get(user__username="dana").verified


def bobs_move(alice, bob):
    from games.models import Match, Seat
    from tests.play import play_moves, start_table

    table = start_table(alice, [bob])
    seat = Seat.objects.get(table=table, user=bob).number
    match = Match.objects.get(pk=table.pk)
    while match.to_move != seat:
        match = play_moves(table, 1, seed=match.seq)
    return match


def test_no_your_move_email_goes_to_an_unconfirmed_address(alice, make_user):
    bob = make_user("bob", email_verified=False)
    match = bobs_move(alice, bob)

    assert your_move_email(match.pk, match.seq) is False

    assert mail.outbox == []


def test_once_confirmed_the_address_gets_your_move_emails(client, alice, make_user):
    bob = make_user("bob", email_verified=False)
    EmailAddress.objects.filter(user=bob).update(verified=True)
    match = bobs_move(alice, bob)

    assert your_move_email(match.pk, match.seq) is True

    assert [message.to for message in mail.outbox] == [["bob@example.com"]]


def test_the_profile_says_whether_the_address_is_confirmed(client, make_user):
    dorin = make_user("dorin", email_verified=False)
    client.force_login(dorin)

    page = client.get(reverse("profile")).content.decode()
    assert "not confirmed yet" in page
    assert reverse("account_email") in page

    EmailAddress.objects.filter(user=dorin).update(verified=True)
    assert "Your e-mail address is confirmed." in client.get(reverse("profile")).content.decode()


def test_accounts_from_before_allauth_get_their_address_unconfirmed(db):
    old = User.objects.create_user("veteran", email="Veteran@Example.com", password="x-long-password-1")
    migration = importlib.import_module("accounts.migrations.0005_email_addresses")

    migration.add_unconfirmed_addresses(apps, None)
    migration.add_unconfirmed_addresses(apps, None)  # twice changes nothing

    address = EmailAddress.objects.get(user=old)
    assert (address.email, address.primary, address.verified) == ("veteran@example.com", True, False)


def test_a_password_reset_works_for_an_unconfirmed_address(client, make_user):
    make_user("dorin", email_verified=False)

    client.post(reverse("password_reset"), {"email": "dorin@example.com"})

    assert [message.to for message in mail.outbox] == [["dorin@example.com"]]


def test_a_player_changes_address_through_a_confirmed_new_one(client, alice):
    client.force_login(alice)

    client.post(reverse("account_email"), {"email": "alice.new@example.com", "action_add": ""})
    assert [message.to for message in mail.outbox] == [["alice.new@example.com"]]
    client.post(confirmation_path(mail.outbox[0]))
    client.post(reverse("account_email"), {"email": "alice.new@example.com", "action_primary": ""})
    client.post(reverse("account_email"), {"email": "alice@example.com", "action_remove": ""})

    alice.refresh_from_db()
    assert alice.email == "alice.new@example.com"
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", "verified", "primary")) == [
        ("alice.new@example.com", True, True)]


def test_the_email_page_is_in_romanian_with_the_sites_words(client, make_user):
    client.force_login(make_user("dorin", email_verified=False, preferred_language="ro"))

    page = client.get(reverse("account_email")).content.decode()

    assert '<html lang="ro"' in page
    assert 'name="action_send"' in page and 'name="action_add"' in page
