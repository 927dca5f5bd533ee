"""GET /api/players/<username>: ratings, counts, reliability and the last matches, as JSON."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .conftest import finished_table, outcome, rating

pytestmark = pytest.mark.django_db


def test_a_player_answers_ratings_counts_reliability_and_matches(client, alice, bob):
    rating(alice, "septica", shown=1234, rated_matches=12)
    table = finished_table([alice, bob], bots=["beginner"])
    outcome(table, alice, place=1, shown_before=1200, shown_after=1234)
    outcome(finished_table([alice, bob]), alice, place=2, rated=False, stood_in_turns=2)

    response = client.get(reverse("api_player", args=["Alice"]))
    data = response.json()

    assert response.status_code == 200
    assert data["username"] == "alice" and data["display_name"] == "Alice"
    assert data["url"] == reverse("player", args=["alice"])
    assert data["ratings"]["septica"] | {"mu": 0, "sigma": 0, "last_rated_at": None} == {
        "shown": 1234, "mu": 0, "sigma": 0, "rated_matches": 12, "provisional": False, "last_rated_at": None}
    assert data["ratings"]["familie"] is None and data["ratings"]["americana"] is None
    assert data["counts"] == {"septica": {"played": 2, "won": 1}, "familie": {"played": 0, "won": 0},
                              "americana": {"played": 0, "won": 0}}
    assert data["reliability"] == {"percent": 50, "counted": 2}
    last = data["matches"][1]
    assert last["table_id"] == table.pk and last["place"] == 1 and last["won"] and last["rated"]
    assert (last["shown_before"], last["shown_after"]) == (1200, 1234)
    assert last["people"] == [{"username": "bob", "display_name": "Bob", "url": reverse("player", args=["bob"])}]
    assert last["bots"] == ["Beginner"] and last["replay_url"] == reverse("replay", args=[table.pk])


def test_no_finished_match_yet_has_no_reliability(client, alice):
    data = client.get(reverse("api_player", args=["alice"])).json()
    assert data["reliability"] == {"percent": None, "counted": 0} and data["matches"] == []


def test_unknown_and_banned_players_are_json_404s(client, alice):
    alice.banned = True
    alice.save()
    for username in ("nobody", "alice"):
        response = client.get(reverse("api_player", args=[username]))
        assert response.status_code == 404 and response["Content-Type"] == "application/json"
        assert response.json() == {"error": "There is no such player.", "code": "no_such_player"}


def test_writing_is_refused_with_json(client, alice):
    response = client.post(reverse("api_player", args=["alice"]))
    assert response.status_code == 405 and "error" in response.json()


def test_both_endpoints_are_documented(client):
    page = client.get(reverse("api_docs")).content.decode().replace("&lt;", "<").replace("&gt;", ">")
    assert "<code>GET /api/players/<username></code>" in page and "<code>GET /api/leaderboard/<rules></code>" in page
