"""The end of a deal and of a match on the real table page, on a 360 × 740
phone and a desktop: the page opens the result dialog over the table, in view
and focused; it names the players (per team where teams play), shows the
scores and offers Rematch, Replay and Back to my matches. The deal's log and
its last trick read with names and card faces.

The states are built in the engine (a fixed deck, the first legal move each
turn, a few milliseconds) and stored as tables.py does; the last move of a
deal is posted through the API, as a player's page would."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games import actions
from games.engine import rules_for
from games.models import Match, Seat, Table, TableStatus

from .tables import DECK, SEED, log_in, post_json

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Opens one of the result dialogs in the page's own dialog, with the page's
# words, the table's data from the API and the module as the page serves it.
SHOW = """async ({tableId, kind, replayUrl, matchesUrl}) => {
  const dialog = document.getElementById("result-dialog");
  const results = await import("/static/js/table/results.js");
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const T = config.text;
  const data = await (await fetch(`/api/tables/${tableId}`, {credentials: "same-origin"})).json();
  window.rematches = 0;
  if (kind === "match") {
    results.showMatchResult(dialog, data, data.view, T, {onRematch: () => { window.rematches += 1; }, replayUrl, matchesUrl});
  } else {
    results.showDealResult(dialog, data, data.view, data.view.last_deal, T);
  }
  return data.view;
}"""

# Where the dialog and its buttons are: inside the screen, and the topmost thing at their middles.
WHERE = """() => {
  const dialog = document.getElementById("result-dialog");
  // The screen is what the visual viewport shows: on a phone the layout viewport may be wider.
  const screen = window.visualViewport;
  const [left, top] = [screen.offsetLeft, screen.offsetTop];
  const inside = (r) => r.left >= left - 0.5 && r.top >= top - 0.5 && r.right <= left + screen.width + 0.5 && r.bottom <= top + screen.height + 0.5;
  const reachable = (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside(r) && Boolean(hit) && el.contains(hit);
  };
  const buttons = [...dialog.querySelectorAll(".result-actions a, .result-actions button")];
  return {
    open: dialog.open,
    modal: dialog.matches(":modal"),
    focused: dialog.contains(document.activeElement),
    inside: inside(dialog.getBoundingClientRect()),
    buttons: buttons.map((el) => ({text: el.textContent.trim(), reachable: reachable(el)})),
  };
}"""

# The contrast of every team chip's text on its colour (WCAG's formula).
CHIP_CONTRAST = """() => [...document.querySelectorAll("#result-dialog .team-chip")].map((chip) => {
  const style = getComputedStyle(chip);
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
})"""


def played_until(rules: str, players: int, options: dict, done, decks=None):
    """The game after the first legal move of every turn, until `done(game)`."""
    game = rules_for(rules).new_game(players=players, options=options, seed=SEED, decks=decks)
    for _ in range(2000):
        if done(game):
            return game
        game = game.play(game.legal_moves()[0])
    raise AssertionError("the game never got there")


def table_at(creator, others, rules: str, options: dict, game) -> Table:
    """A table of these people whose match is `game` (test-only setup, before any page opens)."""
    table = actions.create_table(creator, rules=rules, players=len(others) + 1, options=options, seconds_per_move=3600)
    for person in others:
        actions.join_table(table.pk, person)
    fields = {"state": game.to_state(), "to_move": game.to_move}
    if game.finished:
        fields.update(result=game.result, finished_at=timezone.now(), deadline=None)
        Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    Match.objects.filter(pk=table.pk).update(**fields)
    return table


def names_by_seat(table) -> list[str]:
    return [seat.user.shown_name for seat in Seat.objects.filter(table=table).select_related("user").order_by("number")]


def open_table(new_context, server, user, table, viewport):
    context = new_context(viewport=viewport, has_touch=viewport is PHONE, is_mobile=viewport is PHONE)
    log_in(context, server, user)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table.pk}/")
    expect(page.locator("#felt")).to_be_visible()
    return page


def show(page, table, kind: str) -> dict:
    return page.evaluate(SHOW, {"tableId": table.pk, "kind": kind,
                                "replayUrl": f"/tables/{table.pk}/replay/", "matchesUrl": reverse("my_matches")})


def assert_in_view_and_focused(page) -> dict:
    expect(page.locator("#result-dialog")).to_have_css("display", "flex")  # its stylesheet has come
    where = page.evaluate(WHERE)
    assert where["open"] and where["modal"], where
    assert where["focused"], "the focus stays behind the dialog"
    assert where["inside"], "the dialog reaches outside the screen"
    assert where["buttons"] and all(button["reachable"] for button in where["buttons"]), where["buttons"]
    return where


def assert_no_seat_numbers(text: str):
    assert not re.search(r"\bseat \d", text, re.IGNORECASE), text


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_finished_two_player_match_says_who_won_with_rematch_replay_and_my_matches(
        live_server, new_context, alice, bob, viewport):
    options = {"match": "points-8", "eights_cut": False, "teams": False}
    game = played_until("septica", 2, options, lambda g: g.finished, decks=[DECK])
    table = table_at(alice, [bob], "septica", options, game)
    page = open_table(new_context, live_server, alice, table, viewport)

    dialog = page.locator("#result-dialog")
    expect(dialog.locator("h2")).to_have_text("The match is over")  # the page opened it on its own
    assert_in_view_and_focused(page)
    names = names_by_seat(table)
    winner = names[game.result["winners"][0]]
    expect(dialog.locator(".result-verdict")).to_have_text(f"Winner: {winner}")
    rows = dialog.locator(".result-table").first.locator("tbody tr")
    expect(rows).to_have_count(2)
    for seat, name in enumerate(names):
        expect(rows.nth(seat).locator("th")).to_contain_text(name)
        expect(rows.nth(seat).locator("td").last).to_have_text(str(game.result["scores"][seat]))
    expect(dialog.locator(".is-winner")).to_contain_text(winner)
    assert_no_seat_numbers(dialog.inner_text())

    expect(dialog.get_by_role("link", name="Watch the replay")).to_have_attribute("href", f"/tables/{table.pk}/replay/")
    expect(dialog.get_by_role("link", name="Back to my matches")).to_have_attribute("href", reverse("my_matches"))
    finished_at = page.url
    # Rematch makes a table: on CI's busy machine that answer can take longer than a click's usual wait.
    with page.expect_response(lambda answer: answer.url.endswith("/rematch"), timeout=30_000) as answered:
        dialog.get_by_role("button", name="Rematch").click()
    assert answered.value.status == 201, answered.value.text()
    page.wait_for_url(lambda url: url != finished_at, timeout=30_000)
    assert re.search(r"/tables/\d+/$", page.url), page.url
    rematch = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert Table.objects.get(pk=rematch).status in (TableStatus.OPEN, TableStatus.PLAYING)


@pytest.mark.browser
def test_the_result_dialog_closes_and_opens_again_with_the_same_scores(live_server, new_context, alice, bob):
    options = {"match": "points-8", "eights_cut": False, "teams": False}
    game = played_until("septica", 2, options, lambda g: g.finished, decks=[DECK])
    table = table_at(alice, [bob], "septica", options, game)
    page = open_table(new_context, live_server, bob, table, PHONE)
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("h2")).to_have_text("The match is over")
    expect(dialog.get_by_role("button", name="Rematch")).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).not_to_be_visible()

    show(page, table, "match")
    assert_in_view_and_focused(page)
    dialog.get_by_role("button", name="Rematch").click()
    page.wait_for_function("window.rematches === 1")


@pytest.mark.browser
def test_a_finished_team_match_shows_partners_together_with_their_team_score(
        live_server, new_context, alice, bob, charlie, dave):
    options = {"match": "best-of-3", "teams": True, "eights_cut": False}
    game = played_until("septica", 4, options, lambda g: g.finished)
    table = table_at(alice, [bob, charlie, dave], "septica", options, game)
    page = open_table(new_context, live_server, bob, table, PHONE)

    dialog = page.locator("#result-dialog")
    expect(dialog.locator("h2")).to_have_text("The match is over")
    assert_in_view_and_focused(page)
    view = game.view(1)
    assert view["teams"] == [[0, 2], [1, 3]]
    names = names_by_seat(table)
    rows = dialog.locator(".result-table").first.locator("tbody tr")
    expect(rows).to_have_count(2)  # one row per team, not per player
    for team, (first, second) in enumerate(view["teams"]):
        row = rows.nth(team)
        expect(row).to_have_class(re.compile(rf"\bteam-{team}\b"))
        expect(row.locator(".team-chip")).to_have_text(f"Team {team + 1}")
        expect(row.locator("th")).to_contain_text(names[first])
        expect(row.locator("th")).to_contain_text(names[second])
        expect(row.locator("td").last).to_have_text(str(game.result["scores"][first]))
    winners = game.result["winners"]
    expect(dialog.locator(".result-verdict")).to_have_text(
        re.compile(rf"Winners: {names[winners[0]]} and {names[winners[1]]}$"))
    assert all(ratio >= 4.5 for ratio in page.evaluate(CHIP_CONTRAST))
    # Bob's team is 1 + 3; the last deal is shown per team too.
    expect(rows.nth(1)).to_have_class(re.compile(r"\bis-you\b"))
    expect(rows.nth(0)).not_to_have_class(re.compile(r"\bis-you\b"))
    last_deal = dialog.locator(".result-table").nth(1).locator("tbody tr")
    points = game.view(None)["last_deal"]["points"]
    for team, (first, second) in enumerate(view["teams"]):
        expect(last_deal.nth(team).locator("td")).to_have_text(str(points[first] + points[second]))
    for label in ("Rematch", "Watch the replay", "Back to my matches"):
        expect(dialog.get_by_text(label, exact=True)).to_be_visible()
    assert_no_seat_numbers(dialog.inner_text())


@pytest.mark.browser
def test_the_end_of_an_americana_deal_says_who_went_out_and_what_each_was_charged(
        live_server, new_context, alice, bob, charlie):
    options = {"target": 101}
    ended = played_until("americana", 3, options, lambda g: g.view(None)["deal"] == 1)
    before = played_until("americana", 3, options, lambda g: g.play(g.legal_moves()[0]).view(None)["deal"] == 1)
    table = table_at(alice, [bob, charlie], "americana", options, before)
    page = open_table(new_context, live_server, charlie, table, PHONE)
    dialog = page.locator("#result-dialog")
    expect(dialog).not_to_be_visible()

    mover = new_context()
    log_in(mover, live_server, [alice, bob, charlie][before.to_move])
    answer = post_json(mover, live_server, f"/api/tables/{table.pk}/moves", {"seq": 0, "move": before.legal_moves()[0]})
    assert answer.status == 200, answer.text()
    view = answer.json()["view"]
    assert view["deal"] == 1 and view["last_deal"] == ended.view(None)["last_deal"]
    last = view["last_deal"]
    expect(dialog.locator("h2")).to_have_text("Deal 1 is over", timeout=15_000)  # the page's poll brings it
    assert_in_view_and_focused(page)
    names = names_by_seat(table)
    expect(dialog.locator(".result-verdict")).to_have_text(f"{names[last['out']]} went out")
    expect(dialog.locator(".result-table thead th")).to_have_text(["Player", "This deal", "Penalty points"])
    rows = dialog.locator(".result-table tbody tr")
    for seat, name in enumerate(names):
        expect(rows.nth(seat).locator("th")).to_contain_text(name)
        expect(rows.nth(seat).locator("td")).to_have_text([str(last["charged"][seat]), str(view["scores"][seat])])
    expect(rows.nth(last["out"]).locator(".badge--out")).to_have_text("went out")
    expect(dialog).to_contain_text("the lowest total wins")
    assert_no_seat_numbers(dialog.inner_text())
    continue_button = dialog.get_by_role("button", name="Continue")
    expect(continue_button).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).not_to_be_visible()


@pytest.mark.browser
def test_the_end_of_a_familie_deal_shows_each_players_points_and_the_match(live_server, new_context, alice, bob, charlie):
    game = played_until("familie", 3, {}, lambda g: g.finished)
    table = table_at(alice, [bob, charlie], "familie", {}, game)
    page = open_table(new_context, live_server, alice, table, PHONE)
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("h2")).to_have_text("The match is over")  # familie is one deal: the match ends with it

    view = show(page, table, "deal")
    assert_in_view_and_focused(page)
    expect(dialog.locator("h2")).to_have_text("Deal 1 is over")
    names = names_by_seat(table)
    points = view["last_deal"]["points"]
    rows = dialog.locator(".result-table").first.locator("tbody tr")
    for seat, name in enumerate(names):
        expect(rows.nth(seat).locator("th")).to_contain_text(name)
        expect(rows.nth(seat).locator("td")).to_have_text(str(points[seat]))
    best = max(points)
    expect(dialog.locator(".result-verdict")).to_have_text(f"Most points this deal: {names[points.index(best)]} ({best})")

    show(page, table, "match")
    assert_in_view_and_focused(page)
    expect(dialog.locator(".result-verdict")).to_have_text(f"Winner: {names[points.index(best)]}")
    expect(dialog.locator(".result-table")).to_have_count(1)  # the one deal is the final score
    assert_no_seat_numbers(dialog.inner_text())


# The log and the last trick of a deal in progress, with the page's seat names.
HISTORY = """async ({tableId}) => {
  const history = await import("/static/js/table/history.js");
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const T = config.text;
  const data = await (await fetch(`/api/tables/${tableId}`, {credentials: "same-origin"})).json();
  const seatName = (seat) => data.seats[seat].name;
  const box = document.createElement("div");
  box.id = "last-trick-box";
  box.innerHTML = history.lastTrickHTML(data.view, seatName, T);
  document.body.append(box);
  return {lines: history.logLines(data.view, seatName, T), trick: history.lastTrick(data.view)};
}"""


@pytest.mark.browser
def test_the_log_names_players_and_card_faces_and_the_last_trick_is_the_one_taken_last(
        live_server, new_context, alice, bob):
    options = {"match": "points-8", "eights_cut": False, "teams": False}
    takes = lambda g: sum(entry["type"] == "take" for entry in g.view(None)["log"])  # noqa: E731
    game = played_until("septica", 2, options, lambda g: takes(g) == 2 and g.view(None)["table"], decks=[DECK])
    table = table_at(alice, [bob], "septica", options, game)
    page = open_table(new_context, live_server, alice, table, PHONE)

    seen = page.evaluate(HISTORY, {"tableId": table.pk})
    log = game.view(None)["log"]
    plays = [entry for entry in log if entry["type"] == "play"]
    names = names_by_seat(table)
    assert len(seen["lines"]) > len(plays)
    first = plays[0]
    face = ("10" if first["card"][0] == "T" else first["card"][0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[first["card"][1]]
    assert seen["lines"][0] == f"{names[first['seat']]} played {face}"
    assert not any(re.search(r"\b[2-9TJQKA][CDHS]\b", line) for line in seen["lines"]), seen["lines"]
    assert all(any(name in line for name in names) or "drew" in line for line in seen["lines"])

    second_take = [i for i, entry in enumerate(log) if entry["type"] == "take"][1]
    first_take = [i for i, entry in enumerate(log) if entry["type"] == "take"][0]
    expected = [{"seat": e["seat"], "card": e["card"]} for e in log[first_take:second_take] if e["type"] == "play"]
    assert seen["trick"] == expected
    box = page.locator("#last-trick-box")
    expect(box.locator(".last-trick__caption")).to_contain_text(f"Taken by {names[log[second_take]['seat']]}")
    expect(box.locator(".last-trick__play")).to_have_count(len(expected))
    for n, play in enumerate(expected):
        expect(box.locator(".last-trick__play").nth(n).locator(".last-trick__who")).to_have_text(names[play["seat"]])
        expect(box.locator(".last-trick__play").nth(n).locator(f'[data-card="{play["card"]}"]')).to_have_count(1)


@pytest.mark.browser
def test_the_scores_panel_of_a_team_match_in_play_adds_the_partners_points(
        live_server, new_context, alice, bob, charlie, dave):
    options = {"match": "points-21", "teams": True, "eights_cut": False}
    takes = lambda g: sum(entry["type"] == "take" for entry in g.view(None)["log"])  # noqa: E731
    game = played_until("septica", 4, options, lambda g: g.view(None)["deal"] == 1 and takes(g) == 2)
    table = table_at(alice, [bob, charlie, dave], "septica", options, game)
    page = open_table(new_context, live_server, charlie, table, PHONE)

    page.get_by_role("button", name="Scores").click()
    panel = page.locator("#scores-dialog")
    expect(panel).to_be_visible()
    view = game.view(2)
    rows = panel.locator(".result-table").first.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(panel.locator(".result-table").first.locator("thead th")).to_have_text(["Team", "This deal", "Score"])
    names = names_by_seat(table)
    for team, (first, second) in enumerate(view["teams"]):
        expect(rows.nth(team).locator(".team-chip")).to_have_text(f"Team {team + 1}")
        expect(rows.nth(team).locator("th")).to_contain_text(names[first])
        expect(rows.nth(team).locator("th")).to_contain_text(names[second])
        expect(rows.nth(team).locator("td")).to_have_text(
            [str(view["points"][first] + view["points"][second]), str(view["scores"][first])])
    expect(rows.nth(0)).to_have_class(re.compile(r"\bis-you\b"))  # Charlie plays with Alice
    last = panel.locator(".result-table").nth(1).locator("tbody tr")
    for team, (first, second) in enumerate(view["teams"]):
        expect(last.nth(team).locator("td")).to_have_text(str(view["last_deal"]["points"][first] + view["last_deal"]["points"][second]))
    assert_no_seat_numbers(panel.inner_text())
