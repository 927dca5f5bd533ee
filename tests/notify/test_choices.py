"""The profile's notification switches: every kind off or on by push, reminders by e-mail."""

from __future__ import annotations

from notify.models import Channel, NotificationKind, NotificationOptOut
from notify.notifications import wants


def test_the_profile_shows_the_device_switch_and_every_kinds_push_switch_on(client, bob):
    client.force_login(bob)
    page = client.get("/accounts/profile/").content.decode()

    assert "Notifications on this device" in page
    assert page.count('type="checkbox" name="push_') == 4
    assert 'name="email_reminder"' in page and "checked" in page.split('name="email_reminder"')[1][:40]


def test_turning_kinds_off_per_channel_is_kept_and_respected(client, bob):
    client.force_login(bob)
    answer = client.post("/notifications/choices/", {"push_your_move": "on", "push_challenge": "on"})

    assert answer.status_code == 302 and answer.url.endswith("#notifications")
    assert set(NotificationOptOut.objects.filter(user=bob).values_list("kind", "channel")) == {
        ("reminder", "push"), ("finished", "push"), ("reminder", "email")}
    assert wants(bob, NotificationKind.YOUR_MOVE, Channel.PUSH)
    assert not wants(bob, NotificationKind.FINISHED, Channel.PUSH)
    page = client.get("/accounts/profile/").content.decode()
    assert "checked" not in page.split('name="push_finished"')[1][:40]

    client.post("/notifications/choices/", {f"push_{kind}": "on" for kind in NotificationKind} | {"email_reminder": "on"})
    assert not NotificationOptOut.objects.filter(user=bob).exists()


def test_the_your_move_email_switch_is_the_profiles_own(client, bob):
    bob.email_on_your_move = False
    bob.save()
    assert not wants(bob, NotificationKind.YOUR_MOVE, Channel.EMAIL)
    bob.email_on_your_move = True
    assert wants(bob, NotificationKind.YOUR_MOVE, Channel.EMAIL)
