"""Following: the people you follow, who of them is online, and their open tables to join.

Online means a socket of theirs is open at one of their unfinished tables
(games/presence.py counts sockets per table and person, across processes,
for 90 seconds after the last refresh); presence knows nothing of a person
reading other pages, so "online" here is "at a table right now".
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

from players.relations import followed_people

from .. import presence
from ..models import Seat, TableStatus
from ..presenters import table_summary
from ..reads import tables_with_seats
from .lobby import with_join

FOLLOWED_SHOWN = 200


def online_people(people) -> set[int]:
    """The ids of those with a socket open at one of their unfinished tables."""
    seated = Seat.objects.filter(user__in=people, table__status__in=(TableStatus.OPEN, TableStatus.PLAYING))
    return {user_id for table_id, user_id in seated.values_list("table_id", "user_id")
            if presence.is_present(table_id, user_id)}


def open_tables_of(people, viewer) -> dict[int, list[dict]]:
    """Each person's tables in the lobby (public, waiting), as the lobby shows them, by person id."""
    ids = [person.pk for person in people]
    tables = tables_with_seats().listed_in_lobby().filter(seats__user__in=ids).distinct().order_by("-created_at")
    by_person: dict[int, list[dict]] = {}
    for table in tables:
        summary = with_join(table_summary(table, viewer))
        for seat in table.seats.all():
            if seat.user_id in ids:
                by_person.setdefault(seat.user_id, []).append(summary)
    return by_person


@require_safe
@login_required
def following(request):
    people = followed_people(request.user)[:FOLLOWED_SHOWN]
    online = online_people(people)
    tables = open_tables_of(people, request.user)
    rows = [{"person": person, "online": person.pk in online, "tables": tables.get(person.pk, [])}
            for person in people]
    rows.sort(key=lambda row: not row["online"])  # online first, each part by name
    refresh_ms = int(settings.FOLLOWING_REFRESH_SECONDS * 1000)
    return render(request, "games/following.html", {"rows": rows, "refresh_ms": refresh_ms})


urlpatterns = [path("following/", following, name="following")]
