"""Reliability: how often a person finishes what they start.

The share of their last 50 finished matches in which no bot played more than
one turn for them after their time ran out. Resigning is a fair way to leave
and does not count against it; aborted matches leave no outcome and do not
count at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from .models import Outcome

RECENT_MATCHES = 50
STOOD_IN_TURNS_ALLOWED = 1  # one missed turn is bad luck; more is leaving the others with a bot


@dataclass(frozen=True)
class Reliability:
    finished: int  # matches counted (at most RECENT_MATCHES)
    kept: int  # of those, the ones they played to the end themselves

    @property
    def percent(self) -> int | None:
        """None before their first finished match: nothing to judge by yet."""
        return round(100 * self.kept / self.finished) if self.finished else None


def reliability(user_id: int) -> Reliability:
    turns = list(
        Outcome.objects.filter(user_id=user_id).order_by("-finished_at", "-pk")
        .values_list("stood_in_turns", flat=True)[:RECENT_MATCHES]
    )
    return Reliability(len(turns), sum(count <= STOOD_IN_TURNS_ALLOWED for count in turns))


def reliabilities(user_ids: Iterable[int]) -> dict[int, Reliability]:
    """Each person's reliability, a table's seats at once: one query however many they are."""
    wanted = set(user_ids)
    if not wanted:
        return {}
    recent = (
        Outcome.objects.filter(user_id__in=wanted)
        .annotate(recency=Window(RowNumber(), partition_by=[F("user_id")], order_by=[F("finished_at").desc(), F("pk").desc()]))
        .filter(recency__lte=RECENT_MATCHES)
        .values_list("user_id", "stood_in_turns")
    )
    finished = dict.fromkeys(wanted, 0)
    kept = dict.fromkeys(wanted, 0)
    for user_id, turns in recent:
        finished[user_id] += 1
        kept[user_id] += turns <= STOOD_IN_TURNS_ALLOWED
    return {user_id: Reliability(finished[user_id], kept[user_id]) for user_id in wanted}
