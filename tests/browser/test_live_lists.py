"""The lobby and My matches are live: a table someone else creates appears in
the lobby without a reload, and when it becomes my move the "your move" badge
on the My matches link lights up (and My matches moves the table to the top).

Every change goes through the real daphne server (asgi_live_server), so it
reaches the sockets on the embedded setup too.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Seat

from .tables import open_live_lobby, table_created_by
from .test_live_table import DESKTOP, current_game, log_in, open_table, play, started_septica_table


@pytest.mark.browser
def test_the_lobby_shows_a_table_someone_else_created_without_a_reload(asgi_live_server, new_context, alice, charlie):
    lobby = new_context(viewport=DESKTOP)
    log_in(lobby, asgi_live_server, alice)
    page = open_live_lobby(lobby, asgi_live_server)

    table_id = table_created_by(charlie, new_context, asgi_live_server,
                                {"rules": "septica", "players": 2, "options": {}, "seconds_per_move": 3600})

    # Faster than the lobby's poll (5 s): it came over the socket.
    expect(page.locator(f'#lobby-tables [data-table="{table_id}"]')).to_be_visible(timeout=2_500)
    expect(page.locator(f'#lobby-tables [data-table="{table_id}"]')).to_contain_text("Join")


@pytest.mark.browser
def test_the_your_move_badge_lights_up_when_it_becomes_my_move(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    first = current_game(table).to_move
    seats = {seat.number: seat.user for seat in Seat.objects.filter(table=table)}
    mover_user, waiting_user = seats[first], seats[1 - first]
    _, mover = open_table(new_context, asgi_live_server, mover_user, table)

    context = new_context(viewport=DESKTOP)
    log_in(context, asgi_live_server, waiting_user)
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}{reverse('my_matches')}")
    badge = page.locator("#your-move")
    page.wait_for_function("window.septicaMe && window.septicaMe.online")
    expect(badge).to_be_hidden()
    expect(page.locator(f'[data-section="playing"] [data-table="{table.pk}"]')).to_be_visible()

    card = next(m["card"] for m in current_game(table).legal_moves() if m["type"] == "play")
    play(mover, card)

    expect(badge).to_be_visible(timeout=2_500)
    expect(badge).to_contain_text("1")
    expect(page.locator("#your-move-news")).to_have_text("Your move at 1 table")
    expect(page.locator(f'[data-section="my_move"] [data-table="{table.pk}"]')).to_be_visible(timeout=2_500)
    # And on any other page too.
    page.goto(f"{asgi_live_server.url}{reverse('lobby')}")
    expect(page.locator("#your-move")).to_be_visible(timeout=5_000)
