"""The reads that pages, the API, the sockets and the tutorial share."""

from __future__ import annotations

from django.db.models import Prefetch

from septica_site.django_private import cache_prefetched

from .errors import NotFound
from .leaving_view import load_reliabilities
from .models import Seat, Table, TableStatus
from .presenters import my_table_order, table_summary


def tables_with_seats():
    return Table.objects.select_related("match", "created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def visible_table(request, table_id: int) -> Table:
    """The table if the caller may see it: public, or seated, or holding the invite."""
    table = tables_with_seats().filter(pk=table_id).first()
    if table is None:
        raise NotFound("There is no such table.")
    if table.private:
        seated = request.user.is_authenticated and any(seat.user_id == request.user.pk for seat in table.seats.all())
        if not seated and request.GET.get("invite") != table.invite_code:
            raise NotFound("There is no such table.")
    return table


def lobby_tables():
    """The tables the lobby lists, newest first, with their seats and people."""
    return tables_with_seats().listed_in_lobby().order_by("-created_at")[:200]


def with_reliabilities(tables) -> list:
    """The tables, their seated people's reliability read in one go (the summaries then read none)."""
    tables = list(tables)
    load_reliabilities([(table, list(table.seats.all())) for table in tables])
    return tables


def lobby_summaries(user) -> list[dict]:
    """The open tables the lobby lists, as `user` sees them (/ws/lobby/ shares them: consumers/shared_lists.py)."""
    return [table_summary(table, user) for table in with_reliabilities(lobby_tables())]


def my_matches_json(user) -> dict:
    """The user's tables (their move first) and rematch invitations (also sent on /ws/me/)."""
    mine = with_reliabilities(tables_with_seats().filter(seats__user=user).distinct())
    summaries = sorted((table_summary(table, user) for table in mine), key=my_table_order)
    invitations = [table_summary(table, user) for table in with_reliabilities(rematch_invitations(user))]
    your_move = sum(s["status"] == TableStatus.PLAYING and s["to_move"] == s["your_seat"] for s in summaries)
    return {"tables": summaries, "invitations": invitations, "your_move": your_move}


def rematch_invitations(user):
    """Open tables keeping a seat for the user, who has not sat down yet."""
    return (
        tables_with_seats()
        .filter(status=TableStatus.OPEN, seats__reserved_for=user, seats__user__isnull=True)
        .exclude(seats__user=user)
        .distinct()
        .order_by("-created_at")
    )


def cache_seats(table: Table, seats: list[Seat]) -> None:
    """Make `table.seats.all()` (and `table.created_by`, when seated) answer from rows already read."""
    cache_prefetched(table, "seats", seats, table.seats.all())
    creator = next((seat.user for seat in seats if seat.user_id is not None and seat.user_id == table.created_by_id),
                   None)
    if creator is not None:
        table.created_by = creator
