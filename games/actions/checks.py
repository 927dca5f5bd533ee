"""The checks and locks the table and move actions share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import rules_for
from ..errors import BadRequest, NotAllowed, NotFound
from ..models import BotLevel, BotStyle, Seat, Table
from ..words.refusals import refusal_in_words

MIN_SECONDS_PER_MOVE = 30
MAX_SECONDS_PER_MOVE = 3 * 24 * 3600


@dataclass(frozen=True)
class BotSpec:
    seat: int
    level: str = BotLevel.MEDIUM
    style: str = BotStyle.BALANCED


def check_table_rules(rules: Any, players: Any, options: Any):
    try:
        engine_rules = rules_for(rules)
        players = engine_rules.check_players(players)
        options = engine_rules.validate_options(players, options or {})
    except ValueError as error:
        coded = {"code": error.code, "params": getattr(error, "params", None) or {}} if isinstance(getattr(error, "code", None), str) else {}
        raise BadRequest(refusal_in_words(error), **coded) from None
    return engine_rules, players, options


def check_seconds_per_move(seconds: Any) -> int:
    if type(seconds) is not int or not MIN_SECONDS_PER_MOVE <= seconds <= MAX_SECONDS_PER_MOVE:
        raise BadRequest(
            f"The time per move must be a whole number of seconds from {MIN_SECONDS_PER_MOVE} "
            f"(a live table) to {MAX_SECONDS_PER_MOVE} (three days)."
        )
    return seconds


def check_bots(bots, players: int) -> dict[int, BotSpec]:
    by_seat: dict[int, BotSpec] = {}
    for bot in bots:
        if type(bot.seat) is not int or not 1 <= bot.seat < players:
            raise BadRequest(f"A bot can sit at seats 1 to {players - 1}; seat 0 is yours.", code="bad_bot_seat")
        if bot.seat in by_seat:
            raise BadRequest(f"Seat {bot.seat} was given two bots.", code="two_bots_in_a_seat")
        if bot.level not in BotLevel.values:
            raise BadRequest(f"Unknown bot level {bot.level!r}; choose one of: {', '.join(BotLevel.values)}.")
        if bot.style not in BotStyle.values:
            raise BadRequest(f"Unknown bot style {bot.style!r}; choose one of: {', '.join(BotStyle.values)}.")
        by_seat[bot.seat] = bot
    return by_seat


def check_may_play(user) -> None:
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to play."))
    if not user.is_active:
        raise NotAllowed(_("This account cannot play."))
    if (refusal := getattr(user, "play_refusal", None)) is not None:  # a moderator's suspension or ban
        raise NotAllowed(str(refusal))


def locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("There is no such table.")) from None


def hidden_from(table: Table, user, seats: list[Seat] | None = None) -> bool:
    """A private table does not exist for whoever has no seat there, taken or kept:
    they get the very answer a missing table gets, so an id tells them nothing."""
    if not table.private:
        return False
    seats = seats if seats is not None else list(table.seats.all())
    return not any(user.pk in (seat.user_id, seat.reserved_for_id) for seat in seats)



def deadline_after(table: Table, game):
    """When the next turn's time runs out, from now; None once the match is over."""
    if game.finished:
        return None
    return timezone.now() + timedelta(seconds=table.seconds_per_move)
