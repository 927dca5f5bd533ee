"""Practice with no connection, as the issue asks: logged out, make practice
available offline, go offline, reload, and play a whole septica match against
an Expert and a whole americana round against two Medium bots through the
page, to the result dialog; a reload mid-match continues the same match; and
every request the page makes while offline is answered by the service worker."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .test_practice import ENGINE_START_MS, PHONE, play_on, practice_state, shown, start_practice

pytestmark = [pytest.mark.browser, pytest.mark.device]

DOWNLOAD_MS = 120_000


def test_practice_plays_whole_matches_offline(_asgi_server_process, browser):
    server = _asgi_server_process
    started = time.monotonic()
    context = browser.new_context(**PHONE, bypass_csp=True, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/practice/")
        page.get_by_role("button", name="Make practice available offline").click()
        expect(page.locator("#practice-offline")).to_have_attribute("data-state", "ready", timeout=DOWNLOAD_MS)
        expect(page.locator("#offline-status")).to_have_text("Practice is available offline on this device.")
        page.wait_for_function("() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'")
        downloaded = time.monotonic()

        offline_requests = []
        failed = []
        context.set_offline(True)
        context.on("request", lambda request: offline_requests.append(request))
        context.on("requestfailed", lambda request: failed.append(request))
        page.reload()
        expect(page.locator("#practice-offline")).to_have_attribute("data-state", "ready")

        # Septica against an Expert, with a reload in the middle of it.
        start_practice(page, "septica", 2, [("expert", "expert")], {"match": "points-8"})
        play_on(page, moves=5)
        state = practice_state(page, ("your-move", "dialog"))
        before = shown(page)
        page.reload()
        expect(page.locator("#table-app")).to_be_visible(timeout=ENGINE_START_MS)
        assert practice_state(page, (state,)) == state
        assert shown(page) == before, "the match continues from the same state after an offline reload"
        play_on(page)
        expect(page.locator("#result-dialog")).to_contain_text("Final scores")
        septica = time.monotonic()

        # Americana against two Medium bots, to the end of the round.
        page.locator("#result-dialog").get_by_role("button", name="Other settings").click()
        start_practice(page, "americana", 3, [("medium", "balanced"), ("medium", "balanced")], {"target": 101})
        play_on(page, until="deal")
        expect(page.locator("#result-dialog")).to_contain_text("Deal 1 is over")
        americana = time.monotonic()

        # The page's own requests (its worker's among them) are each answered by the service worker. The
        # service worker's own tries of the network first (a page, the catalog) fail offline, as they should.
        from_page = [request for request in offline_requests if request.service_worker is None]
        paths = {request.url.removeprefix(server.url) for request in from_page}
        assert {"/practice/", "/jsi18n/"} <= paths, "the page came from the service worker"
        assert any(path.endswith("pyodide.asm.wasm") for path in paths), "the engine's runtime came too"
        not_from_the_worker = [
            request.url for request in from_page
            if request.response() is None or not request.response().from_service_worker
        ]
        assert not_from_the_worker == [], "requests that were not answered by the service worker"
        assert [request.url for request in failed if request.service_worker is None] == []
        print(f"offline: download {downloaded - started:.1f}s, septica vs Expert {septica - downloaded:.1f}s, "
              f"americana round {americana - septica:.1f}s, {len(from_page)} requests offline, all from the service worker")
    finally:
        context.close()
