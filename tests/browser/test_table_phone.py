"""The table page on phones and on a desktop, for every rule set and number of
players, with hands from 1 to 30 cards: every card inside the screen with a
strip a finger can hit, the move buttons in view without scrolling, no
sideways scrolling; one tap plays a card that may be played, and a tap on one
that may not changes nothing but a message over the felt."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import rules_for
from games.models import Match

from .tables import game_with_hand, log_in, seated_table, show_game

pytestmark = pytest.mark.browser

PHONES = [{"width": 320, "height": 640}, {"width": 360, "height": 740}, {"width": 390, "height": 844}]
DESKTOP = {"width": 1280, "height": 800}
HAND_SIZES = [1, 4, 5, 9, 13, 20, 30]
STRIP_PX = 28

# Everything a player would notice about the layout, measured in the page at once.
LAYOUT = """([vw, vh]) => {
  const problems = [];
  const inside = (b) => b.left >= -0.5 && b.top >= -0.5 && b.right <= vw + 0.5 && b.bottom <= vh + 0.5;
  const wide = document.documentElement.scrollWidth;
  if (wide > vw || window.innerWidth > vw) {
    const over = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > vw + 0.5);
    problems.push(`scrolls sideways: ${wide} > ${vw}, ${over.slice(0, 4).map((el) => el.id || el.className).join(", ")}`);
  }
  const cards = [...document.querySelectorAll("#hand .hand-card")];
  const boxes = cards.map((card) => card.getBoundingClientRect());
  boxes.forEach((box, i) => {
    const name = cards[i].dataset.card;
    if (!inside(box)) problems.push(`${name} is outside the screen: ${JSON.stringify(box)}`);
    // What later cards (drawn above it) leave of it: up to the next card on its row, and the row below.
    let right = box.right, bottom = box.bottom;
    boxes.slice(i + 1).forEach((other) => {
      if (other.left >= right || other.right <= box.left || other.top >= bottom || other.bottom <= box.top) return;
      if (Math.abs(other.top - box.top) < 2) right = Math.min(right, other.left);
      else if (other.top > box.top) bottom = Math.min(bottom, other.top);
    });
    const width = right - box.left, height = bottom - box.top;
    if (width < %(strip)s || height < %(strip)s) problems.push(`${name} shows only ${width}x${height} px`);
    const hit = document.elementFromPoint(box.left + width / 2, box.top + height / 2);
    if (!hit || hit.closest(".hand-card") !== cards[i]) problems.push(`a tap on ${name} reaches ${hit && hit.outerHTML.slice(0, 60)}`);
  });
  for (const button of document.querySelectorAll("#moves button")) {
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!inside(box) || !hit || !button.contains(hit)) problems.push(`the button ${button.textContent} is not in view`);
  }
  // What a player must see whole: the dealer's mark inside its seat, my time left beside the move
  // buttons, and the game's name above the tools.
  for (const words of document.querySelectorAll(".seat__dealer, .seats--mine .seat__turn, .table-title")) {
    const seat = words.closest(".seat") || words.parentElement;
    const box = words.getBoundingClientRect(), room = seat.getBoundingClientRect();
    const clipped = words.scrollWidth > words.clientWidth + 1 || words.scrollHeight > words.clientHeight + 1;
    if (clipped || box.right > room.right + 0.5 || box.left < room.left - 0.5) {
      problems.push(`"${words.textContent}" is cut short`);
    }
  }
  const dock = document.getElementById("dock").getBoundingClientRect();
  for (const id of ["seats", "center"]) {
    const box = document.getElementById(id).getBoundingClientRect();
    if (!inside(box) || box.bottom > dock.top + 1) problems.push(`#${id} is not in view above the hand: ${JSON.stringify(box)}`);
  }
  return {problems, cards: cards.length, scrollY: window.scrollY, innerWidth: window.innerWidth};
}""".replace("%(strip)s", str(STRIP_PX))


def laid_out(page, size: int) -> dict:
    expect(page.locator("#hand .hand-card")).to_have_count(size)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    # The screen's size, not the page's: a phone lays out a page that overflows wider than itself.
    screen = page.viewport_size
    return page.evaluate(LAYOUT, [screen["width"], screen["height"]])


def assert_fits(page, size: int, where: str):
    facts = laid_out(page, size)
    assert facts["scrollY"] == 0, where
    assert facts["problems"] == [], where


def open_page(new_context, server, person, **options):
    context = new_context(**options)
    log_in(context, server, person)
    return context.new_page()


def player_counts(rules: str) -> range:
    engine = rules_for(rules)
    return range(engine.min_players, engine.max_players + 1)


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_every_hand_fits_every_screen(rules, live_server, new_context, make_user):
    people = [make_user(f"player{n}") for n in range(rules_for(rules).max_players)]
    phone = open_page(new_context, live_server, people[0], viewport=PHONES[1], has_touch=True, is_mobile=True)
    desktop = open_page(new_context, live_server, people[0], viewport=DESKTOP)
    checked = 0
    for players in player_counts(rules):
        table = seated_table(people[:players], rules)
        url = f"{live_server.url}/tables/{table.pk}/"
        largest = max(size for size in HAND_SIZES if game_with_hand(rules, players, size))
        for size in HAND_SIZES:
            game = game_with_hand(rules, players, size)
            if game is None:
                continue
            show_game(table, game)
            phone.goto(url)
            for screen in PHONES:
                phone.set_viewport_size(screen)
                assert_fits(phone, size, f"{rules}, {players} players, {size} cards, {screen}")
            desktop.goto(url)
            assert_fits(desktop, size, f"{rules}, {players} players, {size} cards, desktop")
            if size == largest and game.view(0).get("teams"):
                assert_partners_share_a_colour(phone, game.view(0)["teams"])
            if size == largest:
                phone.set_viewport_size(PHONES[1])
                assert_fits(phone, size, f"{rules}, {players} players, {size} cards, {PHONES[1]}")
                phone.screenshot(path=f"/tmp/table-{rules}-{players}p-{size}-360.png")
                desktop.screenshot(path=f"/tmp/table-{rules}-{players}p-{size}-1280.png")
                assert_taps_play_only_what_fits(phone, table, game, touch=True)
            checked += 1
    assert checked >= len(player_counts(rules)) * 2


def assert_partners_share_a_colour(page, teams: list[list[int]]):
    colour = "seat => [...seat.classList].find((name) => name.startsWith('seat--team-'))"
    by_seat = {}
    for seat in page.locator(".seat[data-seat]").all():
        by_seat[int(seat.get_attribute("data-seat"))] = seat.evaluate(colour)
    shared = [{by_seat[seat] for seat in team} for team in teams]
    assert all(len(colours) == 1 and None not in colours for colours in shared), by_seat
    assert len({colours.pop() for colours in shared}) == len(teams), by_seat


def seq_of(table) -> int:
    return Match.objects.get(pk=table.pk).seq


def tap(card, touch: bool):
    """A tap (or click) on the card's corner, the part of it an overlapping hand leaves in view."""
    corner = {"x": 12, "y": 12}
    card.tap(position=corner) if touch else card.click(position=corner)


def hand_box(page) -> dict:
    return page.locator("#hand").bounding_box()


def assert_taps_play_only_what_fits(page, table, game, touch: bool, screenshot: str | None = None):
    """A tap on a card that may not be played (when the hand has one) changes nothing but a message
    over the felt; a tap on one that may be played plays it, and the focus stays on the hand."""
    legal = {move["card"] for move in game.legal_moves() if move["type"] == "play"}
    hand = game.view(game.to_move)["hand"]
    seq = seq_of(table)
    refused = [card for card in hand if card not in legal]
    if refused:
        before = hand_box(page)
        seats = page.locator("#seats").bounding_box()
        tap(page.locator(f'#hand .hand-card[data-card="{refused[0]}"]'), touch)
        expect(page.locator("#toast")).to_be_visible()
        expect(page.locator("#toast")).to_contain_text("cannot")
        if screenshot:
            page.screenshot(path=screenshot)
        assert hand_box(page) == before
        assert page.locator("#seats").bounding_box() == seats
        expect(page.locator("#hand .hand-card")).to_have_count(len(hand))
        assert seq_of(table) == seq
    playable = next(card for card in hand if card in legal and not (game.rules.slug == "americana" and card[0] == "7"))
    tap(page.locator(f'#hand .hand-card[data-card="{playable}"]'), touch)
    expect(page.locator(f'#trick [data-card="{playable}"]')).to_be_visible()
    expect(page.locator("#hand .hand-card")).to_have_count(len(hand) - 1)
    page.wait_for_function(f"window.septicaTable.data.seq === {seq + 1}")  # the server's answer is drawn
    assert seq_of(table) == seq + 1
    if len(hand) > 1:
        expect(page.locator("#hand .hand-card").first).to_be_focused()


@pytest.mark.parametrize("screen", [*PHONES, DESKTOP], ids=lambda s: f"{s['width']}x{s['height']}")
def test_one_tap_plays_and_a_refused_tap_moves_nothing(screen, live_server, new_context, make_user):
    people = [make_user(f"player{n}") for n in range(4)]
    touch = screen is not DESKTOP
    page = open_page(new_context, live_server, people[0], viewport=screen, has_touch=touch, is_mobile=touch)
    table = seated_table(people, "americana")
    for size in (30, 9):
        game = game_with_hand("americana", 4, size)
        show_game(table, game)
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        assert_fits(page, size, f"{size} cards, {screen}")
        assert_taps_play_only_what_fits(page, table, game, touch, f"/tmp/table-refused-{size}-{screen['width']}.png")


def test_in_romanian_the_longer_words_fit_the_narrowest_phone(live_server, new_context, make_user):
    people = [make_user(f"player{n}") for n in range(4)]
    page = open_page(new_context, live_server, people[0], viewport=PHONES[0], has_touch=True, is_mobile=True,
                     locale="ro-RO")
    table = seated_table(people, "americana")
    game = game_with_hand("americana", 4, 30)
    show_game(table, game)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", "ro")
    assert_fits(page, 30, "americana in Romanian, 320 px")
    refused = next(card for card in game.view(0)["hand"]
                   if card not in {move["card"] for move in game.legal_moves() if move["type"] == "play"})
    tap(page.locator(f'#hand .hand-card[data-card="{refused}"]'), touch=True)
    expect(page.locator("#toast")).to_contain_text("Nu poți pune")
    expect(page.locator("#hand .is-refused")).to_have_count(0)  # the card has shaken and is back in its place
    assert_fits(page, 30, "americana in Romanian, 320 px, with the message")
    page.screenshot(path="/tmp/table-americana-ro-320.png")
