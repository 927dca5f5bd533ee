"""The "e-mail me when it is my move" choice on the profile page."""

from __future__ import annotations

from django.urls import reverse


def test_a_new_account_gets_your_move_emails(alice):
    assert alice.email_on_your_move is True


def test_the_profile_page_shows_the_your_move_checkbox_ticked(client, alice):
    client.force_login(alice)

    page = client.get(reverse("profile")).content.decode()

    assert 'type="checkbox" name="email_on_your_move"' in page
    assert "checked" in page.split('name="email_on_your_move"')[1].split(">")[0]
    assert "e-mail me when it is my move" in page.lower()


def test_unticking_the_checkbox_turns_your_move_emails_off(client, alice):
    client.force_login(alice)

    response = client.post(reverse("profile"), {"display_name": "Alice", "preferred_language": ""})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email_on_your_move is False


def test_ticking_it_again_turns_them_back_on(client, alice):
    alice.email_on_your_move = False
    alice.save(update_fields=["email_on_your_move"])
    client.force_login(alice)

    client.post(reverse("profile"), {"display_name": "Alice", "preferred_language": "", "email_on_your_move": "on"})

    alice.refresh_from_db()
    assert alice.email_on_your_move is True
    assert alice.display_name == "Alice"
