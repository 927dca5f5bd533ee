"""The JSON API: parse, call one action, answer. Routed and described by api/
(api.operations.tables, the OpenAPI document at /api/openapi.json); documented at /api/docs/.

Session requests carry Django's CSRF token; scripts send
`Authorization: Bearer <token>` (accounts.middleware handles both).
"""

from __future__ import annotations

from functools import wraps

from django.http import JsonResponse
from django.views.decorators.http import require_http_methods

from . import actions
from .actions.chat import say
from .analysis_reads import analysis_json
from .chat_reads import line_fields, line_json, room_for, room_history
from .errors import BadRequest, ServiceError
from .json_bodies import optional, read_json
from .presenters import seat_names, table_json, table_summary
from .reads import lobby_summaries, my_matches_json, tables_with_seats, visible_table
from .table_creation_rate import check_table_creation_rate, count_table_created
from .words.chat import phrases_in_words


def error(status: int, message: str, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def answers_service_errors(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ServiceError as refusal:
            return error(refusal.status, refusal.message, **refusal.extra)

    return wrapper


def login_required_json(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return error(401, "Log in, or send Authorization: Bearer <token>.")
        return view(request, *args, **kwargs)

    return wrapper


# The codes a refusal answers with when its action gave none (every answer of the newer endpoints has one).
CODES_BY_STATUS = {400: "bad_request", 401: "not_logged_in", 403: "not_allowed", 404: "no_such_table",
                   409: "conflict", 413: "body_too_large", 429: "too_many_requests"}


def answers_coded_errors(view):
    """As answers_service_errors and login_required_json together, every refusal with a "code"."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return error(401, "Log in, or send Authorization: Bearer <token>.", code="not_logged_in")
        try:
            return view(request, *args, **kwargs)
        except ServiceError as refusal:
            extra = {"code": CODES_BY_STATUS.get(refusal.status, "refused"), **refusal.extra}
            return error(refusal.status, refusal.message, **extra)

    return wrapper


# --- endpoints ------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
@answers_service_errors
def tables(request):
    if request.method == "GET":
        return JsonResponse({"tables": lobby_summaries(request.user)})
    return create_table(request)


@login_required_json
def create_table(request):
    body = read_json(request)
    check_table_creation_rate(request)
    bots = body.get("bots") or []
    if not isinstance(bots, list) or not all(isinstance(bot, dict) for bot in bots):
        raise BadRequest("\"bots\" must be a list of {\"seat\", \"level\", \"style\"} objects.")
    table = actions.create_table(
        request.user,
        rules=body.get("rules"),
        players=body.get("players"),
        options=body.get("options") or {},
        seconds_per_move=body.get("seconds_per_move", 86400),
        private=body.get("private", False) is True,
        bots=[actions.BotSpec(seat=bot.get("seat"), level=bot.get("level", "medium"),
                               style=bot.get("style", "balanced")) for bot in bots],
        rated=body.get("rated"),  # absent: rated when only people sit; a bot makes it casual
        min_reliability=body.get("min_reliability"),
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
    invite = optional(body, "invite", str) or request.GET.get("invite")
    seat = actions.join_table(table_id, request.user, invite_code=invite)
    data = table_json(tables_with_seats().get(pk=table_id), request.user)
    return JsonResponse({**data, "seat": seat.number})


@require_http_methods(["POST"])
@answers_coded_errors
def add_bot(request, table_id: int):
    body = read_json(request)
    seat = actions.add_bot(
        table_id, request.user, seat=optional(body, "seat", int),
        level=body.get("level", "medium"), style=body.get("style", "balanced"),
    )
    data = table_json(tables_with_seats().get(pk=table_id), request.user)
    return JsonResponse({**data, "seat": seat.number})


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def leave(request, table_id: int):
    actions.leave_table(table_id, request.user)
    return JsonResponse({"left": True, "table": table_id})


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def moves(request, table_id: int):
    body = read_json(request)
    if "move" not in body or "seq" not in body:
        raise BadRequest("Send {\"seq\": <moves seen>, \"move\": {...}}.")
    if isinstance(body["move"], dict) and body["move"].get("type") == "resign":  # the site's, not the engine's
        actions.resign(table_id, request.user)  # any seq: resigning is not a card move
        return JsonResponse(table_json(tables_with_seats().get(pk=table_id), request.user))
    match, game = actions.play_move(table_id, request.user, body["seq"], body["move"])
    return JsonResponse(table_json(match.table, request.user, game=game))  # its seats came with the move


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def rematch(request, table_id: int):
    table = actions.rematch(table_id, request.user)
    return JsonResponse(table_json(tables_with_seats().get(pk=table.pk), request.user), status=201)


@require_http_methods(["POST"])
@answers_service_errors
@login_required_json
def take_seat_back(request, table_id: int):
    actions.take_seat_back(table_id, request.user)
    return JsonResponse(table_json(tables_with_seats().get(pk=table_id), request.user))


@require_http_methods(["POST"])
@answers_coded_errors
def abort(request, table_id: int):
    """Abort alone while the match is young; later, ask everyone at the table."""
    done = actions.abort(table_id, request.user)
    return JsonResponse({**table_json(tables_with_seats().get(pk=table_id), request.user), "abort": done})


@require_http_methods(["POST"])
@answers_coded_errors
def answer_abort(request, table_id: int):
    body = read_json(request)
    if "accept" not in body:
        raise BadRequest("Send {\"accept\": true} or {\"accept\": false}.", code="bad_accept")
    done = actions.answer_abort(table_id, request.user, body["accept"])
    return JsonResponse({**table_json(tables_with_seats().get(pk=table_id), request.user), "abort": done})


@require_http_methods(["GET"])
@answers_service_errors
@login_required_json
def my_matches(request):
    return JsonResponse(my_matches_json(request.user))


@require_http_methods(["GET", "POST"])
@answers_service_errors
def chat(request, table_id: int):
    """GET: the room the caller reads, its last lines as they read them. POST: say a line, as on the socket."""
    if request.method == "POST":
        return say_line(request, table_id)
    table = visible_table(request, table_id)
    room = room_for(table, request.user)
    lines = room_history(table.pk, room, request.user) if room is not None else []
    return JsonResponse({"table": table.pk, "room": room, "lines": lines, "phrases": phrases_in_words()})


@login_required_json
def say_line(request, table_id: int):
    body = read_json(request)
    invite = request.GET.get("invite")
    text, phrase = optional(body, "text", str), optional(body, "phrase", str)
    line = say(request.user, table_id, text=text, phrase=phrase, invite=invite)
    return JsonResponse({"line": line_json(line_fields(line))}, status=201)


@require_http_methods(["GET"])
@answers_service_errors
def analysis(request, table_id: int):
    """The Master's analysis of a finished match: pending while it is computed, then ready."""
    table = visible_table(request, table_id)
    return JsonResponse(analysis_json(table, seat_names(table_summary(table, request.user)), request.user))
