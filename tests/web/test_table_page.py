"""The table page as the server sends it: my hand only, spectators see none,
private tables stay hidden without the invite, and the table's rules in words."""

from __future__ import annotations

import json
import re

import pytest

from games import actions
from games.models import Match

pytestmark = pytest.mark.django_db


def started_table(alice, bob, **fields):
    fields.setdefault("rules", "septica")
    fields.setdefault("players", 2)
    table = actions.create_table(alice, **fields)
    actions.join_table(table.pk, bob, invite_code=table.invite_code)
    return table


def state_of(table):
    return Match.objects.get(pk=table.pk).state


def embedded_data(html: str) -> dict:
    found = re.search(r'<script id="table-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def hidden_cards(state: dict, seat: int) -> set[str]:
    """Cards this seat must never see: the other hands and the stock, minus anything public."""
    hidden = set(state["stock"])
    for number, hand in enumerate(state["hands"]):
        if number != seat:
            hidden |= set(hand)
    public = {card for _, card in state["trick"]} | set(state["removed"])
    return hidden - public


def test_a_seated_player_sees_their_own_hand_and_no_other_card(client, alice, bob):
    table = started_table(alice, bob)
    state = state_of(table)
    client.force_login(alice)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    for card in state["hands"][0]:
        assert f'data-card="{card}"' in html
    for card in hidden_cards(state, 0):
        assert f'"{card}"' not in html, f"{card} is hidden from Alice but is on her page"
    assert embedded_data(html)["view"]["hand"] == state["hands"][0]


def test_the_other_player_sees_only_their_own_hand_too(client, alice, bob):
    table = started_table(alice, bob)
    state = state_of(table)
    client.force_login(bob)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    for card in state["hands"][1]:
        assert f'data-card="{card}"' in html
    for card in hidden_cards(state, 1):
        assert f'"{card}"' not in html


def test_a_spectator_of_a_public_table_sees_no_hand(client, alice, bob, charlie):
    table = started_table(alice, bob)
    state = state_of(table)
    client.force_login(charlie)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    assert 'class="hand-card"' not in html
    assert embedded_data(html)["view"]["hand"] == []
    for card in hidden_cards(state, None):
        assert f'"{card}"' not in html
    assert "You are watching this table." in html


def test_a_visitor_who_is_not_logged_in_watches_and_is_offered_a_log_in(client, alice):
    table = actions.create_table(alice, rules="septica", players=2)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    assert "Log in to take a seat" in html
    assert f"/accounts/login/?next=/tables/{table.pk}/" in html


def test_a_private_table_is_not_found_by_outsiders(client, alice, charlie):
    table = actions.create_table(alice, rules="septica", players=2, private=True)
    client.force_login(charlie)

    assert client.get(f"/tables/{table.pk}/").status_code == 404
    assert client.get(f"/tables/{table.pk}/?invite=wrong").status_code == 404


def test_the_invite_link_opens_a_private_table(client, alice, charlie):
    table = actions.create_table(alice, rules="septica", players=2, private=True)
    client.force_login(charlie)

    response = client.get(f"/tables/{table.pk}/invite/{table.invite_code}/", follow=True)

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == f"/tables/{table.pk}/?invite={table.invite_code}"
    assert "Take a seat" in response.content.decode()


def test_seated_players_of_a_private_table_get_the_invite_link(client, alice):
    table = actions.create_table(alice, rules="septica", players=2, private=True)
    client.force_login(alice)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    assert embedded_data(html)["invite_url"] == f"/tables/{table.pk}/invite/{table.invite_code}/"


def test_the_rules_dialog_lists_the_options_of_a_septica_table(client, alice):
    table = actions.create_table(
        alice, rules="septica", players=3, options={"eights_cut": True, "match": "best-of-3"}, seconds_per_move=60
    )

    html = client.get(f"/tables/{table.pk}/").content.decode()

    dialog = html[html.index('id="rules-dialog"'):html.index("</dialog>", html.index('id="rules-dialog"'))]
    assert "Eights cut" in dialog and "<dd>yes</dd>" in dialog
    assert "best of 3" in dialog
    assert "Teams" in dialog
    assert "1 minute" in dialog


def test_the_rules_dialog_lists_the_options_of_an_americana_table(client, alice):
    table = actions.create_table(
        alice, rules="americana", players=2, options={"jokers": True, "target": 301, "pairs": False}
    )

    html = client.get(f"/tables/{table.pk}/").content.decode()

    assert "a joker makes the next player take five" in html
    assert "until someone reaches 301 points" in html
    assert "Pairs" in html


def test_the_page_embeds_what_the_script_needs_to_post_moves(client, alice, bob):
    table = started_table(alice, bob)
    client.force_login(alice)

    response = client.get(f"/tables/{table.pk}/")

    assert "csrftoken" in response.cookies
    config = json.loads(re.search(r'<script id="table-config" type="application/json">(.*?)</script>',
                                  response.content.decode(), re.S).group(1))
    assert config["api"] == f"/api/tables/{table.pk}"
    assert config["text"]["end"].startswith("Gata")


@pytest.mark.parametrize("rules", ["familie", "americana"])
def test_every_rule_set_renders_for_its_players(client, alice, bob, rules):
    table = started_table(alice, bob, rules=rules)
    state = state_of(table)
    client.force_login(alice)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    for card in state["hands"][0]:
        assert f'data-card="{card}"' in html
    public = {entry.get("card") for entry in embedded_data(html)["view"]["log"]}
    public |= {card for _, card in state.get("table", [])} | set(state.get("pile", []))
    for card in (set(state["hands"][1]) | set(state["stock"])) - public:
        assert f'"{card}"' not in html
