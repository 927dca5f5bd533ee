"""Suspensions and bans through the admin: the person cannot create, join or move
anywhere (pages, API), a bot stands in at their tables, and lifting lets them back."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.actions import moderation
from games.models import Actor, Match, ModerationAction, ModerationKind, Move, Seat, Table
from tests.bots.conftest import wait_for
from tests.play import start_table

from .conftest import logged_in, run_action

pytestmark = pytest.mark.django_db

CREATE = {"rules": "septica", "players": 2, "options": {}, "seconds_per_move": 86400}


def post_json(client, url, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def first_legal_move(table):
    return Match.objects.get(pk=table.pk).game().legal_moves()[0]


def suspend(moderator, user, days="3", reason="Insulting other players"):
    return run_action(logged_in(moderator), "user", "suspend", [user.pk], reason=reason, days=days)


def test_suspending_asks_for_a_reason_and_a_number_of_days(moderator, alice):
    asked, answered = suspend(moderator, alice, days="0")

    assert b'name="reason"' in asked.content and b'name="days"' in asked.content
    assert b"greater than or equal to 1" in answered.content
    alice.refresh_from_db()
    assert alice.suspended_until is None and not ModerationAction.objects.exists()


def test_a_suspension_is_recorded_with_its_end_and_reason(moderator, alice):
    before = timezone.now()

    _asked, answered = suspend(moderator, alice, days="3")

    assert b"Done for 1" in answered.content
    alice.refresh_from_db()
    assert before + timedelta(days=3) <= alice.suspended_until <= timezone.now() + timedelta(days=3)
    [entry] = ModerationAction.objects.all()
    assert (entry.kind, entry.user, entry.until, entry.reason, entry.moderator) == (
        ModerationKind.SUSPEND, alice, alice.suspended_until, "Insulting other players", moderator)


def test_a_suspended_person_cannot_create_a_table_on_the_api_or_the_page(moderator, alice):
    suspend(moderator, alice)
    client = logged_in(alice)

    api = post_json(client, "/api/tables", CREATE)
    page = client.post("/play/new/", {"preset": "clasica-8", "rules": "septica", "players": "2",
                                      "seconds_per_move": "86400", "match": "points-8"})

    assert api.status_code == 403 and "suspended from playing until" in api.json()["error"]
    assert "suspended from playing until" in page.content.decode()
    assert not Table.objects.exists()


def test_a_suspended_person_cannot_join_on_the_api_or_the_page(moderator, alice, bob, charlie):
    table = start_table(charlie, [], players=3)
    suspend(moderator, alice)
    suspend(moderator, bob)

    api = post_json(logged_in(alice), f"/api/tables/{table.pk}/join")
    page = logged_in(bob).post(f"/play/{table.pk}/join/", follow=True)

    assert api.status_code == 403 and "suspended" in api.json()["error"]
    assert "suspended from playing" in page.content.decode()
    assert list(Seat.objects.filter(table=table, user__isnull=False).values_list("user", flat=True)) == [charlie.pk]


def test_a_suspended_person_cannot_move_or_take_their_seat_back(moderator, alice, playing):
    suspend(moderator, alice)
    client = logged_in(alice)

    move = post_json(client, f"/api/tables/{playing.pk}/moves", {"seq": 0, "move": first_legal_move(playing)})
    back = post_json(client, f"/api/tables/{playing.pk}/back")

    assert move.status_code == 403 and "suspended" in move.json()["error"]
    assert back.status_code == 403
    assert Seat.objects.get(table=playing, user=alice).standing_in
    assert not Move.objects.filter(match_id=playing.pk, actor=Actor.PERSON).exists()


def test_a_suspended_persons_script_is_refused_too(moderator, alice, playing):
    from accounts.models import ApiToken

    _token, secret = ApiToken.issue(alice, "script")
    suspend(moderator, alice)

    from django.test import Client

    response = Client().post(f"/api/tables/{playing.pk}/moves", json.dumps({"seq": 0, "move": first_legal_move(
        playing)}), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert response.status_code == 403 and "suspended" in response.json()["error"]


def test_a_suspended_person_may_still_watch_their_table(moderator, alice, playing):
    suspend(moderator, alice)

    response = logged_in(alice).get(f"/tables/{playing.pk}/")

    assert response.status_code == 200


def test_suspending_hands_every_unfinished_seat_to_a_bot_standing_in(moderator, alice, bob, charlie, playing):
    waiting = start_table(alice, [charlie], players=3)
    finished = start_table(alice, [bob])
    Table.objects.filter(pk=finished.pk).update(status="finished")

    suspend(moderator, alice)

    assert Seat.objects.get(table=playing, user=alice).standing_in
    assert Seat.objects.get(table=waiting, user=alice).standing_in
    assert not Seat.objects.get(table=finished, user=alice).standing_in
    seats = logged_in(bob).get(f"/api/tables/{playing.pk}").json()["seats"]
    assert [seat["standing_in"] for seat in seats] == [True, False]


@pytest.mark.django_db(transaction=True)
def test_the_bot_standing_in_plays_the_suspended_persons_turn_at_once(running_worker, moderator, alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})  # Alice to move

    suspend(moderator, alice)

    assert wait_for(lambda: Move.objects.filter(match_id=table.pk, seq=0).exists(), timeout=20), "no bot moved"
    move = Move.objects.get(match_id=table.pk, seq=0)
    assert (move.seat, move.actor, move.user) == (0, Actor.TIMEOUT, None)


def test_a_ban_refuses_play_until_lifted(moderator, alice, playing):
    _asked, answered = run_action(logged_in(moderator), "user", "ban", [alice.pk], reason="Cheating with a bot")
    client = logged_in(alice)

    assert b"Done for 1" in answered.content
    response = post_json(client, "/api/tables", CREATE)
    assert response.status_code == 403 and response.json()["error"] == "This account is banned from playing."
    assert Seat.objects.get(table=playing, user=alice).standing_in

    run_action(logged_in(moderator), "user", "lift", [alice.pk], reason="Appeal accepted")

    assert post_json(client, "/api/tables", CREATE).status_code == 201
    assert list(ModerationAction.objects.order_by("pk").values_list("kind", flat=True)) == [
        ModerationKind.BAN, ModerationKind.LIFT]


def test_after_a_lift_the_person_takes_their_seat_back_with_a_move(moderator, alice, playing):
    suspend(moderator, alice)
    run_action(logged_in(moderator), "user", "lift", [alice.pk], reason="served")

    response = post_json(logged_in(alice), f"/api/tables/{playing.pk}/moves",
                         {"seq": 0, "move": first_legal_move(playing)})

    assert response.status_code == 200
    assert not Seat.objects.get(table=playing, user=alice).standing_in
    alice.refresh_from_db()
    assert alice.suspended_until is None and not alice.banned


def test_lifting_someone_who_may_play_is_refused_and_not_logged(moderator, alice):
    _asked, answered = run_action(logged_in(moderator), "user", "lift", [alice.pk], reason="just in case")

    assert "is neither suspended nor banned" in answered.content.decode()
    assert not ModerationAction.objects.exists()


def test_a_suspension_ends_by_itself(moderator, alice):
    moderation.suspend_user(moderator, alice.pk, "cool off", timezone.now() + timedelta(days=1))
    User.objects.filter(pk=alice.pk).update(suspended_until=timezone.now() - timedelta(seconds=1))

    assert post_json(logged_in(alice), "/api/tables", CREATE).status_code == 201


def test_a_moderator_cannot_suspend_themselves(moderator):
    _asked, answered = suspend(moderator, moderator)

    assert "You cannot suspend or ban yourself." in answered.content.decode()
    moderator.refresh_from_db()
    assert moderator.play_refusal is None
