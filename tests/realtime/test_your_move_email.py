"""People who are away from their table hear by e-mail that it is their move."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.utils import timezone

from games.after_commit import your_move
from games.models import Match, Move, Seat
from games.tasks import your_move_email
from tests.play import bobs_move, play_moves, start_table


@pytest.fixture(autouse=True)
def fresh_limits(settings, monkeypatch):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://septica.example"
    settings.YOUR_MOVE_EMAILS_PER_DAY = 20
    # Ids come back in SQLite tests and the cache outlives a test: count each test's days apart.
    day_key, test_run = your_move.day_key, uuid.uuid4().hex
    monkeypatch.setattr(your_move, "day_key", lambda user_id: f"{day_key(user_id)}:{test_run}")


@pytest.fixture
def nobody_present(monkeypatch):
    monkeypatch.setattr(your_move, "is_present", lambda table_id, user_id: False)


def move_until_bob_again(table, bob):
    bob_seat = Seat.objects.get(table=table, user=bob).number
    match = play_moves(table, 1)
    while match.to_move != bob_seat:
        match = play_moves(table, 1, seed=match.seq)
    return match


def test_bob_gets_one_email_with_the_table_link_when_it_is_his_move_and_he_is_away(alice, bob, nobody_present):
    table, match = bobs_move(alice, bob)

    assert your_move_email(match.pk, match.seq) is True

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bob@example.com"]
    assert f"https://septica.example/tables/{table.pk}/" in message.body
    assert message.subject == "Your move in Șeptică against Alice"
    assert "Hello Bob" in message.body
    assert f"It is your move at table {table.pk}" in message.body
    assert "Time left for this move: 23 hours 59 minutes." in message.body  # the site's own words for a time left
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert f'href="https://septica.example/tables/{table.pk}/"' in html
    assert "Alice" in html


def test_the_email_shows_no_card_of_anybody(alice, bob, nobody_present):
    from tests.play import card_codes_in

    _, match = bobs_move(alice, bob)

    your_move_email(match.pk, match.seq)

    words = mail.outbox[0].body.split() + mail.outbox[0].alternatives[0][0].split()
    assert list(card_codes_in(words)) == []


def test_bob_gets_no_email_while_he_is_at_the_table(alice, bob):
    presence = pytest.importorskip("games.presence")
    _, match = bobs_move(alice, bob)
    key = presence.person_key(match.pk, bob.pk)
    presence.arrive(key)  # what his open socket at the table does
    try:
        assert your_move_email(match.pk, match.seq) is False
    finally:
        presence.leave(key)

    assert mail.outbox == []
    assert your_move_email(match.pk, match.seq) is True, "once he has left, he hears of it"


def test_alice_gets_no_email_for_bobs_move(alice, bob, nobody_present):
    _, match = bobs_move(alice, bob)

    your_move_email(match.pk, match.seq)

    assert [message.to for message in mail.outbox] == [["bob@example.com"]]


def test_a_second_move_within_the_hour_sends_no_second_email(alice, bob, nobody_present):
    table, match = bobs_move(alice, bob)
    your_move_email(match.pk, match.seq)

    match = move_until_bob_again(table, bob)
    assert your_move_email(match.pk, match.seq) is False

    assert len(mail.outbox) == 1


def test_no_email_once_the_match_has_moved_on(alice, bob, nobody_present):
    table, match = bobs_move(alice, bob)
    seq = match.seq
    play_moves(table, 1)

    assert your_move_email(match.pk, seq) is False

    assert mail.outbox == []


def test_the_daily_limit_stops_the_emails(alice, bob, make_user, settings, nobody_present):
    settings.YOUR_MOVE_EMAILS_PER_DAY = 2
    opponents = [alice] + [make_user(f"opponent{n}") for n in range(2)]

    for opponent in opponents:
        _, match = bobs_move(opponent, bob)
        your_move_email(match.pk, match.seq)

    assert len(mail.outbox) == 2


def test_bob_gets_none_when_he_turned_them_off(alice, bob, nobody_present):
    bob.email_on_your_move = False
    bob.save(update_fields=["email_on_your_move"])
    _, match = bobs_move(alice, bob)

    assert your_move_email(match.pk, match.seq) is False

    assert mail.outbox == []


def test_nobody_without_an_email_address_is_mailed(alice, bob, nobody_present):
    bob.email = ""
    bob.save(update_fields=["email"])
    _, match = bobs_move(alice, bob)

    assert your_move_email(match.pk, match.seq) is False

    assert mail.outbox == []


def test_no_email_while_a_bot_stands_in_for_bob(alice, bob, nobody_present):
    table, match = bobs_move(alice, bob)
    Seat.objects.filter(table=table, user=bob).update(standing_in=True)

    assert your_move_email(match.pk, match.seq) is False

    assert mail.outbox == []


def test_the_task_delivered_twice_sends_one_email(alice, bob, nobody_present):
    _, match = bobs_move(alice, bob)

    your_move_email.apply(args=(match.pk, match.seq))
    your_move_email.apply(args=(match.pk, match.seq))

    assert len(mail.outbox) == 1


def test_a_failed_send_is_released_so_a_retry_can_send_it(alice, bob, nobody_present, monkeypatch):
    _, match = bobs_move(alice, bob)

    def broken(self, fail_silently=False):
        raise OSError("the mail server is down")

    with monkeypatch.context() as patch:
        patch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
        with pytest.raises(OSError):
            your_move.send_if_away(match.pk, match.seq)
    assert your_move.send_if_away(match.pk, match.seq) is True

    assert len(mail.outbox) == 1


def test_a_finished_match_queues_nothing(sent_tasks):
    your_move.queue_check(1, 40, None)

    assert sent_tasks == []


def test_a_change_queues_the_check_after_the_delay(sent_tasks, settings):
    settings.YOUR_MOVE_EMAIL_DELAY_SECONDS = 45

    your_move.queue_check(7, 3, 1)

    assert [(name, args[:2], options) for name, args, options in sent_tasks] == [
        (your_move_email.name, (7, 3), {"countdown": 45})]


def test_a_task_for_an_earlier_match_with_the_same_id_sends_nothing(alice, bob, nobody_present):
    _, match = bobs_move(alice, bob)
    queued_before_it_started = match.started_at.timestamp() - 60

    assert your_move_email(match.pk, match.seq, queued_before_it_started) is False

    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not django_settings.CELERY_EMBEDDED_WORKER, reason="the worker is another process on Redis")
def test_the_worker_mails_bob_after_the_delay(running_worker, alice, bob, settings, nobody_present):
    settings.YOUR_MOVE_EMAIL_DELAY_SECONDS = 1
    # The commits of the moves queue checks too (this test commits), so the
    # delay counts from before the first of them.
    queued = time.monotonic()
    table, match = bobs_move(alice, bob)

    your_move.queue_check(match.pk, match.seq, match.to_move)

    deadline = time.monotonic() + 20
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(mail.outbox) == 1, "the worker sent no e-mail"
    assert time.monotonic() - queued >= 0.9, "the delay was not respected"
    assert f"/tables/{table.pk}/" in mail.outbox[0].body


@pytest.fixture
def queued_checks(sent_tasks, settings):
    """The your-move checks queued so far, as ((match id, seq), countdown) pairs."""
    settings.YOUR_MOVE_EMAIL_DELAY_SECONDS = 60
    return lambda: [(args[:2], options["countdown"]) for name, args, options in sent_tasks if name == your_move_email.name]


def moves_until_bobs_turn(table, bob, capture_on_commit):
    """Moves (committed, with their on-commit work run) until it is Bob's move again."""
    bob_seat = Seat.objects.get(table=table, user=bob).number
    match = Match.objects.get(pk=table.pk)
    while True:
        with capture_on_commit(execute=True):
            match = play_moves(table, 1, seed=match.seq)
        if match.to_move == bob_seat:
            return match


def test_alices_move_queues_bobs_email_check_after_commit(
    alice, bob, queued_checks, nobody_present, django_capture_on_commit_callbacks
):
    match = moves_until_bobs_turn(start_table(alice, [bob]), bob, django_capture_on_commit_callbacks)

    assert queued_checks()[-1] == ((match.pk, match.seq), 60)


def test_a_check_queued_while_bob_sits_at_the_table_tells_him_nothing(
    alice, bob, sent_tasks, settings, django_capture_on_commit_callbacks
):
    from games import presence

    settings.YOUR_MOVE_EMAIL_DELAY_SECONDS = 60
    table = start_table(alice, [bob])
    key = presence.person_key(table.pk, bob.pk)
    presence.arrive(key)  # his open socket
    try:
        match = moves_until_bobs_turn(table, bob, django_capture_on_commit_callbacks)
        [queued] = [args for name, args, _ in sent_tasks if name == your_move_email.name and args[3] == bob.pk]
        assert queued[:2] == (match.pk, match.seq)
        assert your_move_email(*queued) is False  # the move path asks no presence; the check does
    finally:
        presence.leave(key)

    assert mail.outbox == []
    assert not bob.notifications.exists()


def test_no_check_is_queued_for_bob_who_turned_the_emails_off(
    alice, bob, queued_checks, nobody_present, django_capture_on_commit_callbacks
):
    bob.email_on_your_move = False
    bob.save(update_fields=["email_on_your_move"])

    match = moves_until_bobs_turn(start_table(alice, [bob]), bob, django_capture_on_commit_callbacks)

    assert (match.pk, match.seq) not in [args for args, _countdown in queued_checks()]


def test_the_email_is_rendered_in_bobs_profile_language(alice, bob, nobody_present):
    bob.preferred_language = "ro"
    bob.save(update_fields=["preferred_language"])
    _, match = bobs_move(alice, bob)

    your_move_email(match.pk, match.seq)

    assert '<html lang="ro">' in mail.outbox[0].alternatives[0][0]


def test_while_bobs_check_is_queued_his_later_turns_queue_none(
    alice, bob, queued_checks, nobody_present, django_capture_on_commit_callbacks
):
    table = start_table(alice, [bob])
    first = moves_until_bobs_turn(table, bob, django_capture_on_commit_callbacks)
    second = moves_until_bobs_turn(table, bob, django_capture_on_commit_callbacks)

    bobs = [args for args, _countdown in queued_checks() if args[0] == table.pk]
    assert (first.pk, first.seq) in bobs and (second.pk, second.seq) not in bobs


def test_bobs_check_looks_at_the_match_as_it_stands_and_waits_out_a_turn_that_just_began(
    alice, bob, sent_tasks, nobody_present, settings, django_capture_on_commit_callbacks
):
    settings.YOUR_MOVE_EMAIL_DELAY_SECONDS = 60
    table = start_table(alice, [bob])
    first = moves_until_bobs_turn(table, bob, django_capture_on_commit_callbacks)
    now = moves_until_bobs_turn(table, bob, django_capture_on_commit_callbacks)  # a turn of his that just began
    [(_, queued, _)] = [task for task in sent_tasks if task[1][:2] == (first.pk, first.seq)]

    assert your_move_email(*queued) is False  # his present turn is younger than the delay: he may be answering
    again = sent_tasks[-1]
    assert again[1][:2] == (now.pk, now.seq) and again[1][3] == bob.pk
    assert 0 < again[2]["countdown"] <= 60
    assert mail.outbox == []

    Move.objects.filter(match_id=now.pk, seq=now.seq - 1).update(created_at=timezone.now() - timedelta(minutes=2))
    assert your_move_email(*queued) is True  # two minutes into his turn and away: told
    assert f"/tables/{table.pk}/" in mail.outbox[0].body


def test_a_check_for_bob_sends_nothing_when_it_is_alices_move(alice, bob, sent_tasks, nobody_present,
                                                              django_capture_on_commit_callbacks):
    table = start_table(alice, [bob])
    first = moves_until_bobs_turn(table, bob, django_capture_on_commit_callbacks)
    match = play_moves(table, 1, seed=first.seq)
    while match.to_move == first.to_move:
        match = play_moves(table, 1, seed=match.seq)

    assert your_move_email(first.pk, first.seq, None, bob.pk) is False
    assert mail.outbox == []
