"""A newcomer on a phone: the home page's play buttons fit the screen and one tap starts a match against bots."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Table, TableStatus

from .tables import log_in

PHONE = {"width": 360, "height": 740}


@pytest.mark.browser
def test_one_tap_on_the_home_page_starts_a_match_against_named_bots(transactional_db, live_server, new_context, alice):
    context = new_context(viewport=PHONE, has_touch=True)
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(live_server.url + "/")

    buttons = page.get_by_role("button", name=re.compile(r"^Play Șeptică"))
    expect(buttons).to_have_count(3)
    expect(buttons.nth(1)).to_contain_text("3 players · you and 2 Medium bots · 1 min per move")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for index in range(3):
        box = buttons.nth(index).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    buttons.nth(1).tap()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))

    table = Table.objects.get()
    assert (table.rules, table.status, table.created_by) == ("familie", TableStatus.PLAYING, alice)
    names = [seat["name"] for seat in page.request.get(f"{live_server.url}/api/tables/{table.pk}").json()["seats"]]
    assert names[0] == "Alice" and len(set(names[1:])) == 2 and "Bot" not in " ".join(names)


@pytest.mark.browser
def test_the_game_cards_lead_to_their_rules(transactional_db, live_server, page):
    page.goto(live_server.url + "/")

    page.get_by_role("link", name="Americana", exact=True).click()

    page.wait_for_url("**/rules/americana/")
    expect(page.locator("h1")).to_be_visible()
