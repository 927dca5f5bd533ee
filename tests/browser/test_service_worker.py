"""The service worker and the offline download in Chromium: a signed-in
person's pages and /api/ answers never reach a cache, a file that arrives cut
short is fetched again, one that never arrives right leaves practice not
available offline, and a new release's worker deletes the old cache.

The download runs static/js/practice/offline.js in the page, with the files
practice.assets.offline_assets() lists (the server computes the same list).
And the engine worker runs Pyodide under the policy its own script arrives
with, which allows WebAssembly ('wasm-unsafe-eval') and nothing wider.
"""

from __future__ import annotations

import re

import pytest
from django.templatetags.static import static
from django.urls import reverse
from playwright.sync_api import expect

from practice.assets import engine_config, offline_assets
from practice.pwa import CACHE_PREFIX

from .fixtures import CHROMIUM, CHROMIUM_ARGS
from .tables import log_in, started_septica_table

pytestmark = pytest.mark.browser

OFFLINE_JS = "/static/js/practice/offline.js"

# offline.js's functions, run in the page; the error's code comes back as data.
CALL = """async ([module, name, offline]) => {
  const offlineModule = await import(module);
  try {
    const progress = [];
    const value = await offlineModule[name](offline, (done, total) => progress.push([done, total]));
    return { value: value === undefined ? null : value, progress };
  } catch (error) {
    return { error: error.code || String(error), message: String(error.message) };
  }
}"""

CACHES = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((request) => request.url);
  }
  return kept;
}"""

SHELL_TEXT = """async ([name, url]) => {
  const answer = await (await caches.open(name)).match(url);
  return answer ? answer.text() : null;
}"""

REGISTERED = f"""async () => {{
  const offlineModule = await import("{OFFLINE_JS}");
  const registration = await offlineModule.registerServiceWorker();
  return Boolean(registration && registration.active && navigator.serviceWorker.controller);
}}"""


def call(page, name: str, offline: dict) -> dict:
    return page.evaluate(CALL, [OFFLINE_JS, name, offline])


def kept(page) -> dict[str, list[str]]:
    return page.evaluate(CACHES)


def cache_name(offline: dict) -> str:
    return CACHE_PREFIX + offline["version"]


def with_service_worker(context, server):
    """A page of the site, controlled by the service worker."""
    page = context.new_page()
    page.goto(f"{server.url}/rules/")
    assert page.evaluate(REGISTERED) is True
    return page


def test_a_signed_in_persons_pages_and_api_answers_never_reach_a_cache(asgi_live_server, new_context, alice, bob):
    server = asgi_live_server.url
    table = started_septica_table(alice, bob)
    offline = offline_assets()
    context = new_context()
    log_in(context, asgi_live_server, alice)
    page = with_service_worker(context, asgi_live_server)

    visited = ["/", reverse("lobby"), f"/tables/{table.pk}/", reverse("my_matches"), reverse("profile"),
               reverse("practice")]
    for path in visited:
        response = page.goto(server + path)
        assert response.ok, path
        expect(page.locator(".account-menu summary")).to_have_text("Alice")
    for path in ["/api/me", f"/api/tables/{table.pk}", "/api/me/matches"]:
        assert page.evaluate("async (url) => (await fetch(url)).status", path) == 200, path
    # Practice made available offline by the signed-in person: the page it keeps is anyone's.
    assert "error" not in call(page, "makeAvailableOffline", offline)

    caches = kept(page)
    assert list(caches) == [cache_name(offline)]
    entries = {re.sub(r"^http://[^/]+", "", url) for url in caches[cache_name(offline)]}
    shell = offline["shell"]
    assert entries == {file["url"] for file in offline["files"]} | {shell, shell + "offline-complete"}
    assert not [entry for entry in entries if entry.startswith("/api/")]
    assert not [entry for entry in entries if entry in visited and entry != shell]
    kept_shell = page.evaluate(SHELL_TEXT, [cache_name(offline), server + shell])
    assert "Log out" not in kept_shell and "Alice" not in kept_shell and "Log in" in kept_shell

    # Online, the practice page is still the network's, signed in; the kept copy is only for offline.
    page.goto(server + shell)
    expect(page.locator(".account-menu summary")).to_have_text("Alice")

    context.set_offline(True)
    for path in ["/", f"/tables/{table.pk}/"]:
        page.goto(server + path)
        expect(page).to_have_url(server + shell)
        expect(page.get_by_role("link", name="Log in")).to_be_attached()
        expect(page.locator(".account-menu")).to_have_count(0)
    assert page.evaluate("fetch('/api/me').then((answer) => answer.status, () => 'no network')") == "no network"
    context.set_offline(False)


@pytest.mark.device
def test_a_file_cut_short_once_is_fetched_again_and_the_download_completes(asgi_live_server, new_context):
    offline = offline_assets()
    context = new_context()
    page = with_service_worker(context, asgi_live_server)
    target = next(file for file in offline["files"] if file["url"].endswith("/practice/engine.zip"))
    spoiled = []

    def cut_short_once(route):
        if spoiled:
            route.continue_()
            return
        answer = route.fetch()
        spoiled.append(route.request.url)
        route.fulfill(response=answer, body=answer.body()[: target["bytes"] // 2])

    context.route(f"**{target['url']}", cut_short_once)
    assert call(page, "isAvailableOffline", offline)["value"] is False
    done = call(page, "makeAvailableOffline", offline)
    assert "error" not in done, done
    assert len(spoiled) == 1
    assert call(page, "isAvailableOffline", offline)["value"] is True
    progress = done["progress"]
    assert progress[-1] == [offline["total_bytes"], offline["total_bytes"]]
    assert all(0 <= seen <= total for seen, total in progress)
    # The kept copy is the whole file, which the worker now serves.
    assert page.evaluate("async (url) => (await (await fetch(url)).arrayBuffer()).byteLength",
                         target["url"]) == target["bytes"]


@pytest.mark.device
def test_a_file_that_never_arrives_right_leaves_practice_not_available_offline(asgi_live_server, new_context):
    offline = offline_assets()
    context = new_context()
    page = with_service_worker(context, asgi_live_server)
    target = next(file for file in offline["files"] if file["url"].endswith("/pyodide-lock.json"))
    asked = []

    def always_changed(route):
        asked.append(route.request.url)
        answer = route.fetch()
        body = bytearray(answer.body())
        body[100] ^= 1  # the same size, another hash
        route.fulfill(response=answer, body=bytes(body))

    context.route(f"**{target['url']}", always_changed)
    failed = call(page, "makeAvailableOffline", offline)
    assert failed["error"] == "integrity", failed
    assert "pyodide-lock.json" in failed["message"]
    assert len(asked) == 3  # the first try and two more
    assert call(page, "isAvailableOffline", offline)["value"] is False
    entries = kept(page)[cache_name(offline)]
    assert not [url for url in entries if url.endswith(("offline-complete", target["url"]))]

    # Offline now, the site's pages are not pretended: the browser says it has no network.
    context.set_offline(True)
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        page.goto(asgi_live_server.url + "/")
    context.set_offline(False)

    # Once the file arrives right, the next try completes, keeping what was already good.
    context.unroute(f"**{target['url']}")
    good = [url for url in entries if url.endswith("pyodide.asm.wasm")]
    fetched = []
    context.on("request", lambda request: fetched.append(request.url))
    page.goto(asgi_live_server.url + "/rules/")
    assert "error" not in call(page, "makeAvailableOffline", offline)
    assert call(page, "isAvailableOffline", offline)["value"] is True
    assert good and not [url for url in fetched if url in good]


FULL_DEVICE = """() => {
  const put = Cache.prototype.put;
  Cache.prototype.put = function (request, response) {
    if (String(request.url || request).endsWith(".wasm")) {
      return Promise.reject(new DOMException("no room", "QuotaExceededError"));
    }
    return put.call(this, request, response);
  };
}"""


@pytest.mark.device
@pytest.mark.parametrize("trouble", ["network", "quota"])
def test_a_download_that_cannot_finish_says_why_and_is_not_marked_complete(asgi_live_server, new_context, trouble):
    offline = offline_assets()
    context = new_context()
    page = with_service_worker(context, asgi_live_server)
    wasm = next(file["url"] for file in offline["files"] if file["url"].endswith(".wasm"))
    if trouble == "network":
        context.route(f"**{wasm}", lambda route: route.abort("internetdisconnected"))
    else:
        page.evaluate(FULL_DEVICE)
    failed = call(page, "makeAvailableOffline", offline)
    assert failed["error"] == trouble, failed
    assert call(page, "isAvailableOffline", offline)["value"] is False
    assert not [url for url in kept(page)[cache_name(offline)] if url.endswith(("offline-complete", ".wasm"))]


@pytest.mark.device
def test_a_new_release_s_worker_deletes_the_old_cache(asgi_live_server, new_context):
    offline = offline_assets()
    old, other = CACHE_PREFIX + "0123456789abcdef", "not-practice"
    context = new_context()
    page = context.new_page()
    page.goto(asgi_live_server.url + "/healthz")  # a page of the site that registers no worker
    page.evaluate("""async (names) => {
      for (const name of names) await (await caches.open(name)).put("/kept", new Response("kept"));
    }""", [old, other, cache_name(offline)])
    assert sorted(kept(page)) == sorted([old, other, cache_name(offline)])

    assert page.evaluate(REGISTERED) is True
    assert sorted(kept(page)) == sorted([other, cache_name(offline)])


# The engine worker under the policies the site sends (bypass_csp=False): its
# own script's allows WebAssembly, and without 'wasm-unsafe-eval' Pyodide cannot start.
ENGINE = """async ([engineUrl, config]) => {
  const { openEngine } = await import(engineUrl);
  const silence = new Promise((resolve, reject) => setTimeout(() => reject(new Error("no answer in 60 s")), 60000));
  try {
    const engine = await Promise.race([openEngine(config), silence]);
    const answer = await engine.start({ rules: "septica", players: 2, options: {}, seed: 17,
      seats: [{ kind: "you" }, { kind: "bot", level: "beginner", style: "balanced", name: "Ana" }] });
    const played = await engine.play(answer.view.legal_moves[0]);
    return { seq: played.seq, error: played.error || null };
  } catch (error) {
    return { failed: String(error && error.message || error) };
  }
}"""


@pytest.mark.device
@pytest.mark.parametrize("worker_policy", ["as sent", "without wasm-unsafe-eval"])
def test_the_engine_worker_runs_pyodide_under_the_site_s_policies(asgi_live_server, new_context, worker_policy):
    context = new_context(bypass_csp=False)
    policies, blocked = {}, []
    context.on("console", lambda message: "Content Security Policy" in message.text and blocked.append(message.text))
    worker_url = static("js/practice/engine-worker.js")

    def answer_worker_script(route):
        answer = route.fetch()
        policy = answer.headers["content-security-policy"]
        if worker_policy != "as sent":
            policy = policy.replace(" 'wasm-unsafe-eval'", "")
        policies[route.request.url] = policy
        route.fulfill(response=answer, headers={**answer.headers, "content-security-policy": policy})

    context.route(f"**{worker_url}", answer_worker_script)
    page = context.new_page()
    page.goto(asgi_live_server.url + "/")
    arguments = [static("js/practice/engine.js"), engine_config()]
    if worker_policy == "as sent":
        assert page.evaluate(ENGINE, arguments) == {"seq": 1, "error": None}
        assert "'wasm-unsafe-eval'" in policies[asgi_live_server.url + worker_url]
        assert blocked == []
    else:
        # Refused before Pyodide starts (which would wait for ever): the page hears why and can say so.
        assert "WebAssembly is refused here" in page.evaluate(ENGINE, arguments)["failed"]
        assert list(policies) == [asgi_live_server.url + worker_url]


def test_chromium_finds_the_site_installable_and_the_menu_offers_it(asgi_live_server, browser, tmp_path):
    """In a browser profile of its own: Chromium offers no installing in an incognito context."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(asgi_live_server.url + "/")
        install = page.get_by_role("button", name="Install the app")
        expect(install).to_be_visible()  # the browser offered (beforeinstallprompt)
        devtools = context.new_cdp_session(page)
        assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["url"] == asgi_live_server.url + reverse("web_manifest")
        assert manifest["errors"] == []
        install.click()
        expect(install).to_be_hidden()  # asked once; the browser's own dialog takes it from here
    finally:
        context.close()
