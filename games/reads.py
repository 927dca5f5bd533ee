"""The reads that pages, the API, the sockets and the tutorial share."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext

from septica_site.django_private import cache_prefetched

from . import sql
from .errors import NotFound
from .leaving_view import load_reliabilities, note_open_request
from .models import Challenge, ChallengeStatus, Seat, Table, TableStatus
from .presenters import my_table_order, table_summary
from .words.durations import duration_in_words
from .words.rulesets import rules_name


def tables_with_seats():
    return Table.objects.select_related("match", "created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def visible_table(request, table_id: int) -> Table:
    """The table if the caller may see it: public, or seated, or holding the invite."""
    table = table_with_seats(table_id)
    if table is None:
        raise NotFound("There is no such table.")
    if table.private:
        seated = request.user.is_authenticated and any(seat.user_id == request.user.pk for seat in table.seats.all())
        if not seated and request.GET.get("invite") != table.invite_code:
            raise NotFound("There is no such table.")
    return table


def table_with_seats(table_id: int) -> Table | None:
    """As `tables_with_seats().filter(pk=table_id).first()`, in one prepared read (games/sql), whether
    an abort request is open read with it: `table.match` and `table.seats.all()` answer without a query."""
    found = sql.match_with_seats(table_id) if 0 < table_id < 2**63 else None
    if found is None:  # every table the site makes has its match row from the start
        return None
    match, seats = found
    cache_seats(match.table, seats)
    note_open_request(match.table, match.open_abort_request_id)
    return match.table


LOBBY_LENGTH = 200


def lobby_tables():
    """The tables the lobby lists, newest first, with their seats and people."""
    return _in_lobby_order(tables_with_seats())[:LOBBY_LENGTH]


def lobby_table_ids():
    """The ids of `lobby_tables()`, in its order."""
    return _in_lobby_order(Table.objects.all()).values_list("pk", flat=True)[:LOBBY_LENGTH]


def _in_lobby_order(tables):
    return tables.listed_in_lobby().order_by("-created_at", "-pk")


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
    return {"tables": summaries, "invitations": invitations, "your_move": your_move,
            "challenges": challenges_waiting(user)}


def rematch_invitations(user):
    """Open tables keeping a seat for the user, who has not sat down yet."""
    return (
        tables_with_seats()
        .filter(status=TableStatus.OPEN, seats__reserved_for=user, seats__user__isnull=True)
        .exclude(seats__user=user)
        .exclude(challenge__invites__invitee=user)  # a challenge's invite is answered in its own list
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


# --- challenges -----------------------------------------------------------------
def challenges_of(user) -> dict:
    """The challenges the user made and received, newest first, with every invite's answer."""
    shown = (Challenge.objects.select_related("table", "challenger").prefetch_related("invites__invitee")
             .order_by("-created_at"))
    made = shown.filter(challenger=user)[:CHALLENGES_LISTED]
    received = shown.filter(invites__invitee=user).distinct()[:CHALLENGES_LISTED]
    return {"made": [challenge_json(challenge, user) for challenge in made],
            "received": [challenge_json(challenge, user) for challenge in received]}


CHALLENGES_LISTED = 50
RECENT_CHALLENGES = timedelta(days=2)  # My matches shows the answers to one's challenges this long


def challenges_waiting(user) -> dict:
    """For My matches: challenges received and waiting for the user's answer, and the user's recent own."""
    shown = (Challenge.objects.select_related("table", "challenger").prefetch_related("invites__invitee")
             .order_by("-created_at"))
    received = shown.filter(table__status=TableStatus.OPEN, expires_at__gt=timezone.now(),
                            invites__invitee=user, invites__status=ChallengeStatus.PENDING)
    made = shown.filter(challenger=user, created_at__gte=timezone.now() - RECENT_CHALLENGES)
    return {"received": [challenge_json(challenge, user) for challenge in received[:CHALLENGES_LISTED]],
            "made": [challenge_json(challenge, user) for challenge in made[:CHALLENGES_LISTED]]}


def challenge_json(challenge: Challenge, viewer) -> dict:
    table = challenge.table
    invites = sorted(challenge.invites.all(), key=lambda invite: invite.seat)
    yours = next((invite for invite in invites if invite.invitee_id == viewer.pk), None)
    return {
        "id": challenge.pk,
        "table_id": table.pk,
        "table_url": reverse("table", args=[table.pk]),
        "table_status": table.status,
        "rules": table.rules,
        "players": table.players,
        "options": table.options,
        "seconds_per_move": table.seconds_per_move,
        "rules_name": rules_name(table.rules),
        "time_words": duration_in_words(table.seconds_per_move),
        "players_words": ngettext("%(count)s player", "%(count)s players", table.players) % {"count": table.players},
        "challenger": {"username": challenge.challenger.username, "display_name": challenge.challenger.shown_name},
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "invites": [{"username": invite.invitee.username, "display_name": invite.invitee.shown_name,
                     "seat": invite.seat, "status": invite.status, "status_words": invite.get_status_display(),
                     "answered_at": invite.answered_at.isoformat() if invite.answered_at else None}
                    for invite in invites],
        "your_answer": yours.status if yours else None,
    }
