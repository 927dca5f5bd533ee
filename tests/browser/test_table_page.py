"""Two people play a whole two-player septica deal on the real table page,
one on a 360 px phone with one tap per card, one on a desktop who prefers to
pick a card and then press Play, both also dragging cards to the middle; the
page refuses an illegal card, keeps the order of a hand across a reload, is
played from the keyboard, and never scrolls sideways on a phone."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games import actions
from games.engine import rules_for
from games.models import Match

from .tables import SEED, current_game, log_in, started_septica_table

OPTIONS_3 = {"match": "points-21", "eights_cut": False, "teams": False}


def seq_of(table) -> int:
    return Match.objects.get(pk=table.pk).seq


def wait_until_seen(page, seq: int):
    page.wait_for_function(f"window.septicaTable && window.septicaTable.data.seq >= {seq}", timeout=15_000)


def wait_for_commit(table, seq: int):
    deadline = time.monotonic() + 15
    while seq_of(table) <= seq:
        assert time.monotonic() < deadline, "the move was never stored"
        time.sleep(0.05)


def hand_order(page) -> list[str]:
    return page.locator("#hand .hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def drag(page, source, target_x: float, target_y: float):
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(target_x, target_y, steps=12)
    page.mouse.up()


def drag_to_middle(page, card: str):
    center = page.locator("#center").bounding_box()
    drag(page, page.locator(f'#hand .hand-card[data-card="{card}"]'), center["x"] + center["width"] / 2,
         center["y"] + center["height"] / 2)


def tap(page, locator, touch: bool):
    if touch:
        locator.tap()
    else:
        locator.click()


def play_by_tapping(page, card: str, touch: bool, pick_first: bool):
    tap(page, page.locator(f'#hand .hand-card[data-card="{card}"]'), touch)
    if pick_first:
        expect(page.locator(f'#hand .hand-card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
        tap(page, page.locator('#moves [data-move="play"]'), touch)


def prefer_pick_then_play(page):
    """Through the page's settings: a tap picks a card, Play plays it."""
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Play a card with one tap").uncheck()
    page.keyboard.press("Escape")
    expect(page.locator("#settings-dialog")).not_to_be_visible()


@pytest.mark.browser
def test_two_people_play_a_whole_septica_deal_by_tapping_and_dragging(asgi_live_server, new_context, alice, bob):
    # On daphne each page hears the other's move over its socket at once (polling, every 2 s, is
    # tests/browser/test_live_fallback.py's): the deal's forty-odd turns take seconds, not a minute.
    live_server = asgi_live_server
    table = started_septica_table(alice, bob)
    phone = new_context(viewport={"width": 360, "height": 760}, has_touch=True, is_mobile=True)
    desktop = new_context(viewport={"width": 1280, "height": 900})
    log_in(phone, live_server, alice)
    log_in(desktop, live_server, bob)
    pages = [phone.new_page(), desktop.new_page()]
    touch = [True, False]
    url = f"{live_server.url}/tables/{table.pk}/"
    for page in pages:
        page.goto(url)
        expect(page.locator("#hand .hand-card")).to_have_count(4)
    prefer_pick_then_play(pages[1])
    pick_first = [False, True]

    plays = decides = 0
    tried_illegal = took_screenshots = False
    while True:
        game = current_game(table)
        view = game.view(None)
        if view["deal"] > 0 or game.finished:
            break
        seat, seq = game.to_move, seq_of(table)
        page = pages[seat]
        wait_until_seen(page, seq)
        legal = game.legal_moves()
        phase = game.view(seat)["phase"]
        if not took_screenshots and len(view["table"]) == 1:
            pages[0].screenshot(path="/tmp/table-360.png", full_page=True)
            pages[1].screenshot(path="/tmp/table-1280.png", full_page=True)
            took_screenshots = True

        if phase == "take":
            tap(page, page.get_by_role("button", name="Ia — Take the trick"), touch[seat])
        elif phase == "decide":
            hand = game.view(seat)["hand"]
            continuing = [m["card"] for m in legal if m["type"] == "play"]
            stuck = [card for card in hand if card not in continuing]
            if not tried_illegal and stuck:
                play_by_tapping(page, stuck[0], touch[seat], pick_first[seat])
                expect(page.locator("#toast")).to_contain_text("cannot continue the trick")
                expect(page.locator(f'#hand .hand-card[data-card="{stuck[0]}"]')).to_be_visible()
                expect(page.locator(f'#trick [data-card="{stuck[0]}"]')).to_have_count(0)
                assert seq_of(table) == seq
                tried_illegal = True
            decides += 1
            if continuing and decides % 2:
                play_by_tapping(page, continuing[0], touch[seat], pick_first[seat])
            else:
                tap(page, page.get_by_role("button", name="Gata — end the trick"), touch[seat])
        else:
            cards = [m["card"] for m in legal]
            if view["table"]:  # answer with the led rank or a seven when possible, so the leader gets to decide
                cards = [c for c in cards if c[0] in (view["table"][0]["card"][0], "7")] or cards
            card = cards[plays % len(cards)]
            if plays % 2:
                drag_to_middle(page, card)
            else:
                play_by_tapping(page, card, touch[seat], pick_first[seat])
            plays += 1
        wait_for_commit(table, seq)

    assert tried_illegal and took_screenshots and decides >= 3
    for page in pages:
        expect(page.locator("#result-dialog")).to_contain_text("Deal 1 is over", timeout=15_000)
        expect(page.locator("#result-dialog")).to_be_visible()
        expect(page.locator("#hand .hand-card")).to_have_count(4)


@pytest.mark.browser
def test_a_hand_reordered_by_dragging_keeps_its_order_after_a_reload(live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    context = new_context(viewport={"width": 1280, "height": 900})
    log_in(context, live_server, bob)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    before = hand_order(page)
    assert len(before) == 4

    last = page.locator("#hand .hand-card").last.bounding_box()
    drag(page, page.locator(f'#hand .hand-card[data-card="{before[0]}"]'), last["x"] + last["width"] - 4,
         last["y"] + last["height"] / 2)

    after = hand_order(page)
    assert after == before[1:] + before[:1]
    assert seq_of(table) == 0  # a reorder is no move
    page.reload()
    expect(page.locator("#hand .hand-card")).to_have_count(4)
    assert hand_order(page) == after


@pytest.mark.browser
def test_the_table_fits_a_360_pixel_phone_without_sideways_scrolling(live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    context = new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("#hand .hand-card")).to_have_count(4)

    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Rules of this table").click()
    expect(page.locator("#rules-dialog")).to_contain_text("first to 21 points")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Scores").click()
    expect(page.locator("#scores-dialog")).to_contain_text("Alice")


@pytest.mark.browser
def test_a_card_is_picked_and_played_by_keyboard(live_server, new_context, alice, bob):
    table = started_septica_table(alice, bob)
    context = new_context(viewport={"width": 1280, "height": 900})
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    first, second, third = hand_order(page)[:3]
    expect(page).to_have_title(re.compile("^● Your move · "))  # Alice leads: the tab says it is her move

    # The hand is a few Tabs away: the skip link comes first on the table.
    page.locator(".skip-to-hand").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(f'#hand .hand-card[data-card="{first}"]')).to_be_focused()
    expect(page.locator(f'#hand .hand-card[data-card="{first}"]')).to_have_accessible_name(re.compile(r"\w+ of \w+"))

    page.keyboard.press("1")
    expect(page.locator(f'#hand .hand-card[data-card="{first}"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowRight")
    assert hand_order(page)[:2] == [second, first]
    page.keyboard.press("Escape")
    expect(page.locator(f'#hand .hand-card[data-card="{first}"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator(f'#hand .hand-card[data-card="{first}"]')).to_be_focused()

    page.keyboard.press("3")
    expect(page.locator(f'#hand .hand-card[data-card="{third}"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")

    wait_for_commit(table, 0)
    expect(page.locator("#trick")).to_contain_text("Alice")
    expect(page.locator(f'#trick [data-card="{third}"]')).to_be_visible()
    assert third not in hand_order(page)
    # The focus stays on the hand, never falls to the page's body.
    expect(page.locator("#hand .hand-card").first).to_be_focused()
    expect(page).not_to_have_title(re.compile("^● "))
    # Bob's seat says how long he has, never "to move ·" alone.
    expect(page.locator("#seats .seat__turn")).to_have_text(re.compile(r"^to move · \d+ min \d+ s left$"))


def started_table(alice, bob, rules: str, options: dict, deck: list[str]):
    table = actions.create_table(alice, rules=rules, players=2, options=options, seconds_per_move=3600)
    actions.join_table(table.pk, bob)
    game = rules_for(rules).new_game(players=2, options=options, seed=SEED, decks=[deck])
    Match.objects.filter(pk=table.pk).update(state=game.to_state(), to_move=game.to_move)
    return table


def americana_deck() -> list[str]:
    deck = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"] + ["XR", "XB"]
    first = ["7H", "3C", "9D", "4C", "KS", "6C", "QH", "8C", "TD", "9C", "5C"]  # hands, then 5♣ turned up
    return first + [card for card in deck if card not in first]


@pytest.mark.browser
def test_an_americana_seven_asks_for_the_suit_before_it_lands(live_server, new_context, alice, bob):
    table = started_table(alice, bob, "americana", {"jokers": True, "target": 101}, americana_deck())
    context = new_context(viewport={"width": 360, "height": 760}, has_touch=True, is_mobile=True)
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("#table-info")).to_contain_text("Stock")

    page.locator('#hand .hand-card[data-card="7H"]').tap()
    expect(page.locator("#suit-dialog")).to_be_visible()
    assert seq_of(table) == 0  # nothing is sent before the suit is named
    expect(page.locator("#suit-dialog .suit-button").first).to_be_focused()
    page.get_by_role("button", name="♠ spades").tap()

    wait_for_commit(table, 0)
    assert current_game(table).view(None)["suit"] == "S"
    expect(page.locator("#table-info .suit-badge")).to_have_text("♠")
    page.get_by_role("button", name="Moves of this deal").tap()
    expect(page.locator("#log")).to_contain_text("Alice played 7♥ and asked for ♠")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path="/tmp/table-americana-360.png", full_page=True)


def familie_on_two_desktops(live_server, new_context, alice, bob):
    """A two-player familie table with a known deck, open on Alice's and Bob's desktops."""
    deck = [rank + suit for suit in "CDHS" for rank in "6789TJQKA"] + ["XR", "XB"]
    table = started_table(alice, bob, "familie", {}, deck)
    pages = []
    for user in (alice, bob):
        context = new_context(viewport={"width": 1280, "height": 900})
        log_in(context, live_server, user)
        pages.append(context.new_page())
        pages[-1].goto(f"{live_server.url}/tables/{table.pk}/")
    return table, pages


@pytest.mark.browser
def test_familie_offers_pass_to_the_cutter_and_take_to_the_winner(live_server, new_context, alice, bob):
    table, (alice_page, bob_page) = familie_on_two_desktops(live_server, new_context, alice, bob)
    led = hand_order(alice_page)[0]

    drag_to_middle(alice_page, led)
    wait_for_commit(table, 0)
    wait_until_seen(bob_page, 1)
    expect(bob_page.locator("#status")).to_contain_text("cut with")
    bob_page.get_by_role("button", name="Pass", exact=True).click()
    wait_for_commit(table, 1)
    wait_until_seen(alice_page, 2)
    alice_page.get_by_role("button", name="Ia — Take the trick").click()

    wait_for_commit(table, 2)
    alice_page.get_by_role("button", name="Moves of this deal").click()
    expect(alice_page.locator("#log")).to_contain_text("Alice took the trick")
    alice_page.keyboard.press("Escape")
    alice_page.get_by_role("button", name="Last trick").click()
    expect(alice_page.locator(f'#last-trick-dialog [data-card="{led}"]')).to_be_visible()
    expect(alice_page.locator("#last-trick-dialog")).to_contain_text("Alice")
    alice_page.keyboard.press("Escape")
    expect(alice_page.locator("#seats")).to_contain_text("Bob")
    bob_page.screenshot(path="/tmp/table-familie-1280.png", full_page=True)


@pytest.mark.browser
def test_a_won_trick_is_taken_by_itself_for_who_prefers_it(live_server, new_context, alice, bob):
    table, (alice_page, bob_page) = familie_on_two_desktops(live_server, new_context, alice, bob)
    alice_page.get_by_role("button", name="Settings").click()
    with alice_page.expect_response(lambda answer: answer.url.endswith("/api/me/preferences")) as saved:
        alice_page.get_by_label("Take a won trick by myself").check()
    assert saved.value.ok and saved.value.json()["preferences"]["auto_take"] is True
    alice_page.keyboard.press("Escape")

    alice_page.locator(f'#hand .hand-card[data-card="{hand_order(alice_page)[0]}"]').click()
    wait_for_commit(table, 0)
    wait_until_seen(bob_page, 1)
    bob_page.get_by_role("button", name="Pass", exact=True).click()
    wait_for_commit(table, 1)
    # Alice may only take the trick now: her page takes it without a tap.
    wait_for_commit(table, 2)
    assert "take" in [entry["type"] for entry in current_game(table).view(None)["log"]]
    alice_page.reload()
    alice_page.get_by_role("button", name="Settings").click()
    expect(alice_page.get_by_label("Take a won trick by myself")).to_be_checked()
    alice_page.keyboard.press("Escape")

    # The sound button turns the page's sounds on, and the profile keeps it.
    sound = alice_page.get_by_role("button", name="Sounds")
    expect(sound).to_have_attribute("aria-pressed", "false")
    with alice_page.expect_response(lambda answer: answer.url.endswith("/api/me/preferences")) as saved:
        sound.click()
    assert saved.value.json()["preferences"]["sounds"] is True
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert alice_page.evaluate("async () => (await import('/static/js/table/sounds.js')).enabled()") is True


@pytest.mark.browser
def test_the_creator_of_a_waiting_table_seats_bots_in_its_free_seats(live_server, new_context, alice, bob):
    table = actions.create_table(alice, rules="septica", players=3, options=OPTIONS_3, seconds_per_move=3600)
    actions.join_table(table.pk, bob)
    pages = {}
    for user in (alice, bob):
        context = new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
        log_in(context, live_server, user)
        pages[user.username] = context.new_page()
        pages[user.username].goto(f"{live_server.url}/tables/{table.pk}/")
    creator, guest = pages["alice"], pages["bob"]
    expect(creator.locator("#open-seats")).to_contain_text("free seat")
    expect(guest.get_by_role("button", name="Add a bot")).to_have_count(0)
    creator.screenshot(path="/tmp/table-waiting-360.png")

    with creator.expect_response(lambda answer: answer.url.endswith(f"/api/tables/{table.pk}/bot")) as added:
        creator.get_by_role("button", name="Add a bot").tap()
    assert added.value.ok, added.value.text()
    bot = added.value.json()["seats"][2]
    assert bot["kind"] == "bot" and bot["bot"]["badge"]
    # The table is full: the match starts, and the bot's seat shows its name and badge.
    expect(creator.locator("#felt")).to_be_visible()
    seat = creator.locator('#seats .seat[data-seat="2"]')
    expect(seat).to_contain_text(bot["name"])
    expect(seat.locator(".badge--bot")).to_have_text(bot["bot"]["badge"])
    assert creator.evaluate("document.documentElement.scrollWidth") <= 360
