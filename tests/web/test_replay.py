"""The replay of a finished match: every move, all hands, the seed revealed."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from games import actions
from games.engine import rules_for
from games.models import Move
from tests.play import finished_match, play_moves, seated_table

pytestmark = pytest.mark.django_db


def full_steps(compact_steps: list[dict]) -> list[dict]:
    """Rebuild every position as the page's script does: merge the changes in order."""
    steps, current = [], {}
    for change in compact_steps:
        current = {**current, **change}
        steps.append(current)
    return steps


def replay_steps(client, table_id: int, **params) -> list[dict]:
    response = client.get(reverse("replay_json", args=[table_id]), params)
    assert response.status_code == 200
    return full_steps(response.json()["steps"])


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_the_replay_has_every_move_with_all_hands(client, alice, bob, rules):
    match = finished_match(alice, [bob], rules=rules, options={"match": "points-8"} if rules == "septica" else {})
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    dealt = rules_for(match.table.rules).new_game(players=2, options=match.table.options, seed=int(match.seed))
    client.force_login(alice)

    steps = replay_steps(client, match.pk)

    assert len(steps) == len(moves) + 1
    assert steps[0]["hands"] == dealt.to_state()["hands"]
    assert [(step["seq"], step["seat"], step["move"]) for step in steps[1:]] == [
        (move.seq + 1, move.seat, move.move) for move in moves
    ]
    assert steps[-1]["hands"] == match.state["hands"]
    assert steps[-1]["finished"] and steps[-1]["result"] == match.result
    assert all(len(step["hands"]) == 2 and "stock" in step and "scores" in step for step in steps)


def test_the_replay_page_lists_every_move_and_reveals_the_seed(client, alice, bob):
    match = finished_match(alice, [bob], rules="familie")
    client.force_login(bob)

    response = client.get(reverse("replay", args=[match.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    assert page.count("<li data-seq=") == match.seq
    assert match.seed in page and match.seed_sha256 in page
    assert f"printf %s {match.seed} | sha256sum" in page
    assert 'id="seed-check"' in page
    assert hashlib.sha256(match.seed.encode()).hexdigest() == match.seed_sha256
    assert 'id="replay-data"' in page


def test_anyone_may_replay_a_finished_public_match(client, alice, bob):
    match = finished_match(alice, [bob], rules="familie")

    assert client.get(reverse("replay", args=[match.pk])).status_code == 200


@pytest.mark.parametrize("moves_played", [0, 5])
def test_there_is_no_replay_of_a_match_still_being_played(client, alice, bob, moves_played):
    table = seated_table(alice, [bob])
    play_moves(table, count=moves_played)
    client.force_login(alice)

    assert client.get(reverse("replay", args=[table.pk])).status_code == 404
    assert client.get(reverse("replay_json", args=[table.pk])).status_code == 404


def test_there_is_no_replay_of_an_open_table(client, alice):
    table = actions.create_table(alice, rules="septica", players=2)
    client.force_login(alice)

    assert client.get(reverse("replay", args=[table.pk])).status_code == 404


def test_a_private_replay_is_hidden_from_outsiders_without_the_invite(client, alice, bob, charlie):
    match = finished_match(alice, [bob], rules="familie", private=True)
    url, json_url = reverse("replay", args=[match.pk]), reverse("replay_json", args=[match.pk])

    assert client.get(url).status_code == 404
    client.force_login(charlie)
    assert client.get(url).status_code == 404
    assert client.get(json_url).status_code == 404
    assert client.get(url, {"invite": "wrong"}).status_code == 404
    assert client.get(url, {"invite": match.table.invite_code}).status_code == 200
    client.force_login(bob)
    assert client.get(url).status_code == 200


def test_the_seed_is_only_revealed_once_the_match_is_over(client, alice, bob):
    table = seated_table(alice, [bob], rules="familie")
    client.force_login(alice)
    api = reverse("api_table", args=[table.pk])

    before = client.get(api).json()
    play_moves(table, count=3)
    during = client.get(api).json()
    match = play_moves(table)
    after = client.get(api).json()

    assert "seed" not in before and "seed" not in during
    assert match.seed not in str(before) and match.seed not in str(during)
    assert before["seed_sha256"] == during["seed_sha256"] == after["seed_sha256"] == match.seed_sha256
    assert after["seed"] == match.seed


def test_a_table_with_a_free_seat_never_shows_its_seed(client, alice):
    table = actions.create_table(alice, rules="septica", players=2)
    client.force_login(alice)

    answer = client.get(reverse("api_table", args=[table.pk])).json()

    assert "seed" not in answer and table.match.seed not in str(answer)
    assert answer["seed_sha256"] == table.match.seed_sha256
