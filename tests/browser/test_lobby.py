"""The lobby and the create form in Chromium: a table made from a preset on a
phone appears in another player's lobby without a reload, and joining it
starts the match."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Table, TableStatus

PHONE = {"width": 360, "height": 740}


def logged_in(context, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    return context


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
def test_a_table_from_a_preset_appears_in_the_lobby_of_another_player_who_joins_and_it_starts(
    transactional_db, live_server, new_context, alice, bob
):
    bobs = logged_in(new_context(), live_server, bob).new_page()
    bobs.goto(live_server.url + "/play/")
    expect(bobs.locator("#lobby-tables")).to_contain_text("No open tables right now")

    alices = logged_in(new_context(viewport=PHONE), live_server, alice).new_page()
    alices.goto(live_server.url + "/play/")
    alices.get_by_role("link", name="Create a table").click()
    preset = alices.get_by_role("button", name=re.compile("long table to 21"))
    preset.click()
    expect(preset).to_have_attribute("aria-pressed", "true")
    expect(alices.get_by_label("Match")).to_have_value("points-21")
    alices.get_by_label("Seat 2").select_option(label="Wait for a person")  # the form offers a bot first
    alices.get_by_label("Time per move").select_option(label="2 min")
    assert fits_the_screen(alices)
    alices.get_by_role("button", name="Create the table").click()
    alices.wait_for_url(re.compile(r"/tables/\d+/$"))

    table = Table.objects.get()
    assert (table.rules, table.players, table.options["match"], table.seconds_per_move) == (
        "septica",
        2,
        "points-21",
        120,
    )

    card = bobs.locator(f'#lobby-tables [data-table="{table.pk}"]')  # no reload: the lobby refreshes itself
    expect(card).to_contain_text("to 21 points", timeout=15_000)
    expect(card).to_contain_text("2 min per move")
    expect(card).to_contain_text("1 of 2 seats")
    expect(card).to_contain_text("Alice")
    card.get_by_role("button", name="Join").click()
    bobs.wait_for_url(f"**/tables/{table.pk}/")

    answer = bobs.request.get(f"{live_server.url}/api/tables/{table.pk}").json()
    assert answer["status"] == TableStatus.PLAYING
    assert [seat["name"] for seat in answer["seats"]] == ["Alice", "Bob"]
    assert answer["view"]["seat"] == 1 and len(answer["view"]["hand"]) == 4


@pytest.mark.browser
def test_the_form_shows_only_the_options_that_apply_and_works_by_keyboard(
    transactional_db, live_server, new_context, alice
):
    page = logged_in(new_context(viewport=PHONE), live_server, alice).new_page()
    page.goto(live_server.url + "/play/new/")
    eights, teams = page.get_by_label("Eights cut too"), page.get_by_label("Play in teams")
    expect(page.get_by_label("Match")).to_be_visible()
    expect(eights).to_be_hidden()
    expect(page.get_by_label("Play to")).to_be_hidden()
    expect(page.get_by_label("Seat 3")).to_be_hidden()

    page.get_by_label("Players").select_option("3")
    expect(eights).to_be_visible()
    expect(eights).to_be_checked()  # the engine's default with three players
    expect(teams).to_be_hidden()
    expect(page.get_by_label("Seat 3")).to_be_visible()
    page.get_by_label("Players").select_option("4")
    expect(eights).to_be_hidden()
    expect(teams).to_be_checked()

    page.get_by_role("button", name=re.compile("Americana to 501")).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label("Play to")).to_have_value("501")
    expect(page.get_by_label("Match")).to_be_hidden()
    expect(page.locator('#id_players option[value="5"]')).to_be_disabled()
    seat = page.locator('.seat-row[data-seat="1"]')
    expect(seat.get_by_label("Bot level")).to_be_visible()  # a bot is the seat's default
    seat.get_by_label("Seat 2").select_option("person")
    expect(seat.get_by_label("Bot level")).to_be_hidden()
    seat.get_by_label("Seat 2").select_option("bot")
    seat.get_by_label("Bot level").select_option("expert")
    seat.get_by_label("Bot style").select_option("team")
    page.get_by_label("With the two jokers").check()
    page.get_by_label("Private table").check()
    assert fits_the_screen(page)
    page.get_by_role("button", name="Create the table").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/tables/\d+/"))

    table = Table.objects.get()
    assert (table.rules, table.players, table.private, table.status) == ("americana", 2, True, TableStatus.PLAYING)
    assert table.options == {"target": 501, "jokers": True, "pairs": False, "jacks_draw": False}
    assert table.seats.get(number=1).bot_level == "expert" and table.seats.get(number=1).bot_style == "team"


@pytest.mark.browser
def test_a_bad_combination_shows_the_engines_reason_on_the_form(transactional_db, live_server, new_context, alice):
    # Without the script a player can still send eights that cut at a two-player table.
    page = logged_in(new_context(viewport=PHONE, java_script_enabled=False), live_server, alice).new_page()
    page.goto(live_server.url + "/play/new/")
    page.get_by_label("Eights cut too").check()
    page.get_by_role("button", name="Create the table").click()

    expect(page.get_by_role("alert")).to_contain_text("Eights cut only with 3, 5 or 6 players")
    assert not Table.objects.exists()
