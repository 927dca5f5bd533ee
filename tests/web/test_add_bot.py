"""POST /api/tables/<id>/bot: a waiting table's creator puts a bot in a free seat.

Alice made the table; Bob sits at it or is about to; Charlie is outside it.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import ApiToken
from games import actions
from games.models import Match, Seat, Table, TableStatus

pytestmark = pytest.mark.django_db


def client_for(user, **options) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


def add_bot(client, table, body=None, **extra):
    return client.post(f"/api/tables/{table.pk}/bot", data=json.dumps(body or {}),
                       content_type="application/json", **extra)


def seats_of(table):
    return list(Seat.objects.filter(table=table).order_by("number").values_list("user_id", "bot_level", "bot_style"))


@pytest.fixture
def waiting(alice):
    """Alice's public three-player septica table, seats 2 and 3 free."""
    return actions.create_table(alice, rules="septica", players=3)


def test_the_creator_seats_a_bot_at_the_first_free_seat_and_the_table_keeps_waiting(alice, waiting):
    response = add_bot(client_for(alice), waiting)

    data = response.json()
    assert response.status_code == 200 and data["seat"] == 1
    assert data["seats"][1]["kind"] == "bot" and data["seats"][1]["bot"]["level"] == "medium"
    assert data["seats"][1]["bot"]["style"] == "balanced" and data["seats"][1]["name"]
    assert data["status"] == "open" and data["can_add_bot"] is True
    assert data["view"] is None


def test_the_bot_that_fills_the_last_seat_starts_the_match(alice, waiting):
    client = client_for(alice)
    add_bot(client, waiting, {"seat": 2, "level": "expert", "style": "aggressive"})

    data = add_bot(client, waiting).json()

    assert data["status"] == "playing" and data["seat"] == 1 and data["can_add_bot"] is False
    assert data["view"] is not None and len(data["view"]["hand"]) == 4
    assert Table.objects.get(pk=waiting.pk).status == TableStatus.PLAYING
    assert seats_of(waiting)[2] == (None, "expert", "aggressive")


def test_a_person_and_a_bot_fill_a_table_together(alice, bob, waiting):
    actions.join_table(waiting.pk, bob)

    data = add_bot(client_for(alice), waiting).json()

    assert data["seat"] == 2 and data["status"] == "playing"
    assert [seat["kind"] for seat in data["seats"]] == ["person", "person", "bot"]


def test_only_the_creator_may_seat_a_bot(alice, bob, waiting):
    actions.join_table(waiting.pk, bob)

    response = add_bot(client_for(bob), waiting)

    assert response.status_code == 403 and response.json()["code"] == "not_creator"
    assert response.json()["error"]
    assert seats_of(waiting)[2] == (None, "", "")


def test_a_private_table_does_not_exist_for_someone_outside_it(alice, charlie):
    private = actions.create_table(alice, rules="septica", players=2, private=True)

    response = add_bot(client_for(charlie), private)

    assert response.status_code == 404 and response.json()["code"] == "no_such_table"
    assert seats_of(private)[1] == (None, "", "")


def test_a_missing_table_is_a_json_404(alice):
    response = alice_client_post(alice, "/api/tables/987654/bot")

    assert response.status_code == 404 and response.json()["code"] == "no_such_table"


def alice_client_post(user, url):
    return client_for(user).post(url, data="{}", content_type="application/json")


def test_a_full_table_refuses_and_stays_as_it_was(alice, bob):
    table = actions.create_table(alice, rules="septica", players=2)
    actions.join_table(table.pk, bob)
    before = (seats_of(table), Match.objects.get(pk=table.pk).state)

    response = add_bot(client_for(alice), table)

    assert response.status_code == 409 and response.json()["code"] == "table_started"
    assert (seats_of(table), Match.objects.get(pk=table.pk).state) == before


def test_a_table_its_creator_left_takes_no_bot(alice, waiting):
    actions.leave_table(waiting.pk, alice)

    response = add_bot(client_for(alice), waiting)

    assert response.status_code == 409 and response.json()["code"] == "table_called_off"
    assert seats_of(waiting)[1:] == [(None, "", ""), (None, "", "")]


def test_a_table_closed_by_a_moderator_takes_no_bot(alice, waiting):
    Table.objects.filter(pk=waiting.pk).update(closed=True)

    response = add_bot(client_for(alice), waiting)

    assert response.status_code == 403 and response.json()["code"] == "table_closed"
    assert seats_of(waiting)[1:] == [(None, "", ""), (None, "", "")]


def test_a_table_whose_last_seat_is_kept_for_someone_refuses_and_stays_as_it_was(alice, bob, charlie):
    table = actions.create_table(alice, rules="septica", players=3)
    actions.join_table(table.pk, bob)
    Seat.objects.filter(table=table, number=2).update(reserved_for=charlie)
    before = seats_of(table)

    response = add_bot(client_for(alice), table)

    assert response.status_code == 409 and response.json()["code"] == "table_full"
    assert seats_of(table) == before and Table.objects.get(pk=table.pk).status == TableStatus.OPEN


def test_a_seat_that_is_taken_or_kept_for_someone_is_refused(alice, bob, charlie, waiting):
    actions.join_table(waiting.pk, bob)
    client = client_for(alice)

    taken = add_bot(client, waiting, {"seat": 1})
    mine = add_bot(client, waiting, {"seat": 0})

    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    assert mine.status_code == 409 and mine.json()["code"] == "seat_taken"
    assert seats_of(waiting)[:2] == [(alice.pk, "", ""), (bob.pk, "", "")]


@pytest.mark.parametrize("body,code", [
    ({"seat": 7}, "bad_seat"),
    ({"seat": -1}, "bad_seat"),
    ({"seat": "2"}, "bad_seat"),
    ({"seat": True}, "bad_seat"),
    ({"level": "grandmaster"}, "bad_level"),
    ({"style": "sneaky"}, "bad_style"),
    ({"level": ["medium"]}, "bad_level"),
])
def test_bad_input_is_a_json_400_with_a_code_and_changes_nothing(alice, waiting, body, code):
    response = add_bot(client_for(alice), waiting, body)

    assert response.status_code == 400 and response.json()["code"] == code and response.json()["error"]
    assert seats_of(waiting)[1:] == [(None, "", ""), (None, "", "")]


def test_a_body_that_is_not_json_is_a_json_400(alice, waiting):
    response = client_for(alice).post(f"/api/tables/{waiting.pk}/bot", data="seat=1",
                                      content_type="application/json")

    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_anonymous_callers_get_a_json_401(waiting):
    response = add_bot(Client(), waiting)

    assert response.status_code == 401 and response.json()["code"] == "not_logged_in"


def test_a_session_needs_its_csrf_token_and_a_token_needs_none(alice, waiting):
    strict = client_for(alice, enforce_csrf_checks=True)
    _, secret = ApiToken.issue(alice, "script")

    refused = add_bot(strict, waiting)
    by_token = add_bot(Client(enforce_csrf_checks=True), waiting, HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert refused.status_code == 403 and refused["Content-Type"] == "application/json"
    assert by_token.status_code == 200 and by_token.json()["seat"] == 1


def test_get_is_not_answered(alice, waiting):
    response = client_for(alice).get(f"/api/tables/{waiting.pk}/bot")

    assert response.status_code == 405 and response["Content-Type"] == "application/json"


def test_the_table_detail_says_who_may_seat_a_bot(alice, bob, waiting):
    assert client_for(alice).get(f"/api/tables/{waiting.pk}").json()["can_add_bot"] is True
    assert client_for(bob).get(f"/api/tables/{waiting.pk}").json()["can_add_bot"] is False
    assert Client().get(f"/api/tables/{waiting.pk}").json()["can_add_bot"] is False


# --- the page form (for pages without the script) ---------------------------------
def test_the_page_form_seats_a_bot_and_goes_back_to_the_table(alice, waiting):
    response = client_for(alice).post(f"/play/{waiting.pk}/bot/", {"seat": "2", "level": "beginner"})

    assert response.status_code == 302 and response.url == f"/tables/{waiting.pk}/"
    assert seats_of(waiting)[2] == (None, "beginner", "balanced") and seats_of(waiting)[1] == (None, "", "")


def test_the_page_form_says_why_it_refuses(bob, alice, waiting):
    actions.join_table(waiting.pk, bob)

    response = client_for(bob).post(f"/play/{waiting.pk}/bot/", {}, follow=True)

    assert "Only the player who made this table can seat a bot at it." in response.content.decode()
    assert seats_of(waiting)[2] == (None, "", "")


def test_the_page_form_asks_a_visitor_to_log_in(waiting):
    response = Client().post(f"/play/{waiting.pk}/bot/")

    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert seats_of(waiting)[1:] == [(None, "", ""), (None, "", "")]
