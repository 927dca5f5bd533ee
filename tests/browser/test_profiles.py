"""Profiles, leaderboards and how ratings work in Chromium: on a 360x740 touch phone and a desktop,
nothing off-screen and no serious axe-core finding; a challenge from a profile; names link to profiles."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games import actions
from games.models import Table
from tests.players.conftest import finished_table, outcome, rating

from .tables import log_in
from .test_accessibility import blocking_violations, described

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone, dark": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
                    "color_scheme": "dark"},
}

OFF_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  const late = [...document.querySelectorAll("main a, main button, main svg, main td, main h1, main p")]
    .filter((el) => el.offsetParent !== null || el.tagName === "svg")
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, box]) => box.width && (box.left < -1 || box.right > width + 1))
    .map(([el, box]) => `${el.tagName}.${el.className.baseVal ?? el.className} ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
  if (document.documentElement.scrollWidth > window.innerWidth) late.push("the page scrolls sideways");
  return late;
}"""


def a_history(alice, bob, charlie):
    rating(alice, "septica", shown=1234, rated_matches=14)
    rating(alice, "americana", shown=1040, rated_matches=4)
    rating(bob, "septica", shown=1180, rated_matches=11)
    start = timezone.now() - timedelta(days=10)
    for day, shown in enumerate([1100, 1150, 1130, 1190, 1234]):
        table = finished_table([alice, bob], when=start + timedelta(days=day))
        outcome(table, alice, shown_before=shown - 20, shown_after=shown)
    ffa = finished_table([alice, bob, charlie], rules="americana", bots=["expert", "beginner"])
    outcome(ffa, alice, place=3, won=False, shown_before=1060, shown_after=1040)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_pages_fit_the_screen_and_axe_finds_nothing_serious(live_server, new_context, alice, bob, charlie,
                                                                size):
    a_history(alice, bob, charlie)
    context = new_context(reduced_motion="reduce", **SIZES[size])
    log_in(context, live_server, bob)
    page = context.new_page()
    found, late = {}, {}
    for path in (reverse("player", args=["alice"]), reverse("leaderboard", args=["septica"]),
                 reverse("how_ratings_work")):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        late[path] = page.evaluate(OFF_SCREEN)
        violations = blocking_violations(page)
        if violations:
            found[f"{path} ({size})"] = violations
    assert not any(late.values()), late
    assert not found, "axe-core found serious or critical problems:\n" + described(found)


def test_the_profile_shows_a_chart_with_words_and_the_leaderboard_marks_you(live_server, new_context, alice, bob,
                                                                            charlie):
    a_history(alice, bob, charlie)
    context = new_context(**SIZES["phone"])
    log_in(context, live_server, bob)
    page = context.new_page()

    page.goto(live_server.url + reverse("player", args=["alice"]))
    chart = page.get_by_role("img", name="Șeptică: rating over time")
    expect(chart).to_be_visible()
    expect(page.locator("#chart-septica-desc")).to_have_text(re.compile(r"last 5 rated matches: from 1100 to 1234"))
    expect(page.locator('[data-rules="americana"]')).to_contain_text("provisional")
    page.locator("main").get_by_role("link", name="Șeptică", exact=True).click()

    expect(page).to_have_url(re.compile(r"/leaderboard/septica/$"))
    expect(page.locator("#your-place")).to_have_text("You are number 2, with 1180.")
    expect(page.locator("tr[aria-current=true]")).to_contain_text("Bob")
    page.get_by_role("navigation", name="Rule sets").get_by_role("link", name="Șeptică americană").click()
    expect(page.locator("#your-place")).to_contain_text("You have no rating at Șeptică americană yet")


def test_a_challenge_from_a_profile_keeps_a_seat_for_that_person(live_server, new_context, alice, bob):
    context = new_context(**SIZES["phone"])
    log_in(context, live_server, bob)
    page = context.new_page()
    page.goto(live_server.url + reverse("player", args=["alice"]))

    page.get_by_role("link", name="Challenge Alice").click()
    expect(page.locator("#challenge-note")).to_contain_text("seat 2 is kept for Alice")
    expect(page.get_by_label("Seat 2")).to_have_value("person")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))

    table = Table.objects.get()
    assert table.created_by == bob and table.seats.get(number=1).reserved_for == alice
    alices = new_context(**SIZES["phone"])
    log_in(alices, live_server, alice)
    mine = alices.new_page()
    with mine.expect_response(re.compile(r"/api/me/matches$")):  # the list as the script draws it, too
        mine.goto(live_server.url + reverse("my_matches"))
    # A challenge has its own section now (issue 19), with Accept and Decline.
    invitation = mine.locator("#challenges-received")
    expect(invitation).to_contain_text("Bob challenges you")
    expect(invitation.get_by_role("button", name="Accept")).to_be_visible()


def test_names_in_the_lobby_open_profiles_and_bots_have_none(live_server, new_context, alice, bob):
    actions.create_table(alice, rules="septica", players=3, options={},
                         bots=[actions.BotSpec(seat=2, level="expert", style="balanced")])
    context = new_context(**SIZES["phone"])
    log_in(context, live_server, bob)
    page = context.new_page()
    page.goto(live_server.url + reverse("lobby"))

    card = page.locator("#lobby-tables .table-card").first
    expect(card.get_by_role("link", name="Alice")).to_have_attribute("href", reverse("player", args=["alice"]))
    assert card.locator(".seat--bot a").count() == 0
    card.get_by_role("link", name="Alice").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice")


def test_names_in_a_replay_open_profiles(live_server, new_context, alice, bob):
    from tests.play import finished_match

    match = finished_match(alice, [bob], options={"match": "points-8"})
    page = new_context(**SIZES["phone"]).new_page()
    page.goto(live_server.url + reverse("replay", args=[match.pk]))

    expect(page.locator(".replay-seat h3 a").first).to_have_attribute("href", reverse("player", args=["alice"]))
    expect(page.locator(".replay-result").get_by_role("link", name="Bob")).to_have_attribute(
        "href", reverse("player", args=["bob"]))
    page.locator(".replay-seat h3").get_by_role("link", name="Bob").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bob")
