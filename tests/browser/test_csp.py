"""Every page under its Content-Security-Policy in Chromium, on a 360 px
touch phone and on a desktop: each page arrives with the policy, the browser
reports no violation of it (no securitypolicyviolation event, no console
error), and the pages still work: the phone menu opens, the language menu
switches the language, a table page plays a card over its live websocket,
a tutorial step plays a card.

The server is daphne (asgi_live_server), so the websockets the pages open are
real and connect-src is put to the test too.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Match
from tests.play import finished_match

from .tables import STAFF_PASSWORD as PASSWORD
from .tables import current_game, log_in, started_septica_table

pytestmark = pytest.mark.browser

# bypass_csp=False: the shared fixture lets other tests' pages off the policy.
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "bypass_csp": False}
DESKTOP = {"viewport": {"width": 1280, "height": 900}, "bypass_csp": False}
SCREENS = {"phone": PHONE, "desktop": DESKTOP}

VISITOR_PAGES = ["/", "/rules/", "/rules/septica/", "/tutorial/", "/tutorial/septica/1/", "/accounts/login/",
                 "/accounts/signup/", "/accounts/password/reset/", "/api/docs/", "/admin/login/"]
PLAYER_PAGES = ["/play/", "/play/new/", "/matches/", "/accounts/profile/", "/accounts/tokens/",
                "/accounts/password/change/", "/accounts/email/", "/accounts/2fa/"]

# Registered before any script of the page runs; violations reach the test
# through an exposed function, so none is lost when a page navigates away.
LISTEN = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(`${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`
                         + ` at ${event.sourceFile || event.documentURI}:${event.lineNumber}`);
});
"""


class Watched:
    """A browser context whose pages report every policy violation and console CSP error."""

    def __init__(self, context):
        self.context = context
        self.violations: list[str] = []
        context.expose_function("reportViolation", self._reported)
        context.add_init_script(LISTEN)
        context.on("console", self._console)
        self.page = context.new_page()

    def _reported(self, violation: str):
        self.violations.append(violation)

    def _console(self, message):
        if message.type == "error" and "Content Security Policy" in message.text:
            self.violations.append(f"console: {message.text}")

    def visit(self, url: str):
        response = self.page.goto(url)
        assert response.ok, f"{url}: {response.status}"
        assert "default-src 'self'" in (response.headers.get("content-security-policy") or ""), \
            f"{url} came without the policy"
        if "/admin/" not in url:  # the admin draws its own pages
            # The site's own scripts ran (the head script marks the page).
            expect(self.page.locator("html")).to_have_class(re.compile(r"(^|\s)js(\s|$)"))
        assert self.violations == [], f"up to {url}"
        return response


def watched(new_context, **options) -> Watched:
    return Watched(new_context(**options))


def tap_or_click(locator, touch: bool):
    if touch:
        locator.tap()
    else:
        locator.click()


def open_menu_on_a_phone(page, touch: bool):
    toggle = page.locator(".nav-toggle")
    if toggle.is_visible():
        tap_or_click(toggle, touch)
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(page.locator("#language-select")).to_be_visible()


def switch_language(page, touch: bool, code: str):
    open_menu_on_a_phone(page, touch)
    with page.expect_navigation():
        page.locator("#language-select").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


@pytest.mark.parametrize("screen", SCREENS)
def test_every_page_keeps_to_its_policy_and_still_works(asgi_live_server, new_context, alice, bob, screen):
    server = asgi_live_server.url
    touch = screen == "phone"
    finished = finished_match(alice, [bob])
    table = started_septica_table(alice, bob)

    visitor = watched(new_context, **SCREENS[screen])
    for path in [*VISITOR_PAGES, f"/tables/{finished.pk}/replay/"]:
        visitor.visit(server + path)
    # The menu and the language menu, with their handlers now in a static file.
    visitor.visit(server + "/rules/septica/")
    switch_language(visitor.page, touch, "ro")
    expect(visitor.page).to_have_url(server + "/rules/septica/")
    switch_language(visitor.page, touch, "en")
    # A tutorial step plays the learner's card.
    visitor.visit(server + "/tutorial/septica/1/")
    expect(visitor.page.locator('#tutorial[data-ready="true"]')).to_have_count(1)
    fitting = visitor.page.locator("#hand .hand-card.is-legal").first
    with visitor.page.expect_response(lambda answer: answer.url.endswith("/move")) as answer:
        tap_or_click(fitting, touch)
    assert answer.value.ok and answer.value.json()["accepted"] is True

    mover = alice if current_game(table).to_move == table.seats.get(user=alice).number else bob
    player_context = new_context(**SCREENS[screen])
    log_in(player_context, asgi_live_server, mover)
    player = Watched(player_context)
    for path in [*PLAYER_PAGES, f"/tables/{finished.pk}/replay/"]:
        player.visit(server + path)
    # Setting up an authenticator app: the page with its QR code, once the password was typed again
    # (here, since the server hashes passwords as the test process does not).
    reauthenticated = Client()
    reauthenticated.force_login(mover)
    assert reauthenticated.post(reverse("account_reauthenticate"), {"password": PASSWORD}).status_code == 302
    player_context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": server,
                                 "value": reauthenticated.cookies[settings.SESSION_COOKIE_NAME].value}])
    player.visit(server + "/accounts/2fa/totp/activate/")
    expect(player.page).to_have_url(re.compile("/accounts/2fa/totp/activate/"))
    expect(player.page.locator("main img").first).to_be_visible()
    # The table page: live over its websocket, and a card played reaches the middle.
    with player.page.expect_websocket(lambda socket: "/ws/tables/" in socket.url) as opened:
        player.visit(f"{server}/tables/{table.pk}/")
    # (wait_for_function would need eval, which the policy forbids: the page's own attribute tells.)
    expect(player.page.locator("html")).to_have_attribute("data-live", "online")
    seq = Match.objects.get(pk=table.pk).seq
    card = next(move["card"] for move in current_game(table).legal_moves() if move["type"] == "play")
    after_the_move = re.compile(rf'"seq":\s*{seq + 1}\b')
    with opened.value.expect_event("framereceived", lambda frame: after_the_move.search(str(frame))):
        tap_or_click(player.page.locator(f'#hand .hand-card[data-card="{card}"]'), touch)  # one tap plays it
    expect(player.page.locator(f'#trick [data-card="{card}"]')).to_be_visible()
    assert Match.objects.get(pk=table.pk).seq == seq + 1

    assert visitor.violations == []
    assert player.violations == []


def test_the_admin_keeps_to_its_policy(asgi_live_server, new_context, make_user, alice, bob):
    """Every list, add and change page the admin links to, for a superuser (logged in with a second factor)."""
    finished_match(alice, [bob])
    root = make_user("root", is_staff=True, is_superuser=True)
    context = new_context(**DESKTOP)
    log_in(context, asgi_live_server, root)
    admin = Watched(context)
    admin.visit(f"{asgi_live_server.url}/admin/")
    lists = admin.page.locator("#content-main a[href]").evaluate_all("links => links.map(link => link.href)")
    assert len(lists) > 4, lists
    for url in dict.fromkeys(lists):
        admin.visit(url)
        first_row = admin.page.locator("#result_list tbody th a[href]").first
        if first_row.count():
            admin.visit(first_row.evaluate("link => link.href"))
    # The admin's scripts at work: a date field's calendar and "Today", the list's select-all.
    admin.visit(f"{asgi_live_server.url}/admin/accounts/user/{root.pk}/change/")
    admin.page.locator("#id_last_login_0 ~ .datetimeshortcuts .date-icon").click()
    expect(admin.page.locator(".calendarbox").first).to_be_visible()
    admin.page.locator("#id_last_login_0").fill("")
    admin.page.locator("#id_last_login_0 ~ .datetimeshortcuts a").first.click()
    expect(admin.page.locator("#id_last_login_0")).not_to_have_value("")
    admin.visit(f"{asgi_live_server.url}/admin/accounts/user/")
    admin.page.locator("#action-toggle").check()
    expect(admin.page.locator("input.action-select").first).to_be_checked()
    # A moderator's action asks for its reason on a page of the site's own.
    admin.visit(f"{asgi_live_server.url}/admin/games/table/")
    admin.page.locator("input.action-select").first.check()
    admin.page.locator('select[name="action"]').select_option("abort")
    with admin.page.expect_navigation():
        admin.page.locator('button[name="index"]').click()
    expect(admin.page.locator(".moderation-targets")).to_be_visible()

    assert admin.violations == []
