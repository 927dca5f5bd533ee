"""The profile, leaderboard, how-ratings-work and challenge pages, and the JSON refusals, in Romanian."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.languages.test_pages_in_romanian import assert_all_romanian

from .conftest import finished_table, outcome, rating

pytestmark = pytest.mark.django_db


def test_profile_leaderboard_and_fairness_pages_are_all_in_romanian(client, alice, bob, charlie):
    rating(alice, shown=1234, rated_matches=12)
    rating(bob, shown=1100, rated_matches=4)
    table = finished_table([alice, bob, charlie], rules="americana", bots=["expert"])
    outcome(table, alice, place=2, won=False, shown_before=1250, shown_after=1234)
    outcome(finished_table([alice, bob]), alice, rated=False, stood_in_turns=2)
    outcome(finished_table([alice, charlie], private=True), alice, resigned=True, won=False, place=2)
    client.force_login(bob)

    assert_all_romanian(client, [
        reverse("player", args=["alice"]), reverse("player", args=["bob"]),
        reverse("leaderboard", args=["septica"]), reverse("leaderboard", args=["familie"]),
        reverse("how_ratings_work"), f'{reverse("create_table")}?challenge=alice',
        f'{reverse("create_table")}?challenge=bob',
    ])  # /api/docs/, with this part's endpoints, is tests/languages/test_pages_in_romanian.py's


def test_outside_the_top_and_not_listed_are_said_in_romanian(client, alice, bob):
    rating(alice, shown=1500)
    rating(bob, shown=1400, days_ago=200)
    client.force_login(bob)
    assert_all_romanian(client, [reverse("leaderboard", args=["septica"]), reverse("leaderboard", args=["americana"])])


def test_a_missing_player_is_refused_in_romanian(client):
    answer = client.get(reverse("api_player", args=["nobody"]), HTTP_ACCEPT_LANGUAGE="ro").json()
    assert answer == {"error": "Nu există acest jucător.", "code": "no_such_player"}


def test_a_challenge_in_my_matches_is_said_in_romanian(client, alice, bob):
    from games import actions

    actions.create_table(alice, rules="septica", players=2, options={}, reserve_for=bob)
    client.force_login(bob)
    assert_all_romanian(client, [reverse("my_matches")])
