"""The only write path for tables, matches and moderation.

Every action runs its checks, then one transaction that locks the rows it
changes and writes them; whatever leaves the database (live updates, bot and
deadline tasks, e-mail) is handed to games/after_commit through on_commit.py,
so nobody hears of a write that was not stored. Views, the API, the sockets,
the tasks and the admin parse input, call one action, and render the answer.
"""

from ..errors import BadRequest, Conflict, NotAllowed, NotFound, ServiceError, TooManyRequests
from .checks import MAX_SECONDS_PER_MOVE, MIN_SECONDS_PER_MOVE, BotSpec, check_may_play
from .leaving import abort, answer_abort, expire_abort_request, resign
from .moves import BotTurn, bot_turn_for, play_bot_turn, play_for_seat, play_move, take_seat_back, time_out_turn
from .tables import add_bot, create_bot_table, create_table, join_table, leave_table, rematch

__all__ = [
    "MAX_SECONDS_PER_MOVE", "MIN_SECONDS_PER_MOVE", "BadRequest", "BotSpec", "BotTurn", "Conflict", "NotAllowed",
    "NotFound", "ServiceError", "TooManyRequests", "add_bot", "bot_turn_for", "check_may_play", "create_bot_table",
    "create_table", "join_table", "leave_table", "play_bot_turn", "play_for_seat", "play_move", "rematch",
    "take_seat_back", "time_out_turn",
    "abort", "answer_abort", "expire_abort_request", "resign",
]
