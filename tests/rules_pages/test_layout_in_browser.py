"""The rules pages in Chromium: readable on a 360 px phone without sideways scrolling, roomier on a desktop."""

from __future__ import annotations

import os

import pytest

from games import actions
from tests.browser.tables import log_in

from .pages import EXAMPLE_PAGES, RULES_PAGES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SHOTS = os.environ.get("RULES_SCREENSHOTS")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def overflow(page) -> int:
    """How far the page sticks out to the right of the screen, in CSS pixels."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("url", RULES_PAGES)
def test_every_rules_page_fits_a_360_pixel_phone_in_romanian(live_server, new_context, url):
    page = new_context(viewport=PHONE, locale="ro-RO", extra_http_headers={"Accept-Language": "ro"}).new_page()

    page.goto(live_server.url + url)

    assert page.locator("html").get_attribute("lang") == "ro"
    assert overflow(page) <= 0
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/rules{url.replace('/', '-')}phone.png", full_page=True)


@pytest.mark.parametrize("url", EXAMPLE_PAGES)
def test_the_example_cards_are_drawn_and_grow_on_a_desktop(live_server, new_context, url):
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + url)
    first_card = page.locator(".example .felt-strip .card").first
    first_card.scroll_into_view_if_needed()
    phone_width = first_card.bounding_box()["width"]

    page.set_viewport_size(DESKTOP)
    desktop_width = first_card.bounding_box()["width"]

    assert first_card.is_visible()
    assert 40 <= phone_width < desktop_width
    assert (
        page.locator(".example .played-card.is-holder .card")
        .first.evaluate("card => getComputedStyle(card).boxShadow")
        .startswith("rgb(241, 196, 15)")
    )  # the gold ring of the player holding the trick, as at the table
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/rules{url.replace('/', '-')}desktop.png", full_page=True)


def test_a_player_follows_the_table_dialog_to_the_rules_of_its_eights(live_server, new_context, alice):
    table = actions.create_table(alice, rules="septica", players=3, options={"eights_cut": True})
    context = new_context(viewport=PHONE)
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")

    page.get_by_role("button", name="Rules of this table").click()
    page.locator("#rules-dialog .rules-links").get_by_role("link", name="eights cut (tăietură)").click()

    page.wait_for_url(f"{live_server.url}/rules/septica/#eights-cut")
    section = page.locator("#eights-cut")
    assert section.is_visible()
    top = section.bounding_box()["y"]
    assert 0 <= top < PHONE["height"] / 2  # scrolled to the section, not left at the top of the page
