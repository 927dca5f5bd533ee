"""The replay page in Chromium: stepping through a finished match and checking its seed."""

from __future__ import annotations

import os
import re

import pytest

from games.models import Move
from tests.play import deal_again_from, finished_match, play_moves, seated_table
from tests.words.refusals import RAW_CARD, ZERO_SEAT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("REPLAY_SCREENSHOTS")


def test_a_visitor_steps_through_a_finished_match_and_checks_the_seed(live_server, page, alice, bob):
    match = finished_match(alice, [bob], rules="septica", options={"match": "points-8"})
    last = match.seq

    page.goto(f"{live_server.url}/tables/{match.pk}/replay/")

    now = page.locator("#replay-now")
    assert page.locator(".replay-seat").count() == 2
    assert page.locator(".replay-seat").first.locator(".rcard").count() == 4  # seat 0's whole hand, as dealt
    assert page.locator(".replay-options").inner_text() == "Șeptică · 2 players · to 8 points"
    assert re.fullmatch(r"([7-9]|10|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)",
                        page.locator(".replay-seat .rcard").first.get_attribute("title"))
    page.get_by_role("button", name="Next").click()
    assert re.fullmatch(rf"Move 1 of {last} · (Alice|Bob) plays (10|[7-9JQKA])[♣♦♥♠]", now.inner_text())
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


def test_an_americana_replay_names_cards_by_face_and_the_suits_sevens_ask_for_in_words(live_server, page, alice, bob):
    table = seated_table(alice, [bob], rules="americana", options={"target": 101, "jokers": True})
    deal_again_from(table, 1)  # a deal whose match has a seven naming a suit
    match = play_moves(table, seed=1)
    seven = next(move for move in Move.objects.filter(match=match).order_by("seq") if move.move.get("suit"))
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[seven.move["suit"]]

    page.goto(f"{live_server.url}/tables/{match.pk}/replay/")

    assert page.locator(".replay-options").inner_text() == "Șeptică americană · 2 players · to 101 points, with jokers"
    now, events = page.locator("#replay-now"), page.locator("#replay-events")
    for _move in range(seven.seq + 1):
        page.keyboard.press("ArrowRight")
        said = now.inner_text() + "\n" + events.inner_text()
        assert not RAW_CARD.search(said) and not ZERO_SEAT.search(said) and "🃏" not in said, said
    assert now.inner_text().endswith(f", names {suit}")
    assert f"names {suit}" in events.inner_text()
