"""The Master's analysis of a finished match: each person's decisions judged from what they saw.

A decision is a position where a person (not a bot, nor a bot standing in for
them after a timeout) chose among more than one legal move. Each is judged by
`games.engine.bots.analysis.judge` from `game.view(seat)` before the move, so
the judge never sees a hidden card. The task (games/tasks.py `analyse_match`)
judges a few decisions per run and stores them through
games/actions/analysis.py; this module replays and judges, and writes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings

from .engine.bots.analysis import COSTLY, Judgement, judge
from .models import Actor, AnalysisStatus, Match, MatchAnalysis, Move, TableStatus
from .replay import first_game, logged_moves, play_logged

# Raise it when the judge changes what it stores, so older analyses can be told apart.
ANALYSER_VERSION = 1
# The biggest costly moves the replay page and the API spell out.
BIGGEST = 3


@dataclass(frozen=True)
class Decision:
    move: Move
    view: dict


def decisions_from(match: Match, moves: list[Move], from_seq: int) -> Iterator[Decision]:
    """Each person's decision at or after `from_seq`, with the view they chose from."""
    game = first_game(match.table, match)
    for move in moves:
        if move.seq >= from_seq and move.actor == Actor.PERSON:
            view = game.view(move.seat)
            if len(view.get("legal_moves") or []) > 1:
                yield Decision(move, view)
        game = play_logged(game, move)


def judgement_rng(match_id: int, seq: int) -> random.Random:
    """The judge's dice for one decision: the same on every run, apart from the deal's secret seed."""
    return random.Random(f"analysis:{match_id}:{seq}")


def judge_decision(match_id: int, rules: str, decision: Decision) -> dict:
    rounds = settings.ANALYSIS_ROUNDS or None
    budget = None if rounds else settings.ANALYSIS_BUDGET_MS
    found = judge(decision.view, decision.move.move, judgement_rng(match_id, decision.move.seq),
                  budget_ms=budget, rounds=rounds)
    return judgement_json(decision.move, found, rules)


def judgement_json(move: Move, found: Judgement, rules: str) -> dict:
    code, params = found.reason
    cost, error = round(found.cost, 3), round(found.error, 3)  # "costly" as a reader of these figures finds it
    return {
        "seq": move.seq,
        "seat": move.seat,
        "chosen": found.chosen,
        "best": found.best,
        "cost": cost,
        "error": error,
        "costly": is_costly(cost, error, rules),
        "reason": {"code": code, "params": dict(params)},
        "rounds": found.rounds,
    }


def is_costly(cost: float, error: float, rules: str) -> bool:
    """Costly: at least the rule set's threshold, and twice the guesses' noise, so a move is not
    marked for what another sample of guessed deals would not repeat."""
    return cost >= COSTLY[rules] and cost >= 2 * error


@dataclass(frozen=True)
class Chunk:
    """What one task run judged: decisions from `from_seq` up to (not including) `next_seq`."""

    from_seq: int
    next_seq: int
    judged: list[dict]
    done: bool


def judge_chunk(match: Match, from_seq: int, most: int) -> Chunk:
    """Judge at most `most` decisions from `from_seq` on (the slow part: outside any transaction)."""
    most = max(1, most)  # a chunk that judged nothing would be queued again for ever
    moves = logged_moves(match)
    judged: list[dict] = []
    for decision in decisions_from(match, moves, from_seq):
        if len(judged) == most:
            return Chunk(from_seq, decision.move.seq, judged, False)
        try:
            judged.append(judge_decision(match.pk, match.table.rules, decision))
        except ValueError:  # a logged move the view does not list: nothing to compare it with
            continue
    return Chunk(from_seq, len(moves), judged, True)


def totals_of(players: int, decisions: list[dict]) -> list[dict]:
    """Per seat: points given away, decisions judged and how many of them were costly."""
    totals = [{"seat": seat, "given_away": 0.0, "decisions": 0, "costly": 0} for seat in range(players)]
    for entry in decisions:
        total = totals[entry["seat"]]
        total["given_away"] = round(total["given_away"] + entry["cost"], 3)
        total["decisions"] += 1
        total["costly"] += bool(entry["costly"])
    return totals


def biggest(decisions: list[dict]) -> list[dict]:
    """The costliest costly moves, costliest first."""
    costly = [entry for entry in decisions if entry["costly"]]
    return sorted(costly, key=lambda entry: (-entry["cost"], entry["seq"]))[:BIGGEST]


def is_over(match: Match) -> bool:
    return match.table.status == TableStatus.FINISHED


def analysis_of(match: Match) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match).first()


def is_ready(analysis: MatchAnalysis | None) -> bool:
    return analysis is not None and analysis.status == AnalysisStatus.READY
