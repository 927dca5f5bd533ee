"""The only write path for tables and matches.

Every function here runs in one transaction and locks the rows it changes;
whatever leaves the database (live updates, bot and deadline tasks) is sent
with `transaction.on_commit`, so nobody hears of a move that was not stored.
Views and API endpoints parse input, call one of these, and render the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import move_rows, notify
from .engine import IllegalMove, rules_for
from .models import Actor, BotLevel, BotStyle, Match, Move, Seat, Table, TableStatus
from .refusals import refusal_in_words

MIN_SECONDS_PER_MOVE = 30
MAX_SECONDS_PER_MOVE = 3 * 24 * 3600


class ServiceError(Exception):
    """A request the rules of the site refuse; `status` is the HTTP answer."""

    status = 400

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class BadRequest(ServiceError):
    status = 400


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class TooManyRequests(ServiceError):
    status = 429


@dataclass(frozen=True)
class BotSpec:
    seat: int
    level: str = BotLevel.MEDIUM
    style: str = BotStyle.BALANCED


# --- tables -------------------------------------------------------------------
def create_table(
    user,
    *,
    rules: str,
    players: int,
    options: dict | None = None,
    seconds_per_move: int = 86400,
    private: bool = False,
    bots: list[BotSpec] = (),
) -> Table:
    """Create a table with the creator at seat 0 and bots where asked."""
    check_may_play(user)
    engine_rules, players, options = check_table_rules(rules, players, options)
    seconds_per_move = check_seconds_per_move(seconds_per_move)
    bots_by_seat = check_bots(bots, players)
    with transaction.atomic():
        _check_open_tables(user, waits_in_lobby=not private and len(bots_by_seat) < players - 1)
        table = _new_table(
            rules=engine_rules.slug, players=players, options=options,
            seconds_per_move=seconds_per_move, private=bool(private), created_by=user,
        )
        now = timezone.now()
        Seat.objects.bulk_create(
            [_new_seat(table, number, user if number == 0 else None, bots_by_seat.get(number), now)
             for number in range(players)]
        )
        _start_if_full(table)
        notify.table_changed_on_commit(table.pk)
        notify.lobby_changed_on_commit()
    return table


def _tables_made_by(user):
    """The unfinished tables `user` made, counted under a lock on the user's row, so
    that two requests at once cannot both take the last place."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
    return Table.objects.filter(created_by=user, status__in=(TableStatus.OPEN, TableStatus.PLAYING))


def _check_open_tables(user, *, waits_in_lobby: bool) -> None:
    counts = _tables_made_by(user).filter(hidden=False).aggregate(
        unfinished=Count("pk"),
        waiting=Count("pk", filter=Q(status=TableStatus.OPEN, private=False, closed=False)),
    )
    if counts["unfinished"] >= settings.OPEN_TABLES_PER_PERSON:
        raise Conflict(ngettext(
            "You already have %(count)d table that is not finished, the most one person may have. "
            "Finish it, or leave it if it has not started, first.",
            "You already have %(count)d tables that are not finished, the most one person may have. "
            "Finish one, or leave one that has not started, first.",
            counts["unfinished"]) % {"count": counts["unfinished"]})
    if waits_in_lobby and counts["waiting"] >= settings.WAITING_TABLES_PER_PERSON:
        raise Conflict(ngettext(
            "You already have %(count)d public table waiting for players, the most one person may have. "
            "Wait for it to start, or leave it, first.",
            "You already have %(count)d public tables waiting for players, the most one person may have. "
            "Wait for one to start, or leave one, first.",
            counts["waiting"]) % {"count": counts["waiting"]})


def _new_table(**fields) -> Table:
    """A table and its match, whose seed is drawn (and its hash published) now."""
    table = Table.objects.create(**fields)
    seed = Match.new_seed()
    Match.objects.create(table=table, seed=str(seed), seed_sha256=Match.hash_seed(seed))
    return table


def _new_seat(table: Table, number: int, user, bot: BotSpec | None, now) -> Seat:
    if bot is not None:
        return Seat(table=table, number=number, bot_level=bot.level, bot_style=bot.style, joined_at=now)
    return Seat(table=table, number=number, user=user, joined_at=now if user else None)


def check_table_rules(rules: Any, players: Any, options: Any):
    try:
        engine_rules = rules_for(rules)
        players = engine_rules.check_players(players)
        options = engine_rules.validate_options(players, options or {})
    except ValueError as error:
        raise BadRequest(refusal_in_words(str(error))) from None
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
            raise BadRequest(f"A bot can sit at seats 1 to {players - 1}; seat 0 is yours.")
        if bot.seat in by_seat:
            raise BadRequest(f"Seat {bot.seat} was given two bots.")
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


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("There is no such table.")) from None


def join_table(table_id: int, user, invite_code: str | None = None) -> Seat:
    """Seat the user at the first free seat; the match starts when the last fills."""
    check_may_play(user)
    with transaction.atomic():
        table = _locked_table(table_id)
        seats = list(table.seats.select_for_update().order_by("number"))
        invited = invite_code == table.invite_code or any(seat.reserved_for_id == user.pk for seat in seats)
        if table.private and not invited:
            raise NotFound(_("There is no such table."))  # a private table does not exist to outsiders
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is not None:
            return mine
        if table.status != TableStatus.OPEN:
            raise Conflict(_("This table has already started."))
        if table.closed:
            raise NotAllowed(_("This table is closed to new players."))
        free = next((seat for seat in seats if seat.is_free and seat.reserved_for_id == user.pk), None)
        free = free or next((seat for seat in seats if seat.is_free_for(user)), None)
        if free is None:
            raise Conflict(_("This table is full."))
        free.user, free.joined_at = user, timezone.now()
        try:
            free.save(update_fields=["user", "joined_at"])
        except IntegrityError:
            raise Conflict(_("You already sit at this table.")) from None
        _start_if_full(table, seats)
        notify.table_changed_on_commit(table.pk)
        notify.lobby_changed_on_commit()
    return free


def _hidden_from(table: Table, user, seats: list[Seat] | None = None) -> bool:
    """A private table does not exist for whoever has no seat there, taken or kept:
    they get the very answer a missing table gets, so an id tells them nothing."""
    if not table.private:
        return False
    seats = seats if seats is not None else list(table.seats.all())
    return not any(user.pk in (seat.user_id, seat.reserved_for_id) for seat in seats)


def leave_table(table_id: int, user) -> None:
    """Give up a seat before the match starts; the creator leaving closes the table."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = table.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            if _hidden_from(table, user):
                raise NotFound(_("There is no such table."))
            raise NotAllowed(_("You have no seat at this table."))
        if table.status != TableStatus.OPEN:
            raise Conflict(_("The match has started: you can no longer leave this table."))
        if table.created_by_id == user.pk:
            table.status = TableStatus.ABORTED
            table.save(update_fields=["status"])
        else:
            seat.user, seat.joined_at = None, None
            seat.save(update_fields=["user", "joined_at"])
        notify.table_changed_on_commit(table.pk)
        notify.lobby_changed_on_commit()


def rematch(table_id: int, user) -> Table:
    """A new table like a finished one: same rules, options and clock, bots in
    their seats, and each person's seat kept for them (the asker sits at once).
    Asking twice gives the same rematch."""
    check_may_play(user)
    with transaction.atomic():
        old = _locked_table(table_id)
        old_seats = list(old.seats.order_by("number"))
        if not any(seat.user_id == user.pk for seat in old_seats):
            if _hidden_from(old, user, old_seats):
                raise NotFound(_("There is no such table."))
            raise NotAllowed(_("Only the players of this match can ask for a rematch."))
        if old.status != TableStatus.FINISHED:
            raise Conflict(_("A rematch can only follow a finished match."))
        existing = old.rematches.filter(status__in=[TableStatus.OPEN, TableStatus.PLAYING]).first()
        if existing is not None:
            join_table(existing.pk, user, invite_code=existing.invite_code)
            return existing
        # Its seats are kept for the old players, so it does not wait for strangers in the lobby.
        _check_open_tables(user, waits_in_lobby=False)
        table = _new_table(
            rules=old.rules, players=old.players, options=old.options, seconds_per_move=old.seconds_per_move,
            private=old.private, created_by=user, rematch_of=old,
        )
        now = timezone.now()
        Seat.objects.bulk_create([_rematch_seat(table, seat, user, now) for seat in old_seats])
        _start_if_full(table)
        notify.table_changed_on_commit(old.pk)
        notify.lobby_changed_on_commit()
    return table


def _rematch_seat(table: Table, old: Seat, user, now) -> Seat:
    if old.bot_level:
        return Seat(table=table, number=old.number, bot_level=old.bot_level, bot_style=old.bot_style, joined_at=now)
    if old.user_id == user.pk:
        return Seat(table=table, number=old.number, user=user, joined_at=now)
    return Seat(table=table, number=old.number, reserved_for_id=old.user_id)


def _start_if_full(table: Table, seats: list[Seat] | None = None) -> Match | None:
    seats = seats if seats is not None else list(table.seats.all())
    if any(seat.is_free for seat in seats):
        return None
    match = Match.objects.select_for_update().get(pk=table.pk)
    game = rules_for(table.rules).new_game(players=table.players, options=table.options, seed=int(match.seed))
    match.state, match.to_move, match.deadline = game.to_state(), game.to_move, _deadline(table, game)
    match.started_at = timezone.now()
    match.save(update_fields=["state", "to_move", "deadline", "started_at"])
    table.status = TableStatus.PLAYING
    table.save(update_fields=["status"])
    notify.match_changed_on_commit(match.pk, match.seq, match.to_move, match.deadline)
    return match


def _deadline(table: Table, game):
    if game.finished:
        return None
    return timezone.now() + timedelta(seconds=table.seconds_per_move)


# --- moves --------------------------------------------------------------------
def play_move(match_id: int, user, seq: Any, move: Any) -> tuple[Match, Any]:
    """A person's move: checked, applied by the engine, logged, then announced."""
    check_may_play(user)
    with transaction.atomic():
        # All the seats at once: the on-commit work (pushes, scheduling) and the
        # caller's answer (`match.table.seats.all()`) need them too.
        match, seats = _locked_match_with_seats(match_id)
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            if _hidden_from(match.table, user, seats):
                raise NotFound(_("There is no such match."))  # what a missing one answers
            raise NotAllowed(_("You have no seat at this table."))
        check_may_play(mine.user)  # as stored now: a socket's user was read when it connected, maybe before a suspension
        played = _apply(match, mine.number, seq, move, actor=Actor.PERSON, user=user, seats=seats)
        if mine.standing_in:  # acting again takes the seat back from the bot
            Seat.objects.filter(table_id=match.pk, number=mine.number).update(standing_in=False)
            mine.standing_in = False
            notify.table_changed_on_commit(match.pk)  # a seat changed: the sockets read the seats again
        _cache_seats(match.table, seats)
        return played


def _cache_seats(table: Table, seats: list[Seat]) -> None:
    """Make `table.seats.all()` (and `table.created_by`, when seated) answer from rows already read."""
    cached = table.seats.all()
    cached._result_cache, cached._prefetch_done = seats, True
    table._prefetched_objects_cache = {**getattr(table, "_prefetched_objects_cache", {}), "seats": cached}
    creator = next((seat.user for seat in seats if seat.user_id is not None and seat.user_id == table.created_by_id),
                   None)
    if creator is not None:
        table.created_by = creator


def play_for_seat(match_id: int, seat: int, seq: int, move: dict, actor: str) -> tuple[Match, Any]:
    """A move made for a seat by the server itself (a bot, or a bot standing in)."""
    with transaction.atomic():
        match, seats = _locked_match_with_seats(match_id)
        played = _apply(match, seat, seq, move, actor=actor, user=None, seats=seats)
        _cache_seats(match.table, seats)
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
    found = move_rows.locked_match_with_seats(match_id) if 0 < match_id < 2**63 else None
    if found is None:
        raise NotFound(_("There is no such match."))
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
        raise BadRequest(refusal_in_words(str(error))) from None
    _store(match, table, new_game, Move(match=match, seq=seq, seat=seat, move=move, actor=actor, user=user))
    notify.match_changed_on_commit(
        match.pk, match.seq, match.to_move, match.deadline, seats=seats, seconds_per_move=table.seconds_per_move
    )
    return match, new_game


def _store(match: Match, table: Table, game, move: Move) -> None:
    """Log the move and save the new snapshot, guarded by a compare-and-set on seq."""
    old_seq = match.seq
    match.state, match.seq, match.to_move = game.to_state(), old_seq + 1, game.to_move
    match.deadline = _deadline(table, game)
    if game.finished:
        match.result, match.finished_at = game.result, timezone.now()
        Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
        table.status = TableStatus.FINISHED
    if not move_rows.log_move_and_store(match, old_seq, move, finished=game.finished):
        raise Conflict(_("The table has moved on since you looked."), seq=old_seq + 1)


# --- reading --------------------------------------------------------------------
def seat_of(table: Table, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return table.seats.filter(user=user).values_list("number", flat=True).first()


def game_of(match: Match):
    return rules_for(match.table.rules).from_state(match.state)


# --- bots and turn deadlines ------------------------------------------------------
# A bot thinks outside any transaction: `bot_turn_for` reads what it may see,
# the bot decides, and `play_bot_turn` applies the move only if the turn is
# still the one it thought about (a compare-and-set on seq under the lock).
DEADLINE_TOLERANCE = timedelta(seconds=1)  # a countdown may fire a hair early


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
    view = game_of(match).view(seat.number)
    if seat.is_bot:
        return BotTurn(seat.number, view, seat.bot_level, seat.bot_style, Actor.BOT)
    return BotTurn(seat.number, view, BotLevel.MEDIUM, BotStyle.BALANCED, Actor.TIMEOUT)


def play_bot_turn(match_id: int, seq: int, seat: int, move: dict, actor: str) -> bool:
    """Apply a bot's move; False (and nothing changed) when the turn has passed."""
    with transaction.atomic():
        found = move_rows.locked_match_with_seats(match_id)
        if found is None:
            return False
        match, seats = found
        if match.seq != seq or match.table.status != TableStatus.PLAYING or match.to_move != seat:
            return False
        player = next((row for row in seats if row.number == seat), None)
        if player is None:
            raise Seat.DoesNotExist(f"seat {seat} of table {match_id}")
        still_bots_turn = player.is_bot if actor == Actor.BOT else player.standing_in and not player.is_bot
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
        notify.table_changed_on_commit(match.pk)
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
        from .scheduling import after_match_changed

        match_id, seq = match.pk, match.seq
        transaction.on_commit(lambda: after_match_changed(match_id, seq))
    notify.table_changed_on_commit(match.pk)


def create_bot_table(user, *, rules: str, players: int, options: dict | None = None,
                     level: str = BotLevel.MEDIUM, style: str = BotStyle.BALANCED,
                     seconds_per_move: int = 86400) -> Table:
    """Staff only: a hidden table where bots fill every seat and play it out, to watch."""
    check_may_play(user)
    if not user.is_staff:
        raise NotAllowed(_("Only staff can start a table of bots."))
    engine_rules, players, options = check_table_rules(rules, players, options)
    check_bots([BotSpec(seat=1, level=level, style=style)], max(players, 2))
    with transaction.atomic():
        playing = _tables_made_by(user).filter(hidden=True).count()
        if playing >= settings.BOT_TABLES_PER_STAFF:
            raise Conflict(ngettext(
                "You already have %(count)d bot table playing, the most one staff member may have. "
                "Wait for it to finish first.",
                "You already have %(count)d bot tables playing, the most one staff member may have. "
                "Wait for one to finish first.",
                playing) % {"count": playing})
        table = _new_table(
            rules=engine_rules.slug, players=players, options=options,
            seconds_per_move=check_seconds_per_move(seconds_per_move), created_by=user, hidden=True,
        )
        now = timezone.now()
        Seat.objects.bulk_create(
            [_new_seat(table, number, None, BotSpec(number, level, style), now) for number in range(players)]
        )
        _start_if_full(table)
    return table
