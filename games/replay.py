"""Rebuild a match from its seed and move log.

The stored snapshot is only a cache: the seed and the moves, replayed through
the engine, must give it back exactly. `verify` checks that (used by
`manage.py verify_matches`); `steps` lists every position of a finished match
with all hands, for its replay page.

Pure functions of the rows they are given: nothing here writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .engine import IllegalMove, rules_for
from .leaving_rules import finished_with_resignations, resigned_result, sides_of
from .models import Match, Move, Table, TableStatus

# The spectator view's keys a replay step keeps: the table's public picture.
# Hands come from the full state instead; the log is given as each step's new events.
_DROPPED_VIEW_KEYS = {"rules", "options", "players", "seat", "hand", "hand_penalty", "legal_moves", "log"}


def first_game(table: Table, match: Match):
    """The match as dealt: the game before its first move."""
    return rules_for(table.rules).new_game(players=table.players, options=table.options, seed=int(match.seed))


def replay(table: Table, match: Match, moves: Iterable[Move]) -> Iterator[tuple[Move, object]]:
    """Each logged move with the game after it; `IllegalMove` if one does not apply."""
    game = first_game(table, match)
    for move in moves:
        game = play_logged(game, move)
        yield move, game


def play_logged(game, move: Move):
    if game.to_move != move.seat:
        raise IllegalMove(f"seat {move.seat} moved, but it was seat {game.to_move}'s turn")
    return game.play(move.move)


def logged_moves(match: Match) -> list[Move]:
    return list(Move.objects.filter(match=match).order_by("seq"))


def moves_of_snapshot(match: Match) -> list[Move]:
    """The logged moves that `match` (its row and table as read) stands after: of a match still being
    played, only those before its seq, since a move is logged in the same commit that moves the row
    on, and the moves read later may include some made since; of one that ended, the whole log."""
    moves = Move.objects.filter(match=match)
    if match.table.status == TableStatus.PLAYING:
        moves = moves.filter(seq__lt=match.seq)
    return list(moves.order_by("seq"))


# --- checking -------------------------------------------------------------------
@dataclass
class Verdict:
    match_id: int
    moves: int = 0
    problems: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        if self.ok:
            return f"match {self.match_id}: ok ({self.moves} moves)"
        where = f" (first differing seq {self.first_bad_seq})" if self.first_bad_seq is not None else ""
        return f"match {self.match_id}: DIFFERS{where}: " + "; ".join(self.problems)


def _plain(data):
    """JSON-normalised, so tuples, lists and stored JSON compare alike."""
    return json.loads(json.dumps(data, sort_keys=True))


def verify(match: Match, moves: list[Move] | None = None) -> Verdict:
    """Replay the match from its seed and log and compare with what is stored (`moves`: by default
    those its snapshot stands after, so a match still being played is checked as it was read)."""
    table = match.table
    moves = moves_of_snapshot(match) if moves is None else moves
    verdict = Verdict(match.pk, moves=len(moves))
    _check_log(match, moves, verdict)
    if match.seed_sha256 != Match.hash_seed(match.seed):
        verdict.problems.append("the seed does not hash to the published seed_sha256")
    if match.state is None:
        if moves:
            verdict.problems.append(f"{len(moves)} moves logged for a match that was never dealt")
        return verdict
    game = first_game(table, match)
    for move in moves:
        try:
            game = play_logged(game, move)
        except IllegalMove as error:
            verdict.first_bad_seq = move.seq
            verdict.problems.append(f"move {move.seq} does not apply: {error}")
            return verdict
    _compare(match, table, game, verdict)
    return verdict


def _check_log(match: Match, moves: list[Move], verdict: Verdict) -> None:
    seqs = [move.seq for move in moves]
    if seqs != list(range(len(moves))):
        gap = next((i for i, seq in enumerate(seqs) if seq != i), len(seqs))
        verdict.problems.append(f"the log is not seq 0..{len(moves) - 1} without gaps (first gap at {gap})")
        verdict.first_bad_seq = gap
    if match.seq != len(moves):
        verdict.problems.append(f"the match says seq {match.seq} but {len(moves)} moves are logged")


def _compare(match: Match, table: Table, game, verdict: Verdict) -> None:
    if _plain(game.to_state()) != _plain(match.state):
        verdict.problems.append("the replayed state differs from the stored snapshot")
    finished = table.status == TableStatus.FINISHED
    resigned = (match.result or {}).get("resigned") or []
    if resigned and finished and not game.finished:
        # Ended by a resignation, which is not a move: the result is the scores as they stood then.
        _compare_resigned(match, table, game, resigned, verdict)
        return
    if match.to_move != game.to_move:
        verdict.problems.append(f"the match says seat {match.to_move} is to move, the replay says {game.to_move}")
    if finished != bool(game.finished):
        verdict.problems.append(
            "the replay " + ("has not ended" if finished else "ended") + f" but the table is {table.status}"
        )
    expected = finished_with_resignations(table.rules, game.result, resigned)  # a free-for-all played out for them
    if _plain(expected) != _plain(match.result):
        verdict.problems.append(f"the replayed result {expected} differs from the stored {match.result}")


def _compare_resigned(match: Match, table: Table, game, resigned: list[int], verdict: Verdict) -> None:
    view = game.view(None)
    expected = resigned_result(view["scores"], resigned, sides_of(view, table.players))
    if _plain(expected) != _plain(match.result):
        verdict.problems.append(f"the result of the resignation should be {expected}, not the stored {match.result}")
    if match.to_move is not None:
        verdict.problems.append(f"the match ended by a resignation but says seat {match.to_move} is to move")


# --- the replay page --------------------------------------------------------------
def step(game, view: dict, move: Move | None, events: list) -> dict:
    """One position of a finished match, all hands shown."""
    data = {key: value for key, value in view.items() if key not in _DROPPED_VIEW_KEYS}
    data["hands"] = game.to_state()["hands"]
    data["events"] = events
    data["seq"] = 0 if move is None else move.seq + 1
    data["seat"] = None if move is None else move.seat
    data["move"] = None if move is None else move.move
    data["actor"] = None if move is None else move.actor
    return _plain(data)


def steps(table: Table, match: Match, moves: list[Move] | None = None) -> list[dict]:
    """Every position from the deal to the end: step k is after k moves.

    Each step's `events` are the public log entries its move added (the whole
    log of a new deal when the move ended one)."""
    moves = logged_moves(match) if moves is None else moves
    game = first_game(table, match)
    view = game.view(None)
    result = [step(game, view, None, list(view.get("log", [])))]
    for move, game in replay(table, match, moves):
        previous, view = view, game.view(None)
        log = list(view.get("log", []))
        same_deal = view.get("deal") == previous.get("deal")
        events = log[len(previous.get("log", [])) :] if same_deal else log
        result.append(step(game, view, move, events))
    return result


def compact(full_steps: list[dict]) -> list[dict]:
    """The steps with each one keeping only the keys that changed since the one before
    (and `seq`); a reader rebuilds step k by merging steps 0..k in order."""
    out, previous = [], {}
    for current in full_steps:
        out.append(
            {
                key: value
                for key, value in current.items()
                if key in ("seq", "events", "move", "seat", "actor") or previous.get(key) != value
            }
        )
        previous = current
    return out
