"""Reporting a player from the table page, and the moderators' queue of reports."""

from __future__ import annotations

import re

import pytest

from games.models import ModerationAction, ModerationKind, Report
from tests.play import play_moves, start_table

from .conftest import changelist, logged_in, run_action

pytestmark = pytest.mark.django_db


def report_form(html: str) -> str:
    found = re.search(r'<form method="post" action="(/tables/\d+/report/)" class="report-form">(.*?)</form>', html,
                      re.S)
    assert found, "no report form on the table page"
    return found.group(0)


def test_the_table_page_offers_to_report_the_other_players_but_not_yourself(alice, bob, playing):
    form = report_form(logged_in(alice).get(f"/tables/{playing.pk}/").content.decode())

    assert '<option value="1">Bob</option>' in form
    assert ">Alice</option>" not in form


def test_a_report_made_from_the_table_page_appears_in_the_moderators_queue(moderator, alice, bob, playing):
    play_moves(playing, count=3)
    client = logged_in(bob)
    action = re.search(r'action="([^"]+)"', report_form(client.get(f"/tables/{playing.pk}/").content.decode()))[1]

    answer = client.post(action, {"seat": "0", "reason": "Calls me names after every trick"}, follow=True)

    assert "a moderator will look at your report" in answer.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.table_id, report.seq) == (bob, alice, playing.pk, 3)
    queue = logged_in(moderator).get(changelist("report") + "?state=open").content.decode()
    assert "Calls me names after every trick" in queue
    assert f'href="/tables/{playing.pk}/"' in queue
    assert f"/admin/games/move/?match__exact={playing.pk}&amp;seq__lt=3" in queue and "move 3" in queue


def test_the_move_link_of_a_report_lists_the_moves_before_it(moderator, alice, bob, playing):
    play_moves(playing, count=3)
    logged_in(bob).post(f"/tables/{playing.pk}/report/", {"seat": "0", "reason": "slow"})

    listed = logged_in(moderator).get(f"/admin/games/move/?match__exact={playing.pk}&seq__lt=3")

    assert sorted(move.seq for move in listed.context["cl"].result_list) == [0, 1, 2]


@pytest.mark.parametrize(("seat", "reason", "error"), [
    ("1", "me", "You cannot report yourself."),
    ("", "someone", "Pick the player you are reporting."),
    ("0", "   ", "Give a reason."),
])
def test_a_bad_report_says_why_and_is_not_queued(alice, bob, playing, seat, reason, error):
    answer = logged_in(bob).post(f"/tables/{playing.pk}/report/", {"seat": seat, "reason": reason}, follow=True)

    assert error in answer.content.decode()
    assert not Report.objects.exists()


def test_a_bot_cannot_be_reported(alice):
    from games import actions

    table = start_table(alice, [], bots=[actions.BotSpec(seat=1)])

    answer = logged_in(alice).post(f"/tables/{table.pk}/report/", {"seat": "1", "reason": "too good"}, follow=True)

    assert "only a person can be reported" in answer.content.decode()
    assert not Report.objects.exists()


def test_the_same_player_is_reported_once_until_a_moderator_resolves_it(alice, bob, playing):
    client = logged_in(bob)
    client.post(f"/tables/{playing.pk}/report/", {"seat": "0", "reason": "rude"})

    again = client.post(f"/tables/{playing.pk}/report/", {"seat": "0", "reason": "still rude"}, follow=True)

    assert "already reported" in again.content.decode()
    assert Report.objects.count() == 1


def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in(client, playing):
    response = client.post(f"/tables/{playing.pk}/report/", {"seat": "0", "reason": "x"})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Report.objects.exists()


def test_an_outsider_cannot_report_at_a_private_table(alice, bob, charlie):
    table = start_table(alice, [bob], private=True)

    answer = logged_in(charlie).post(f"/tables/{table.pk}/report/", {"seat": "0", "reason": "x"}, follow=True)

    assert "There is no such table." in answer.content.decode()
    assert not Report.objects.exists()


def test_resolving_a_report_asks_for_a_reason_and_goes_to_the_audit_log(moderator, alice, bob, playing):
    logged_in(bob).post(f"/tables/{playing.pk}/report/", {"seat": "0", "reason": "rude"})
    report = Report.objects.get()

    asked, _answered = run_action(logged_in(moderator), "report", "resolve", [report.pk],
                                  reason="Warned Alice by e-mail")

    assert b'name="reason"' in asked.content
    report.refresh_from_db()
    assert report.resolved_at is not None and report.resolved_by == moderator
    [entry] = ModerationAction.objects.all()
    assert (entry.kind, entry.report, entry.user, entry.table_id, entry.reason) == (
        ModerationKind.RESOLVE_REPORT, report, alice, playing.pk, "Warned Alice by e-mail")
    queue = logged_in(moderator).get(changelist("report") + "?state=open")
    assert list(queue.context["cl"].result_list) == []


def test_players_never_see_the_report_queue(alice, bob, playing):
    logged_in(bob).post(f"/tables/{playing.pk}/report/", {"seat": "0", "reason": "rude"})

    response = logged_in(alice).get(changelist("report"))

    assert response.status_code == 302 and "/admin/login/" in response["Location"]
