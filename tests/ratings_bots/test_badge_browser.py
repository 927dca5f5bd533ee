"""The table page shows a bot's level and published rating in its badge, on a phone and on a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games import actions
from players.bot_ratings import published_rating
from tests.browser.tables import log_in

pytestmark = pytest.mark.browser

SCREENS = [
    pytest.param({"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}, id="phone"),
    pytest.param({"viewport": {"width": 1280, "height": 800}}, id="desktop"),
]
# Whether the page shows `prefix` of the element's text whole, left of where an ellipsis would cut it.
SHOWS = """(el, prefix) => {
  const text = [...el.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.data.startsWith(prefix));
  if (!text) return {shows: false, why: "no such text"};
  const range = document.createRange();
  range.setStart(text, 0);
  range.setEnd(text, prefix.length);
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  let limit = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
  if (el.scrollWidth > el.clientWidth + 1) {
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = style.font;
    limit -= pen.measureText("\\u2026").width;  // the ellipsis takes the end of what is left
  }
  const right = range.getBoundingClientRect().right;
  return {shows: right <= limit + 0.5, right, limit, badge: box.width};
}"""


def shows_whole(page, selector: str, prefix: str) -> bool:
    """Whether `prefix` shows whole in the element, waiting out a moment when the seats are drawn anew."""
    try:
        page.wait_for_function(f"([selector, prefix]) => {{ const el = document.querySelector(selector); "
                               f"return !!el && ({SHOWS})(el, prefix).shows; }}", arg=[selector, prefix], timeout=3_000)
    except PlaywrightTimeout:
        return False
    return True


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("players", [2, 3])
def test_the_bots_badge_shows_its_level_and_rating_beside_its_name(live_server, new_context, alice, screen, players):
    bots = [actions.BotSpec(seat=seat, level="expert", style="aggressive") for seat in range(1, players)]
    table = actions.create_table(alice, rules="septica", players=players, bots=bots, seconds_per_move=3600)
    context = new_context(**screen)
    log_in(context, live_server, alice)
    page = context.new_page()

    page.goto(f"{live_server.url}/tables/{table.pk}/")

    expect(page.locator("#felt")).to_be_visible()
    rated = f"Expert ≈ {published_rating('septica', 'expert')}"
    for seat in range(1, players):
        badge = page.locator(f'#seats .seat[data-seat="{seat}"] .badge--bot')
        # The whole badge is its text and its title (a narrow seat may cut the style short)...
        expect(badge).to_have_text(f"{rated}, aggressive")
        expect(badge).to_have_attribute("title", f"{rated}, aggressive")
        expect(badge).to_be_in_viewport()
        # ...but the level and its rating show, except in the three-across seats of a phone, where the
        # level shows and the rest is in the title (the name keeps its room: it tells the seats apart).
        prefix = rated if players == 2 or not screen.get("is_mobile") else "Expert"
        assert shows_whole(page, f'#seats .seat[data-seat="{seat}"] .badge--bot', prefix), badge.evaluate(SHOWS, prefix)
    width = screen["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
