"""Tables with bots, people who run out of time, and a way to wait for the worker."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.engine import rules_for
from games.models import Match, Move


@pytest.fixture
def staff(make_user):
    return make_user("staff", display_name="Staff", is_staff=True)


def wait_for(condition, timeout: float = 30.0, every: float = 0.05):
    """Poll until `condition()` is true; return whether it became true in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return bool(condition())


def table_against_a_bot(person, rules="septica", players=2, level="beginner", seconds_per_move=86400):
    """`person` at seat 0, bots in every other seat; the match starts at once."""
    bots = [actions.BotSpec(seat=seat, level=level, style="balanced") for seat in range(1, players)]
    return actions.create_table(person, rules=rules, players=players, seconds_per_move=seconds_per_move, bots=bots)


def moves_at(match_id: int, seq: int) -> list[Move]:
    return list(Move.objects.filter(match_id=match_id, seq=seq))


def match_of(table) -> Match:
    return Match.objects.select_related("table").get(pk=table.pk)


def make_deadline_pass(table) -> None:
    Match.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=60))


def make_turn_old(table, seconds: int = 600) -> None:
    """Pretend the current turn began `seconds` ago (its deadline moves back as far)."""
    match = match_of(table)
    Match.objects.filter(pk=table.pk).update(deadline=match.deadline - timedelta(seconds=seconds))


def log_replays(table) -> bool:
    """The move log, replayed from the seed, gives the stored snapshot: no move lost or doubled."""
    match = match_of(table)
    game = rules_for(table.rules).new_game(players=table.players, options=table.options, seed=int(match.seed))
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [move.seq for move in moves] == list(range(match.seq))
    for move in moves:
        assert move.seat == game.to_move
        game = game.play(move.move)
    return game.to_state() == match.state
