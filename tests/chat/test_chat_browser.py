"""The chat at the table in Chromium: two players and a spectator in three browser contexts,
on a phone (360x740, touch) and a desktop; names and lines with <script> stay text; axe on the open panel."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.tables import log_in, started_septica_table
from tests.browser.test_accessibility import blocking_violations, described

pytestmark = pytest.mark.browser

DEVICES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def at_table(new_context, server, user, table, device):
    context = new_context(**DEVICES[device])
    log_in(context, server, user)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table.pk}/")
    expect(page.locator("#chat-tool")).to_be_visible()  # the socket said which chat this reader has
    return page


def open_chat(page):
    page.locator("#chat-tool").click()
    expect(page.locator("#chat-dialog")).to_be_visible()


@pytest.mark.parametrize("device", list(DEVICES))
def test_a_line_written_by_one_player_appears_for_the_other_and_not_for_a_spectator(
        asgi_live_server, new_context, alice, bob, charlie, device):
    type(alice).objects.filter(pk=alice.pk).update(display_name="<script>window.named=1</script>")
    table = started_septica_table(alice, bob)
    alice_page = at_table(new_context, asgi_live_server, alice, table, device)
    bob_page = at_table(new_context, asgi_live_server, bob, table, device)
    charlie_page = at_table(new_context, asgi_live_server, charlie, table, device)

    open_chat(alice_page)
    alice_page.locator("#chat-text").fill("<script>window.said=1</script> Noroc la toți")
    alice_page.locator("#chat-form button[type=submit]").click()

    expect(bob_page.locator("#chat-unread")).to_be_visible()
    expect(bob_page.locator("#chat-tool")).to_have_attribute("aria-label", "Chat: new messages")
    open_chat(bob_page)
    line = bob_page.locator("#chat-lines .chat-line")
    expect(line).to_have_count(1)
    expect(line.locator(".chat-line__words")).to_have_text("<script>window.said=1</script> Noroc la toți")
    expect(line.locator(".chat-line__author")).to_have_text("<script>window.named=1</script>")
    assert bob_page.evaluate("() => [window.said, window.named]") == [None, None]
    expect(bob_page.locator("#chat-unread")).to_be_hidden()

    bob_page.get_by_role("button", name="Well played").click()
    expect(alice_page.locator("#chat-lines .chat-line")).to_have_count(2)
    expect(alice_page.locator("#chat-lines .chat-line").last.locator(".chat-line__words")).to_have_text("Well played")

    open_chat(charlie_page)
    expect(charlie_page.locator("#chat-title")).to_have_text("Spectators' chat")
    charlie_page.locator("#chat-text").fill("go Bob")
    charlie_page.locator("#chat-text").press("Enter")
    expect(charlie_page.locator("#chat-lines .chat-line")).to_have_count(1)  # only their own: none of the players'
    expect(charlie_page.locator("#chat-lines .chat-line__words")).to_have_text("go Bob")
    bob_page.get_by_role("button", name="Thanks").click()
    expect(alice_page.locator("#chat-lines .chat-line")).to_have_count(3)
    expect(alice_page.locator("#chat-lines")).not_to_contain_text("go Bob")
    expect(bob_page.locator("#chat-lines")).not_to_contain_text("go Bob")


@pytest.mark.parametrize("device", list(DEVICES))
def test_a_refused_line_is_said_in_the_panel_and_reaches_nobody(asgi_live_server, new_context, alice, bob, device):
    table = started_septica_table(alice, bob)
    type(alice).objects.filter(pk=alice.pk).update(chat_muted_until="2099-01-01T00:00:00Z")
    alice_page = at_table(new_context, asgi_live_server, alice, table, device)
    bob_page = at_table(new_context, asgi_live_server, bob, table, device)

    open_chat(alice_page)
    alice_page.get_by_role("button", name="Hello").click()

    expect(alice_page.locator("#chat-error")).to_have_text("A moderator muted you from chat until 2099-01-01 00:00 UTC.")
    open_chat(bob_page)
    expect(bob_page.locator("#chat-empty")).to_be_visible()
    expect(bob_page.locator("#chat-lines .chat-line")).to_have_count(0)


@pytest.mark.parametrize("device", list(DEVICES))
def test_the_open_chat_panel_passes_axe(asgi_live_server, new_context, alice, bob, device):
    table = started_septica_table(alice, bob)
    alice_page = at_table(new_context, asgi_live_server, alice, table, device)
    open_chat(alice_page)
    alice_page.get_by_role("button", name="Good game").click()
    expect(alice_page.locator("#chat-lines .chat-line")).to_have_count(1)

    found = blocking_violations(alice_page)

    assert not found, "axe-core found serious or critical problems:\n" + described({f"chat, {device}": found})


def test_the_tools_row_with_the_chat_fits_the_narrowest_phone(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    context = new_context(viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    log_in(context, asgi_live_server, alice)
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}/tables/{table.pk}/")
    expect(page.locator("#chat-tool")).to_be_visible()
    expect(page.locator("#hand .hand-card").first).to_be_visible()

    facts = page.evaluate("""() => ({
      wide: document.documentElement.scrollWidth,
      outside: [...document.querySelectorAll('.table-tools .tool')]
        .filter((tool) => tool.offsetParent !== null)
        .filter((tool) => { const box = tool.getBoundingClientRect(); return box.left < 0 || box.right > 320; })
        .map((tool) => tool.getAttribute('aria-label')),
    })""")

    assert facts == {"wide": 320, "outside": []}
    open_chat(page)
    page.get_by_role("button", name="Noroc!").click()
    expect(page.locator("#chat-lines .chat-line__words")).to_have_text("Noroc!")
