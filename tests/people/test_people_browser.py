"""In Chromium: Alice follows Bob and challenges him from his profile; Bob accepts from My matches in a second
browser context; both land at the started table. On a 360x740 touch phone and a 1280x800 desktop; axe on the
new pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import actions
from games.actions.challenges import create_challenge
from games.models import Table, TableStatus
from players.models import Follow
from tests.browser.tables import log_in
from tests.browser.test_accessibility import VIEWPORTS, blocking_violations, described

pytestmark = pytest.mark.browser

SIZES = {"phone": VIEWPORTS["phone"], "desktop": VIEWPORTS["desktop"]}


def marked_phone_page(server, new_context, user, path: str):
    """`user`'s page at `path` on a phone, marked so that a test can tell it was never reloaded."""
    context = new_context(**SIZES["phone"])
    log_in(context, server, user)
    page = context.new_page()
    page.goto(f"{server.url}{path}")
    page.evaluate("() => { window.notReloaded = true; }")
    return page


@pytest.mark.parametrize("size", list(SIZES))
def test_a_challenge_from_the_profile_accepted_from_my_matches(asgi_live_server, new_context, alice, bob, size):
    server = asgi_live_server
    alices = new_context(**SIZES[size])
    bobs = new_context(**SIZES[size])
    log_in(alices, server, alice)
    log_in(bobs, server, bob)
    challenger = alices.new_page()
    challenger.goto(f"{server.url}{reverse('player', args=['bob'])}")

    challenger.get_by_role("button", name="Follow").click()
    expect(challenger.get_by_role("button", name="Unfollow")).to_be_visible()
    challenger.get_by_role("link", name="Challenge Bob").click()
    expect(challenger.locator("#challenge-note")).to_contain_text("seat 2 is kept for Bob")
    challenger.get_by_role("button", name="Create the table").click()
    expect(challenger).to_have_url(re.compile(r"/tables?/\d+"))
    table = Table.objects.get(created_by=alice)

    invitee = bobs.new_page()
    invitee.goto(f"{server.url}{reverse('my_matches')}")
    card = invitee.locator(f'#challenges-received [data-table="{table.pk}"]')
    expect(card).to_contain_text("Alice challenges you")
    card.get_by_role("button", name="Accept").click()

    expect(invitee).to_have_url(f"{server.url}{reverse('table', args=[table.pk])}")
    expect(invitee.locator("#hand .hand-card").first).to_be_visible()
    expect(challenger.locator("#hand .hand-card").first).to_be_visible()  # her table page hears the start live
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING
    assert Follow.objects.filter(follower=alice, followed=bob).exists()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_new_pages_pass_axe(asgi_live_server, new_context, alice, bob, charlie, size):
    Follow.objects.create(follower=alice, followed=bob)
    actions.create_table(bob, rules="septica", players=2, options={})
    create_challenge(charlie, [alice], rules="septica", players=2, options={})
    create_challenge(alice, [charlie], rules="familie", players=3, options={})
    context = new_context(reduced_motion="reduce", **SIZES[size])
    log_in(context, asgi_live_server, alice)
    page = context.new_page()
    found = {}
    for path in (reverse("player", args=["bob"]), reverse("following"), reverse("my_matches"),
                 f"{reverse('create_table')}?challenge=bob,charlie"):
        page.goto(f"{asgi_live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        violations = blocking_violations(page)
        if violations:
            found[f"{path} ({size})"] = violations
    assert not found, "axe-core found serious or critical problems:\n" + described(found)


def test_my_matches_shows_challenges_as_they_come_and_go_without_a_reload(asgi_live_server, new_context, alice, bob):
    """Embedded, the channel layer lives in the server's memory: the challenge is made and withdrawn through its API."""
    from accounts.models import ApiToken

    _token, secret = ApiToken.issue(alice, "script")
    bearer = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json"}
    alices_script = new_context().request  # a cookie jar of its own: only the token speaks for Alice
    page = marked_phone_page(asgi_live_server, new_context, bob, reverse("my_matches"))
    received = page.locator("#challenges-received")
    expect(received).to_be_hidden()

    made = alices_script.post(f"{asgi_live_server.url}/api/challenges", headers=bearer, data={
        "rules": "familie", "players": 3, "options": {}, "seconds_per_move": 86400, "usernames": ["bob"]})
    assert made.status == 201, made.text()
    challenge = made.json()

    card = received.locator(f'[data-challenge="{challenge["id"]}"]')
    expect(card).to_contain_text("Alice challenges you")
    expect(card).to_contain_text("3 players")
    expect(card.get_by_role("button", name="Accept")).to_be_visible()
    expect(card.get_by_role("button", name="Decline")).to_be_visible()

    withdrawn = alices_script.post(f"{asgi_live_server.url}/api/challenges/{challenge['id']}/withdraw", headers=bearer)
    assert withdrawn.ok, withdrawn.text()
    expect(received).to_be_hidden()
    assert page.evaluate("() => window.notReloaded") is True

    again = alices_script.post(f"{asgi_live_server.url}/api/challenges", headers=bearer, data={
        "rules": "septica", "players": 2, "options": {}, "seconds_per_move": 86400, "usernames": ["bob"]}).json()
    card = received.locator(f'[data-challenge="{again["id"]}"]')
    card.get_by_role("button", name="Decline").click()  # a form drawn by the script posts like the page's own
    expect(page.get_by_text("You declined the challenge.")).to_be_visible()
    expect(received).to_be_hidden()


def test_following_shows_a_new_table_of_someone_followed_without_a_reload(asgi_live_server, new_context, alice, bob):
    """The page reads itself again while in view (every second for the tests' server, FOLLOWING_REFRESH_SECONDS)."""
    Follow.objects.create(follower=alice, followed=bob)
    page = marked_phone_page(asgi_live_server, new_context, alice, reverse("following"))
    bobs_card = page.locator('[data-person="bob"]')
    expect(bobs_card).to_contain_text("No open table.")
    bobs_card.get_by_role("link", name="Bob").focus()  # a keyboard user's place

    table = actions.create_table(bob, rules="septica", players=2, options={})

    join = bobs_card.get_by_role("button", name=f"Join table {table.pk}")
    expect(join).to_be_visible()
    assert page.evaluate("() => window.notReloaded") is True
    assert page.evaluate("() => document.activeElement.textContent") == "Bob"
    join.click()  # the form read in the background posts like the page's own
    expect(page).to_have_url(re.compile(rf"/tables?/{table.pk}"))
