"""Reading the rules pages as a visitor gets them: headings, anchors and the cards of the examples."""

from __future__ import annotations

import re

RULES_PAGES = ["/rules/", "/rules/septica/", "/rules/familie/", "/rules/americana/", "/rules/which-game/"]
EXAMPLE_PAGES = ["/rules/septica/", "/rules/familie/", "/rules/americana/"]

PLAYED = re.compile(
    r'<span class="played-card( is-holder)?"><span class="card[^"]*" data-card="(\w\w)"[^>]*>.*?'
    r'<span class="played-card__who">([^<]*)</span>',
    re.S,
)
HAND = re.compile(r'<p>(\w+) <span class="card-row">(.*?)</span></p>', re.S)
CARD = re.compile(r'<span class="card[^"]*" data-card="(\w\w)" aria-label="([^"]+)" role="img">')


def get_page(client, url: str, language: str | None = None, cookie: bool = False) -> str:
    """The page in `language`, asked for by the browser (Accept-Language) or by the language menu's cookie."""
    headers = {}
    if language and cookie:
        client.cookies["django_language"] = language
        headers["HTTP_ACCEPT_LANGUAGE"] = "en"  # the cookie must win over the browser
    elif language:
        headers["HTTP_ACCEPT_LANGUAGE"] = language
    response = client.get(url, **headers)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    return response.content.decode()


def article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


def headings(html: str, level: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", text).strip() for text in re.findall(rf"<{level}[^>]*>(.*?)</{level}>", html, re.S)]


def ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', article(html)))


def figure(html: str, figure_id: str) -> str:
    start = html.index(f'id="{figure_id}"')
    return html[start : html.index("</figure>", start)]


def example_hands(html: str, figure_id: str) -> dict[str, list[str]]:
    hands = figure(html, figure_id).split('class="example-hands"')[1].split("</div>")[0]
    return {name: re.findall(r'data-card="(\w\w)"', cards) for name, cards in HAND.findall(hands)}


def example_strips(html: str, figure_id: str) -> list[list[tuple[str, str, bool]]]:
    """Each step's picture of the table: (card, who played it, marked as holding the trick)."""
    strips = figure(html, figure_id).split('class="felt-strip"')[1:]
    return [
        [(card, who, bool(holder)) for holder, card, who in PLAYED.findall(strip.split("</div>")[0])]
        for strip in strips
    ]
