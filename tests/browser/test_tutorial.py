"""The whole septica tutorial in Chromium on a 360 px phone, by clicking: every step of the
script, one wrong move and its explanation on the way, the progress kept with the account
and in the browser, and the practice match against a Beginner bot at the end."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.models import Seat
from tutorial import lesson
from tutorial.models import TutorialProgress
from tutorial.scripts import GAMES

from .tables import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def learner_moves(step) -> list[dict]:
    """The moves a learner makes through the step: the first that fits at each turn."""
    moves, position = [], lesson.start(step)
    while not position.done:
        move = position.fits()[0]
        moves.append(move)
        position = lesson.apply(position, move)
    return moves


def click_move(page, move: dict):
    target = page.locator(f'#hand .hand-card[data-card="{move["card"]}"]') if "card" in move \
        else page.locator(f'#moves [data-move="{move["type"]}"]')
    with page.expect_response(lambda response: response.url.endswith("/move")) as answer:
        target.click()
    assert answer.value.ok, answer.value.text()
    return answer.value.json()


def test_a_player_completes_the_septica_tutorial_by_clicking(live_server, new_context, alice):
    context = new_context(viewport={"width": 360, "height": 740})
    log_in(context, live_server, alice)
    page = context.new_page()
    steps = GAMES["septica"]

    page.goto(f"{live_server.url}/tutorial/")
    page.get_by_role("link", name="Start the Șeptică tutorial").click()

    for number, step in enumerate(steps, start=1):
        expect(page.locator(".tutorial-where")).to_contain_text(f"Step {number} of {len(steps)}")
        expect(page.locator("h1")).to_have_text(step.title["en"])
        expect(page.locator('#tutorial[data-ready="true"]')).to_have_count(1)
        for turn, move in enumerate(learner_moves(step)):
            if step.slug == "cutting-with-a-seven" and turn == 0:
                # A card that does not cut: explained, and the hand stays as it was.
                expect(page.locator('#hand .hand-card[data-card="9D"]')).not_to_have_class("is-legal")
                wrong = click_move(page, {"type": "play", "card": "9D"})
                assert wrong["accepted"] is False
                expect(page.locator("#explanation")).to_contain_text("9♦ does not cut a king")
                expect(page.locator("#hand .hand-card")).to_have_count(4)
                expect(page.locator("#hand .hand-card.is-legal")).to_have_count(2)  # the two sevens
            answer = click_move(page, move)
            assert answer["accepted"] is True
            expect(page.locator("#explanation")).to_be_hidden()
        expect(page.locator("#learned")).to_be_visible()
        expect(page.locator("#learned-text")).to_have_text(step.learned["en"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling
        if number < len(steps):
            page.locator("#next-step").click()

    assert TutorialProgress.objects.filter(user=alice, game="septica").count() == len(steps)
    stored = json.loads(page.evaluate("localStorage.getItem('septica.tutorial.done')"))
    assert sorted(stored["septica"]) == sorted(step.slug for step in steps)
    expect(page.locator('.step-list[data-game="septica"] .step-link.is-done')).to_have_count(len(steps))

    page.locator("#learned").get_by_role("button", name="Practice Șeptică", exact=True).click()
    page.wait_for_url("**/tables/*/")
    expect(page.locator("#hand .hand-card")).to_have_count(4)
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert Seat.objects.get(table_id=table_id, number=1).bot_level == "beginner"


def test_a_visitor_keeps_progress_in_the_browser_and_is_asked_to_sign_up_for_practice(live_server, page):
    page.goto(f"{live_server.url}/tutorial/americana/1/")
    expect(page.locator('#tutorial[data-ready="true"]')).to_have_count(1)
    wrong = click_move(page, {"type": "play", "card": "KC"})  # K♣ does not follow 9♥: the words say so, not "draw"
    assert wrong["accepted"] is False
    expect(page.locator("#explanation")).to_have_text("You cannot play K♣ on 9♥: play a card of hearts, or one of "
                                                      "the same rank.")
    for move in learner_moves(GAMES["americana"][0]):
        click_move(page, move)
    expect(page.locator("#learned")).to_be_visible()

    page.goto(f"{live_server.url}/tutorial/")
    expect(page.locator('.step-list[data-game="americana"] .step-link.is-done')).to_have_count(1)
    expect(page.locator("#practice").get_by_role("link", name="Sign up")).to_be_visible()

    page.goto(f"{live_server.url}/tutorial/americana/{len(GAMES['americana'])}/")
    for move in learner_moves(GAMES["americana"][-1])[:-1]:
        click_move(page, move)
    page.locator('#hand .hand-card[data-card="7S"]').click()  # the last card: a seven asks for the suit
    with page.expect_response(lambda response: response.url.endswith("/move")):
        page.locator('#suit-dialog [data-suit="H"]').click()
    expect(page.locator("#learned").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator("#hint")).to_contain_text("The round is over. Charged: You 0, Bogdan 73")
    assert not TutorialProgress.objects.exists()
