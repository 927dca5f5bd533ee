"""Romanian in a real browser: the scripts' words (the JavaScript catalog and
the words handed to them), the language menu, and the live lobby."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Match
from tests.languages.untranslated import untranslated
from tests.play import finished_match, play_moves, start_table

from .tables import log_in, open_live_lobby, started_septica_table, table_created_by

ROMANIAN_BROWSER = {"locale": "ro-RO", "viewport": {"width": 1280, "height": 900}}


@pytest.mark.browser
def test_the_table_page_draws_its_words_in_romanian(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    mover = alice if Match.objects.get(pk=table.pk).to_move == 0 else bob
    context = new_context(**ROMANIAN_BROWSER)
    log_in(context, asgi_live_server, mover)
    page = context.new_page()

    page.goto(f"{asgi_live_server.url}/tables/{table.pk}/")

    expect(page.locator("html")).to_have_attribute("lang", "ro")
    expect(page.locator("#status")).to_have_text("E rândul tău: joacă o carte.")
    # ngettext from /jsi18n/: Romanian counts "4 cărți" (and "1 carte", "20 de cărți").
    expect(page.locator(".seat__cards").first).to_have_text("4 cărți")
    assert page.evaluate("interpolate(ngettext('%(n)s card', '%(n)s cards', 20), {n: 20}, true)") == "20 de cărți"


@pytest.mark.browser
def test_the_language_menu_turns_the_page_romanian_and_back(asgi_live_server, new_context, alice):
    context = new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    log_in(context, asgi_live_server, alice)
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}{reverse('lobby')}")
    expect(page.locator(".site-nav").get_by_role("link", name="My matches")).to_be_visible()

    page.locator("#language-select").select_option("ro")

    expect(page.locator("html")).to_have_attribute("lang", "ro")
    expect(page).to_have_url(f"{asgi_live_server.url}{reverse('lobby')}")
    expect(page.locator(".site-nav").get_by_role("link", name="Partidele mele")).to_be_visible()
    page.locator("#language-select").select_option("en")
    expect(page.locator(".site-nav").get_by_role("link", name="My matches")).to_be_visible()


@pytest.mark.browser
def test_the_live_lobby_keeps_speaking_romanian(asgi_live_server, new_context, alice, charlie):
    context = new_context(**ROMANIAN_BROWSER)
    log_in(context, asgi_live_server, alice)
    page = open_live_lobby(context, asgi_live_server)

    table_id = table_created_by(charlie, new_context, asgi_live_server, {
        "rules": "americana", "players": 2, "options": {"target": 301}, "seconds_per_move": 86400})

    # Sooner than the lobby's poll (5 s): the socket brought it, in the page's language.
    card = page.locator(f'#lobby-tables [data-table="{table_id}"]')
    expect(card).to_contain_text("până la 301 puncte", timeout=2_500)
    expect(card).to_contain_text("Ia loc")
    expect(card).to_contain_text("1 zi pe mutare")


def drawn_page(new_context, server, user, path: str, locale: str) -> str:
    """The page as its scripts left it: the live DOM, serialized."""
    context = new_context(locale=locale, viewport={"width": 1280, "height": 900})
    if user is not None:
        log_in(context, server, user)
    page = context.new_page()
    page.goto(f"{server.url}{path}")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # sockets open and the first live message is drawn
    html = page.content()
    context.close()
    return html


@pytest.mark.browser
def test_what_the_scripts_draw_has_no_english_left_in_romanian(asgi_live_server, new_context, alice, bob):
    septica = started_septica_table(alice, bob)
    americana = start_table(alice, [bob], rules="americana", options={"jokers": True})
    play_moves(americana, 2)
    finished = finished_match(alice, [bob], rules="familie")
    pages = [f"/tables/{septica.pk}/", f"/tables/{americana.pk}/", reverse("lobby"), reverse("my_matches"),
             reverse("replay", args=[finished.pk]), reverse("tutorial_step", args=["septica", 1]),
             reverse("tutorial_step", args=["americana", 1]), reverse("create_table")]

    drawn = {path: [drawn_page(new_context, asgi_live_server, alice, path, locale) for locale in ("en-GB", "ro-RO")]
             for path in pages}

    assert "4 cărți" in drawn[pages[0]][1]  # drawn by the table page's script (the server sends no seat counts in words)
    left = {path: untranslated(*pair) for path, pair in drawn.items()}
    assert {path: found for path, found in left.items() if found} == {}
