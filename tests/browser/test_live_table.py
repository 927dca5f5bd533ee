"""The table page is live: a card played by one person appears on the other's
page at once over the websocket (with only their own hand in it), and a page
whose connection was cut says so and heals itself when the network is back.

The pages talk to a real daphne server (asgi_live_server); every change is
made through that server, so it reaches the sockets on the embedded setup too.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.models import Match, Seat

from .tables import current_game, log_in, started_septica_table

DESKTOP = {"width": 1280, "height": 900}
# How long a pushed move may take to show. A live page polls only every
# 30 s as a safety net (static/js/table/connection.js), so a move seen sooner came over
# the socket; the margin is for a busy CI machine, not for the push.
SOCKET_MS = 8_000








def open_table(new_context, server, user, table, frames=None, sent=None, **options):
    context = new_context(viewport=DESKTOP, **options)
    log_in(context, server, user)
    page = context.new_page()
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    if sent is not None:
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    page.goto(f"{server.url}/tables/{table.pk}/")
    wait_until_live(page)
    return context, page


def wait_until_live(page, timeout=10_000):
    page.wait_for_function("document.documentElement.dataset.live === 'online'", timeout=timeout)


def play(page, card: str):
    page.locator(f'#hand .hand-card[data-card="{card}"]').click()


def hand_on(page) -> list[str]:
    return page.locator("#hand .hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def people_in_turn(table, alice, bob, pages):
    """(the page of the person to move, their seat, the other page, its seat)."""
    seat = current_game(table).to_move
    seats = {seat_row.user_id: seat_row.number for seat_row in Match.objects.get(pk=table.pk).table.seats.all()}
    by_seat = {seats[alice.pk]: pages[0], seats[bob.pk]: pages[1]}
    return by_seat[seat], seat, by_seat[1 - seat], 1 - seat


@pytest.mark.browser
def test_a_card_played_at_one_page_appears_on_the_other_without_a_reload(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    frames: list[str] = []
    _, alice_page = open_table(new_context, asgi_live_server, alice, table)
    _, bob_page = open_table(new_context, asgi_live_server, bob, table, frames)
    mover, mover_seat, watcher, watcher_seat = people_in_turn(table, alice, bob, [alice_page, bob_page])
    game = current_game(table)
    card = next(m["card"] for m in game.legal_moves() if m["type"] == "play")

    play(mover, card)

    expect(watcher.locator(f'#trick [data-card="{card}"]')).to_be_visible(timeout=SOCKET_MS)
    after = current_game(table)
    assert sorted(hand_on(watcher)) == sorted(after.view(watcher_seat)["hand"])
    if watcher is bob_page:
        # Nothing Bob's socket received names a card still hidden in Alice's hand.
        hidden = after.view(mover_seat)["hand"]
        pushed = [json.loads(frame) for frame in frames]
        assert any(message.get("type") == "view" for message in pushed)
        for frame in frames:
            assert not any(f'"{code}"' in frame for code in hidden), frame


@pytest.mark.browser
def test_a_page_cut_off_says_it_is_offline_and_heals_when_the_network_is_back(asgi_live_server, new_context, alice,
                                                                              bob):
    table = started_septica_table(alice, bob)
    alice_context, alice_page = open_table(new_context, asgi_live_server, alice, table)
    bob_context, bob_page = open_table(new_context, asgi_live_server, bob, table)
    mover, _, watcher, watcher_seat = people_in_turn(table, alice, bob, [alice_page, bob_page])
    watcher_context = bob_context if watcher is bob_page else alice_context
    expect(watcher.locator("#live-banner")).to_be_hidden()

    watcher_context.set_offline(True)
    expect(watcher.locator("#live-banner")).to_be_visible(timeout=5_000)
    expect(watcher.locator("#live-banner")).to_have_attribute("role", "status")
    expect(watcher.locator("#live-banner")).to_have_text("Offline — reconnecting…")

    card = next(m["card"] for m in current_game(table).legal_moves() if m["type"] == "play")
    play(mover, card)
    expect(mover.locator(f'#trick [data-card="{card}"]')).to_be_visible()
    watcher.wait_for_timeout(500)
    expect(watcher.locator(f'#trick [data-card="{card}"]')).to_have_count(0)

    watcher_context.set_offline(False)
    expect(watcher.locator("#live-banner")).to_be_hidden(timeout=15_000)
    expect(watcher.locator(f'#trick [data-card="{card}"]')).to_be_visible(timeout=5_000)
    assert sorted(hand_on(watcher)) == sorted(current_game(table).view(watcher_seat)["hand"])
    expect(watcher.locator("#status")).to_contain_text("Your turn")


@pytest.mark.browser
def test_the_seats_show_who_is_at_the_table_now(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    _, alice_page = open_table(new_context, asgi_live_server, alice, table)
    bob_context, bob_page = open_table(new_context, asgi_live_server, bob, table)
    expect(alice_page.locator("#seats .seat.is-present")).to_have_count(1)
    expect(alice_page.locator("#seats .presence-dot")).to_have_attribute("title", "at the table now")

    bob_page.close()
    expect(alice_page.locator("#seats .seat.is-present")).to_have_count(0, timeout=5_000)


@pytest.mark.browser
def test_a_page_heals_itself_after_the_server_restarts(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    _, alice_page = open_table(new_context, asgi_live_server, alice, table)
    _, bob_page = open_table(new_context, asgi_live_server, bob, table)
    mover, _, watcher, _ = people_in_turn(table, alice, bob, [alice_page, bob_page])

    asgi_live_server.stop()
    expect(watcher.locator("#live-banner")).to_be_visible(timeout=5_000)
    asgi_live_server.start()
    for page in (mover, watcher):
        expect(page.locator("#live-banner")).to_be_hidden(timeout=15_000)
        wait_until_live(page)

    card = next(m["card"] for m in current_game(table).legal_moves() if m["type"] == "play")
    play(mover, card)
    expect(watcher.locator(f'#trick [data-card="{card}"]')).to_be_visible(timeout=SOCKET_MS)


@pytest.mark.browser
def test_a_card_refused_over_the_socket_comes_back_to_the_hand_with_the_reason(asgi_live_server, new_context, alice,
                                                                              bob):
    table = started_septica_table(alice, bob)
    sent: list[str] = []  # what both pages sent over their sockets
    _, alice_page = open_table(new_context, asgi_live_server, alice, table, sent=sent)
    _, bob_page = open_table(new_context, asgi_live_server, bob, table, sent=sent)
    leader, leader_seat, other, other_seat = people_in_turn(table, alice, bob, [alice_page, bob_page])

    # The leader leads; the other answers without cutting, so the leader may only take the trick.
    game = current_game(table)
    led = game.view(leader_seat)["hand"][0]
    play(leader, led)
    expect(other.locator(f'#trick [data-card="{led}"]')).to_be_visible(timeout=SOCKET_MS)
    answer = next(c for c in current_game(table).view(other_seat)["hand"] if c[0] not in (led[0], "7"))
    play(other, answer)
    expect(leader.locator(f'#trick [data-card="{answer}"]')).to_be_visible(timeout=SOCKET_MS)
    seq = Match.objects.get(pk=table.pk).seq

    stuck = current_game(table).view(leader_seat)["hand"][0]
    play(leader, stuck)
    expect(leader.locator("#toast")).to_be_visible()
    expect(leader.locator("#toast")).not_to_be_empty()
    expect(leader.locator(f'#hand .hand-card[data-card="{stuck}"]')).to_be_visible()
    expect(leader.locator(f'#trick [data-card="{stuck}"]')).to_have_count(0)
    assert Match.objects.get(pk=table.pk).seq == seq
    moves = [json.loads(frame) for frame in sent if '"move"' in frame]
    assert [m["move"]["card"] for m in moves] == [led, answer, stuck]  # all three went over the sockets


@pytest.mark.browser
def test_a_person_a_bot_stands_in_for_sees_it_and_takes_the_seat_back(asgi_live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    waiting_seat = 1 - current_game(table).to_move
    waiting = Seat.objects.get(table=table, number=waiting_seat)
    Seat.objects.filter(pk=waiting.pk).update(standing_in=True)  # test-only: as if their time had run out
    other_user = alice if waiting.user_id == bob.pk else bob
    _, page = open_table(new_context, asgi_live_server, waiting.user, table)
    _, other = open_table(new_context, asgi_live_server, other_user, table)
    notice = page.locator("#stand-in")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "status")
    expect(notice).to_contain_text("A bot is playing for you")
    expect(other.locator(f'#seats [data-seat="{waiting_seat}"]')).to_contain_text("bot standing in")

    page.get_by_role("button", name="Take my seat back").click()

    expect(notice).to_be_hidden()
    expect(other.locator(f'#seats [data-seat="{waiting_seat}"]')).not_to_contain_text("bot standing in",
                                                                                         timeout=SOCKET_MS)
    assert not Seat.objects.get(pk=waiting.pk).standing_in


def animation_of(page, card: str) -> str:
    played = page.locator(f'#trick .played:has([data-card="{card}"])')
    return played.evaluate("el => el.classList.contains('is-landing') ? getComputedStyle(el).animationName : ''")


@pytest.mark.browser
def test_a_card_lands_with_a_short_animation_unless_the_person_asks_for_less_motion(asgi_live_server, new_context,
                                                                                   alice, bob, charlie):
    table = started_septica_table(alice, bob)
    first = current_game(table).to_move
    seats = {seat.number: seat.user for seat in Seat.objects.filter(table=table).select_related("user")}
    _, mover = open_table(new_context, asgi_live_server, seats[first], table)
    _, calm = open_table(new_context, asgi_live_server, seats[1 - first], table, reduced_motion="reduce")
    _, spectator = open_table(new_context, asgi_live_server, charlie, table)
    card = next(m["card"] for m in current_game(table).legal_moves() if m["type"] == "play")
    play(mover, card)
    for page in (calm, spectator):
        expect(page.locator(f'#trick [data-card="{card}"]')).to_be_visible(timeout=SOCKET_MS)
    assert animation_of(spectator, card) == "card-lands"
    assert animation_of(calm, card) == "none"
    expect(mover.locator("#spectators")).to_have_text("1 watching")
