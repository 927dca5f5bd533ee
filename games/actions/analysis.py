"""The analysis of a finished match: begun once, then stored a chunk of judgements at a time.

The judging itself is slow and happens outside any transaction
(games/analysis.py, called by games/tasks.py `analyse_match`). Each chunk is
stored with a compare-and-set on the analysis's cursor (`next_seq`), so a task
delivered twice, or two workers judging the same chunk, store it once; what
comes next (the following chunk, or "analysis ready" to the table's readers)
is handed to games/after_commit/analysis.py after commit.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..after_commit import analysis as after_analysis
from ..analysis import ANALYSER_VERSION, Chunk, totals_of
from ..errors import Conflict, NotFound
from ..models import AnalysisStatus, Match, MatchAnalysis, TableStatus


def check_analysable(match_id: int) -> Match:
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None:
        raise NotFound("There is no such table.")
    if match.table.status == TableStatus.ABORTED:
        raise Conflict("This match was aborted: it has no analysis.", code="match_aborted")
    if match.table.status != TableStatus.FINISHED:
        raise Conflict("This match is not over: its analysis begins when it ends.", code="match_not_over")
    return match


def begin_analysis(match_id: int) -> MatchAnalysis:
    """The match's analysis, made pending if it had none; Conflict if the match is not over."""
    match = check_analysable(match_id)
    analysis, _ = MatchAnalysis.objects.get_or_create(match=match, defaults={"version": ANALYSER_VERSION})
    return analysis


def ask_for_analysis(match_id: int) -> MatchAnalysis:
    """The match's analysis, begun and queued if it had none (a match that ended before analyses
    existed, or whose task was lost for good); Conflict if the match is not over."""
    match = check_analysable(match_id)
    with transaction.atomic():
        analysis, created = MatchAnalysis.objects.get_or_create(match=match, defaults={"version": ANALYSER_VERSION})
        if created:
            transaction.on_commit(lambda: after_analysis.queue(match_id))
    return analysis


def record_chunk(analysis: MatchAnalysis, players: int, chunk: Chunk) -> bool:
    """Store a chunk judged from `analysis.next_seq`; False when another run stored it first."""
    decisions = list(analysis.decisions) + chunk.judged
    changes = {"next_seq": chunk.next_seq, "decisions": decisions, "stored_at": timezone.now()}
    if chunk.done:
        changes.update(status=AnalysisStatus.READY, totals=totals_of(players, decisions), computed_at=timezone.now())
    with transaction.atomic():
        stored = MatchAnalysis.objects.filter(
            pk=analysis.pk, status=AnalysisStatus.PENDING, next_seq=chunk.from_seq
        ).update(**changes)
        if stored:
            match_id, next_seq = analysis.pk, chunk.next_seq
            if chunk.done:
                transaction.on_commit(lambda: after_analysis.ready(match_id))
            else:
                transaction.on_commit(lambda: after_analysis.queue(match_id, next_seq))
    return bool(stored)
