"""Ratings and outcomes in the admin: listed and searched by username, never edited by hand."""

from __future__ import annotations

import pytest

from players.models import Outcome, Rating
from tests.moderation.conftest import logged_in
from tests.play import play_moves, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_match(alice, bob):
    return play_moves(start_table(alice, [bob], options={"match": "points-8"}))


def test_a_superuser_lists_ratings_and_outcomes_and_finds_a_person_by_username(make_user, rated_match):
    client = logged_in(make_user("root", is_staff=True, is_superuser=True))

    ratings = client.get("/admin/players/rating/", {"q": "alice"})
    assert ratings.status_code == 200
    assert list(ratings.context["cl"].result_list) == list(Rating.objects.filter(user__username="alice"))
    outcomes = client.get("/admin/players/outcome/", {"q": "bob"})
    assert [outcome.user.username for outcome in outcomes.context["cl"].result_list] == ["bob"]


def test_nobody_adds_changes_or_deletes_a_rating_or_an_outcome(make_user, rated_match):
    client = logged_in(make_user("root", is_staff=True, is_superuser=True))
    rating, outcome = Rating.objects.first(), Outcome.objects.first()

    assert client.get("/admin/players/rating/add/").status_code == 403
    assert client.post(f"/admin/players/rating/{rating.pk}/change/", {"mu": "99"}).status_code == 403
    assert client.post(f"/admin/players/outcome/{outcome.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Rating.objects.get(pk=rating.pk).mu == rating.mu and Outcome.objects.filter(pk=outcome.pk).exists()
    page = client.get(f"/admin/players/rating/{rating.pk}/change/")
    assert page.status_code == 200 and 'name="mu"' not in page.content.decode()
