"""When the server cannot keep a socket (Redis unreachable: it closes it with
4503), the "your move" badge polls /api/me/matches instead, and goes back to
its socket as soon as one opens again."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import actions
from games.models import Match, Seat

from .tables import current_game, log_in, started_septica_table

DESKTOP = {"width": 1280, "height": 900}
POLL_MS = 5_000  # live.js's pollEvery


@pytest.mark.browser
def test_the_your_move_badge_polls_while_its_socket_is_refused_and_reconnects_after(
    asgi_live_server, new_context, alice, bob
):
    table = started_septica_table(alice, bob)
    first = current_game(table).to_move
    seats = {seat.number: seat.user for seat in Seat.objects.filter(table=table)}
    mover, waiting = seats[first], seats[1 - first]

    context = new_context(viewport=DESKTOP)
    log_in(context, asgi_live_server, waiting)
    refusing = {"on": True}
    polled = []

    def me_socket(route):
        if refusing["on"]:
            route.close(code=4503, reason="Redis unreachable")
        else:
            route.connect_to_server()

    context.route_web_socket("**/ws/me/", me_socket)
    page = context.new_page()
    page.on("request", lambda request: "/api/me/matches" in request.url and polled.append(request.url))
    page.goto(f"{asgi_live_server.url}{reverse('lobby')}")
    badge = page.locator("#your-move")
    expect(badge).to_be_hidden()

    move = next(m for m in current_game(table).legal_moves() if m["type"] == "play")
    actions.play_move(table.pk, mover, Match.objects.get(pk=table.pk).seq, move)

    expect(badge).to_be_visible(timeout=POLL_MS + 3_000)  # no socket: only the polling can tell
    expect(badge).to_contain_text("1")
    assert polled

    refusing["on"] = False
    page.wait_for_function("window.septicaMe.online", timeout=15_000)  # the socket's next try gets through
