"""What a finished match leaves each person: an Outcome, and on a rated table a new Rating.

games/ says who sat where and how each seat placed (games/actions/finish.py);
this module stores it, inside the caller's transaction (the one that stores the
match's last move, or a resignation), so a match is rated exactly when it ends.
`manage.py recompute_ratings` replays the same arithmetic from the Outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from .models import Outcome, Rating
from .skill import Skill, rate, shown


@dataclass(frozen=True)
class SeatResult:
    user_id: int | None  # None for a bot's own seat: bots keep no outcome
    seat: int
    side: int  # the seat itself in a free-for-all; the team's index when partners play together
    place: int  # 1 the best; sides that tie share a place
    won: bool
    resigned: bool = False
    stood_in_turns: int = 0  # moves a bot made for the person after their time ran out


def side_of(seat: int, players: int, teams: bool) -> int:
    """The side a seat plays for: partners sit `players / 2` apart, so they share `seat % (players / 2)`."""
    return seat % (players // 2) if teams else seat


def record_match(match_id: int, rules: str, finished_at: datetime, results: Sequence[SeatResult],
                 rated: bool) -> bool:
    """Store one Outcome per person of a finished match and, when it is rated, their new ratings.

    False (and nothing changed) when the match was recorded already, so a retry is harmless.
    Call it inside the transaction that ends the match, which holds the match's lock."""
    people = sorted((result for result in results if result.user_id is not None), key=lambda result: result.seat)
    if not people or Outcome.objects.filter(match_id=match_id).exists():
        return False
    sides = sides_with_people(people)
    ratings = _locked_ratings(rules, [result.user_id for result in people]) if rated and len(sides) > 1 else None
    outcomes = [
        Outcome(match_id=match_id, user_id=result.user_id, rules=rules, seat=result.seat, place=result.place,
                players=len(results), won=result.won, rated=ratings is not None, resigned=result.resigned,
                stood_in_turns=result.stood_in_turns, finished_at=finished_at)
        for result in people
    ]
    if ratings is not None:
        apply_ratings(sides, ratings, {outcome.user_id: outcome for outcome in outcomes}, finished_at)
        Rating.objects.bulk_update(ratings.values(), ["mu", "sigma", "shown", "rated_matches", "last_rated_at"])
    # After the Rating locks: a second match of the same person waits for this
    # one's commit before it inserts its own Outcome, so for every person the
    # Outcomes' pk order is the order their ratings were updated in, which is
    # the order recompute_ratings replays.
    Outcome.objects.bulk_create(outcomes)
    return True


def sides_with_people(people: Iterable[SeatResult]) -> list[list[SeatResult]]:
    """The sides that have a person, in side order, each with its people in seat order."""
    by_side: dict[int, list[SeatResult]] = {}
    for result in people:
        by_side.setdefault(result.side, []).append(result)
    return [by_side[side] for side in sorted(by_side)]


def _locked_ratings(rules: str, user_ids: list[int]) -> dict[int, Rating]:
    """Every person's Rating at `rules`, made fresh where they have none, locked until the transaction ends.

    Locked in user-id order, as every match locks them, so two matches ending
    at once with people in common wait for each other instead of deadlocking.
    A fresh row inserted by a match not yet committed makes the other wait at
    its own insert (ON CONFLICT DO NOTHING), in the same order."""
    ordered = sorted(set(user_ids))
    have = set(Rating.objects.filter(rules=rules, user_id__in=ordered).values_list("user_id", flat=True))
    fresh = Skill()
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, rules=rules, mu=fresh.mu, sigma=fresh.sigma, shown=fresh.shown)
         for user_id in ordered if user_id not in have],
        ignore_conflicts=True,
    )
    locked = Rating.objects.select_for_update().filter(rules=rules, user_id__in=ordered).order_by("user_id")
    return {rating.user_id: rating for rating in locked}


def apply_ratings(sides: Sequence[Sequence[SeatResult]], ratings: dict[int, Rating],
                  outcomes: dict[int, Outcome], finished_at: datetime) -> None:
    """One rated match's arithmetic: each side's people rated from their place, their Ratings
    and their Outcomes' before and after figures set (not saved). recompute_ratings calls it too."""
    before = [[Skill(ratings[result.user_id].mu, ratings[result.user_id].sigma) for result in side] for side in sides]
    after = rate(before, [side[0].place for side in sides])
    for side, skills_before, skills_after in zip(sides, before, after, strict=True):
        for result, old, new in zip(side, skills_before, skills_after, strict=True):
            outcome, rating = outcomes[result.user_id], ratings[result.user_id]
            outcome.mu_before, outcome.sigma_before, outcome.shown_before = old.mu, old.sigma, shown(old.mu, old.sigma)
            outcome.mu_after, outcome.sigma_after, outcome.shown_after = new.mu, new.sigma, shown(new.mu, new.sigma)
            rating.mu, rating.sigma, rating.shown = new.mu, new.sigma, shown(new.mu, new.sigma)
            rating.rated_matches += 1
            rating.last_rated_at = finished_at
