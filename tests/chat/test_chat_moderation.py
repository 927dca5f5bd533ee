"""Mutes (the action, the admin, the audit log), reports that keep the chat, and the chat in the admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.actions import moderation
from games.actions.chat import say
from games.errors import BadRequest, Conflict, NotAllowed
from games.models import ChatLine, ChatRoom, ModerationAction, ModerationKind
from tests.moderation.conftest import changelist, run_action

from .conftest import logged_in

pytestmark = pytest.mark.django_db


def test_a_mute_is_in_the_audit_log_and_refuses_lines_with_its_end(moderator, alice, playing):
    moderation.mute(moderator, alice.pk, 3, "insults")

    entry = ModerationAction.objects.get()
    alice.refresh_from_db()
    assert (entry.kind, entry.user, entry.reason, entry.until) == (ModerationKind.MUTE, alice, "insults",
                                                                   alice.chat_muted_until)
    assert timedelta(days=3) - timedelta(minutes=1) < alice.chat_muted_until - timezone.now() <= timedelta(days=3)
    with pytest.raises(NotAllowed) as refused:
        say(alice, playing.pk, text="hello")
    assert str(refused.value) == (
        f"A moderator muted you from chat until {alice.chat_muted_until:%Y-%m-%d %H:%M} UTC.")
    assert not ChatLine.objects.exists()


def test_an_unmuted_person_may_chat_again_and_the_log_says_so(moderator, alice, playing):
    moderation.mute(moderator, alice.pk, 1, "spam")
    moderation.unmute(moderator, alice.pk, "apologised")

    say(alice, playing.pk, phrase="sorry_must_go")

    assert [entry.kind for entry in ModerationAction.objects.order_by("pk")] == [ModerationKind.MUTE,
                                                                                 ModerationKind.UNMUTE]
    assert ChatLine.objects.get().phrase == "sorry_must_go"


def test_an_expired_mute_refuses_nothing(alice, playing):
    type(alice).objects.filter(pk=alice.pk).update(chat_muted_until=timezone.now() - timedelta(minutes=1))

    assert say(alice, playing.pk, text="back").text == "back"


@pytest.mark.parametrize(("days", "error"), [(0, BadRequest), (366, BadRequest), ("3", BadRequest)])
def test_a_mute_needs_a_number_of_days(moderator, alice, days, error):
    with pytest.raises(error):
        moderation.mute(moderator, alice.pk, days, "why")
    assert not ModerationAction.objects.exists()


def test_only_moderators_mute_and_unmuting_nobody_is_refused(moderator, alice, bob):
    with pytest.raises(NotAllowed):
        moderation.mute(bob, alice.pk, 3, "I do not like her")
    with pytest.raises(Conflict):
        moderation.unmute(moderator, alice.pk, "nothing to lift")
    alice.refresh_from_db()
    assert alice.chat_muted_until is None and not ModerationAction.objects.exists()


def test_moderators_mute_from_the_admin_with_days_and_a_reason(moderator, alice):
    client = logged_in(moderator)

    asked, answered = run_action(client, "user", "mute", [alice.pk], reason="shouting", days="2")

    assert asked.status_code == 200 and "Days" in asked.content.decode()
    alice.refresh_from_db()
    assert alice.chat_muted_until is not None
    assert ModerationAction.objects.get().kind == ModerationKind.MUTE
    run_action(client, "user", "unmute", [alice.pk], reason="calm now")
    alice.refresh_from_db()
    assert alice.chat_muted_until is None


def test_a_report_keeps_the_chat_up_to_its_moment(moderator, alice, bob, playing):
    say(alice, playing.pk, text="you play like a <script>alert(1)</script>")
    said = say(bob, playing.pk, phrase="well_played")
    report = moderation.report_player(bob, playing.pk, 0, "rude in chat")
    say(alice, playing.pk, text="said after the report")

    assert report.chat_until == said.pk
    page = logged_in(moderator).get(f"{changelist('report')}{report.pk}/change/").content.decode()
    assert "you play like a &lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "Well played" in page
    assert "said after the report" not in page


def test_a_report_at_a_quiet_table_says_there_was_no_chat(moderator, alice, bob, playing):
    report = moderation.report_player(bob, playing.pk, 0, "slow")

    assert report.chat_until is None
    page = logged_in(moderator).get(f"{changelist('report')}{report.pk}/change/").content.decode()
    assert "No chat at the table then." in page


def test_moderators_read_the_chat_escaped_in_the_admin_and_others_do_not(moderator, alice, bob, playing):
    type(alice).objects.filter(pk=alice.pk).update(display_name="<script>name()</script>")
    alice.refresh_from_db()
    say(alice, playing.pk, text="<script>line()</script>")

    listing = logged_in(moderator).get(changelist("chatline") + f"?table__id__exact={playing.pk}")
    one_author = logged_in(moderator).get(changelist("chatline") + f"?author__id__exact={bob.pk}")

    page = listing.content.decode()
    assert listing.status_code == 200 and "&lt;script&gt;line()&lt;/script&gt;" in page
    assert "&lt;script&gt;name()&lt;/script&gt;" in page and "<script>line()" not in page and "<script>name()" not in page
    assert one_author.status_code == 200 and "line()" not in one_author.content.decode()
    assert logged_in(bob).get(changelist("chatline")).status_code == 302  # to the admin's log-in


def test_spectators_write_into_the_spectators_room_only(charlie, playing):
    assert say(charlie, playing.pk, text="go Bob").room == ChatRoom.SPECTATORS
