"""Tables, moves, chat and My matches: games/api.py's views."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import api as views

from ..schemas.analysis import Analysis
from ..schemas.chat import ChatHistory, LineSaid, LineToSay
from ..schemas.people import MyMatches
from ..schemas.tables import (
    AbortAnswer,
    BotToSeat,
    Invite,
    Left,
    MoveToPlay,
    NewTable,
    Table,
    TableAbortAnswered,
    TableAborted,
    Tables,
    TableWithSeat,
)
from ..site import INVITE, OPTIONAL, SIGNED_IN, SiteRouter

router = SiteRouter()
TABLES, PLAYING, CHAT = ["Tables"], ["Playing"], ["Chat"]
# The engine's refusals of a rule set, player count and options that fit the document, and the bots' seats.
TABLE_RULE_CODES = ["player-count", "unknown-option", "option-not-boolean", "target-not-allowed", "teams-player-count",
                    "eights-cut-player-count", "unknown-match-format", "bad-options", "bad_bot_seat",
                    "two_bots_in_a_seat"]
# The engine's refusals of a move that fits the document (params name the cards and seats).
MOVE_RULE_CODES = ["illegal-move", "unknown-move-type", "unexpected-key", "missing-card", "card-not-held",
                   "does-not-follow", "does-not-cut", "end-not-allowed", "cannot-continue", "take-before-trick-over",
                   "take-before-leader-decides", "trick-must-be-taken", "take-mid-round", "leader-cannot-pass",
                   "pass-while-playable", "pass-while-stock", "nothing-to-draw", "seven-needs-suit",
                   "only-seven-names-suit", "cannot-answer-draw", "cannot-answer-skip", "seven-cannot-answer-draw",
                   "seven-cannot-answer-skip", "skip-cannot-draw", "cannot-pass-draw"]


@router.operation("GET", "/tables", name="api_tables", summary=_("The open public tables, newest first"),
                  access=OPTIONAL, tags=TABLES, ok={200: Tables})
def list_tables(request):
    return views.tables(request)


@router.operation("POST", "/tables", name="api_tables", summary=_("Create a table; you sit at seat 0"),
                  access=SIGNED_IN, tags=TABLES, ok={201: Table}, refusals=[400, 403, 409, 429],
                  rule_codes=TABLE_RULE_CODES, body=NewTable)
def create_table(request):
    return views.tables(request)


@router.operation("GET", "/tables/{int:table_id}", name="api_table", summary=_("One table, with what your seat may see"),
                  access=OPTIONAL, tags=TABLES, ok={200: Table}, refusals=[404], query=[INVITE])
def get_table(request, table_id: int):
    return views.table_detail(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/join", name="api_join", summary=_("Take the first free seat"),
                  access=SIGNED_IN, tags=TABLES, ok={200: TableWithSeat}, refusals=[400, 403, 404, 409], body=Invite,
                  query=[INVITE])
def join_table(request, table_id: int):
    return views.join(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/leave", name="api_leave",
                  summary=_("Give up your seat before the match starts"), access=SIGNED_IN, tags=TABLES,
                  ok={200: Left}, refusals=[403, 404, 409])
def leave_table(request, table_id: int):
    return views.leave(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/bot", name="api_add_bot",
                  summary=_("Seat a bot at the table you made"), access=SIGNED_IN, tags=TABLES,
                  ok={200: TableWithSeat}, refusals=[400, 403, 404, 409], rule_codes=["bad_seat"], body=BotToSeat)
def add_bot(request, table_id: int):
    return views.add_bot(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/moves", name="api_moves", summary=_("Play a move, or resign"),
                  access=SIGNED_IN, tags=PLAYING, ok={200: Table}, refusals=[400, 403, 404, 409],
                  rule_codes=MOVE_RULE_CODES, body=MoveToPlay,
                  description="A 409 for a seq behind the table's carries the current seq; a 409 for a match over "
                              "or not started carries a code instead.")
def play_move(request, table_id: int):
    return views.moves(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/rematch", name="api_rematch",
                  summary=_("Ask for a rematch of a finished match"), access=SIGNED_IN, tags=PLAYING,
                  ok={201: Table}, refusals=[403, 404, 409])
def rematch(request, table_id: int):
    return views.rematch(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/back", name="api_take_seat_back",
                  summary=_("Take your seat back from the bot standing in"), access=SIGNED_IN, tags=PLAYING,
                  ok={200: Table}, refusals=[403, 404, 409])
def take_seat_back(request, table_id: int):
    return views.take_seat_back(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/abort", name="api_abort",
                  summary=_("Abort the match, or ask the others to"), access=SIGNED_IN, tags=PLAYING,
                  ok={200: TableAborted}, refusals=[403, 404, 409])
def abort_match(request, table_id: int):
    return views.abort(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/abort/answer", name="api_answer_abort",
                  summary=_("Answer a request to abort"), access=SIGNED_IN, tags=PLAYING,
                  ok={200: TableAbortAnswered}, refusals=[400, 403, 404, 409], body=AbortAnswer)
def answer_abort(request, table_id: int):
    return views.answer_abort(request, table_id)


@router.operation("GET", "/tables/{int:table_id}/analysis", name="api_analysis",
                  summary=_("The Master's analysis of a finished match"), access=OPTIONAL, tags=PLAYING,
                  ok={200: Analysis}, refusals=[404, 409], query=[INVITE],
                  description="409 with code match_not_over before the match ends (match_aborted for an aborted "
                              "one). The first read of a finished match that has none begins it.")
def read_analysis(request, table_id: int):
    return views.analysis(request, table_id)


@router.operation("GET", "/tables/{int:table_id}/chat", name="api_chat",
                  summary=_("The chat you read at a table, its last lines"), access=OPTIONAL, tags=CHAT,
                  ok={200: ChatHistory}, refusals=[404], query=[INVITE])
def read_chat(request, table_id: int):
    return views.chat(request, table_id)


@router.operation("POST", "/tables/{int:table_id}/chat", name="api_chat", summary=_("Say a line in the chat"),
                  access=SIGNED_IN, tags=CHAT, ok={201: LineSaid}, refusals=[400, 403, 404, 429],
                  rule_codes=["empty_line"], body=LineToSay, query=[INVITE])
def say_line(request, table_id: int):
    return views.chat(request, table_id)


@router.operation("GET", "/me/matches", name="api_my_matches",
                  summary=_("Your tables, rematch invitations and challenges"), access=SIGNED_IN, tags=TABLES,
                  ok={200: MyMatches})
def my_matches(request):
    return views.my_matches(request)
