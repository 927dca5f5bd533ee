"""Rows for the profile and leaderboard tests: finished tables, outcomes and ratings written directly.

update_or_create, so a test's figures win over whatever the site's own rating
code (players/outcomes.py) wrote for the same match or person.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, Seat, Table, TableStatus
from players.models import Outcome, Rating
from players.reads import forget_rating_counts


@pytest.fixture(autouse=True)
def fresh_rating_counts():
    """Ranks outside the top come from counts kept a minute in the cache, which outlives a test (Redis)."""
    forget_rating_counts()
    yield
    forget_rating_counts()


def finished_table(people, rules="septica", private=False, bots=(), when=None) -> Table:
    """A finished table with `people` in the first seats and bots (levels) after them; no moves."""
    when = when or timezone.now()
    table = Table.objects.create(rules=rules, players=len(people) + len(bots), options={}, seconds_per_move=86400,
                                 private=private, status=TableStatus.FINISHED, created_by=people[0])
    Match.objects.create(table=table, seed="1", seed_sha256=Match.hash_seed(1), finished_at=when, started_at=when,
                         result={"scores": [0] * table.players, "winners": [0]})
    for number, user in enumerate(people):
        Seat.objects.create(table=table, number=number, user=user, joined_at=when)
    for offset, level in enumerate(bots):
        Seat.objects.create(table=table, number=len(people) + offset, bot_level=level, bot_style="balanced")
    return table


def outcome(table: Table, user, *, place=1, won=None, rated=True, resigned=False, stood_in_turns=0,
            shown_before=None, shown_after=None, when=None) -> Outcome:
    seat = table.seats.get(user=user).number
    row, _ = Outcome.objects.update_or_create(match_id=table.pk, user=user, defaults={
        "rules": table.rules, "seat": seat, "place": place, "players": table.players,
        "won": place == 1 if won is None else won, "rated": rated, "resigned": resigned,
        "stood_in_turns": stood_in_turns, "finished_at": when or table.match.finished_at,
        "shown_before": shown_before, "shown_after": shown_after,
    })
    return row


def rating(user, rules="septica", shown=1000, rated_matches=10, days_ago=1) -> Rating:
    row, _ = Rating.objects.update_or_create(user=user, rules=rules, defaults={
        "mu": 25.0, "sigma": 8.0, "shown": shown, "rated_matches": rated_matches,
        "last_rated_at": timezone.now() - timedelta(days=days_ago)})
    return row


@pytest.fixture
def people(make_user):
    """`people(n)`: n players named p000, p001, … with display names Player 0, Player 1, …"""
    def make(count: int, start: int = 0):
        return [make_user(f"p{index:03d}", display_name=f"Player {index}") for index in range(start, start + count)]
    return make
