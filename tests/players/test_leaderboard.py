"""/leaderboard/<rules>/ and its JSON: the top 100, who is left out, and your own place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from .conftest import rating

pytestmark = pytest.mark.django_db


def board(client, rules="septica") -> dict:
    response = client.get(reverse("api_leaderboard", args=[rules]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


def names(data: dict) -> list[str]:
    return [row["username"] for row in data["rows"]]


def test_the_leaderboard_lists_the_best_first_with_shared_ranks(client, people):
    for user, shown in zip(people(4), [1200, 1500, 1200, 1300], strict=True):
        rating(user, shown=shown)

    data = board(client)

    assert [(row["rank"], row["username"], row["rating"]) for row in data["rows"]] == [
        (1, "p001", 1500), (2, "p003", 1300), (3, "p000", 1200), (3, "p002", 1200)]
    assert data["rows"][0] == {"rank": 1, "username": "p001", "display_name": "Player 1", "rating": 1500,
                               "rated_matches": 10}
    assert data["you"] is None


def test_provisional_stale_other_rules_banned_and_suspended_people_are_left_out(client, people):
    listed, provisional, stale, other_rules, banned, suspended, lifted = people(7)
    rating(listed, shown=1100)
    rating(provisional, shown=1900, rated_matches=9)
    rating(stale, shown=1800, days_ago=91)
    rating(other_rules, rules="familie", shown=1700)
    rating(banned, shown=1600)
    rating(suspended, shown=1500)
    rating(lifted, shown=1400)
    banned.banned = True
    banned.save()
    suspended.suspended_until = timezone.now() + timedelta(days=1)
    suspended.save()
    lifted.suspended_until = timezone.now() - timedelta(days=1)
    lifted.save()

    assert names(board(client)) == [lifted.username, listed.username]
    assert names(board(client, "familie")) == [other_rules.username]
    assert names(board(client, "americana")) == []


def test_the_top_is_a_hundred_and_your_rank_is_shown_outside_it(client, people):
    crowd = people(105)
    for index, user in enumerate(crowd):
        rating(user, shown=2000 - index)
    client.force_login(crowd[103])

    data = board(client)
    html = client.get(reverse("leaderboard", args=["septica"])).content.decode()

    assert len(data["rows"]) == 100 and data["rows"][-1]["rank"] == 100
    assert data["you"] == {"rank": 104, "listed": True, "reason": None, "rating": 1897, "rated_matches": 10}
    assert "You are number 104, with 1897." in html and "Player 103" not in html.split('id="your-place"')[1]


def test_you_inside_the_top_are_marked(client, people):
    first, second = people(2)
    rating(first, shown=1300)
    rating(second, shown=1200)
    client.force_login(second)

    html = client.get(reverse("leaderboard", args=["septica"])).content.decode()

    assert "You are number 2, with 1200." in html
    assert html.count('aria-current="true"') == 1 and 'class="leaderboard__you"' in html


@pytest.mark.parametrize(("matches", "days_ago", "reason", "words"), [
    (None, 1, "no_rating", "You have no rating at Șeptică yet"),
    (7, 1, "provisional", "provisional for 3 more rated matches"),
    (12, 120, "not_recent", "more than 90 days ago"),
])
def test_you_are_told_why_you_are_not_listed(client, alice, matches, days_ago, reason, words):
    if matches is not None:
        rating(alice, shown=1111, rated_matches=matches, days_ago=days_ago)
    client.force_login(alice)

    assert board(client)["you"]["reason"] == reason
    assert words in client.get(reverse("leaderboard", args=["septica"])).content.decode()


def test_a_suspended_person_is_told_they_are_hidden(client, alice):
    rating(alice, shown=1500)
    alice.suspended_until = timezone.now() + timedelta(hours=2)
    alice.save()
    client.force_login(alice)

    assert board(client)["you"] == {"rank": None, "listed": False, "reason": "hidden", "rating": 1500,
                                    "rated_matches": 10}


def test_the_page_has_tabs_for_the_three_rule_sets(client):
    html = client.get(reverse("leaderboard", args=["familie"])).content.decode()
    for slug in ("septica", "familie", "americana"):
        assert f'href="{reverse("leaderboard", args=[slug])}"' in html
    assert f'<a href="{reverse("leaderboard", args=["familie"])}" aria-current="page">' in html


def test_leaderboard_without_rules_goes_to_septica(client):
    response = client.get(reverse("leaderboard_home"))
    assert response.status_code == 302 and response["Location"] == reverse("leaderboard", args=["septica"])


def test_unknown_rules_are_not_found(client):
    assert client.get(reverse("leaderboard", args=["poker"])).status_code == 404
    response = client.get(reverse("api_leaderboard", args=["poker"]))
    assert response.status_code == 404 and response.json()["code"] == "no_such_rules"


def test_the_leaderboard_reads_in_a_few_queries(client, people, django_assert_max_num_queries):
    crowd = people(30)
    for index, user in enumerate(crowd):
        rating(user, shown=1000 + index)
    client.force_login(crowd[0])
    with django_assert_max_num_queries(8):
        client.get(reverse("leaderboard", args=["septica"]))
