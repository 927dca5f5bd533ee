"""The bots' published ratings: there for every rule set and level, in the order of strength, and
reproduced in order by the bench's own rating code."""

from __future__ import annotations

import pytest

from bench.bots import places_of, rate_matches, rating_jobs, run_ratings
from games.engine import RULESETS
from games.engine.bots import LEVELS
from players.bot_ratings import BOT_RATINGS, COMMANDS, MATCHES, MEASURED, published_rating
from players.skill import SHOWN_BASE


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_level_of_every_rule_set_has_a_figure_and_the_stronger_level_the_higher_one(rules):
    figures = [published_rating(rules, level) for level in LEVELS]

    assert all(isinstance(figure, int) and figure > 0 for figure in figures)
    assert figures == sorted(figures) and len(set(figures)) == len(figures)  # beginner < medium < expert < master


def test_the_figures_say_where_they_came_from():
    assert set(BOT_RATINGS) == {(rules, level) for rules in RULESETS for level in LEVELS}
    for rules in RULESETS:
        assert COMMANDS[rules].startswith(".venv/bin/python bench/bots.py --ratings") and MATCHES[rules] > 0
    assert len(MEASURED) == 10 and MEASURED[4] == MEASURED[7] == "-"


def test_a_rule_set_or_level_without_a_figure_has_no_rating():
    assert published_rating("whist", "expert") is None
    assert published_rating("septica", "grandmaster") is None


def test_places_put_the_winners_first_and_share_a_tie():
    assert places_of("septica", {"scores": [2, 1], "winners": [0]}, 2) == [1, 2]
    assert places_of("americana", {"scores": [130, 80], "winners": [1]}, 2) == [2, 1]
    assert places_of("familie", {"scores": [180, 180], "winners": [0, 1]}, 2) == [1, 1]
    assert places_of("americana", {"scores": [120, 40, 70], "winners": [1]}, 3) == [3, 1, 2]


def test_every_pairing_plays_each_deck_in_both_seatings_and_everybody_as_often():
    jobs = rating_jobs(("septica",), ("random", "beginner", "medium"), decks=2, budget_ms=None, rounds=4)

    seatings = [(job[2], job[3]) for job in jobs]
    assert len(jobs) == 3 * 2 * 2
    assert all(((second, first), seed) in seatings for (first, second), seed in seatings)
    strength = {"random": 0, "beginner": 1, "medium": 2}  # the stronger always wins, in either seat
    outcomes = {index: [1, 2] if strength[first] > strength[second] else [2, 1] for index, _, (first, second), *_ in jobs}
    ratings = rate_matches(jobs, outcomes)

    assert {matches for _, matches in ratings.values()} == {8}
    shown = [ratings["septica", kind][0].shown for kind in ("random", "beginner", "medium")]
    assert shown == sorted(shown) and shown[0] < 1000 < shown[2]  # from the newcomer's 1000, down and up


def test_a_small_run_of_the_bench_rates_the_levels_in_the_published_order():
    # The expert samples a fixed number of deals instead of thinking for a time, so the run is the
    # same on any machine; its few matches are no measurement, but the order must already show.
    levels = ("beginner", "medium", "expert")
    ratings = run_ratings(("americana",), levels, decks=3, budget_ms=None, rounds=30, workers=1)

    shown = [ratings["americana", level][0].shown for level in levels]
    assert shown == sorted(shown) and len(set(shown)) == 3, shown  # beginner < medium < expert, as published
    assert {ratings["americana", level][1] for level in levels} == {2 * 3 * 2}  # two opponents, three decks, two seatings
    assert ratings["americana", "expert"][0].shown > SHOWN_BASE  # above a newcomer who never played
