"""One account cannot flood the lobby or the bots: open tables, waiting tables, creation rate, bot tables."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse

from games import actions
from games.models import Table, TableStatus


@pytest.fixture(autouse=True)
def fresh_rate_counters(settings):
    # The counts live in the cache, which outlives a test's database (and so
    # would carry over to the next test's user with the same id): each test
    # counts in a cache of its own.
    settings.CACHES = {**settings.CACHES, "rates": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"rates-{uuid.uuid4()}"}}
    settings.RATELIMIT_USE_CACHE = "rates"


@pytest.fixture
def limits(settings):
    settings.OPEN_TABLES_PER_PERSON = 4
    settings.WAITING_TABLES_PER_PERSON = 2
    settings.BOT_TABLES_PER_STAFF = 2
    settings.TABLE_CREATION_RATE = "100/m"
    return settings


def api_create(client, **body):
    body.setdefault("rules", "septica")
    body.setdefault("players", 2)
    return client.post(reverse("api_tables"), data=json.dumps(body), content_type="application/json")


def page_create(client, **data):
    data = {"rules": "septica", "players": 2, "seconds_per_move": 86400, **data}
    return client.post(reverse("create_table"), data)


def against_a_bot():
    return {"bots": [{"seat": 1, "level": "beginner"}]}


def form_errors(response) -> list[str]:
    return [str(error) for error in response.context["form"].non_field_errors()]


# --- waiting tables (what the lobby lists) -------------------------------------------------


def test_the_api_refuses_a_third_public_table_waiting_for_players(client, alice, limits):
    client.force_login(alice)
    assert api_create(client).status_code == 201
    assert api_create(client).status_code == 201

    response = api_create(client)

    assert response.status_code == 409
    assert response["Content-Type"] == "application/json"
    assert "2 public tables waiting for players" in response.json()["error"]
    assert Table.objects.filter(created_by=alice).count() == 2


def test_the_create_page_refuses_it_too_and_keeps_the_form(client, alice, limits):
    client.force_login(alice)
    assert page_create(client).status_code == 302
    assert page_create(client).status_code == 302

    response = page_create(client, seconds_per_move=300)

    assert response.status_code == 200
    assert any("2 public tables waiting for players" in text for text in form_errors(response))
    assert response.context["form"]["seconds_per_move"].value() == "300"
    assert Table.objects.filter(created_by=alice).count() == 2


def test_private_tables_and_tables_already_playing_do_not_wait_in_the_lobby(client, alice, limits):
    client.force_login(alice)
    api_create(client)
    api_create(client)

    assert api_create(client, private=True).status_code == 201
    assert api_create(client, **against_a_bot()).status_code == 201


# --- open tables (waiting or playing) --------------------------------------------------------


def test_a_fifth_unfinished_table_is_refused_until_one_finishes(client, alice, limits):
    client.force_login(alice)
    tables = [api_create(client, **against_a_bot()).json()["id"] for _ in range(4)]
    assert Table.objects.filter(pk__in=tables, status=TableStatus.PLAYING).count() == 4

    response = api_create(client, **against_a_bot())

    assert response.status_code == 409
    assert "4 tables that are not finished" in response.json()["error"]
    assert Table.objects.filter(created_by=alice).count() == 4

    Table.objects.filter(pk=tables[0]).update(status=TableStatus.FINISHED)
    assert api_create(client, **against_a_bot()).status_code == 201


def test_other_peoples_tables_do_not_count_against_mine(client, alice, bob, limits):
    for _ in range(2):
        actions.create_table(bob, rules="septica", players=2)
    client.force_login(alice)

    assert api_create(client).status_code == 201


# --- how fast tables are made ------------------------------------------------------------------


def test_the_api_answers_429_in_json_when_tables_are_made_too_fast(client, alice, limits):
    limits.TABLE_CREATION_RATE = "3/m"
    client.force_login(alice)
    for _ in range(3):
        table_id = api_create(client, private=True).json()["id"]
        actions.leave_table(table_id, alice)

    response = api_create(client, private=True)

    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert "too many tables" in response.json()["error"].lower()
    assert Table.objects.filter(created_by=alice).count() == 3


def test_the_page_and_the_api_share_one_budget_and_the_page_says_why(client, alice, bob, limits):
    limits.TABLE_CREATION_RATE = "2/m"
    client.force_login(alice)
    assert api_create(client, private=True).status_code == 201
    assert page_create(client, private="on").status_code == 302

    response = page_create(client, private="on")

    assert response.status_code == 429
    assert any("too many tables" in text.lower() for text in form_errors(response))
    assert Table.objects.filter(created_by=alice).count() == 2

    client.force_login(bob)  # the budget is per account
    assert page_create(client, private="on").status_code == 302


def test_a_flood_of_one_hundred_tables_leaves_the_lobby_mostly_to_others(client, alice, bob):
    # The defaults, as a script would meet them.
    actions.create_table(bob, rules="septica", players=2)
    client.force_login(alice)

    answers = [api_create(client).status_code for _ in range(100)]

    assert answers.count(201) <= 3
    assert set(answers) <= {201, 409, 429}
    lobby = client.get(reverse("api_tables")).json()["tables"]
    assert sum(table["id"] != Table.objects.get(created_by=bob).pk for table in lobby) <= 3


# --- bot tables for staff ------------------------------------------------------------------------


def test_a_staff_member_runs_a_limited_number_of_bot_tables(make_user, limits):
    staff = make_user("staffer", is_staff=True)
    other = make_user("other_staffer", is_staff=True)
    for _ in range(2):
        actions.create_bot_table(staff, rules="septica", players=2)

    with pytest.raises(actions.Conflict) as refusal:
        actions.create_bot_table(staff, rules="septica", players=2)

    assert "2 bot tables" in refusal.value.message
    assert Table.objects.filter(created_by=staff).count() == 2
    actions.create_bot_table(other, rules="septica", players=2)  # each staff member has their own


def test_a_rematch_counts_as_a_new_table(client, alice, limits):
    client.force_login(alice)
    finished = api_create(client, **against_a_bot()).json()["id"]
    Table.objects.filter(pk=finished).update(status=TableStatus.FINISHED)
    for _ in range(4):
        api_create(client, **against_a_bot())

    response = client.post(reverse("api_rematch", args=[finished]), content_type="application/json")

    assert response.status_code == 409
    assert "4 tables that are not finished" in response.json()["error"]
    assert not Table.objects.filter(rematch_of_id=finished).exists()
