"""My matches: my move first with the time left, then the other running
matches, open tables with Leave, finished ones with the result and Rematch,
and rematch invitations."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import actions
from games.models import Actor, Match, Table, TableStatus

pytestmark = pytest.mark.django_db


def new_table(user, others=(), **fields) -> Table:
    fields.setdefault("rules", "septica")
    fields.setdefault("players", 2)
    table = actions.create_table(user, **fields)
    for other in others:
        actions.join_table(table.pk, other, invite_code=table.invite_code)
    table.refresh_from_db()
    return table


def play_to_the_end(table: Table) -> Match:
    """Every seat plays its first legal move until the match is over."""
    for _ in range(5000):
        match = Match.objects.get(pk=table.pk)
        if match.result is not None:
            return match
        game = match.game()
        actions.play_for_seat(match.pk, game.to_move, match.seq, game.legal_moves()[0], Actor.BOT)
    raise AssertionError("the match did not end")


def finish_with(table: Table, scores, winners) -> None:
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    Match.objects.filter(pk=table.pk).update(result={"scores": scores, "winners": winners}, seq=40, deadline=None)


def listed_ids(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li class="table-card[^"]*" data-table="(\d+)"', page)]


def section(page: str, name: str) -> str:
    start = page.index(f'data-section="{name}"')
    end = page.find("</section>", start)
    return page[start:end]


def test_my_matches_asks_for_a_log_in(client):
    response = client.get(reverse("my_matches"))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_the_tables_where_it_is_my_move_come_first_with_the_time_left(client, alice, bob, charlie):
    finished = new_table(alice, [bob])
    finish_with(finished, [8, 3], [0])
    waiting = new_table(alice, [charlie], players=3)  # open: one seat left
    bobs_move = new_table(bob, [alice])  # seat 0 (Bob) leads
    my_move = new_table(alice, [bob], seconds_per_move=300)  # seat 0 (Alice) leads
    client.force_login(alice)

    page = client.get(reverse("my_matches")).content.decode()

    assert listed_ids(page) == [my_move.pk, bobs_move.pk, waiting.pk, finished.pk]
    mine = section(page, "my_move")
    assert "Your move" in mine and re.search(r"[45] min( \d+ s)? left", mine)
    assert "Bob to move" in section(page, "playing") and re.search(
        r"23 h 59 min left|1 d left", section(page, "playing")
    )
    assert "2 of 3 seats" in section(page, "open") and ">Leave<" in section(page, "open")
    assert "You won" in section(page, "finished") and "You 8 · Bob 3" in section(page, "finished")
    assert ">Rematch<" in section(page, "finished")


def test_the_api_gives_my_matches_in_the_same_order(client, alice, bob):
    bobs_move = new_table(bob, [alice])
    my_move = new_table(alice, [bob])
    client.force_login(alice)

    tables = client.get(reverse("api_my_matches")).json()["tables"]

    assert [t["id"] for t in tables] == [my_move.pk, bobs_move.pk]


@pytest.mark.parametrize(
    ("winners", "alice_reads", "bob_reads"),
    [
        ([0], "You won", "Alice won"),
        ([1], "Bob won", "You won"),
        ([], "No winner", "No winner"),
    ],
)
def test_finished_matches_say_who_won(client, alice, bob, winners, alice_reads, bob_reads):
    table = new_table(alice, [bob])
    finish_with(table, [4, 4], winners)

    client.force_login(alice)
    assert alice_reads in section(client.get(reverse("my_matches")).content.decode(), "finished")
    client.force_login(bob)
    assert bob_reads in section(client.get(reverse("my_matches")).content.decode(), "finished")


def test_a_table_called_off_before_it_started_is_not_listed(client, alice):
    table = new_table(alice)
    actions.leave_table(table.pk, alice)
    client.force_login(alice)

    assert table.pk not in listed_ids(client.get(reverse("my_matches")).content.decode())


def test_leaving_an_open_table_from_my_matches(client, alice, bob):
    table = new_table(alice, [bob], players=3)
    client.force_login(bob)

    response = client.post(reverse("lobby_leave", args=[table.pk]), follow=True)

    assert response.redirect_chain[-1][0] == reverse("my_matches")
    assert f"You left table {table.pk}." in response.content.decode()
    assert table.pk not in listed_ids(response.content.decode())


def test_a_rematch_through_the_page_keeps_the_bots_and_a_seat_for_the_other_player(client, alice, bob):
    old = new_table(
        alice,
        [bob],
        players=3,
        options={"match": "points-8"},
        bots=[actions.BotSpec(seat=2, level="expert", style="cautious")],
    )
    play_to_the_end(old)
    client.force_login(alice)
    assert ">Rematch<" in client.get(reverse("my_matches")).content.decode()

    response = client.post(reverse("rematch", args=[old.pk]))

    new = Table.objects.exclude(pk=old.pk).get()
    assert response.status_code == 302 and response.url == reverse("table", args=[new.pk])
    assert (new.rules, new.players, new.options, new.rematch_of_id) == ("septica", 3, old.options, old.pk)
    seats = {seat.number: seat for seat in new.seats.all()}
    assert seats[0].user == alice
    assert seats[1].user is None and seats[1].reserved_for == bob
    assert (seats[2].bot_level, seats[2].bot_style) == ("expert", "cautious")
    assert new.status == TableStatus.OPEN

    client.force_login(bob)
    page = client.get(reverse("my_matches")).content.decode()
    invitations = section(page, "invitations")
    assert "Alice asks for a rematch" in invitations and ">Join<" in invitations

    response = client.post(reverse("lobby_join", args=[new.pk]), {"next": reverse("my_matches")})

    assert response.url == reverse("table", args=[new.pk])
    new.refresh_from_db()
    assert new.status == TableStatus.PLAYING
    assert new.seats.get(number=1).user == bob


def test_a_private_rematch_invitation_lets_the_invited_player_in(client, alice, bob, charlie):
    old = new_table(alice, [bob], private=True)
    finish_with(old, [8, 0], [0])
    client.force_login(alice)
    client.post(reverse("rematch", args=[old.pk]))
    new = Table.objects.exclude(pk=old.pk).get()

    client.force_login(charlie)
    refused = client.post(reverse("lobby_join", args=[new.pk]), follow=True)
    assert "There is no such table." in refused.content.decode()

    client.force_login(bob)
    assert "Alice asks for a rematch" in client.get(reverse("my_matches")).content.decode()
    client.post(reverse("lobby_join", args=[new.pk]))

    new.refresh_from_db()
    assert new.status == TableStatus.PLAYING and new.seats.get(number=1).user == bob


def test_the_api_lists_rematch_invitations(client, alice, bob):
    old = new_table(alice, [bob])
    finish_with(old, [8, 0], [0])
    new = actions.rematch(old.pk, alice)
    client.force_login(bob)

    data = client.get(reverse("api_my_matches")).json()

    assert [t["id"] for t in data["invitations"]] == [new.pk]
    assert data["invitations"][0]["created_by"] == "Alice"
    assert data["invitations"][0]["seats"][1]["reserved_for_you"] is True


def test_a_rematch_of_an_unfinished_match_is_refused_with_a_reason(client, alice, bob):
    table = new_table(alice, [bob])
    client.force_login(alice)

    response = client.post(reverse("rematch", args=[table.pk]), follow=True)

    assert "A rematch can only follow a finished match." in response.content.decode()
    assert Table.objects.count() == 1
