"""Leaving a match through the table page, on a 360 × 740 touch phone and a desktop: the Resign or abort
tool opens a dialog that says what will happen; resigning shows the result at once, aborting alone
shows who stopped the match, and an open request to abort is answered from its banner over the felt."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import actions
from games.leaving_rules import abort_alone_allowed
from games.models import AbortRequest, Match, Table, TableStatus
from tests.play import play_moves, start_table

from .tables import log_in

pytestmark = pytest.mark.browser

SCREENS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}

# Whether an element is inside the screen and the topmost thing at its middle (a finger or a click reaches it).
REACHABLE = """(el) => {
  const r = el.getBoundingClientRect();
  const screen = window.visualViewport;
  const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= screen.width + 0.5 && r.bottom <= screen.height + 0.5;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return inside && Boolean(hit) && el.contains(hit);
}"""


def open_table(new_context, server, person, table, screen):
    context = new_context(**SCREENS[screen])
    log_in(context, server, person)
    page = context.new_page()
    page.goto(f"{server.url}{reverse('table', args=[table.pk])}")
    return page


def press(page, locator, screen):
    assert locator.evaluate(REACHABLE), f"{locator} is out of reach"
    if screen == "phone":
        locator.tap()
    else:
        locator.click()


def past_the_young_part(table):
    while abort_alone_allowed(table.rules, Match.objects.get(pk=table.pk).game().view(None)):
        play_moves(table, count=1)


@pytest.mark.parametrize("screen", SCREENS)
def test_resigning_through_the_dialog_shows_the_result_at_once(screen, live_server, new_context, alice, bob):
    table = start_table(alice, [bob])
    page = open_table(new_context, live_server, bob, table, screen)

    tool = page.get_by_role("button", name="Resign or abort")
    press(page, tool, screen)
    dialog = page.locator("#leave-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("your side loses the match now")
    press(page, dialog.get_by_role("button", name="Resign"), screen)

    result = page.locator("#result-dialog")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Winner: Alice")
    expect(result).to_contain_text("Bob resigned.")
    assert result.get_by_role("button", name="Close").evaluate(REACHABLE)
    expect(tool).to_be_hidden()
    assert Table.objects.get(pk=table.pk).status == TableStatus.FINISHED


@pytest.mark.parametrize("screen", SCREENS)
def test_cancel_changes_nothing(screen, live_server, new_context, alice, bob):
    table = start_table(alice, [bob])
    page = open_table(new_context, live_server, alice, table, screen)
    press(page, page.get_by_role("button", name="Resign or abort"), screen)
    press(page, page.locator("#leave-dialog").get_by_role("button", name="Cancel"), screen)
    expect(page.locator("#leave-dialog")).to_be_hidden()
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


@pytest.mark.parametrize("screen", SCREENS)
def test_aborting_alone_while_the_match_is_young_says_who_stopped_it(screen, live_server, new_context, alice, bob):
    table = start_table(alice, [bob])
    page = open_table(new_context, live_server, alice, table, screen)

    press(page, page.get_by_role("button", name="Resign or abort"), screen)
    dialog = page.locator("#leave-dialog")
    expect(dialog).to_contain_text("you may abort it on your own")
    press(page, dialog.get_by_role("button", name="Abort the match"), screen)

    expect(page.locator("#abort-note")).to_have_text("Aborted by Alice before the second trick.")
    assert Table.objects.get(pk=table.pk).status == TableStatus.ABORTED


@pytest.mark.parametrize("screen", SCREENS)
def test_a_request_to_abort_is_answered_from_its_banner(screen, live_server, new_context, alice, bob):
    table = start_table(alice, [bob])
    past_the_young_part(table)
    actions.abort(table.pk, alice)
    page = open_table(new_context, live_server, bob, table, screen)

    banner = page.locator("#abort-request")
    expect(banner).to_contain_text("Alice asks to abort this match")
    press(page, banner.get_by_role("button", name="Agree to abort"), screen)

    expect(page.locator("#abort-note")).to_contain_text("everyone at the table agreed")
    assert AbortRequest.objects.get(table=table).status == "accepted"
    assert Table.objects.get(pk=table.pk).status == TableStatus.ABORTED
