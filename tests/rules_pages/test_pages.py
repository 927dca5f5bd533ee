"""Every rules page, in Romanian and in English, however the language is chosen."""

from __future__ import annotations

import pytest

from games.words.rulesets import RULES_NAMES

from .pages import CARD, EXAMPLE_PAGES, RULES_PAGES, article, example_strips, figure, get_page, headings, ids

pytestmark = pytest.mark.django_db

ROMANIAN_TITLES = {
    "/rules/": "Regulile",
    "/rules/septica/": "Șeptică: regulile",
    "/rules/familie/": "Șeptică în familie: regulile",
    "/rules/americana/": "Șeptică americană: regulile",
    "/rules/which-game/": "Ce joc să aleg?",
}
ENGLISH_TITLES = {
    "/rules/": "The rules",
    "/rules/septica/": "Șeptică: the rules",
    "/rules/familie/": "Șeptică în familie: the rules",
    "/rules/americana/": "Șeptică americană: the rules",
    "/rules/which-game/": "Which game should I play?",
}
# Words a Romanian reader meets on each page, diacritics included.
ROMANIAN_WORDS = {
    "/rules/": "Cuvintele jocului rămân românești",
    "/rules/septica/": "Tăieturile nu au rang între ele",
    "/rules/familie/": "Trecerea e definitivă",
    "/rules/americana/": "Scapă de cărți înaintea tuturor",
    "/rules/which-game/": "Contează culoarea?",
}
GAME_NAMES = set(RULES_NAMES.values())
EXAMPLES = {
    "/rules/septica/": ["example-continue", "example-teams"],
    "/rules/familie/": ["example-trick"],
    "/rules/americana/": ["example-twos"],
}


@pytest.mark.parametrize("url", RULES_PAGES)
def test_a_browser_that_asks_for_romanian_gets_the_page_in_romanian(client, url):
    html = get_page(client, url, "ro")

    assert '<html lang="ro"' in html
    assert headings(html, "h1") == [ROMANIAN_TITLES[url]]
    assert ROMANIAN_WORDS[url] in html


@pytest.mark.parametrize("url", RULES_PAGES)
def test_the_language_menu_cookie_gives_romanian_to_an_english_browser(client, url):
    html = get_page(client, url, "ro", cookie=True)

    assert headings(html, "h1") == [ROMANIAN_TITLES[url]]
    assert ROMANIAN_WORDS[url] in html


@pytest.mark.parametrize("url", RULES_PAGES)
def test_an_english_browser_gets_the_page_in_english(client, url):
    html = get_page(client, url, "en")

    assert '<html lang="en"' in html
    assert headings(html, "h1") == [ENGLISH_TITLES[url]]


@pytest.mark.parametrize("url", RULES_PAGES)
def test_the_language_cookie_gives_english_to_a_romanian_browser(client, url):
    client.cookies["django_language"] = "en"

    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    assert headings(html, "h1") == [ENGLISH_TITLES[url]]


def test_a_player_who_chose_romanian_in_their_profile_reads_the_rules_in_romanian(client, make_user):
    client.force_login(make_user("dana", preferred_language="ro"))

    html = client.get("/rules/septica/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert headings(html, "h1") == ["Șeptică: regulile"]


@pytest.mark.parametrize("url", RULES_PAGES)
def test_no_english_heading_is_left_in_the_romanian_page(client, url):
    english = article(get_page(client, url, "en"))
    romanian = article(get_page(client, url, "ro"))

    for heading in headings(english, "h2") + headings(english, "h3"):
        if heading in GAME_NAMES:  # Romanian names, the same in both languages
            continue
        assert heading not in romanian, f"the Romanian {url} still has the English heading {heading!r}"


@pytest.mark.parametrize("url", RULES_PAGES)
def test_both_languages_have_the_same_sections_so_links_work_in_either(client, url):
    assert ids(get_page(client, url, "en")) == ids(get_page(client, url, "ro"))


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize("url", EXAMPLE_PAGES)
def test_the_worked_examples_are_drawn_with_the_tables_card_pictures(client, url, language):
    html = get_page(client, url, language)

    assert "css/table.css" in html  # the same card look as at the table
    for figure_id in EXAMPLES[url]:
        strips = example_strips(html, figure_id)
        assert strips and all(strip for strip in strips), f"{figure_id} shows no cards on the table"
        assert any(holder for strip in strips for _, _, holder in strip), f"{figure_id} marks nobody as holding"
    pictures = CARD.findall(html)
    assert pictures, "no card pictures with a readable name"
    assert all(name for _, name in pictures)


@pytest.mark.parametrize("url", EXAMPLE_PAGES)
def test_the_examples_show_the_same_cards_in_both_languages(client, url):
    english, romanian = get_page(client, url, "en"), get_page(client, url, "ro")

    for figure_id in EXAMPLES[url]:
        cards_en = [[card for card, _, holder in strip] for strip in example_strips(english, figure_id)]
        cards_ro = [[card for card, _, holder in strip] for strip in example_strips(romanian, figure_id)]
        assert cards_en == cards_ro


def test_the_navigation_rules_link_leads_to_the_rules_index(client):
    html = client.get("/").content.decode()

    assert 'href="/rules/"' in html
    assert client.get("/rules/").status_code == 200


def test_a_rules_page_that_does_not_exist_is_not_found(client):
    assert client.get("/rules/poker/").status_code == 404


def test_the_rules_pages_only_answer_reading(client):
    assert client.post("/rules/septica/").status_code == 405


def test_the_gold_ring_of_the_examples_is_also_said_to_screen_readers(client):
    septica = figure(get_page(client, "/rules/septica/", "en"), "example-continue")
    americana = figure(get_page(client, "/rules/americana/", "en"), "example-twos")

    assert septica.count('<span class="visually-hidden"> (holds the trick)</span>') == septica.count("is-holder")
    assert americana.count('<span class="visually-hidden"> (top of the pile)</span>') == americana.count("is-holder")
    assert septica.count("is-holder") == 3 and americana.count("is-holder") == 4
