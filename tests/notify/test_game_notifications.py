"""What the games tell people away from their tables: their move (pushed, and e-mailed as
before), reminders at a half and a tenth of the time for a move, and a match's end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from games import presence
from games.after_commit import reminders, your_move
from games.models import Match, ReminderSent
from games.tasks import remind, send_reminders, your_move_email
from notify.models import Channel, NotificationKind, NotificationOptOut
from notify.tasks import deliver_push
from tests.notify.push_service import Browser
from tests.play import bobs_move, play_moves, start_table


@pytest.fixture(autouse=True)
def mail_and_site(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://septica.example"


@pytest.fixture
def pushes(sent_tasks):
    """The pushes the site queued once its writes committed, delivered as the worker would.

    The test runs in one transaction that never commits: what the writes left
    for after commit runs here, in order, as a commit would run it."""
    ran = len(connection.run_on_commit)

    def deliver() -> int:
        nonlocal ran
        while ran < len(connection.run_on_commit):
            connection.run_on_commit[ran][1]()
            ran += 1
        delivered = sum(deliver_push(args[0]) for name, args, _ in sent_tasks if name == "notify.deliver_push")
        sent_tasks.clear()
        return delivered

    return deliver


def at_the_table(match, user):
    key = presence.person_key(match.pk, user.pk)
    presence.arrive(key)
    return key


# --- your move ------------------------------------------------------------------------
def test_bob_away_gets_your_move_at_table_n_pushed_with_the_tables_tag(alice, bob, push_service, pushes):
    browser = Browser()
    push_service.subscribe(bob, browser)
    table, match = bobs_move(alice, bob)

    your_move_email(match.pk, match.seq)

    assert pushes() == 1
    shown = browser.decrypt(push_service.received[0])
    assert shown["title"] == f"Your move at Table {table.pk} (Șeptică)"
    assert shown["url"] == f"/tables/{table.pk}/"
    assert shown["tag"] == f"table-{table.pk}"
    assert "Alice" in shown["body"]
    assert len(mail.outbox) == 1, "the e-mail stays as it was"


def test_no_push_while_a_socket_of_bobs_is_at_the_table(alice, bob, push_service, pushes):
    push_service.subscribe(bob, Browser())
    _, match = bobs_move(alice, bob)
    key = at_the_table(match, bob)
    try:
        your_move_email(match.pk, match.seq)
        assert pushes() == 0
    finally:
        presence.leave(key)
    assert push_service.received == []
    assert not bob.notifications.exists()


def test_the_check_run_twice_pushes_once(alice, bob, push_service, pushes):
    push_service.subscribe(bob, Browser())
    _, match = bobs_move(alice, bob)

    your_move_email(match.pk, match.seq)
    your_move_email(match.pk, match.seq)

    assert pushes() == 1


def test_a_person_with_a_device_but_no_email_wish_still_gets_the_check(alice, bob, push_service, sent_tasks):
    bob.email_on_your_move = False
    bob.save()
    push_service.subscribe(bob, Browser())
    bob.refresh_from_db()  # as the move path reads the seat's person with the move
    assert bob.takes_push
    _, match = bobs_move(alice, bob)

    your_move.queue_check(match.pk, match.seq, match.to_move, bob)

    assert [name for name, _, _ in sent_tasks] == ["games.your_move_email"]


def test_nobody_to_tell_queues_no_check(alice, bob, sent_tasks):
    bob.email_on_your_move = False
    bob.save()
    _, match = bobs_move(alice, bob)

    your_move.queue_check(match.pk, match.seq, match.to_move, bob)

    assert sent_tasks == []


def test_push_turned_off_for_your_move_sends_no_push_but_keeps_the_email(alice, bob, push_service, pushes):
    NotificationOptOut.objects.create(user=bob, kind=NotificationKind.YOUR_MOVE, channel=Channel.PUSH)
    push_service.subscribe(bob, Browser())
    _, match = bobs_move(alice, bob)

    your_move_email(match.pk, match.seq)

    assert pushes() == 0
    assert len(mail.outbox) == 1
    assert bob.notifications.get().kind == "your_move", "the page still lists it"


# --- reminders ----------------------------------------------------------------------------
HOUR = 3600


def with_time_left(match, seconds: float):
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))
    match.refresh_from_db()
    return match


def test_the_reminder_at_half_the_time_is_pushed_once_even_when_run_twice(alice, bob, push_service, pushes):
    browser = Browser()
    push_service.subscribe(bob, browser)
    table, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)
    match = with_time_left(match, 12 * HOUR - 30)

    assert remind(match.pk, match.seq, "half") is True
    assert remind(match.pk, match.seq, "half") is False
    assert send_reminders() == 0

    assert pushes() == 1
    shown = browser.decrypt(push_service.received[0])
    assert shown["title"] == f"Time is running out at Table {table.pk}"
    assert shown["body"].startswith("11 hours 59 minutes left for your move.")
    assert list(ReminderSent.objects.values_list("which", flat=True)) == ["half"]


def test_the_reminder_at_a_tenth_comes_after_the_half(alice, bob, push_service, pushes):
    push_service.subscribe(bob, Browser())
    _, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)

    match = with_time_left(match, 20 * HOUR)
    assert send_reminders() == 0, "too early for either"
    match = with_time_left(match, 11 * HOUR)
    assert send_reminders() == 1
    assert send_reminders() == 0
    assert pushes() == 1
    match = with_time_left(match, 2 * HOUR)
    assert remind(match.pk, match.seq, "half") is False, "the half is behind us"
    assert send_reminders() == 1
    assert send_reminders() == 0

    assert pushes() == 1
    assert sorted(ReminderSent.objects.values_list("which", flat=True)) == ["half", "tenth"]


def test_a_late_sweep_sends_only_the_tenth(alice, bob, push_service, pushes):
    push_service.subscribe(bob, Browser())
    _, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)
    with_time_left(match, HOUR)

    assert send_reminders() == 1
    assert send_reminders() == 0
    assert pushes() == 1


def test_without_a_device_the_reminder_is_emailed(alice, bob, sent_tasks):
    table, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)
    with_time_left(match, 2 * HOUR)

    assert send_reminders() == 1

    [message] = mail.outbox
    assert message.to == ["bob@example.com"]
    assert message.subject == f"Time is running out at Table {table.pk}"
    assert f"https://septica.example/tables/{table.pk}/" in message.body


def test_reminders_by_email_turned_off_send_none(alice, bob, sent_tasks):
    NotificationOptOut.objects.create(user=bob, kind=NotificationKind.REMINDER, channel=Channel.EMAIL)
    _, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)
    with_time_left(match, 2 * HOUR)

    assert send_reminders() == 1
    assert mail.outbox == []
    assert bob.notifications.get().kind == "reminder"


def test_reminder_push_turned_off_falls_back_to_email(alice, bob, push_service, pushes):
    NotificationOptOut.objects.create(user=bob, kind=NotificationKind.REMINDER, channel=Channel.PUSH)
    push_service.subscribe(bob, Browser())
    _, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)
    with_time_left(match, 2 * HOUR)

    send_reminders()

    assert pushes() == 0
    assert len(mail.outbox) == 1


def test_no_reminder_at_a_live_table(alice, bob, sent_tasks):
    _, match = bobs_move(alice, bob, seconds_per_move=60)
    with_time_left(match, 5)

    assert send_reminders() == 0
    assert remind(match.pk, match.seq, "tenth") is False


def test_no_reminder_while_bob_is_at_the_table(alice, bob, sent_tasks):
    _, match = bobs_move(alice, bob, seconds_per_move=24 * HOUR)
    with_time_left(match, 2 * HOUR)
    key = at_the_table(match, bob)
    try:
        assert send_reminders() == 0
    finally:
        presence.leave(key)
    assert not ReminderSent.objects.exists()


def test_a_move_queues_the_reminder_countdowns_that_fit(alice, bob, sent_tasks, settings):
    _, match = bobs_move(alice, bob, seconds_per_move=HOUR)
    sent_tasks.clear()

    reminders.schedule(match.pk, match.seq, match.deadline, HOUR)

    assert [(name, args) for name, args, _ in sent_tasks] == [
        ("games.tasks.remind", (match.pk, match.seq, "half")), ("games.tasks.remind", (match.pk, match.seq, "tenth"))]
    assert sent_tasks[0][2]["eta"] == match.deadline - timedelta(seconds=HOUR / 2)
    sent_tasks.clear()
    reminders.schedule(match.pk, match.seq, timezone.now() + timedelta(days=3), 3 * 86400)
    assert sent_tasks == [], "days off: the sweeper sends them"


# --- a match's end ----------------------------------------------------------------------
def test_people_away_hear_that_the_match_finished(alice, bob, push_service, pushes,
                                                  django_capture_on_commit_callbacks):
    browser = Browser()
    push_service.subscribe(bob, browser)
    table = start_table(alice, [bob])
    key = at_the_table(Match.objects.get(pk=table.pk), alice)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            match = play_moves(table, None)
    finally:
        presence.leave(key)
    assert match.finished_at is not None

    finished = bob.notifications.get(kind=NotificationKind.FINISHED)
    assert finished.title == f"Match finished at Table {table.pk} (Șeptică)"
    assert finished.body in ("You won.", "You did not win this one.")
    assert not alice.notifications.filter(kind=NotificationKind.FINISHED).exists(), "she was at the table"
    pushes()
    assert browser.decrypt(push_service.received[-1])["title"] == finished.title
