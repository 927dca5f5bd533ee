"""Abort, remove a player, hide, close: each through the admin's pages, with its
effect on the table, its players and the audit log."""

from __future__ import annotations

import json

import pytest

from games.models import (
    Actor,
    BotLevel,
    BotStyle,
    Match,
    ModerationAction,
    ModerationKind,
    Move,
    Seat,
    Table,
    TableStatus,
)
from tests.bots.conftest import wait_for
from tests.play import start_table

from .conftest import logged_in, run_action

pytestmark = pytest.mark.django_db


def api_move(client, table, seq=0):
    match = Match.objects.get(pk=table.pk)
    move = match.game().legal_moves()[0]
    return client.post(f"/api/tables/{table.pk}/moves", json.dumps({"seq": seq, "move": move}),
                       content_type="application/json")


# --- abort ------------------------------------------------------------------------------------------
def test_aborting_asks_for_a_reason_first_and_changes_nothing_until_given(moderator, playing):
    client = logged_in(moderator)

    asked, answered = run_action(client, "table", "abort", [playing.pk], reason="  ")

    assert asked.status_code == 200 and b'name="reason"' in asked.content
    assert b"Shown to the players" in asked.content
    assert b"This field is required" in answered.content
    assert Table.objects.get(pk=playing.pk).status == TableStatus.PLAYING
    assert not ModerationAction.objects.exists()


def test_aborting_ends_the_match_without_a_result_and_tells_the_players_why(moderator, alice, bob, playing):
    _asked, answered = run_action(logged_in(moderator), "table", "abort", [playing.pk], reason="Stalling on purpose")

    assert b"Done for 1" in answered.content
    match = Match.objects.select_related("table").get(pk=playing.pk)
    assert match.table.status == TableStatus.ABORTED and match.result is None and match.deadline is None
    assert match.abort_reason == "Stalling on purpose"
    page = logged_in(bob).get(f"/tables/{playing.pk}/").content.decode()
    assert "A moderator stopped this match: Stalling on purpose" in page
    assert logged_in(alice).get(f"/api/tables/{playing.pk}").json()["abort_reason"] == "Stalling on purpose"
    [entry] = ModerationAction.objects.all()
    assert (entry.kind, entry.moderator, entry.table_id, entry.seq, entry.reason) == (
        ModerationKind.ABORT, moderator, playing.pk, 0, "Stalling on purpose")


def test_nobody_can_move_at_an_aborted_table(moderator, alice, playing):
    run_action(logged_in(moderator), "table", "abort", [playing.pk], reason="broken deal")

    response = api_move(logged_in(alice), playing)

    assert response.status_code == 409
    assert not Move.objects.filter(match_id=playing.pk).exists()


def test_aborting_a_finished_table_is_refused_and_not_logged(moderator, alice, bob):
    from tests.play import finished_match

    match = finished_match(alice, [bob])

    _asked, answered = run_action(logged_in(moderator), "table", "abort", [match.pk], reason="late")

    assert "This table is already over." in answered.content.decode()
    assert Table.objects.get(pk=match.pk).status == TableStatus.FINISHED
    assert not ModerationAction.objects.exists()


# --- remove a player ------------------------------------------------------------------------------
def test_removing_a_player_gives_their_seat_to_a_medium_balanced_bot(moderator, alice, bob, playing):
    bobs_seat = Seat.objects.get(table=playing, user=bob)

    _asked, answered = run_action(logged_in(moderator), "seat", "remove_player", [bobs_seat.pk],
                                  reason="Abusive name")

    assert b"Done for 1" in answered.content
    bobs_seat.refresh_from_db()
    assert bobs_seat.user is None and (bobs_seat.bot_level, bobs_seat.bot_style) == (BotLevel.MEDIUM,
                                                                                    BotStyle.BALANCED)
    assert Table.objects.get(pk=playing.pk).status == TableStatus.PLAYING
    seats = logged_in(alice).get(f"/api/tables/{playing.pk}").json()["seats"]
    assert [seat["kind"] for seat in seats] == ["person", "bot"]
    [entry] = ModerationAction.objects.all()
    assert (entry.kind, entry.user, entry.seat, entry.table_id) == (ModerationKind.REMOVE_PLAYER, bob, 1,
                                                                    playing.pk)


def test_a_removed_player_can_no_longer_move_there(moderator, alice, playing):
    run_action(logged_in(moderator), "seat", "remove_player", [Seat.objects.get(table=playing, user=alice).pk],
               reason="cheating")

    response = api_move(logged_in(alice), playing)

    assert response.status_code == 403
    assert not Move.objects.filter(match_id=playing.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_the_bot_plays_at_once_when_the_removed_player_was_to_move(running_worker, moderator, alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    assert Match.objects.get(pk=table.pk).to_move == 0

    run_action(logged_in(moderator), "seat", "remove_player", [Seat.objects.get(table=table, user=alice).pk],
               reason="left the keyboard for good")

    assert wait_for(lambda: Move.objects.filter(match_id=table.pk, seq=0).exists(), timeout=20), "the bot never moved"
    move = Move.objects.get(match_id=table.pk, seq=0)
    assert (move.seat, move.actor, move.user) == (0, Actor.BOT, None)


def test_removing_a_player_from_an_open_table_seats_a_bot(moderator, alice, bob):
    waiting = start_table(alice, [bob], players=3)

    run_action(logged_in(moderator), "seat", "remove_player", [Seat.objects.get(table=waiting, user=bob).pk],
               reason="spam")

    assert Seat.objects.get(table=waiting, number=1).is_bot
    assert Table.objects.get(pk=waiting.pk).status == TableStatus.OPEN  # seat 2 is still free


def test_removing_from_a_free_seat_is_refused(moderator, alice):
    table = start_table(alice, [], players=2)

    _asked, answered = run_action(logged_in(moderator), "seat", "remove_player",
                                  [Seat.objects.get(table=table, number=1).pk], reason="empty")

    assert "Nobody sits in that seat." in answered.content.decode()
    assert not ModerationAction.objects.exists()


# --- hide and close ----------------------------------------------------------------------------------
def test_a_hidden_table_leaves_the_lobby_page_and_api(moderator, alice, bob, client):
    table = start_table(alice, [], players=2)
    assert table.pk in [t["id"] for t in client.get("/api/tables").json()["tables"]]

    run_action(logged_in(moderator), "table", "remove_from_lobby", [table.pk], reason="offensive options")

    assert table.pk not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert f'/tables/{table.pk}/"' not in client.get("/play/").content.decode()
    assert Table.objects.get(pk=table.pk).hidden
    assert ModerationAction.objects.get().kind == ModerationKind.HIDE

    run_action(logged_in(moderator), "table", "show_in_lobby", [table.pk], reason="fixed")

    assert table.pk in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert list(ModerationAction.objects.order_by("pk").values_list("kind", flat=True)) == [
        ModerationKind.HIDE, ModerationKind.SHOW]


def test_a_closed_table_refuses_new_players_on_the_api_and_the_page(moderator, alice, bob, charlie):
    table = start_table(alice, [], players=3)
    run_action(logged_in(moderator), "table", "close_to_new_players", [table.pk], reason="private game")

    api = logged_in(bob).post(f"/api/tables/{table.pk}/join", "{}", content_type="application/json")
    page = logged_in(charlie).post(f"/play/{table.pk}/join/", follow=True)

    assert api.status_code == 403 and api.json()["error"] == "This table is closed to new players."
    assert "This table is closed to new players." in page.content.decode()
    assert list(Seat.objects.filter(table=table, user__isnull=False).values_list("user", flat=True)) == [alice.pk]
    assert table.pk not in [t["id"] for t in logged_in(bob).get("/api/tables").json()["tables"]]
    assert ModerationAction.objects.get().kind == ModerationKind.CLOSE
