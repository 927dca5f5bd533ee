"""Moves: a person's, a bot's, and a bot standing in when a person's time runs out.

A bot thinks outside any transaction: `bot_turn_for` reads what it may see,
the bot decides, and `play_bot_turn` applies the move only if the turn is
still the one it thought about (a compare-and-set on seq under the lock).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import sql
from ..engine import IllegalMove, rules_for
from ..errors import BadRequest, Conflict, NotAllowed, NotFound
from ..leaving_rules import finished_with_resignations
from ..leaving_view import note_open_request
from ..models import Actor, BotLevel, BotStyle, Match, Move, Seat, Table, TableStatus
from ..presenters import seats_json
from ..reads import cache_seats
from ..words.refusals import refusal_in_words
from . import on_commit
from .checks import check_may_play, deadline_after, hidden_from
from .finish import record_finished

DEADLINE_TOLERANCE = timedelta(seconds=1)  # a countdown may fire a hair early


def play_move(match_id: int, user, seq: Any, move: Any) -> tuple[Match, Any]:
    """A person's move: checked, applied by the engine, logged, then announced."""
    check_may_play(user)
    with transaction.atomic():
        # All the seats at once: the on-commit work (pushes, scheduling) and the
        # caller's answer (`match.table.seats.all()`) need them too.
        match, seats = _locked_match_with_seats(match_id)
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            if hidden_from(match.table, user, seats):
                raise NotFound(_("There is no such match."))  # what a missing one answers
            raise NotAllowed(_("You have no seat at this table."))
        check_may_play(mine.user)  # as stored now: a socket's user was read when it connected, maybe before a suspension
        if mine.resigned:
            raise NotAllowed(_("You resigned this match: a bot plays your seat to the end."), code="resigned")
        played = _apply(match, mine.number, seq, move, actor=Actor.PERSON, user=user, seats=seats)
        if mine.standing_in:  # acting again takes the seat back from the bot
            Seat.objects.filter(table_id=match.pk, number=mine.number).update(standing_in=False)
            mine.standing_in = False
            on_commit.table_changed(match.pk)  # a seat changed: the sockets read the seats again
        cache_seats(match.table, seats)
        return played


def play_for_seat(match_id: int, seat: int, seq: int, move: dict, actor: str) -> tuple[Match, Any]:
    """A move made for a seat by the server itself (a bot, or a bot standing in)."""
    with transaction.atomic():
        match, seats = _locked_match_with_seats(match_id)
        played = _apply(match, seat, seq, move, actor=actor, user=None, seats=seats)
        cache_seats(match.table, seats)
        return played


def _locked_match(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().select_related("table").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("There is no such match.")) from None


def _locked_match_with_seats(match_id: Any) -> tuple[Match, list[Seat]]:
    """The match locked, with its table and seats (and their people): the move path's one read."""
    try:
        match_id = int(match_id)
    except (TypeError, ValueError):
        raise NotFound(_("There is no such match.")) from None
    found = sql.locked_match_with_seats(match_id) if 0 < match_id < 2**63 else None
    if found is None:
        raise NotFound(_("There is no such match."))
    note_open_request(found[0].table, found[0].open_abort_request_id)
    return found


def _apply(
    match: Match, seat: int, seq: Any, move: Any, *, actor: str, user, seats: list[Seat] | None = None
) -> tuple[Match, Any]:
    table = match.table
    if table.status != TableStatus.PLAYING:
        raise Conflict(_("This match is over."), seq=match.seq)
    if type(seq) is not int:
        raise BadRequest(_("\"seq\" must be the whole number of moves you have seen."))
    if seq != match.seq:
        raise Conflict(_("The table has moved on since you looked: here is where it stands."), seq=match.seq)
    if match.to_move != seat:
        raise NotAllowed(_("It is not your turn."))
    game = rules_for(table.rules).from_state(match.state)
    try:
        new_game = game.play(move)
    except IllegalMove as error:
        names = {shown["seat"]: shown["name"] for shown in seats_json(list(seats or ()), None)}
        raise BadRequest(refusal_in_words(error, names, reader=seat), code=error.code, params=error.params) from None
    _store(match, table, new_game, Move(match=match, seq=seq, seat=seat, move=move, actor=actor, user=user), seats)
    on_commit.match_changed(match, table, seats)
    return match, new_game


def _store(match: Match, table: Table, game, move: Move, seats: list[Seat] | None = None) -> None:
    """Log the move and save the new snapshot, guarded by a compare-and-set on seq;
    the last move also stores the match's outcomes and ratings, in the same transaction."""
    old_seq = match.seq
    match.state, match.seq, match.to_move = game.to_state(), old_seq + 1, game.to_move
    match.deadline = deadline_after(table, game)
    if game.finished:
        resigned = [seat.number for seat in seats or () if seat.resigned]  # a free-for-all a bot played out for them
        match.result, match.finished_at = finished_with_resignations(table.rules, game.result, resigned), timezone.now()
        Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
        table.status = TableStatus.FINISHED
    if not sql.log_move_and_store(match, old_seq, move, finished=game.finished):
        raise Conflict(_("The table has moved on since you looked."), seq=old_seq + 1)
    if game.finished:
        record_finished(match, table, seats if seats is not None else list(table.seats.all()))



@dataclass(frozen=True)
class BotTurn:
    seat: int
    view: dict  # the seat's view, and nothing else: all a bot may know
    level: str
    style: str
    actor: str  # Actor.BOT for a bot's own seat, Actor.TIMEOUT when standing in


def bot_turn_for(match_id: int, seq: int) -> BotTurn | None:
    """What a bot needs to play the turn at `seq`, or None when no bot should play it."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or match.seq != seq or match.table.status != TableStatus.PLAYING or match.to_move is None:
        return None
    seat = Seat.objects.filter(table_id=match_id, number=match.to_move).first()
    if seat is None or not (seat.is_bot or seat.standing_in):
        return None
    view = match.game().view(seat.number)
    if seat.resigned:  # not a timeout: they left fairly, and the bot plays the seat to the end
        return BotTurn(seat.number, view, BotLevel.MEDIUM, BotStyle.BALANCED, Actor.BOT)
    if seat.is_bot:
        return BotTurn(seat.number, view, seat.bot_level, seat.bot_style, Actor.BOT)
    return BotTurn(seat.number, view, BotLevel.MEDIUM, BotStyle.BALANCED, Actor.TIMEOUT)


def play_bot_turn(match_id: int, seq: int, seat: int, move: dict, actor: str) -> bool:
    """Apply a bot's move; False (and nothing changed) when the turn has passed."""
    with transaction.atomic():
        found = sql.locked_match_with_seats(match_id)
        if found is None:
            return False
        match, seats = found
        if match.seq != seq or match.table.status != TableStatus.PLAYING or match.to_move != seat:
            return False
        player = next((row for row in seats if row.number == seat), None)
        if player is None:
            raise Seat.DoesNotExist(f"seat {seat} of table {match_id}")
        bots_seat = player.is_bot or player.resigned
        still_bots_turn = bots_seat if actor == Actor.BOT else player.standing_in and not player.is_bot
        if not still_bots_turn:
            return False  # the person took their seat back while the bot thought
        _apply(match, seat, seq, move, actor=actor, user=None, seats=seats)
    return True


def time_out_turn(match_id: int, seq: int) -> bool:
    """The person to move at `seq` is out of time: a bot stands in for them from now on.

    True when this call put the bot in (the caller then plays the turn)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        if match is None or match.seq != seq or match.table.status != TableStatus.PLAYING or match.to_move is None:
            return False
        if match.deadline is None or match.deadline > timezone.now() + DEADLINE_TOLERANCE:
            return False
        seat = Seat.objects.select_for_update().filter(table_id=match_id, number=match.to_move).first()
        if seat is None or seat.is_bot or seat.standing_in or seat.user_id is None:
            return False
        seat.standing_in = True
        seat.save(update_fields=["standing_in"])
        on_commit.table_changed(match.pk)
    return True


def take_seat_back(table_id: int, user) -> Seat:
    """The person plays their own seat again; the bot standing in stops at once."""
    check_may_play(user)
    with transaction.atomic():
        try:
            match = _locked_match(table_id)
        except NotFound:
            raise NotFound(_("There is no such table.")) from None
        seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
        if seat is None:
            if match.table.private:
                raise NotFound(_("There is no such table."))
            raise NotAllowed(_("You have no seat at this table."))
        if seat.resigned:
            raise Conflict(_("You resigned this match: a bot plays your seat to the end, and it cannot be taken back."),
                           code="resigned")
        if seat.standing_in:
            _end_standing_in(match, seat)
    return seat


def _end_standing_in(match: Match, seat: Seat) -> None:
    seat.standing_in = False
    seat.save(update_fields=["standing_in"])
    if match.table.status == TableStatus.PLAYING and match.to_move == seat.number:
        # Back on their turn: a fresh clock, and its countdown.
        match.deadline = timezone.now() + timedelta(seconds=match.table.seconds_per_move)
        match.save(update_fields=["deadline"])
        on_commit.turn_changed(match.pk, match.seq)
    on_commit.table_changed(match.pk)


