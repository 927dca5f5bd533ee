"""`manage.py recompute_ratings`: every rating rebuilt from the rated Outcomes, in the order
they were applied, with the same arithmetic (players/outcomes.py `apply_ratings`), so the
figures come out exactly equal to the stored ones unless a row was changed by hand.

The order: a match's Outcomes are inserted after its people's Ratings are
locked, so for each person the Outcomes' pk order is the order their ratings
moved in; matches are replayed by their first Outcome's pk.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ...models import Outcome, Rating
from ...outcomes import SeatResult, apply_ratings, side_of, sides_with_people
from ...skill import Skill

RATING_FIELDS = ("mu", "sigma", "shown", "rated_matches", "last_rated_at")
OUTCOME_FIELDS = ("mu_before", "sigma_before", "shown_before", "mu_after", "sigma_after", "shown_after")
SHOWN_DIFFERENCES = 10


@dataclass
class Recomputed:
    matches: int
    ratings: dict[tuple[int, str], Rating]  # (user id, rules): as the history leaves it, unsaved
    outcomes: list[Outcome]  # the stored rated Outcomes, their figures as the history gives them


def recompute() -> Recomputed:
    """Replay every rated Outcome; nothing is saved."""
    stored = list(Outcome.objects.filter(rated=True).order_by("pk").values(
        "pk", "match_id", "user_id", "rules", "seat", "place", "players", "won", "finished_at",
        "match__table__options"))
    by_match: dict[int, list[dict]] = {}
    for row in stored:  # dicts keep their first insertion's order: matches by their first pk
        by_match.setdefault(row["match_id"], []).append(row)
    ratings: dict[tuple[int, str], Rating] = {}
    outcomes = []
    for rows in by_match.values():
        rules = rows[0]["rules"]
        teams = bool((rows[0]["match__table__options"] or {}).get("teams"))
        results = sorted((SeatResult(row["user_id"], row["seat"], side_of(row["seat"], row["players"], teams),
                                     row["place"], row["won"]) for row in rows), key=lambda result: result.seat)
        for row in rows:
            ratings.setdefault((row["user_id"], rules), _fresh(row["user_id"], rules))
        match_outcomes = {row["user_id"]: Outcome(pk=row["pk"]) for row in rows}
        apply_ratings(sides_with_people(results), {row["user_id"]: ratings[(row["user_id"], rules)] for row in rows},
                      match_outcomes, rows[0]["finished_at"])
        outcomes.extend(match_outcomes[row["user_id"]] for row in rows)
    return Recomputed(len(by_match), ratings, outcomes)


def _fresh(user_id: int, rules: str) -> Rating:
    start = Skill()
    return Rating(user_id=user_id, rules=rules, mu=start.mu, sigma=start.sigma, shown=start.shown,
                  rated_matches=0, last_rated_at=None)


def differences(result: Recomputed) -> tuple[list[Rating], list[Rating], list[Outcome], list[str]]:
    """(ratings to change, ratings missing, outcomes to change, what differs in words)."""
    said: list[str] = []
    changed_ratings, missing = [], []
    stored_ratings = {(rating.user_id, rating.rules): rating for rating in Rating.objects.all()}
    for key in stored_ratings:
        result.ratings.setdefault(key, _fresh(*key))  # a rating no rated match explains starts afresh
    for key, wanted in result.ratings.items():
        stored = stored_ratings.get(key)
        if stored is None:
            missing.append(wanted)
            said.append(f"user {key[0]} at {key[1]}: no rating stored, {wanted.shown} from the history")
            continue
        if _take_differences(stored, wanted, RATING_FIELDS, f"user {key[0]} at {key[1]}", said):
            changed_ratings.append(stored)
    stored_outcomes = Outcome.objects.in_bulk([outcome.pk for outcome in result.outcomes])
    changed_outcomes = []
    for wanted in result.outcomes:
        stored = stored_outcomes[wanted.pk]
        what = f"outcome {stored.pk} (match {stored.match_id}, user {stored.user_id})"
        if _take_differences(stored, wanted, OUTCOME_FIELDS, what, said):
            changed_outcomes.append(stored)
    return changed_ratings, missing, changed_outcomes, said


def _take_differences(stored, wanted, names, what: str, said: list[str]) -> bool:
    """Copy onto `stored` the fields where it differs from `wanted`, saying so; True when any did."""
    fields = [name for name in names if getattr(stored, name) != getattr(wanted, name)]
    if fields:
        said.append(f"{what}: " + ", ".join(
            f"{name} {getattr(stored, name)!r} stored, {getattr(wanted, name)!r} from the history" for name in fields))
        for name in fields:
            setattr(stored, name, getattr(wanted, name))
    return bool(fields)


class Command(BaseCommand):
    help = (
        "Rebuild every rating from the rated match outcomes, in the order they were applied, and store the "
        "figures; with --check only compare them with the stored ones and exit 1 on any difference."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="compare only; change nothing")

    def handle(self, *args, check=False, **options):
        with transaction.atomic():
            # Every rating locked while the history is read: a match ending now waits (its
            # ratings are locked before its outcomes are written), so none is half counted.
            list(Rating.objects.select_for_update().order_by("user_id", "rules").values_list("pk"))
            result = recompute()
            changed_ratings, missing, changed_outcomes, said = differences(result)
            if not check:
                Rating.objects.bulk_update(changed_ratings, RATING_FIELDS)
                Rating.objects.bulk_create(missing)
                Outcome.objects.bulk_update(changed_outcomes, OUTCOME_FIELDS)
        self.stdout.write(
            f"Replayed {result.matches} rated matches: {len(result.ratings)} ratings, "
            f"{len(result.outcomes)} rated outcomes."
        )
        for line in said[:SHOWN_DIFFERENCES]:
            self.stdout.write(f"  {line}")
        if len(said) > SHOWN_DIFFERENCES:
            self.stdout.write(f"  ... and {len(said) - SHOWN_DIFFERENCES} more differences")
        count = len(changed_ratings) + len(missing) + len(changed_outcomes)
        if check:
            if count:
                raise CommandError(f"{count} rows differ from the history (nothing changed).")
            self.stdout.write("Every stored figure equals the history's.")
        else:
            self.stdout.write(f"Stored: {len(changed_ratings) + len(missing)} ratings and "
                              f"{len(changed_outcomes)} outcomes changed; the rest were already right.")
