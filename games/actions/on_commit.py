"""What an action hands to the after-commit modules when its transaction commits.

Each function registers one `transaction.on_commit` call with what the
action already knows, so nobody hears of a write that was not stored and the
after-commit modules need not read it again.
"""

from __future__ import annotations

from django.db import transaction

from ..after_commit import abort_requests, analysis, challenges, finished, publish, turns, your_move
from ..models import Match, Seat, Table


def match_changed(match: Match, table: Table, seats: list[Seat] | None = None) -> None:
    """A move (or a start): the table's sockets and people hear of it, the next turn is
    queued, and the person to move may get a "your move" e-mail.

    `seats`, the table's rows as the write left them under its lock, spare
    the after-commit work a query of them on every move, which costs far more
    than passing them (bench/on_commit.py; the figures are in the README)."""
    match_id, seq, to_move, seed_sha256 = match.pk, match.seq, match.to_move, match.seed_sha256
    if seats is None:
        def send() -> None:
            publish.match_changed(match_id, seq)
            turns.schedule_reading(match_id, seq)
            your_move.queue_check(match_id, seq, to_move)
    else:
        turn = turns.turn_of(seats, to_move, match.deadline, table.seconds_per_move)
        seat = next((seat for seat in seats if seat.number == to_move), None) if to_move is not None else None
        person = seat.user if seat is not None and seat.user_id is not None else None

        def send() -> None:
            publish.match_changed(match_id, seq, seats)
            turns.schedule(match_id, seq, turn)
            if turn is None or not turn.by_bot:  # a bot (or a bot standing in) is never mailed
                your_move.queue_check(match_id, seq, to_move, person, seed_sha256)

    transaction.on_commit(send)


def table_changed(table_id: int) -> None:
    """Seats changed: the table's sockets read them again, its people's My matches refresh."""
    transaction.on_commit(lambda: publish.table_changed(table_id))


def lobby_changed(table_id: int) -> None:
    """The lobby's listing of `table_id` may have changed (the lobby's servers read that table again)."""
    transaction.on_commit(lambda: publish.lobby_changed(table_id))


def matches_changed(user_id: int, table_id: int) -> None:
    """One person's My matches refresh (a moderator took their seat away)."""
    transaction.on_commit(lambda: publish.matches_changed(user_id, table_id))


def invites_closed(challenge_id: int, invitee_ids: list[int]) -> None:
    """Invites of a challenge were answered, withdrawn or expired: their unread notifications go."""
    if invitee_ids:
        transaction.on_commit(lambda: challenges.invite_closed(challenge_id, invitee_ids))


def turn_changed(match_id: int, seq: int) -> None:
    """Who plays the turn at `seq` changed (a bot took it over, or the person took it back): queue it again."""
    transaction.on_commit(lambda: turns.schedule_reading(match_id, seq))


def abort_asked(request_id: int, expires_at, seconds: int) -> None:
    """A request to abort was made: its expiry is queued for the moment it ends."""
    transaction.on_commit(lambda: abort_requests.schedule_expiry(request_id, expires_at, seconds))


def match_finished(match_id: int, people: list[tuple[int, bool]]) -> None:
    """A match ended: its people away from the table are told, each whether they won, and its analysis
    is queued (behind the bots' turns already waiting: games/after_commit/analysis.py)."""
    def send() -> None:
        finished.tell_away(match_id, people)
        analysis.queue(match_id)

    transaction.on_commit(send)
