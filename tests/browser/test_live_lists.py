"""The lobby and My matches are live: a table someone else creates appears in
the lobby without a reload, and when it becomes my move the "your move" badge
on the My matches link lights up (and My matches moves the table to the top).

Every change goes through the real daphne server (asgi_live_server), so it
reaches the sockets on the embedded setup too.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Seat

from .tables import log_in, open_live_lobby, post_json, table_created_by
from .test_live_table import DESKTOP, current_game, open_table, play, started_septica_table


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


PHONE = {"width": 360, "height": 740}


@pytest.mark.browser
def test_after_the_whole_lobby_once_a_phone_is_sent_only_what_changed(asgi_live_server, new_context, alice, bob,
                                                                      charlie):
    first = table_created_by(alice, new_context, asgi_live_server,
                             {"rules": "septica", "players": 3, "options": {}, "seconds_per_move": 3600})
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    frames: list[str] = []

    def hear(socket) -> None:
        if "/ws/lobby/" in socket.url:
            socket.on("framereceived", lambda payload: frames.append(payload))

    page.on("websocket", hear)  # before the page opens: no frame is missed
    with page.expect_websocket(lambda socket: "/ws/lobby/" in socket.url) as opening:
        page.goto(f"{asgi_live_server.url}{reverse('lobby')}")
    if not frames:
        opening.value.wait_for_event("framereceived")
    card = page.locator(f'#lobby-tables [data-table="{first}"]')
    expect(card).to_contain_text("1 of 3 seats")

    second = table_created_by(charlie, new_context, asgi_live_server,
                              {"rules": "americana", "players": 2, "options": {}, "seconds_per_move": 3600})
    expect(page.locator(f'#lobby-tables [data-table="{second}"]')).to_be_visible(timeout=2_500)
    joining = new_context()
    log_in(joining, asgi_live_server, bob)
    assert post_json(joining, asgi_live_server, f"/api/tables/{first}/join", {}).status == 200
    expect(card).to_contain_text("2 of 3 seats", timeout=2_500)
    leaving = new_context()
    log_in(leaving, asgi_live_server, charlie)
    assert post_json(leaving, asgi_live_server, f"/api/tables/{second}/leave", {}).status == 200
    expect(page.locator(f'#lobby-tables [data-table="{second}"]')).to_have_count(0, timeout=2_500)

    # What the page shows is the whole list as the API has it, in its order.
    shown = page.eval_on_selector_all("#lobby-tables [data-table]", "cards => cards.map((card) => Number(card.dataset.table))")
    assert shown == [table["id"] for table in page.request.get(f"{asgi_live_server.url}/api/tables").json()["tables"]]
    messages = [json.loads(frame) for frame in frames]
    assert messages[0]["type"] == "lobby" and {message["type"] for message in messages[1:]} == {"lobby_changes"}
    assert max(len(message["order"]) for message in messages[1:]) == 2
    assert all(len(message["tables"]) <= 1 for message in messages[1:])  # one table's news, never the list again
    assert fits_the_screen(page)


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
