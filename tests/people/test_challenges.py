"""Challenges: one or several people, each seat kept until they answer; accept, decline, expire, withdraw; refusals."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Challenge, ChallengeInvite, ChallengeStatus, Table, TableStatus
from games.tasks import expire_challenges
from notify.models import Notification
from players.models import Block

pytestmark = pytest.mark.django_db

TABLE = {"rules": "septica", "players": 3, "options": {}, "seconds_per_move": 86400}


def post(client, path: str, body=None):
    return client.post(path, data=json.dumps(body or {}), content_type="application/json")


def challenge(client, *usernames, **table):
    return post(client, "/api/challenges", {**TABLE, **table, "usernames": list(usernames)})


@pytest.fixture
def made(client, alice, bob, charlie, django_capture_on_commit_callbacks):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = challenge(client, "bob", "charlie")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_a_challenge_keeps_a_seat_for_each_person_and_notifies_them(made, bob, charlie):
    table = Table.objects.get(pk=made["table_id"])
    kept = {seat.number: seat.reserved_for for seat in table.seats.all() if seat.reserved_for}
    assert kept == {1: bob, 2: charlie} and table.status == TableStatus.OPEN
    assert [(i["username"], i["status"]) for i in made["invites"]] == [("bob", "pending"), ("charlie", "pending")]
    told = Notification.objects.filter(kind="challenge").order_by("user__username")
    assert [(n.user, n.title) for n in told] == [(bob, "Alice challenges you"), (charlie, "Alice challenges you")]


def test_the_notification_is_in_the_invitees_language(client, alice, make_user, django_capture_on_commit_callbacks):
    make_user("ion", display_name="Ion", preferred_language="ro")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        challenge(client, "ion", players=2)
    note = Notification.objects.get()
    assert note.title != "Alice challenges you" and "Alice" in note.title


def test_both_accept_and_the_match_starts(client, made, bob, charlie):
    for person in (bob, charlie):
        client.force_login(person)
        answer = post(client, f"/api/challenges/{made['id']}/accept")
        assert answer.status_code == 200, answer.json()
    table = Table.objects.get(pk=made["table_id"])
    assert table.status == TableStatus.PLAYING
    assert {seat.number: seat.user for seat in table.seats.all()} == {0: table.created_by, 1: bob, 2: charlie}
    assert set(ChallengeInvite.objects.values_list("status", flat=True)) == {ChallengeStatus.ACCEPTED}


def test_a_decline_frees_the_seat_for_anyone(client, made, bob, make_user):
    client.force_login(bob)
    answer = post(client, f"/api/challenges/{made['id']}/decline")
    assert answer.status_code == 200
    assert answer.json()["invites"][0]["status"] == "declined"
    table = Table.objects.get(pk=made["table_id"])
    assert table.seats.get(number=1).reserved_for is None and table.status == TableStatus.OPEN
    assert post(client, f"/api/challenges/{made['id']}/accept").json()["code"] == "already_answered"


def test_when_everyone_declines_the_table_is_called_off(client, made, bob, charlie):
    for person in (bob, charlie):
        client.force_login(person)
        post(client, f"/api/challenges/{made['id']}/decline")
    assert Table.objects.get(pk=made["table_id"]).status == TableStatus.ABORTED


def test_a_day_later_unanswered_invites_expire_once_even_when_the_task_runs_twice(client, made, bob):
    client.force_login(bob)
    post(client, f"/api/challenges/{made['id']}/accept")
    Challenge.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    assert expire_challenges() == 1
    assert expire_challenges() == 0

    statuses = dict(ChallengeInvite.objects.values_list("invitee__username", "status"))
    assert statuses == {"bob": "accepted", "charlie": "expired"}
    table = Table.objects.get(pk=made["table_id"])
    assert table.seats.get(number=2).reserved_for is None and table.status == TableStatus.OPEN


def test_an_expired_invite_shows_as_expired_on_read_without_the_task(client, made, charlie):
    Challenge.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(charlie)
    received = client.get("/api/challenges").json()["received"]
    assert [i["status"] for i in received[0]["invites"]] == ["expired", "expired"]
    refused = post(client, f"/api/challenges/{made['id']}/accept")
    assert refused.status_code == 409 and refused.json()["code"] == "already_answered"


def test_withdrawing_calls_the_table_off(client, made, alice, bob):
    client.force_login(bob)
    refused = post(client, f"/api/challenges/{made['id']}/withdraw")
    assert refused.status_code == 403 and refused.json()["code"] == "not_challenger"
    client.force_login(alice)
    answer = post(client, f"/api/challenges/{made['id']}/withdraw")
    assert answer.status_code == 200 and {i["status"] for i in answer.json()["invites"]} == {"withdrawn"}
    assert Table.objects.get(pk=made["table_id"]).status == TableStatus.ABORTED


def test_the_list_shows_made_and_received(client, made, alice, bob):
    assert [c["id"] for c in client.get("/api/challenges").json()["made"]] == [made["id"]]
    client.force_login(bob)
    listed = client.get("/api/challenges").json()
    assert listed["made"] == [] and [c["id"] for c in listed["received"]] == [made["id"]]
    assert listed["received"][0]["your_answer"] == "pending"


def test_an_outsider_cannot_see_or_answer_a_challenge(client, made, make_user):
    client.force_login(make_user("dana"))
    for verb in ("accept", "decline", "withdraw"):
        answer = post(client, f"/api/challenges/{made['id']}/{verb}")
        assert answer.status_code == 404 and answer.json()["code"] == "no_such_challenge"
    assert client.get("/api/challenges").json() == {"made": [], "received": []}


@pytest.mark.parametrize(("usernames", "table", "status", "code"), [
    (["alice"], {}, 400, "challenge_yourself"),
    (["nobody"], {}, 404, "no_such_player"),
    (["banned"], {}, 404, "no_such_player"),
    (["away"], {}, 403, "challenged_cannot_play"),
    (["bob", "charlie"], {"players": 2}, 400, "too_many_challenged"),
    (["bob", "bob"], {}, 400, "challenge_twice"),
    ([], {}, 400, "bad_usernames"),
    ("bob", {}, 400, "bad_usernames"),
])
def test_bad_challenges_are_refused_and_store_nothing(client, alice, bob, charlie, make_user,
                                                      usernames, table, status, code):
    make_user("banned", banned=True)
    make_user("away", suspended_until=timezone.now() + timedelta(days=1))
    client.force_login(alice)
    answer = post(client, "/api/challenges", {**TABLE, **table, "usernames": usernames})
    assert answer.status_code == status and answer.json()["code"] == code and answer.json()["error"]
    assert not Table.objects.exists() and not Challenge.objects.exists() and not Notification.objects.exists()


def test_a_challenge_from_a_blocked_person_never_arrives(client, alice, bob, django_capture_on_commit_callbacks):
    Block.objects.create(blocker=bob, blocked=alice)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = challenge(client, "bob", players=2)
    assert answer.status_code == 403 and answer.json()["error"] == "Bob does not accept challenges from you."
    assert "block" not in answer.json()["error"].lower()
    assert not Challenge.objects.exists() and not Notification.objects.exists()
    client.force_login(bob)
    assert client.get("/api/challenges").json()["received"] == []


def test_challenging_needs_a_login(client, bob):
    answer = challenge(client, "bob")
    assert answer.status_code in (401, 403) and "error" in answer.json()


def test_the_challengers_list_says_the_seats_wait_for_the_invited_not_for_a_rematch(client, made, alice):
    client.force_login(alice)
    page = client.get("/matches/").content.decode()
    assert page.count(">Seat kept for an invited player</span>") == 2  # Bob's seat and Charlie's
    assert ">Seat kept for a rematch<" not in page


# --- A challenge answered or withdrawn takes its unread notification back ------------------
def unread_challenges(client, person) -> tuple[int, list[str], int]:
    """What `person` sees: the unread count, the notifications' titles, and the challenges the page lists."""
    client.force_login(person)
    answer = client.get("/api/notifications").json()
    page = client.get("/notifications/").content.decode()
    return answer["unread"], [n["title"] for n in answer["notifications"]], page.count("Alice challenges you")


def test_a_challenge_withdrawn_at_once_leaves_no_notification(client, made, alice, bob, charlie,
                                                              django_capture_on_commit_callbacks):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, f"/api/challenges/{made['id']}/withdraw").status_code == 200

    assert unread_challenges(client, bob) == (0, [], 0)
    assert unread_challenges(client, charlie) == (0, [], 0)


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_answering_a_challenge_takes_its_notification_away(client, made, bob, charlie, answer,
                                                           django_capture_on_commit_callbacks):
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, f"/api/challenges/{made['id']}/{answer}").status_code == 200

    assert unread_challenges(client, bob) == (0, [], 0)
    assert unread_challenges(client, charlie) == (1, ["Alice challenges you"], 1)  # still waiting for an answer


def test_an_expired_challenge_takes_its_notification_away(made, bob, django_capture_on_commit_callbacks):
    Challenge.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        expire_challenges()

    assert not Notification.objects.filter(kind="challenge", read_at__isnull=True).exists()


def test_a_challenge_notification_already_read_stays_in_the_list(client, made, alice, bob,
                                                                django_capture_on_commit_callbacks):
    Notification.objects.filter(user=bob).update(read_at=timezone.now())
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        post(client, f"/api/challenges/{made['id']}/withdraw")

    assert Notification.objects.filter(user=bob, kind="challenge").count() == 1
