"""In the browser: a moderator aborts a table through the admin and the player's
open table page shows why at once; a player reports another from the table page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Report, TableStatus
from tests.browser.tables import log_in, started_septica_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}


def open_page(new_context, server, user, url):
    context = new_context(viewport=DESKTOP)
    log_in(context, server, user)
    page = context.new_page()
    page.goto(f"{server.url}{url}")
    return page


def test_an_abort_in_the_admin_reaches_the_open_table_page_with_its_reason(asgi_live_server, new_context, moderator,
                                                                          alice, bob):
    table = started_septica_table(alice, bob)
    player = open_page(new_context, asgi_live_server, bob, f"/tables/{table.pk}/")
    player.wait_for_function("document.documentElement.dataset.live === 'online'")
    expect(player.locator("#abort-note")).to_be_hidden()
    admin = open_page(new_context, asgi_live_server, moderator, "/admin/games/table/")

    admin.locator(f'input[name="_selected_action"][value="{table.pk}"]').check()
    admin.locator('select[name="action"]').select_option("abort")
    admin.locator('button[name="index"]').click()
    admin.get_by_label("Reason").fill("The same person holds both seats")
    admin.locator('input[name="apply"]').click()
    expect(admin.locator(".messagelist")).to_contain_text("Done for 1")

    note = player.locator("#abort-note")
    expect(note).to_be_visible()
    expect(note).to_have_text("A moderator stopped this match: The same person holds both seats")
    expect(player.locator("#moves button")).to_have_count(0)
    table.refresh_from_db()
    assert table.status == TableStatus.ABORTED


def test_a_player_reports_another_from_the_table_page(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    page = open_page(new_context, asgi_live_server, bob, f"/tables/{table.pk}/")

    page.get_by_role("button", name="Report a player").click()
    dialog = page.locator("#report-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Player").select_option(label="Alice")
    dialog.get_by_label("What happened?").fill("Plays only when the clock is about to run out")
    dialog.get_by_role("button", name="Send the report").click()

    expect(page.locator(".messages")).to_contain_text("a moderator will look at your report")
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.seq) == (bob, alice, 0)
