"""Every kind of page, checked by axe-core (package.json pins it; `make test` installs it
with npm) for WCAG 2 A and AA problems, in English and Romanian, on a 360 px phone and
a 1280 px desktop (and the phone in the dark scheme): no serious or critical violation anywhere. Also the favicon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import expect

from games import tasks
from tests.play import finished_match, play_moves, start_table

from .tables import log_in, started_septica_table

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    # The site follows the system's dark scheme (color-scheme: light dark): its colours are checked too.
    "phone, dark": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
                    "color_scheme": "dark"},
}
LOCALES = {"en": "en-GB", "ro": "ro-RO"}
BLOCKING = ("serious", "critical")

AXE_RUN = """async () => {
  const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}"""


def playing_table(rules, alice, bob):
    if rules == "septica":
        return started_septica_table(alice, bob)
    table = start_table(alice, [bob], rules=rules, options={"jokers": True} if rules == "americana" else None)
    play_moves(table, 2)  # cards on the table or the pile, a log to show
    return table


def analysed_match(alice, bob):
    """A finished match with its analysis ready: the replay page's totals, costliest moves and marks."""
    with override_settings(ANALYSIS_ROUNDS=6, ANALYSIS_DECISIONS_PER_RUN=1000, ANALYSIS_SLOTS=100):
        match = finished_match(alice, [bob])
        tasks.analyse_match(match.pk, 0)
    return match


# Each page: (how to reach it, given alice and bob; whether alice is logged in).
PAGES = {
    "home": (lambda alice, bob: reverse("home"), True),
    "home-visitor": (lambda alice, bob: reverse("home"), False),
    "lobby": (lambda alice, bob: reverse("lobby"), True),
    "new-table": (lambda alice, bob: reverse("create_table"), True),
    "table-septica": (lambda alice, bob: reverse("table", args=[playing_table("septica", alice, bob).pk]), True),
    "table-familie": (lambda alice, bob: reverse("table", args=[playing_table("familie", alice, bob).pk]), True),
    "table-americana": (lambda alice, bob: reverse("table", args=[playing_table("americana", alice, bob).pk]), True),
    "replay": (lambda alice, bob: reverse("replay", args=[finished_match(alice, [bob], rules="familie").pk]), True),
    "replay-analysed": (lambda alice, bob: reverse("replay", args=[analysed_match(alice, bob).pk]), False),
    "practice": (lambda alice, bob: reverse("practice"), False),
    "tutorial": (lambda alice, bob: reverse("tutorial"), False),
    "tutorial-septica": (lambda alice, bob: reverse("tutorial_step", args=["septica", 1]), False),
    "tutorial-americana": (lambda alice, bob: reverse("tutorial_step", args=["americana", 1]), False),
    "rules": (lambda alice, bob: reverse("rules"), False),
    "rules-septica": (lambda alice, bob: reverse("rules_page", args=["septica"]), False),
    "rules-familie": (lambda alice, bob: reverse("rules_page", args=["familie"]), False),
    "rules-americana": (lambda alice, bob: reverse("rules_page", args=["americana"]), False),
    "rules-which-game": (lambda alice, bob: reverse("rules_page", args=["which-game"]), False),
}


def blocking_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(AXE_RUN) if v["impact"] in BLOCKING]


def described(found: dict[str, list[dict]]) -> str:
    lines = []
    for where, violations in found.items():
        for violation in violations:
            lines.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}")
            lines.extend(f"    {node['target']}: {node['summary']}" for node in violation["nodes"][:8])
    return "\n".join(lines)


def settled(page, name: str) -> None:
    """The page as a person sees it once its scripts have drawn it."""
    page.wait_for_load_state("networkidle")
    if name.startswith("table-"):
        expect(page.locator("#hand .hand-card").first).to_be_visible()
    if name.startswith("tutorial-"):
        expect(page.locator("#hand .hand-card").first).to_be_visible()


@pytest.mark.browser
@pytest.mark.parametrize("language", list(LOCALES))
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_or_critical_violation(asgi_live_server, new_context, alice, bob, name, language):
    route, logged_in = PAGES[name]
    path = route(alice, bob)
    found = {}
    for size, options in VIEWPORTS.items():
        # Animations off: a card caught half-faded in would fail contrast for no reason a player sees.
        context = new_context(locale=LOCALES[language], reduced_motion="reduce", **options)
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": asgi_live_server.url}])
        if logged_in:
            log_in(context, asgi_live_server, alice)
        page = context.new_page()
        page.goto(f"{asgi_live_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        settled(page, name)
        violations = blocking_violations(page)
        if violations:
            found[f"{path} ({language}, {size})"] = violations
        context.close()
    assert not found, "axe-core found serious or critical problems:\n" + described(found)


# axe-core cannot tell the contrast of text over a gradient (it says "needs review"), and the
# felt is a radial gradient: this measures every text on it against each of the felt's colours,
# through any half-transparent box and any opacity in between. Cards are tests/browser/test_cards.py's.
FELT_TEXT_CONTRAST = """() => {
  const colour = (text) => (text.match(/rgba?\\([^)]*\\)/g) || []).map((c) => {
    const [r, g, b, a] = c.match(/[\\d.]+/g).map(Number);
    return [r, g, b, a === undefined ? 1 : a];
  });
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (x, y) => { const [l, d] = [luminance(x), luminance(y)].sort((p, q) => q - p); return (l + 0.05) / (d + 0.05); };
  const found = [];
  for (const felt of document.querySelectorAll(".felt")) {
    for (const el of felt.querySelectorAll("*")) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const box = el.getBoundingClientRect();
      if (!own || el.closest(".card, [hidden], .visually-hidden") || box.width < 2 || box.height < 2) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      let opacity = 1, layers = [], bases = null;
      for (let node = el; node && !bases; node = node.parentElement) {
        const s = getComputedStyle(node);
        opacity *= Number(s.opacity);
        const stops = colour(s.backgroundImage);
        const fill = colour(s.backgroundColor)[0];
        if (stops.length) bases = stops;
        else if (fill && fill[3] === 1) bases = [fill];
        else if (fill && fill[3] > 0) layers.push(fill);
        if (node === felt) break;
      }
      if (!bases) continue;
      const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
      const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const [ink] = colour(style.color);
      const worst = Math.min(...bases.map((base) => {
        const ground = layers.reduceRight((under, layer) => over(layer, under), base.slice(0, 3));
        return ratio(over([ink[0], ink[1], ink[2], ink[3] * opacity], ground), ground);
      }));
      if (worst < needed) {
        const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + [...el.classList].map((c) => "." + c).join("");
        found.push(`${name} "${el.textContent.trim().slice(0, 40)}": ${worst.toFixed(2)}:1 (needs ${needed}:1)`);
      }
    }
  }
  return found;
}"""
FELT_PAGES = ["table-septica", "table-familie", "table-americana", "tutorial-septica", "tutorial-americana"]


@pytest.mark.browser
@pytest.mark.parametrize("name", FELT_PAGES)
def test_text_on_the_felt_reads_at_4_5_to_1(asgi_live_server, new_context, alice, bob, name):
    route, logged_in = PAGES[name]
    path = route(alice, bob)
    context = new_context(reduced_motion="reduce", **VIEWPORTS["phone"])
    if logged_in:
        log_in(context, asgi_live_server, alice)
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}{path}")
    settled(page, name)
    expect(page.locator(".felt").first).to_be_visible()

    faint = page.evaluate(FELT_TEXT_CONTRAST)

    assert faint == [], f"{path}: text on the felt below the contrast it needs:\n" + "\n".join(faint)


@pytest.mark.browser
def test_axe_itself_reports_a_page_with_unreadable_text(asgi_live_server, new_context):
    """The check can fail: grey on grey and a nameless button are caught and described."""
    page = new_context().new_page()
    page.goto(f"{asgi_live_server.url}{reverse('rules')}")
    page.evaluate("""() => document.querySelector("main").insertAdjacentHTML("beforeend",
        '<p style="color:#999;background:#aaa">faint</p><button type="button"></button>')""")
    ids = {violation["id"] for violation in blocking_violations(page)}
    assert {"color-contrast", "button-name"} <= ids, json.dumps(sorted(ids))


@pytest.mark.django_db
def test_favicon_ico_answers_with_an_icon(client):
    answer = client.get("/favicon.ico")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/x-icon"
    assert b"".join(answer.streaming_content)[:4] == b"\x00\x00\x01\x00"  # the ICO signature


@pytest.mark.browser
def test_every_page_links_an_icon_the_browser_can_load(asgi_live_server, page):
    page.goto(f"{asgi_live_server.url}{reverse('rules')}")

    hrefs = page.locator('link[rel="icon"]').evaluate_all("links => links.map(l => l.href)")
    assert any(href.endswith("/favicon.ico") for href in hrefs), hrefs
    assert any(href.endswith(".svg") for href in hrefs), hrefs
    for href in hrefs:
        answer = page.request.get(href)
        assert answer.ok, href
        assert answer.headers["content-type"].startswith("image/"), (href, answer.headers["content-type"])


# A stand-in for WebAudio and the vibrator that counts what the page asks of them.
FAKE_AUDIO = """
window.heard = { contexts: 0, notes: [], buzzes: [] };
window.AudioContext = class {
  constructor() { window.heard.contexts += 1; this.currentTime = 0; this.state = "running"; this.destination = {}; }
  createOscillator() {
    const osc = { type: "", frequency: {}, connect: (gain) => gain, stop() {} };
    osc.start = () => window.heard.notes.push(osc.frequency.value);
    return osc;
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (node) => node };
  }
};
navigator.vibrate = (pattern) => { window.heard.buzzes.push(pattern); return true; };
"""


@pytest.mark.browser
def test_sounds_and_vibration_stay_off_until_asked_for_and_need_a_gesture(asgi_live_server, new_context):
    """WCAG 1.4.2: no sound a player did not ask for; browsers also refuse audio before a gesture."""
    context = new_context()
    context.add_init_script(FAKE_AUDIO)
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}{reverse('rules')}")
    page.evaluate("async () => { window.sounds = await import('/static/js/table/sounds.js'); }")

    off = page.evaluate("() => [sounds.enabled(), sounds.play('card'), sounds.vibrate()]")
    page.evaluate("() => sounds.setEnabled(true)")
    before_gesture = page.evaluate("() => sounds.play('turn')")
    page.locator("main h1, main h2").first.click()
    on = page.evaluate("() => [sounds.enabled(), sounds.play('turn'), sounds.play('trick'), sounds.play('card'),"
                       " sounds.play('no-such-sound'), sounds.vibrate()]")
    page.evaluate("() => sounds.setEnabled(false)")
    after = page.evaluate("() => [sounds.play('card'), sounds.vibrate()]")
    heard = page.evaluate("() => window.heard")

    assert off == [False, False, False]
    assert before_gesture is False
    assert on == [True, True, True, True, False, True]
    assert after == [False, False]
    assert heard["contexts"] == 1  # made once, lazily, after the click
    assert len(heard["notes"]) == 2 + 3 + 1  # the turn's two notes, the trick's three, the card's one
    assert len(heard["buzzes"]) == 1 and all(0 < ms <= 100 for ms in heard["buzzes"][0])
