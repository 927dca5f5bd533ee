"""The README's phone screenshots: `make screenshots` writes docs/screenshots/<rules>-phone.png.

Not collected with the tests (the name has no test_ prefix): run on purpose
when the table page changes. Each table is reached by playing the engine's
first legal move until the viewer is to move with cards in the middle, and
each picture is only written when the page fits the phone: no sideways
scrolling, the whole hand and its buttons in view.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import rules_for

from .tables import SEED, log_in, seated_table, show_game

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
NAMES = ["Ana", "Bogdan", "Carmen", "Dan", "Elena"]
TABLES = {  # rules: (players, options, moves at least, cards in the middle at least)
    "septica": (4, {"teams": True, "match": "points-21"}, 6, 2),
    "familie": (3, {}, 4, 1),
    "americana": (4, {}, 9, 0),
}


def reached(rules: str, players: int, options: dict, moves: int, in_middle: int):
    """A game where seat 0 is to move after at least `moves` moves, with `in_middle` cards on the table."""
    game = rules_for(rules).new_game(players=players, options=options, seed=SEED)
    for played in range(200):
        view = game.view(0)
        if played >= moves and game.to_move == 0 and len(view.get("table") or []) >= in_middle:
            return game
        game = game.play(game.legal_moves()[0])
    raise AssertionError(f"{rules}: no such moment in 200 moves")


FITS = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const inside = (el) => { const b = el.getBoundingClientRect(); return b.left >= 0 && b.right <= vw && b.bottom <= vh; };
  return document.documentElement.scrollWidth <= vw
    && [...document.querySelectorAll("#hand .hand-card, #moves button")].every(inside);
}"""


@pytest.mark.parametrize("rules", list(TABLES))
def test_phone_screenshot(rules, asgi_live_server, new_context, make_user):
    live_server = asgi_live_server
    players, options, moves, in_middle = TABLES[rules]
    people = [make_user(name.lower(), display_name=name) for name in NAMES[:players]]
    table = seated_table(people, rules, options)
    show_game(table, reached(rules, players, options, moves, in_middle))
    context = new_context(**PHONE)
    log_in(context, live_server, people[0])
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.locator("#hand .hand-card").first.wait_for()
    page.wait_for_function("document.documentElement.dataset.live === 'online'")
    page.evaluate("document.fonts.ready")
    assert page.evaluate(FITS), f"{rules}: the table does not fit the phone"
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{rules}-phone.png"))
