"""The JSON API: parse, call one service, answer. Documented at /api/docs/.

Session requests carry Django's CSRF token; scripts send
`Authorization: Bearer <token>` (accounts.middleware handles both).
"""

from __future__ import annotations

import logging
from functools import wraps

from django.conf import settings
from django.db.models import Prefetch
from django.http import JsonResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

from . import json_bodies, services
from .models import Seat, Table, TableStatus
from .presenters import my_table_order, table_json, table_summary

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 16 * 1024


def error(status: int, message: str, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def answers_service_errors(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except services.ServiceError as refusal:
            return error(refusal.status, refusal.message, **refusal.extra)

    return wrapper


def login_required_json(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return error(401, "Log in, or send Authorization: Bearer <token>.")
        return view(request, *args, **kwargs)

    return wrapper


class BodyTooLarge(services.ServiceError):
    status = 413


def read_json(request) -> dict:
    if len(request.body) > MAX_BODY_BYTES:
        raise BodyTooLarge(f"The request body is larger than {MAX_BODY_BYTES} bytes.")
    try:
        body = json_bodies.parse(request.body or b"{}")
    except json_bodies.TooDeep as refusal:
        raise services.BadRequest(f"The request body is {refusal}: a move needs three levels.") from None
    except ValueError:  # UnicodeDecodeError is one too
        raise services.BadRequest("The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise services.BadRequest("The request body must be a JSON object.")
    return body


def tables_with_seats():
    return Table.objects.select_related("match", "created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def visible_table(request, table_id: int) -> Table:
    """The table if the caller may see it: public, or seated, or holding the invite."""
    table = tables_with_seats().filter(pk=table_id).first()
    if table is None:
        raise services.NotFound("There is no such table.")
    if table.private:
        seated = request.user.is_authenticated and any(seat.user_id == request.user.pk for seat in table.seats.all())
        if not seated and request.GET.get("invite") != table.invite_code:
            raise services.NotFound("There is no such table.")
    return table


# --- endpoints ------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
@answers_service_errors
def tables(request):
    if request.method == "GET":
        return JsonResponse({"tables": lobby_summaries(request.user)})
    return create_table(request)


def lobby_summaries(user) -> list[dict]:
    """The open tables the lobby lists, as `user` sees them (/ws/lobby/ shares them: consumers/shared_lists.py)."""
    return [table_summary(table, user) for table in lobby_tables()]


def lobby_tables():
    """The tables the lobby lists, newest first, with their seats and people."""
    return tables_with_seats().listed_in_lobby().order_by("-created_at")[:200]


def _table_creation_usage(request, *, increment: bool) -> dict | None:
    # One budget per account for the create page and the API. The count lives
    # in the cache; when it cannot be reached the request goes on (the open
    # tables limit, kept in the database, still holds).
    try:
        return get_usage(request, group="games.create_table", key="user", method="POST",
                         rate=settings.TABLE_CREATION_RATE, increment=increment)
    except RedisError:
        logger.warning("the table creation rate could not be read", exc_info=True)
        return None


def check_table_creation_rate(request) -> None:
    """TooManyRequests when the account made its TABLE_CREATION_RATE of tables already."""
    usage = _table_creation_usage(request, increment=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        raise services.TooManyRequests(
            _("You have made too many tables in a short time. Wait a little and try again."))


def count_table_created(request) -> None:
    _table_creation_usage(request, increment=True)


@login_required_json
def create_table(request):
    body = read_json(request)
    check_table_creation_rate(request)
    bots = body.get("bots") or []
    if not isinstance(bots, list) or not all(isinstance(bot, dict) for bot in bots):
        raise services.BadRequest("\"bots\" must be a list of {\"seat\", \"level\", \"style\"} objects.")
    table = services.create_table(
        request.user,
        rules=body.get("rules"),
        players=body.get("players"),
        options=body.get("options") or {},
        seconds_per_move=body.get("seconds_per_move", 86400),
        private=body.get("private", False) is True,
        bots=[services.BotSpec(seat=bot.get("seat"), level=bot.get("level", "medium"),
                               style=bot.get("style", "balanced")) for bot in bots],
    )
    count_table_created(request)
    return JsonResponse(table_json(tables_with_seats().get(pk=table.pk), request.user), status=201)


@require_http_methods(["GET"])
@answers_service_errors
def table_detail(request, table_id: int):
    return JsonResponse(table_json(visible_table(request, table_id), request.user))


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def join(request, table_id: int):
    body = read_json(request)
    invite = body.get("invite") or request.GET.get("invite")
    seat = services.join_table(table_id, request.user, invite_code=invite if isinstance(invite, str) else None)
    data = table_json(tables_with_seats().get(pk=table_id), request.user)
    return JsonResponse({**data, "seat": seat.number})


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def leave(request, table_id: int):
    services.leave_table(table_id, request.user)
    return JsonResponse({"left": True, "table": table_id})


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def moves(request, table_id: int):
    body = read_json(request)
    if "move" not in body or "seq" not in body:
        raise services.BadRequest("Send {\"seq\": <moves seen>, \"move\": {...}}.")
    match, game = services.play_move(table_id, request.user, body["seq"], body["move"])
    return JsonResponse(table_json(match.table, request.user, game=game))  # its seats came with the move


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def rematch(request, table_id: int):
    table = services.rematch(table_id, request.user)
    return JsonResponse(table_json(tables_with_seats().get(pk=table.pk), request.user), status=201)


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def take_seat_back(request, table_id: int):
    services.take_seat_back(table_id, request.user)
    return JsonResponse(table_json(tables_with_seats().get(pk=table_id), request.user))


@require_http_methods(["GET"])
@answers_service_errors
@login_required_json
def my_matches(request):
    return JsonResponse(my_matches_json(request.user))


def my_matches_json(user) -> dict:
    """The user's tables (their move first) and rematch invitations (also sent on /ws/me/)."""
    mine = tables_with_seats().filter(seats__user=user).distinct()
    summaries = sorted((table_summary(table, user) for table in mine), key=my_table_order)
    invitations = [table_summary(table, user) for table in rematch_invitations(user)]
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


urlpatterns = [
    path("tables", tables, name="api_tables"),
    path("tables/<int:table_id>", table_detail, name="api_table"),
    path("tables/<int:table_id>/join", join, name="api_join"),
    path("tables/<int:table_id>/leave", leave, name="api_leave"),
    path("tables/<int:table_id>/moves", moves, name="api_moves"),
    path("tables/<int:table_id>/rematch", rematch, name="api_rematch"),
    path("tables/<int:table_id>/back", take_seat_back, name="api_take_seat_back"),
    path("me/matches", my_matches, name="api_my_matches"),
]
