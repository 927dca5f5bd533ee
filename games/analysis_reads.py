"""The analysis of a finished match as the API answers it and the replay page shows it.

`GET /api/tables/<id>/analysis` and the replay page read the same answer. A
finished match with no analysis yet (one that ended before analyses existed,
or whose task was lost for good) has it begun on its first read, and one
waiting its turn behind its maker's other analyses is queued in the turn of
the logged-in person who reads it, when they have one free
(games/actions/analysis.py `ask_for_analysis`). Everything here is public once
the match is over: the replay shows every hand, so a better card the player
held gives nothing away.
"""

from __future__ import annotations

from .actions.analysis import ask_for_analysis
from .analysis import biggest
from .engine.bots.analysis import COSTLY
from .models import AnalysisStatus, MatchAnalysis, Table
from .words import analysis as words


def analysis_json(table: Table, names: list[str], reader=None) -> dict:
    """The analysis of the table's match (Conflict while it is not over): what is judged so far, and
    once it is ready each seat's totals and the costliest moves. A waiting one is queued in the
    reader's turn when they have one free."""
    analysis = ask_for_analysis(table.match.pk, reader)
    rules = table.rules
    decisions = [decision_json(entry, rules) for entry in analysis.decisions]
    ready = analysis.status == AnalysisStatus.READY
    return {
        "table": table.pk,
        "status": analysis.status,
        "version": analysis.version,
        "rules": rules,
        "unit": "penalty" if rules == "americana" else "points",
        "lower_is_better": rules == "americana",
        "costly_from": COSTLY[rules],
        "judged": len(decisions),
        "decisions": decisions,
        "biggest": biggest(decisions) if ready else [],
        "totals": totals_json(analysis, names, rules) if ready else None,
        "computed_at": analysis.computed_at.isoformat() if analysis.computed_at else None,
    }


def decision_json(entry: dict, rules: str) -> dict:
    """One judged decision, with its reason and cost in words when the Master's move differs."""
    said = None
    if entry["reason"]["code"]:
        said = {"why": words.why(entry), "cost": words.cost(entry, rules)}
    return {**entry, "words": said}


def totals_json(analysis: MatchAnalysis, names: list[str], rules: str) -> list[dict]:
    return [
        {**total, "name": names[total["seat"]], "words": words.given_away(total["given_away"], rules)}
        for total in analysis.totals
    ]
