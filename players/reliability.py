"""Reliability: how often a person finishes what they start.

The share of their last 50 finished matches in which no bot played more than
one turn for them after their time ran out. Resigning is a fair way to leave
and does not count against it; aborted matches leave no outcome and do not
count at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
    """Each person's reliability (a table's seats at once)."""
    return {user_id: reliability(user_id) for user_id in set(user_ids)}
