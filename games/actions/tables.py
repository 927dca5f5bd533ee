"""Tables: made, joined, left, started when full, asked for again after a match."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.relations import blocked_by_any
from players.reliability import reliability

from ..engine import rules_for
from ..errors import BadRequest, Conflict, NotAllowed, NotFound
from ..models import BotLevel, BotStyle, ChallengeInvite, ChallengeStatus, Match, Seat, Table, TableStatus
from . import on_commit
from .checks import (
    BotSpec,
    check_bots,
    check_may_play,
    check_seconds_per_move,
    check_table_rules,
    deadline_after,
    hidden_from,
    locked_table,
)


def create_table(
    user,
    *,
    rules: str,
    players: int,
    options: dict | None = None,
    seconds_per_move: int = 86400,
    private: bool = False,
    bots: list[BotSpec] = (),
    reserve_for=None,
    rated: bool | None = None,
    min_reliability: int | None = None,
) -> Table:
    """Create a table with the creator at seat 0 and bots where asked.

    `rated` None makes it rated when only people will sit at it. A bot seat
    always makes it casual, even when rated=True was asked for (the form says
    so): a rating measures people against people."""
    check_may_play(user)
    engine_rules, players, options = check_table_rules(rules, players, options)
    seconds_per_move = check_seconds_per_move(seconds_per_move)
    bots_by_seat = check_bots(bots, players)
    challenged = list(reserve_for) if isinstance(reserve_for, list | tuple) else [p for p in [reserve_for] if p]
    check_challenged(user, challenged, bots_by_seat, players)
    rated = _check_rated(rated) and not bots_by_seat
    min_reliability = check_min_reliability(min_reliability)
    with transaction.atomic():
        _check_open_tables(user, waits_in_lobby=not private and len(bots_by_seat) < players - 1)
        table = _new_table(
            rules=engine_rules.slug, players=players, options=options,
            seconds_per_move=seconds_per_move, private=bool(private), created_by=user,
            rated=rated, min_reliability=min_reliability,
        )
        now = timezone.now()
        Seat.objects.bulk_create(
            [_new_seat(table, number, user if number == 0 else None, bots_by_seat.get(number), now)
             for number in range(players)]
        )
        for number, person in zip(challenge_seats(bots_by_seat, players), challenged, strict=False):
            # a challenge: the seat waits for that person alone
            Seat.objects.filter(table=table, number=number).update(reserved_for=person)
        _start_if_full(table)
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
    return table


CHALLENGE_SEAT = 1  # the seat kept for the person challenged: the one beside the creator's


def challenge_seats(bots_by_seat: dict, players: int) -> list[int]:
    """The seats kept for the people challenged, in the order they are named: from seat 2 on, bots' skipped."""
    return [number for number in range(CHALLENGE_SEAT, players) if number not in bots_by_seat]


def check_challenged(user, challenged: list, bots_by_seat: dict, players: int) -> None:
    """Each person challenged may be, and the table has a free seat for every one of them."""
    if len(challenged) <= 1:
        check_challenge(user, challenged[0] if challenged else None, bots_by_seat)
        return
    if len({person.pk for person in challenged}) < len(challenged):
        raise BadRequest(_("Name each person you challenge once."), code="challenge_twice")
    free = len(challenge_seats(bots_by_seat, players))
    if len(challenged) > free:
        raise BadRequest(ngettext(
            "This table has %(count)d free seat, fewer than the people you challenge.",
            "This table has %(count)d free seats, fewer than the people you challenge.", free) % {"count": free},
            code="too_many_challenged", free=free)
    for person in challenged:
        check_challenge(user, person, {})


def check_challenge(user, challenged, bots_by_seat: dict) -> None:
    """A challenge (`reserve_for`) keeps a seat for someone else who may play: not oneself, not a banned
    person (who does not exist to others), not a seat a bot was asked for, not someone who blocks the challenger
    (told as lichess tells it, without naming the block)."""
    if challenged is None:
        return
    if challenged.pk == user.pk:
        raise BadRequest(_("You cannot challenge yourself."), code="challenge_yourself")
    if challenged.banned or not challenged.is_active:
        raise NotFound(_("There is no such player to challenge."), code="no_such_player")
    if challenged.play_refusal is not None:
        raise NotAllowed(_("%(name)s cannot play at the moment: challenge them later.")
                         % {"name": challenged.shown_name}, code="challenged_cannot_play")
    if blocked_by_any(user.pk, [challenged.pk]):
        raise NotAllowed(_("%(name)s does not accept challenges from you.") % {"name": challenged.shown_name},
                         code="challenge_not_accepted")
    if CHALLENGE_SEAT in bots_by_seat:
        raise BadRequest(_("Seat %(n)d is kept for the person you challenge: put no bot there.")
                         % {"n": CHALLENGE_SEAT + 1}, code="challenge_seat_taken")


def _check_rated(rated) -> bool:
    if rated is None:
        return True
    if type(rated) is not bool:
        raise BadRequest(_("\"rated\" must be true (rated) or false (casual)."), code="bad_rated")
    return rated


def check_min_reliability(percent) -> int | None:
    """The least reliability to join: a whole percent from 0 to 100, or None for anyone."""
    if percent is None:
        return None
    if type(percent) is not int or not 0 <= percent <= 100:
        raise BadRequest(_("The least reliability to join must be a whole percent from 0 to 100, or none."),
                         code="bad_min_reliability")
    return percent


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


def join_table(table_id: int, user, invite_code: str | None = None) -> Seat:
    """Seat the user at the first free seat; the match starts when the last fills."""
    check_may_play(user)
    with transaction.atomic():
        table = locked_table(table_id)
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
        if not any(seat.reserved_for_id == user.pk for seat in seats):  # a seat kept for them: they were asked
            check_reliable_enough(table, user)
        check_not_blocked(table, seats, user)
        free = next((seat for seat in seats if seat.is_free and seat.reserved_for_id == user.pk), None)
        free = free or next((seat for seat in seats if seat.is_free_for(user)), None)
        if free is None:
            raise Conflict(_("This table is full."))
        free.user, free.joined_at = user, timezone.now()
        try:
            free.save(update_fields=["user", "joined_at"])
        except IntegrityError:
            raise Conflict(_("You already sit at this table.")) from None
        invited = ChallengeInvite.objects.filter(challenge__table=table, invitee=user, status=ChallengeStatus.PENDING)
        for challenge_id in set(invited.values_list("challenge_id", flat=True)):
            on_commit.invites_closed(challenge_id, [user.pk])
        invited.update(status=ChallengeStatus.ACCEPTED, answered_at=free.joined_at)
        _start_if_full(table, seats)
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
    return free


def check_not_blocked(table: Table, seats: list[Seat], user) -> None:
    """A person blocked by the table's creator, or by anyone seated, cannot sit down (the blocker is never stopped)."""
    people = {seat.user_id for seat in seats if seat.user_id is not None} | {table.created_by_id}
    if blocked_by_any(user.pk, people - {None}):
        raise NotAllowed(_("Somebody at this table does not accept you at their tables."), code="blocked")


def check_reliable_enough(table: Table, user) -> None:
    """A table's least reliability to join; a person with no finished match yet may join any table."""
    if table.min_reliability is None:
        return
    percent = reliability(user.pk).percent
    if percent is not None and percent < table.min_reliability:
        raise NotAllowed(
            _("This table asks for a reliability of at least %(least)d%%; yours is %(yours)d%% "
              "(the share of your last matches you played to the end yourself).")
            % {"least": table.min_reliability, "yours": percent},
            code="not_reliable_enough", least=table.min_reliability, yours=percent,
        )


def add_bot(table_id: int, user, *, seat: int | None = None,
            level: str = BotLevel.MEDIUM, style: str = BotStyle.BALANCED) -> Seat:
    """The table's creator seats a bot at a free seat (the first when none is named)
    of a table still waiting; the match starts when the last seat fills, as at a join."""
    check_may_play(user)
    _check_bot_kind(level, style)
    with transaction.atomic():
        table = _locked_table_for_bots(table_id, user)
        seats = list(table.seats.select_for_update().order_by("number"))
        free = _free_seat_for_bot(seats, seat)
        free.bot_level, free.bot_style, free.joined_at = level, style, timezone.now()
        free.save(update_fields=["bot_level", "bot_style", "joined_at"])
        if table.rated:  # a bot in its own seat makes the table casual
            table.rated = False
            table.save(update_fields=["rated"])
        _start_if_full(table, seats)
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
    return free


def _check_bot_kind(level, style) -> None:
    if level not in BotLevel.values:
        raise BadRequest(_("Unknown bot level; choose one of: %(levels)s.") % {"levels": ", ".join(BotLevel.values)},
                         code="bad_level")
    if style not in BotStyle.values:
        raise BadRequest(_("Unknown bot style; choose one of: %(styles)s.") % {"styles": ", ".join(BotStyle.values)},
                         code="bad_style")


def _locked_table_for_bots(table_id: int, user) -> Table:
    try:
        table = locked_table(table_id)
    except NotFound as refusal:
        raise NotFound(refusal.message, code="no_such_table") from None
    if table.created_by_id != user.pk:
        if hidden_from(table, user):
            raise NotFound(_("There is no such table."), code="no_such_table")
        raise NotAllowed(_("Only the player who made this table can seat a bot at it."), code="not_creator")
    if table.status == TableStatus.ABORTED:
        raise Conflict(_("This table was called off."), code="table_called_off")
    if table.status != TableStatus.OPEN:
        raise Conflict(_("This table has already started."), code="table_started")
    if table.closed:
        raise NotAllowed(_("This table is closed to new players."), code="table_closed")
    return table


def _free_seat_for_bot(seats: list[Seat], number) -> Seat:
    if number is None:
        free = next((seat for seat in seats if seat.is_free and seat.reserved_for_id is None), None)
        if free is None:
            raise Conflict(_("This table is full."), code="table_full")
        return free
    if type(number) is not int or not 0 <= number < len(seats):
        raise BadRequest(_("There is no such seat at this table: its seats are 1 to %(count)d.")
                         % {"count": len(seats)}, code="bad_seat")
    chosen = seats[number]
    if not chosen.is_free or chosen.reserved_for_id is not None:
        raise Conflict(_("Seat %(n)d is not free.") % {"n": number + 1}, code="seat_taken")
    return chosen


def leave_table(table_id: int, user) -> None:
    """Give up a seat before the match starts; the creator leaving closes the table."""
    with transaction.atomic():
        table = locked_table(table_id)
        seat = table.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            if hidden_from(table, user):
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
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)


def rematch(table_id: int, user) -> Table:
    """A new table like a finished one: same rules, options and clock, bots in
    their seats, and each person's seat kept for them (the asker sits at once).
    Asking twice gives the same rematch."""
    check_may_play(user)
    with transaction.atomic():
        old = locked_table(table_id)
        old_seats = list(old.seats.order_by("number"))
        if not any(seat.user_id == user.pk for seat in old_seats):
            if hidden_from(old, user, old_seats):
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
            rated=old.rated, min_reliability=old.min_reliability,
        )
        now = timezone.now()
        Seat.objects.bulk_create([_rematch_seat(table, seat, user, now) for seat in old_seats])
        _start_if_full(table)
        on_commit.table_changed(old.pk)
        on_commit.lobby_changed(table.pk)
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
    match.state, match.to_move, match.deadline = game.to_state(), game.to_move, deadline_after(table, game)
    match.started_at = timezone.now()
    match.save(update_fields=["state", "to_move", "deadline", "started_at"])
    table.status = TableStatus.PLAYING
    table.save(update_fields=["status"])
    on_commit.match_changed(match, table)
    return match



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
