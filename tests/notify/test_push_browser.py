"""Web push in Chromium: the service worker shows what a push carries, with its tag (one per
table), and a tap opens the table; the profile's device switch; axe on the new pages.

Chromium headless has no push service to subscribe at (pushManager.subscribe needs
Google's), so the push event is dispatched through the site's own worker, as the push
service would deliver it; the subscribing itself is tested through the API
(test_api.py) and end to end against a real endpoint (test_web_push.py).
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from notify.models import NotificationKind
from notify.notifications import notify
from tests.browser.tables import log_in
from tests.browser.test_accessibility import VIEWPORTS, blocking_violations, described

pytestmark = pytest.mark.browser

# Dispatched as the push service's message would be; answers once the worker's handler has
# finished (the promise it hands to waitUntil), with what it shows, so a rejected
# showNotification fails here with its reason rather than as an empty list.
PUSH = """async ([message]) => {
  const event = new PushEvent("push", { data: message });
  let done = Promise.resolve();
  event.waitUntil = (promise) => { done = promise; };
  self.dispatchEvent(event);
  await done;
  return (await self.registration.getNotifications())
    .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }));
}"""

SHOWN = """async () => (await self.registration.getNotifications())
  .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }))"""

# A synthetic click carries no user activation, which clients.openWindow needs: the
# worker's call is recorded (and then made) instead of waiting for a tab that cannot open.
TAP = """async () => {
  const [shown] = await self.registration.getNotifications();
  const asked = [];
  const openWindow = self.clients.openWindow.bind(self.clients);
  self.clients.openWindow = (url) => { asked.push(url); return openWindow(url).catch(() => null); };
  const event = new NotificationEvent("notificationclick", { notification: shown });
  let done = Promise.resolve();
  event.waitUntil = (promise) => { done = promise; };
  self.dispatchEvent(event);
  await done;
  self.clients.openWindow = openWindow;
  return asked;
}"""


def worker_of(context, page, server):
    page.goto(server.url + reverse("home"))
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    if not context.service_workers:
        context.wait_for_event("serviceworker")
    return context.service_workers[0]


def message(table_id: int, title: str) -> str:
    return json.dumps({"title": title, "body": "Alice played.", "url": f"/tables/{table_id}/", "tag": f"table-{table_id}"})


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_worker_shows_the_push_and_a_newer_one_of_the_table_replaces_it(asgi_live_server, new_context, size):
    context = new_context(**VIEWPORTS[size])
    context.grant_permissions(["notifications"], origin=asgi_live_server.url)
    worker = worker_of(context, context.new_page(), asgi_live_server)

    shown = worker.evaluate(PUSH, [message(12, "Your move at Table 12 (Șeptică)")])
    assert shown == [{"title": "Your move at Table 12 (Șeptică)", "body": "Alice played.", "tag": "table-12",
                      "url": f"{asgi_live_server.url}/tables/12/"}]

    worker.evaluate(PUSH, [message(12, "Time is running out at Table 12")])
    assert [n["title"] for n in worker.evaluate(SHOWN)] == ["Time is running out at Table 12"]


def test_a_push_that_links_elsewhere_opens_the_site_instead(asgi_live_server, new_context):
    context = new_context()
    context.grant_permissions(["notifications"], origin=asgi_live_server.url)
    worker = worker_of(context, context.new_page(), asgi_live_server)

    shown = worker.evaluate(PUSH, [json.dumps({"title": "Hi", "url": "https://evil.example/x"})])

    assert shown[0]["url"] == f"{asgi_live_server.url}/"


def test_tapping_the_notification_asks_for_the_tables_tab(asgi_live_server, new_context):
    context = new_context()
    context.grant_permissions(["notifications"], origin=asgi_live_server.url)
    worker = worker_of(context, context.new_page(), asgi_live_server)
    assert worker.evaluate(PUSH, [message(7, "Your move at Table 7 (Șeptică)")])

    assert worker.evaluate(TAP) == [f"{asgi_live_server.url}/tables/7/"]
    assert worker.evaluate(SHOWN) == [], "the notification closes"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_profile_says_when_the_browser_blocks_notifications(asgi_live_server, new_context, bob, size):
    context = new_context(**VIEWPORTS[size])
    log_in(context, asgi_live_server, bob)
    page = context.new_page()
    page.goto(asgi_live_server.url + reverse("profile"))

    device = page.locator("[data-push-device]")
    expect(device.get_by_role("button", name="Turn on notifications on this device")).to_be_visible()
    expect(device.get_by_text("This device takes no notifications from the site.")).to_be_visible()
    page.get_by_label("A match of yours finished while you were away").uncheck()
    page.get_by_role("button", name="Save notification choices").click()
    expect(page.get_by_text("Your notification choices are saved.")).to_be_visible()
    expect(page.get_by_label("A match of yours finished while you were away")).not_to_be_checked()


@pytest.mark.parametrize("name", ["profile", "notifications"])
def test_axe_finds_nothing_serious_on_the_new_pages(asgi_live_server, new_context, bob, name):
    notify(bob, NotificationKind.YOUR_MOVE, title="Your move at Table 12 (Șeptică)", url="/tables/12/", tag="t-12")
    notify(bob, NotificationKind.FINISHED, title="Match finished at Table 9 (Șeptică)", body="You won.")
    bob.notifications.filter(kind="finished").update(read_at="2026-01-01T00:00:00Z")
    found = {}
    for size, options in VIEWPORTS.items():
        context = new_context(reduced_motion="reduce", **options)
        log_in(context, asgi_live_server, bob)
        page = context.new_page()
        page.goto(asgi_live_server.url + reverse(name))
        expect(page.locator("h1")).to_be_visible()
        if name == "notifications":
            expect(page.get_by_role("link", name="Your move at Table 12 (Șeptică)")).to_be_visible()
            expect(page.locator('a[href="/notifications/"] .unread-count')).to_have_text("1 unread")
        violations = blocking_violations(page)
        if violations:
            found[f"{name} ({size})"] = violations
        context.close()
    assert not found, "axe-core found serious or critical problems:\n" + described(found)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_my_matches_tab_says_your_move(asgi_live_server, new_context, alice, bob, size):
    from games.models import Seat
    from tests.browser.tables import current_game, started_septica_table

    table = started_septica_table(alice, bob)
    to_move = Seat.objects.get(table=table, number=current_game(table).to_move).user
    context = new_context(**VIEWPORTS[size])
    log_in(context, asgi_live_server, to_move)
    page = context.new_page()
    page.goto(asgi_live_server.url + reverse("my_matches"))

    expect(page).to_have_title(re.compile(r"^● "))


def test_the_table_offers_notifications_once_after_a_move_leaves_it_waiting(asgi_live_server, new_context, alice, bob):
    from games.models import Seat
    from tests.browser.tables import current_game, started_septica_table
    from tests.browser.test_live_table import open_table, play

    table = started_septica_table(alice, bob)
    first = current_game(table).to_move
    mover = Seat.objects.get(table=table, number=first).user
    context, page = open_table(new_context, asgi_live_server, mover, table)
    expect(page).to_have_title(re.compile(r"^● "))
    prompt = page.get_by_role("complementary", name="Notifications")
    expect(prompt).to_have_count(0)

    card = next(m["card"] for m in current_game(table).legal_moves() if m["type"] == "play")
    play(page, card)

    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("Get a notification on this device when it is your move?")
    prompt.get_by_role("button", name="Not now").click()
    expect(prompt).to_have_count(0)
    page.reload()
    expect(page.locator(".push-prompt")).to_have_count(0)
