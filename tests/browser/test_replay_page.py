"""The replay page in Chromium: stepping through a finished match and checking its seed."""

from __future__ import annotations

import os

import pytest

from tests.play import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("REPLAY_SCREENSHOTS")


def test_a_visitor_steps_through_a_finished_match_and_checks_the_seed(live_server, page, alice, bob):
    match = finished_match(alice, [bob], rules="septica", options={"match": "points-8"})
    last = match.seq

    page.goto(f"{live_server.url}/tables/{match.pk}/replay/")

    now = page.locator("#replay-now")
    assert page.locator(".replay-seat").count() == 2
    assert page.locator(".replay-seat").first.locator(".rcard").count() == 4  # seat 0's whole hand, as dealt
    page.get_by_role("button", name="Next").click()
    assert now.inner_text().startswith(f"Move 1 of {last}")
    page.keyboard.press("End")
    assert now.inner_text().startswith(f"Move {last} of {last}")
    page.keyboard.press("ArrowLeft")
    assert now.inner_text().startswith(f"Move {last - 1} of {last}")
    page.keyboard.press("Home")
    assert now.inner_text() == "The cards as dealt"
    if SHOTS:
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.screenshot(path=f"{SHOTS}/replay-phone.png", full_page=True)

    page.get_by_role("button", name="Check").click()
    assert page.locator("#seed-check-result").inner_text().startswith("Match:")
    if SHOTS:
        page.set_viewport_size({"width": 1200, "height": 900})
        page.screenshot(path=f"{SHOTS}/replay-desktop.png", full_page=True)
