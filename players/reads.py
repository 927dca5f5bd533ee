"""What profiles and leaderboards read: one person's ratings, counts and last matches, and a rule set's top.

players/ imports nothing of games/ (pyproject.toml's contracts): a profile
reaches a match's table and seats through the Outcome's relation names, and
the rule sets are named here (tests/players/test_reads.py checks that they
are the games' own).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, Q, Value
from django.db.models.functions import Lower
from django.utils import timezone

from .models import Outcome, Rating
from .reliability import Reliability, reliability
from .skill import PROVISIONAL_UNTIL, is_provisional

# The rule sets in the order the site offers them, with the game's own (Romanian) names, the same in every language.
RULE_SETS = {"septica": "Șeptică", "familie": "Șeptică în familie", "americana": "Șeptică americană"}
RECENT_DAYS = 90  # a leaderboard lists people with a rated match this recent
TOP = 100
LAST_MATCHES = 20
CHART_POINTS = 100  # the rating chart draws at most the last this many rated matches
RANK_COUNTS_KEY, RANK_COUNTS_SECONDS = "players:rating-counts", 60


def rules_name(slug: str) -> str:
    return RULE_SETS.get(slug, slug)


# --- people ---------------------------------------------------------------------------
def person(username: str, viewer=None):
    """The person with this username (any case), or None; a banned person exists only for staff."""
    # lower() = lower() walks the index of accounts' unique Lower("username") (iexact would read every row).
    people = get_user_model().objects.alias(username_lower=Lower("username"))
    found = next(iter(people.filter(username_lower=Lower(Value(username)), is_active=True)[:1]), None)
    if found is None or (found.banned and not (viewer is not None and viewer.is_staff)):
        return None
    return found


def hidden_from_leaderboards(user) -> bool:
    """Banned, or suspended right now (accounts/models.py play_refusal)."""
    return user.play_refusal is not None


def listed_people():
    """The people a leaderboard may show: not banned, not suspended now."""
    now = timezone.now()
    return Q(user__is_active=True, user__banned=False) & (
        Q(user__suspended_until__isnull=True) | Q(user__suspended_until__lte=now))


# --- a profile ------------------------------------------------------------------------
@dataclass(frozen=True)
class RuleSetStanding:
    rules: str
    name: str
    rating: Rating | None
    played: int
    won: int
    chart: list[int]  # the rating after each rated match, oldest first (at most CHART_POINTS)

    @property
    def provisional(self) -> bool:
        return self.rating is None or is_provisional(self.rating.rated_matches)

    @property
    def matches_to_go(self) -> int:
        """Rated matches still needed before the rating stops being provisional."""
        return max(0, PROVISIONAL_UNTIL - (self.rating.rated_matches if self.rating else 0))


@dataclass(frozen=True)
class PastMatch:
    outcome: Outcome
    people: list  # the other people at the table (users), in seat order; empty when private to the viewer
    bots: list[str]  # the bots' levels as the site says them
    private: bool  # a private table the viewer did not sit at: no names, no replay

    @property
    def table_id(self) -> int:
        return self.outcome.match_id


@dataclass(frozen=True)
class Profile:
    user: object
    standings: list[RuleSetStanding]
    reliability: Reliability
    matches: list[PastMatch]


def profile(user, viewer=None) -> Profile:
    ratings = {rating.rules: rating for rating in Rating.objects.filter(user=user)}
    counts = {
        row["rules"]: row
        for row in Outcome.objects.filter(user=user).order_by().values("rules")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)))
    }
    standings = [
        RuleSetStanding(
            rules=slug, name=name, rating=ratings.get(slug),
            played=counts.get(slug, {}).get("played", 0), won=counts.get(slug, {}).get("won", 0),
            chart=rating_history(user, slug) if slug in ratings else [],
        )
        for slug, name in RULE_SETS.items()
    ]
    return Profile(user, standings, reliability(user.pk), last_matches(user, viewer))


def rating_history(user, rules: str) -> list[int]:
    shown = (
        Outcome.objects.filter(user=user, rules=rules, rated=True, shown_after__isnull=False)
        .order_by("-finished_at", "-pk").values_list("shown_after", flat=True)[:CHART_POINTS]
    )
    return list(reversed(shown))


def last_matches(user, viewer=None) -> list[PastMatch]:
    outcomes = list(
        Outcome.objects.filter(user=user).select_related("match__table")
        .prefetch_related("match__table__seats__user").order_by("-finished_at", "-pk")[:LAST_MATCHES]
    )
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    return [_past_match(outcome, user, viewer_id) for outcome in outcomes]


def _past_match(outcome: Outcome, user, viewer_id: int | None) -> PastMatch:
    table = outcome.match.table
    seats = list(table.seats.all())
    private = table.private and viewer_id not in (user.pk, *(seat.user_id for seat in seats if seat.user_id))
    if private:
        return PastMatch(outcome, [], [], True)
    people = [seat.user for seat in seats if seat.user_id and seat.user_id != user.pk]
    bots = [str(seat.get_bot_level_display()) for seat in seats if seat.bot_level]
    return PastMatch(outcome, people, bots, False)


# --- leaderboards ---------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    rank: int
    rating: Rating


@dataclass(frozen=True)
class YourPlace:
    """Where the viewer stands: their rank, or why they are not listed (reason)."""

    rating: Rating | None
    rank: int | None
    reason: str | None  # None (listed), "no_rating", "provisional", "not_recent", "hidden"

    @property
    def matches_to_go(self) -> int:
        return max(0, PROVISIONAL_UNTIL - (self.rating.rated_matches if self.rating else 0))


def recent_since(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(days=RECENT_DAYS)


def ranked(rules: str, now: datetime | None = None):
    """Ratings that a leaderboard lists, best first; ties are broken by who got there first."""
    return (
        Rating.objects.filter(rules=rules, rated_matches__gte=PROVISIONAL_UNTIL, last_rated_at__gte=recent_since(now))
        .filter(listed_people())
        .order_by("-shown", "last_rated_at", "pk")
    )


def top(rules: str, now: datetime | None = None) -> list[Row]:
    """The first TOP; equal ratings share a rank (1, 2, 2, 4)."""
    rows: list[Row] = []
    for position, rating in enumerate(ranked(rules, now).select_related("user")[:TOP], start=1):
        tied = rows and rows[-1].rating.shown == rating.shown
        rows.append(Row(rows[-1].rank if tied else position, rating))
    return rows


def rank_of(rating: Rating, now: datetime | None = None) -> int:
    """1 + how many listed people rate higher, from the counts per rating (`rating_counts`)."""
    return 1 + sum(count for shown, count in rating_counts(rating.rules, now) if shown > rating.shown)


def rating_counts(rules: str, now: datetime | None = None) -> list[tuple[int, int]]:
    """How many listed people have each rating, kept for RANK_COUNTS_SECONDS: counting everyone above a
    rank far down a board of 100,000 costs more than a page may (bench/leaderboard.py), and a rank
    outside the top a minute old is exact enough."""
    key = f"{RANK_COUNTS_KEY}:{rules}"
    counts = cache.get(key)
    if counts is None:
        counts = list(ranked(rules, now).order_by().values("shown").annotate(n=Count("pk")).values_list("shown", "n"))
        cache.set(key, counts, RANK_COUNTS_SECONDS)
    return counts


def forget_rating_counts() -> None:
    cache.delete_many([f"{RANK_COUNTS_KEY}:{rules}" for rules in RULE_SETS])


def your_place(rules: str, viewer, rows: list[Row], now: datetime | None = None) -> YourPlace | None:
    if viewer is None or not viewer.is_authenticated:
        return None
    rating = Rating.objects.filter(user=viewer, rules=rules).first()
    if rating is None:
        return YourPlace(None, None, "no_rating")
    if hidden_from_leaderboards(viewer):
        return YourPlace(rating, None, "hidden")
    if is_provisional(rating.rated_matches):
        return YourPlace(rating, None, "provisional")
    if rating.last_rated_at is None or rating.last_rated_at < recent_since(now):
        return YourPlace(rating, None, "not_recent")
    shown_row = next((row for row in rows if row.rating.pk == rating.pk), None)
    if shown_row is not None:
        return YourPlace(rating, shown_row.rank, None)
    # Not among the rows shown: below them, whatever the counts of a minute ago say.
    return YourPlace(rating, max(rank_of(rating, now), len(rows) + 1), None)
