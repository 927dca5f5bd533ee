"""`manage.py recompute_ratings` rebuilds exactly the stored figures from the match history."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from players.models import Outcome, Rating
from tests.play import play_moves, start_table

pytestmark = pytest.mark.django_db

# (rules, players, options): two players, free-for-all, teams of two; rated and casual.
FORMATS = [
    ("septica", 2, {"match": "points-8"}),
    ("americana", 2, {"target": 101}),
    ("familie", 3, {}),
    ("septica", 4, {"teams": True, "match": "points-8"}),
    ("septica", 3, {"match": "points-8"}),
    ("familie", 4, {}),
]


def recompute(*args: str) -> str:
    out = StringIO()
    call_command("recompute_ratings", *args, stdout=out)
    return out.getvalue()


def play_random_history(people, matches: int, seed: int) -> None:
    rng = random.Random(seed)
    for number in range(matches):
        rules, players, options = rng.choice(FORMATS)
        seated = rng.sample(people, players)
        table = start_table(seated[0], seated[1:], rules=rules, players=players, options=options,
                            rated=rng.random() > 0.2)
        play_moves(table, seed=number)


def stored_figures() -> tuple[list, list]:
    return (list(Rating.objects.order_by("pk").values()), list(Outcome.objects.order_by("pk").values()))


def test_recomputing_after_a_random_history_gives_exactly_the_stored_figures(people):
    play_random_history(people, matches=14, seed=18)
    assert Outcome.objects.filter(rated=True).count() > 20 and Outcome.objects.filter(rated=False).exists()
    before = stored_figures()

    said = recompute("--check")
    assert "Every stored figure equals the history's." in said
    recompute()
    assert stored_figures() == before


def test_check_fails_after_a_rating_is_changed_by_hand_and_recompute_puts_it_back(people):
    play_random_history(people, matches=6, seed=3)
    before = stored_figures()
    tampered = Rating.objects.order_by("pk").first()
    Rating.objects.filter(pk=tampered.pk).update(mu=tampered.mu + 1e-9)

    with pytest.raises(CommandError, match="1 rows differ"):
        recompute("--check")
    assert Rating.objects.get(pk=tampered.pk).mu == tampered.mu + 1e-9  # --check changes nothing

    said = recompute()
    assert f"user {tampered.user_id} at {tampered.rules}: mu" in said
    assert stored_figures() == before
    recompute("--check")


def test_check_fails_after_an_outcome_is_changed_by_hand(people):
    play_random_history(people, matches=4, seed=5)
    outcome = Outcome.objects.filter(rated=True).order_by("pk").first()
    Outcome.objects.filter(pk=outcome.pk).update(shown_after=outcome.shown_after + 7)

    with pytest.raises(CommandError, match="differ from the history"):
        recompute("--check")
    recompute()
    assert Outcome.objects.get(pk=outcome.pk).shown_after == outcome.shown_after


def test_a_rating_removed_by_hand_comes_back_from_the_history(people):
    play_random_history(people, matches=4, seed=9)
    before = {(rating.user_id, rating.rules): (rating.mu, rating.sigma, rating.shown, rating.rated_matches)
              for rating in Rating.objects.all()}
    Rating.objects.order_by("pk").first().delete()

    with pytest.raises(CommandError):
        recompute("--check")
    recompute()
    assert {(rating.user_id, rating.rules): (rating.mu, rating.sigma, rating.shown, rating.rated_matches)
            for rating in Rating.objects.all()} == before


def test_recompute_with_no_rated_match_says_so_and_passes(db):
    assert "Replayed 0 rated matches" in recompute("--check")
