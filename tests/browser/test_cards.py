"""The card pictures, in the browser: every card of every rule set's deck is an SVG
drawing named for a screen reader ("ace of hearts"), the joker without an emoji,
ranks and suits readable (contrast, and the mini cards' size), and the server's
partial draws exactly what static/js/table-cards.js draws."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from games.engine import rules_for
from games.templatetags.cards import card, card_name
from tests.play import start_table

from .tables import log_in

DECK_OPTIONS = {"septica": {}, "familie": {}, "americana": {"jokers": True}}
# Emoji and the symbol blocks (suits ♠♥, the star ★, 🃏): glyphs a machine may lack.
FONT_SYMBOLS = re.compile("[\u2600-\u27bf\U0001f000-\U0001faff]")

DRAW = """([codes, extra]) => {
  const Cards = window.SepticaCards;
  const text = JSON.parse(document.getElementById("tutorial-config").textContent).text;
  document.getElementById("drawn")?.remove();
  const box = document.createElement("div");
  box.id = "drawn";
  box.innerHTML = codes.map((code) => Cards.cardHTML(code, { text, extra })).join("");
  document.querySelector("main").prepend(box);
}"""

DESCRIBE = """(cards) => cards.map((card) => {
  const svg = card.querySelector(":scope > svg");
  const style = getComputedStyle(card);
  const index = card.querySelector(".card__index");
  const marks = [...card.querySelectorAll("path")];
  return {
    code: card.dataset.card, role: card.getAttribute("role"), name: card.getAttribute("aria-label"),
    svgHidden: svg ? svg.getAttribute("aria-hidden") : null, svgHeight: svg ? svg.getBoundingClientRect().height : 0,
    text: card.textContent,
    backgrounds: [style.backgroundColor, style.backgroundImage].join(" "),
    inks: [index, ...marks].filter(Boolean).map((el) => getComputedStyle(el).fill),
    painted: marks.length > 0 && marks.every((m) => { const b = m.getBBox(); return b.width > 3 && b.height > 3; }),
    indexSize: index ? Number(index.getAttribute("font-size")) * svg.getBoundingClientRect().height / 100 : null,
  };
})"""


def deck(slug: str) -> list[str]:
    rules = rules_for(slug)
    return rules.full_deck(2, {**rules.default_options(2), **DECK_OPTIONS[slug]})


def every_card() -> list[str]:
    return sorted({code for slug in DECK_OPTIONS for code in deck(slug)})


def rgb(text: str) -> list[tuple[int, int, int]]:
    return [tuple(int(n) for n in found[:3]) for found in re.findall(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", text)
            if len(found) < 4 or found[3] in ("", "1")]


def luminance(colour: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, other) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def tutorial_page(new_context, server, locale="en-GB"):
    page = new_context(locale=locale, viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{server.url}{reverse('tutorial_step', args=['septica', 1])}")
    page.wait_for_function("() => window.SepticaCards && document.getElementById('tutorial-config')")
    return page


def drawn(page, codes, extra=""):
    page.evaluate(DRAW, [codes, extra])
    return page.locator("#drawn > .card").evaluate_all(DESCRIBE)


@pytest.mark.browser
def test_every_card_of_every_deck_is_an_svg_named_for_a_screen_reader(live_server, new_context):
    page = tutorial_page(new_context, live_server)
    decks = {slug: deck(slug) for slug in DECK_OPTIONS}
    assert {slug: len(cards) for slug, cards in decks.items()} == {"septica": 32, "familie": 38, "americana": 54}

    cards = drawn(page, every_card())

    with translation.override("en"):
        expected = {code: card_name(code) for code in every_card()}
    assert {c["code"]: c["name"] for c in cards} == expected
    assert expected["AH"] == "ace of hearts" and expected["XR"] == "red joker"
    assert [c["code"] for c in cards if c["role"] != "img" or c["svgHidden"] != "true" or not c["painted"]] == []
    assert page.get_by_role("img", name="10 of spades", exact=True).count() == 1
    assert page.get_by_role("img", name="black joker", exact=True).count() == 1


@pytest.mark.browser
def test_the_cards_are_named_in_romanian_on_a_romanian_page(live_server, new_context):
    page = tutorial_page(new_context, live_server, locale="ro-RO")

    cards = drawn(page, every_card())

    with translation.override("ro"):
        expected = {code: card_name(code) for code in every_card()}
    assert {c["code"]: c["name"] for c in cards} == expected
    assert expected["AH"] != "ace of hearts"


@pytest.mark.browser
def test_no_card_needs_a_symbol_or_emoji_font(live_server, new_context):
    page = tutorial_page(new_context, live_server)

    cards = drawn(page, every_card()) + drawn(page, every_card(), "card--mini")
    page.evaluate("() => document.getElementById('drawn').insertAdjacentHTML('beforeend', SepticaCards.cardBackHTML())")
    back = page.locator("#drawn .card--back")

    assert {c["code"]: c["text"] for c in cards if FONT_SYMBOLS.search(c["text"])} == {}
    jokers = [c for c in cards if c["code"] in ("XR", "XB")]
    assert len(jokers) == 4 and all(c["painted"] for c in jokers)
    expect(back.locator("svg")).to_have_count(1)
    expect(back).to_have_attribute("aria-hidden", "true")
    assert page.evaluate("() => ['XR', 'XB', 'AH'].map(SepticaCards.cardShort).join(' ')") == "★(R) ★ A♥"


@pytest.mark.browser
def test_ranks_and_suits_stand_out_from_the_card_at_least_4_5_to_1(live_server, new_context):
    page = tutorial_page(new_context, live_server)

    weakest = {}
    for c in drawn(page, every_card()) + drawn(page, every_card(), "card--mini"):
        grounds = rgb(c["backgrounds"])
        inks = [colour for ink in c["inks"] for colour in rgb(ink)]
        assert grounds and inks, c
        weakest[c["code"]] = min(contrast(ink, ground) for ink in inks for ground in grounds)

    assert {code: round(ratio, 2) for code, ratio in weakest.items() if ratio < 4.5} == {}


@pytest.mark.browser
def test_mini_cards_draw_their_rank_at_least_12_px_high(live_server, new_context):
    page = tutorial_page(new_context, live_server)

    sizes = {c["code"]: c["indexSize"] for c in drawn(page, every_card(), "card--mini")}

    assert {code: size for code, size in sizes.items() if code[0] != "X" and size < 12} == {}


@pytest.mark.browser
def test_the_server_draws_the_same_cards_as_the_script(live_server, new_context):
    page = tutorial_page(new_context, live_server)
    with translation.override("en"):
        server = {extra: [str(card(code, extra)) for code in every_card()] for extra in ("", "card--mini")}

    same = page.evaluate("""([codes, server]) => {
      const text = JSON.parse(document.getElementById("tutorial-config").textContent).text;
      const parse = (html) => { const box = document.createElement("div"); box.innerHTML = html; return box.firstElementChild; };
      // Attributes in any order; the drawing itself exactly.
      const seen = (el) => [el.className, el.dataset.card, el.getAttribute("role"), el.getAttribute("aria-label"), el.innerHTML];
      return Object.entries(server).flatMap(([extra, drawn]) => drawn.map((html, i) => {
        const mine = seen(parse(html)), theirs = seen(parse(SepticaCards.cardHTML(codes[i], { text, extra })));
        return { code: codes[i] + extra, same: JSON.stringify(mine) === JSON.stringify(theirs) };
      }));
    }""", [every_card(), server])

    assert [entry["code"] for entry in same if not entry["same"]] == []
    assert len(same) == 2 * 54


@pytest.mark.browser
def test_the_table_page_names_each_card_and_draws_the_taken_out_ones_readably(live_server, new_context, alice, bob,
                                                                              charlie):
    # Three play septica without two eights: the table shows them as mini cards.
    table = start_table(alice, [bob, charlie], rules="septica", players=3)
    context = new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('table', args=[table.pk])}")
    hand = page.locator("#hand .hand-card")
    expect(hand.first).to_be_visible()
    expect(page.locator(".removed .card--mini")).to_have_count(2)

    with translation.override("en"):
        for code in hand.evaluate_all("cards => cards.map(c => c.dataset.card)"):
            expect(page.get_by_role("button", name=card_name(code), exact=True)).to_have_count(1)
        taken_out = page.locator(".removed .card--mini").evaluate_all(DESCRIBE)
        assert [c["name"] for c in taken_out] == [card_name(c["code"]) for c in taken_out]
    assert all(c["code"][0] == "8" and c["indexSize"] >= 12 for c in taken_out), taken_out
