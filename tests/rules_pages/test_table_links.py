"""The table page links to the rules of its own options, and every link lands on a section that exists."""

from __future__ import annotations

import re

import pytest

from games import actions

from .pages import get_page, ids

pytestmark = pytest.mark.django_db


def option_links(client, table) -> list[str]:
    html = client.get(f"/tables/{table.pk}/").content.decode()
    dialog = html[html.index('id="rules-dialog"') : html.index("</dialog>", html.index('id="rules-dialog"'))]
    assert f'href="/rules/{table.rules}/"' in dialog, "no link to the full rules"
    found = re.search(r'<ul class="rules-links">(.*?)</ul>', dialog, re.S)
    return re.findall(r'href="([^"]+)"', found.group(1)) if found else []


@pytest.mark.parametrize(
    ("rules", "players", "options", "anchors"),
    [
        ("septica", 2, {"match": "points-8"}, ["match-points-8"]),
        ("septica", 3, {"eights_cut": True, "match": "points-21"}, ["match-points-21", "eights-out", "eights-cut"]),
        ("septica", 3, {"eights_cut": False, "match": "best-of-3"}, ["match-best-of-3", "eights-out"]),
        ("septica", 4, {"match": "best-of-5"}, ["match-best-of-5", "teams"]),
        ("septica", 6, {"teams": False, "match": "first-to-10"}, ["match-first-to-10", "eights-out", "eights-cut"]),
        ("familie", 3, {}, ["match"]),
        ("americana", 2, {"target": 301, "jokers": True, "pairs": True}, ["target", "jokers", "pairs"]),
        ("americana", 4, {"target": 501, "jacks_draw": True}, ["target", "jacks-draw"]),
    ],
)
def test_the_rules_dialog_links_to_the_section_of_each_option_the_table_plays_with(
    client, alice, rules, players, options, anchors
):
    table = actions.create_table(alice, rules=rules, players=players, options=options)
    client.force_login(alice)

    assert option_links(client, table) == [f"/rules/{rules}/#{anchor}" for anchor in anchors]


@pytest.mark.parametrize("language", ["en", "ro"])
def test_every_option_section_a_table_can_link_to_exists_in_both_languages(client, alice, language):
    client.force_login(alice)
    # Private: a person may keep only three public tables waiting for players in the lobby.
    tables = [
        actions.create_table(
            alice, rules="septica", players=3, options={"eights_cut": True, "match": match}, private=True
        )
        for match in ("points-8", "points-21", "best-of-3", "best-of-5", "first-to-10")
    ]
    tables += [
        actions.create_table(alice, rules="septica", players=4, options={}, private=True),
        actions.create_table(alice, rules="familie", players=2, options={}, private=True),
        actions.create_table(
            alice,
            rules="americana",
            players=2,
            options={"jokers": True, "pairs": True, "jacks_draw": True},
            private=True,
        ),
    ]
    for table in tables:
        for link in option_links(client, table):
            page, anchor = link.split("#")
            assert anchor in ids(get_page(client, page, language)), f"{link} points at no section in {language}"


def test_the_links_are_named_in_romanian_for_a_romanian_player(client, make_user):
    dana = make_user("dana", preferred_language="ro")
    table = actions.create_table(dana, rules="septica", players=3, options={"eights_cut": True})
    client.force_login(dana)

    html = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    assert 'href="/rules/septica/#eights-cut"' in html
    assert '<html lang="ro"' in html
