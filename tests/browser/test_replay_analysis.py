"""The replay page's analysis in Chromium: "being computed" while the Master judges, filled in live
when it is ready (pushed over the table's socket on Redis; embedded, where the test's own process cannot
reach the server's sockets, found by the page's check of the API), then read and used on a phone."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import tasks
from games.actions import analysis as actions_analysis
from games.models import AnalysisStatus, MatchAnalysis
from tests.play import deal_again_from, play_moves, seated_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
ON_REDIS = bool(os.environ.get("REDIS_URL"))


@pytest.fixture
def small_judge(settings):
    settings.ANALYSIS_ROUNDS, settings.ANALYSIS_DECISIONS_PER_RUN = 6, 1000
    settings.ANALYSIS_SLOTS = 100  # on Redis the session's worker may hold a slot, judging other tests' matches


def finished_septica(alice, bob):
    table = seated_table(alice, [bob], options={"match": "points-8"})
    deal_again_from(table, 5)  # the same match, and so the same analysis, every run
    return play_moves(table, seed=5)


def analysis_checks(page) -> list[str]:
    """The page's reads of the analysis API from now on."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url) if "/analysis" in request.url else None)
    return seen


def test_being_computed_then_filled_in_live_with_the_costliest_moves_and_totals(
        asgi_live_server, new_context, alice, bob, sent_tasks, small_judge):
    match = finished_septica(alice, bob)
    # Begun here, so the page's first read queues nothing: on Redis the session's worker would judge it.
    actions_analysis.begin_analysis(match.pk)
    page = new_context(**PHONE).new_page()
    page.goto(f"{asgi_live_server.url}/tables/{match.pk}/replay/")
    section = page.locator("#analysis")
    expect(section).to_have_attribute("data-status", "pending")
    expect(section).to_contain_text("The Master is going through each person's decisions")
    page.wait_for_load_state("networkidle")  # its socket is open, its first check answered "pending"
    checks = analysis_checks(page)

    assert tasks.analyse_match(match.pk, 0)
    assert MatchAnalysis.objects.get(pk=match.pk).status == AnalysisStatus.READY

    expect(page.locator("#analysis")).to_have_attribute("data-status", "ready", timeout=15_000)
    expect(page.locator("#analysis-announce")).to_have_text("The Master's analysis is ready.")
    if ON_REDIS:
        assert checks == [], "on Redis the socket said it was ready: the page had no need to ask"
    totals = page.locator(".analysis-totals tbody tr")
    expect(totals).to_have_count(2)
    expect(totals.nth(0).locator("th")).to_have_text("Alice")
    expect(totals.nth(1).locator("th")).to_have_text("Bob")
    stored = MatchAnalysis.objects.get(pk=match.pk)
    costly = sorted((entry for entry in stored.decisions if entry["costly"]), key=lambda entry: -entry["cost"])
    assert costly, "a match of random moves has costly ones"
    biggest = page.locator(".analysis-biggest > li")
    expect(biggest).to_have_count(min(3, len(costly)))
    first = costly[0]
    expect(biggest.first).to_contain_text(f"Move {first['seq'] + 1}, {['Alice', 'Bob'][first['seat']]}")
    expect(biggest.first).to_contain_text("The Master: ")
    expect(page.locator("#move-list li.costly")).to_have_count(len(costly))

    # Nothing is outside a 360 px screen, and the costliest move is one tap from the board.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    button = biggest.first.get_by_role("button", name=f"Show move {first['seq'] + 1} on the board")
    button.tap()
    expect(page.locator("#replay-now")).to_contain_text(f"Move {first['seq'] + 1} of {match.seq}")
    expect(page.locator("#replay-slider")).to_be_focused()


def test_a_ready_analysis_is_on_the_page_at_once_in_romanian_too(asgi_live_server, new_context, alice, bob,
                                                                  sent_tasks, small_judge):
    match = finished_septica(alice, bob)
    tasks.analyse_match(match.pk, 0)
    context = new_context(locale="ro-RO", **PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ro", "url": asgi_live_server.url}])
    page = context.new_page()
    checks = analysis_checks(page)

    page.goto(f"{asgi_live_server.url}/tables/{match.pk}/replay/")

    expect(page.locator("#analysis")).to_have_attribute("data-status", "ready")
    expect(page.locator("#analysis h2")).to_have_text("Analiza Maestrului")
    expect(page.locator(".analysis-biggest > li").first).to_contain_text("Maestrul: ")
    page.wait_for_load_state("networkidle")
    assert checks == [], "a ready analysis needs no socket and no check"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
