"""A newcomer's first five minutes: one welcome, a button per game that starts a match
against bots at once, game cards that lead to their rules, a New table form that
plays against bots on a live clock unless told otherwise."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.engine import rules_for
from games.models import Table, TableStatus
from tests.web.test_lobby import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("account_limits_unused")]

PASSWORD = "a-whole-new-deck-42"
BUTTONS = {
    "septica": "2 players · you and a Medium bot · 1 min per move",
    "familie": "3 players · you and 2 Medium bots · 1 min per move",
    "americana": "2 players · you and a Medium bot · 1 min per move",
}


def sign_up(client, username="ana"):
    return client.post(reverse("signup"), {"username": username, "email": f"{username}@example.com",
                                           "password1": PASSWORD, "password2": PASSWORD}, follow=True)


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- one welcome ----------------------------------------------------------------
def test_a_new_player_is_welcomed_once_and_offered_a_game_at_once():
    client = Client()

    page = text_of(sign_up(client))

    assert page.count("Welcome") == 1 and "Welcome, ana! Your account is ready." in page
    assert "Welcome back" not in page
    assert "Play Șeptică" in page and BUTTONS["septica"] in page


def test_a_player_who_comes_back_is_welcomed_back(alice):
    page = text_of(as_user(alice).get(reverse("home")))

    assert "Welcome back, Alice." in page and "Your account is ready" not in page


# --- play now ---------------------------------------------------------------------
def test_the_home_page_offers_one_button_per_game_with_its_settings(alice):
    page = as_user(alice).get(reverse("home")).content.decode()

    for rules, blurb in BUTTONS.items():
        assert f'action="{reverse("quick_game", args=[rules])}"' in page
        assert blurb in page
    assert "Play Șeptică în familie" in page and "Play Șeptică americană" in page


def test_visitors_who_are_not_logged_in_see_no_play_buttons(client):
    page = client.get(reverse("home")).content.decode()

    assert "quick_game" not in page and "/play/now/" not in page and "Create an account" in page


@pytest.mark.parametrize("rules", BUTTONS)
def test_one_post_starts_a_match_against_bots(alice, rules):
    response = as_user(alice).post(reverse("quick_game", args=[rules]))

    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    assert table.rules == rules and table.status == TableStatus.PLAYING and table.seconds_per_move == 60
    seats = list(table.seats.order_by("number"))
    assert seats[0].user == alice and all(seat.bot_level == "medium" for seat in seats[1:])
    assert len(seats) == int(BUTTONS[rules][0])
    view = as_user(alice).get(f"/api/tables/{table.pk}").json()["view"]
    assert view is not None and view["seat"] == 0


def test_the_table_it_opens_names_each_bot(alice):
    as_user(alice).post(reverse("quick_game", args=["familie"]))
    table = Table.objects.get()

    page = as_user(alice).get(reverse("table", args=[table.pk])).content.decode()
    names = [seat["name"] for seat in as_user(alice).get(f"/api/tables/{table.pk}").json()["seats"][1:]]

    assert len(set(names)) == 2 and all(name in page for name in names)


def test_logged_out_the_button_asks_to_log_in_and_makes_nothing(client):
    response = client.post(reverse("quick_game", args=["septica"]))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Table.objects.exists()


def test_an_unknown_game_is_not_found(alice):
    assert as_user(alice).post("/play/now/poker/").status_code == 404
    assert not Table.objects.exists()


def test_the_button_only_answers_a_post(alice):
    assert as_user(alice).get(reverse("quick_game", args=["septica"])).status_code == 405


@override_settings(OPEN_TABLES_PER_PERSON=1)
def test_a_refusal_is_said_on_the_home_page(alice):
    client = as_user(alice)
    client.post(reverse("quick_game", args=["septica"]))

    response = client.post(reverse("quick_game", args=["americana"]), follow=True)

    assert response.redirect_chain[-1][0] == reverse("home")
    assert "You already have 1 table that is not finished" in text_of(response)
    assert Table.objects.count() == 1


# --- the game cards -----------------------------------------------------------------
def test_each_game_card_links_to_its_rules(client):
    page = client.get(reverse("home")).content.decode()

    for rules in ("septica", "familie", "americana"):
        url = reverse("rules_page", args=[rules])
        assert f'<a href="{url}">' in page
        assert client.get(url).status_code == 200


def test_the_family_game_card_says_as_many_players_as_its_rules():
    familie = rules_for("familie")
    page = text_of(Client().get(reverse("home")))

    assert (familie.min_players, familie.max_players) == (2, 6)
    assert "Two to six players, jokers in the deck" in page and "Three or more" not in page


# --- the New table form -------------------------------------------------------------
def test_the_new_table_form_starts_with_bots_in_the_free_seats_and_a_minute_a_move(alice):
    form = as_user(alice).get(reverse("create_table")).context["form"]

    assert form["seconds_per_move"].value() == 60
    assert all(form[f"seat_{number}"].value() == "bot" for number in range(1, 6))
    assert form["seat_1_level"].value() == "medium"


def test_the_form_as_it_comes_plays_against_bots_at_once(alice):
    client = as_user(alice)
    data = form_data(client.get(reverse("create_table"), {"preset": "familie"}))

    response = client.post(reverse("create_table"), data)

    table = Table.objects.get()
    assert response.url == reverse("table", args=[table.pk]) and table.status == TableStatus.PLAYING
    assert [seat.bot_level for seat in table.seats.order_by("number")] == ["", "medium", "medium"]


def test_a_seat_can_still_wait_for_a_person(alice):
    client = as_user(alice)
    data = form_data(client.get(reverse("create_table")))
    data.update(seat_1="person", seconds_per_move=86400)

    client.post(reverse("create_table"), data)

    table = Table.objects.get()
    assert table.status == TableStatus.OPEN and table.seconds_per_move == 86400
    assert table.seats.get(number=1).is_free
