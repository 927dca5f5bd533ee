"""The analysis of a finished match: begun once, queued in its person's turn, then stored a chunk of
judgements at a time.

The judging itself is slow and happens outside any transaction
(games/analysis.py, called by games/tasks.py `analyse_match`). Each chunk is
stored with a compare-and-set on the analysis's cursor (`next_seq`), so a task
delivered twice, or two workers judging the same chunk, store it once; what
comes next (the following chunk, or "analysis ready" to the table's readers)
is handed to games/after_commit/analysis.py after commit.

Each analysis takes a turn of one person's: the table's maker, or whoever
asked for it on the replay page. A person has at most
ANALYSIS_QUEUED_PER_PERSON analyses pending (queued or being judged); the
rest wait, and the oldest waiting one is queued when one of theirs is ready
(or by the sweeper), so one person finishing match after match takes no more
of the analysis workers than anyone else. Counting a person's turns, and
taking one, happen with their row locked, so matches ending together cannot
all find room.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
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
    """The match's analysis, begun if it had none: pending when its table's maker has a turn free,
    else waiting; Conflict if the match is not over."""
    match = check_analysable(match_id)
    found = MatchAnalysis.objects.filter(match=match).first()
    return found if found is not None else _begin(match)[0]


def ask_for_analysis(match_id: int, asker=None) -> MatchAnalysis:
    """The match's analysis as a reader asks for it (Conflict if the match is not over): begun and
    queued if it had none (a match that ended before analyses existed, or whose task was lost for
    good), and a waiting one queued in the asker's turn when they have one free."""
    match = check_analysable(match_id)
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analysis is None:
        analysis, created = _begin(match)
        if created and analysis.status == AnalysisStatus.PENDING:
            transaction.on_commit(lambda: after_analysis.queue(match_id))
    asker_id = asker.pk if asker is not None and asker.is_authenticated else None
    if analysis.status == AnalysisStatus.WAITING and asker_id is not None:
        with transaction.atomic():
            _lock_person(asker_id)
            if _turns_free(asker_id) and _take_turn(match_id, asker_id):
                analysis.refresh_from_db()
    return analysis


def _begin(match: Match) -> tuple[MatchAnalysis, bool]:
    person_id = match.table.created_by_id
    with transaction.atomic():
        _lock_person(person_id)
        status = AnalysisStatus.PENDING if _turns_free(person_id) else AnalysisStatus.WAITING
        return MatchAnalysis.objects.get_or_create(
            match=match, defaults={"version": ANALYSER_VERSION, "person_id": person_id, "status": status})


def _lock_person(person_id: int | None) -> None:
    """Lock the person's row until the transaction ends (SQLite: its transactions already take turns)."""
    if person_id is not None:
        list(get_user_model().objects.select_for_update(no_key=True).filter(pk=person_id).values_list("pk"))


def _turns_free(person_id: int | None) -> int:
    """How many more of the person's analyses may be pending (no bound for a person since deleted)."""
    if person_id is None:
        return settings.ANALYSIS_QUEUED_PER_PERSON
    pending = MatchAnalysis.objects.filter(person_id=person_id, status=AnalysisStatus.PENDING).count()
    return max(0, settings.ANALYSIS_QUEUED_PER_PERSON - pending)


def _take_turn(match_id: int, person_id: int | None) -> bool:
    """Queue a waiting analysis in the person's turn (after commit); False if it no longer waits."""
    taken = MatchAnalysis.objects.filter(pk=match_id, status=AnalysisStatus.WAITING).update(
        status=AnalysisStatus.PENDING, person_id=person_id, stored_at=timezone.now())
    if taken:
        transaction.on_commit(lambda: after_analysis.queue(match_id))
    return bool(taken)


def queue_waiting_turns(person_id: int | None) -> list[int]:
    """Queue the person's oldest waiting analyses while they have turns free; the matches queued."""
    with transaction.atomic():
        _lock_person(person_id)
        oldest = (MatchAnalysis.objects.filter(person_id=person_id, status=AnalysisStatus.WAITING)
                  .order_by("created_at", "pk").values_list("pk", flat=True)[:_turns_free(person_id)])
        return [match_id for match_id in list(oldest) if _take_turn(match_id, person_id)]


def people_waiting(most: int) -> list[int | None]:
    """The people with an analysis waiting, whose waited longest first."""
    oldest = {}
    for person_id in (MatchAnalysis.objects.filter(status=AnalysisStatus.WAITING)
                      .order_by("created_at", "pk").values_list("person_id", flat=True)[:most]):
        oldest.setdefault(person_id, None)
    return list(oldest)


def record_chunk(analysis: MatchAnalysis, players: int, chunk: Chunk) -> bool:
    """Store a chunk judged from `analysis.next_seq`; False when another run stored it first. The
    last chunk gives its turn to the person's oldest waiting analysis."""
    decisions = list(analysis.decisions) + chunk.judged
    changes = {"next_seq": chunk.next_seq, "decisions": decisions, "stored_at": timezone.now()}
    if chunk.done:
        changes.update(status=AnalysisStatus.READY, totals=totals_of(players, decisions), computed_at=timezone.now())
    with transaction.atomic():
        if chunk.done:
            _lock_person(analysis.person_id)  # first, as every other taker of a turn locks it
        stored = MatchAnalysis.objects.filter(
            pk=analysis.pk, status=AnalysisStatus.PENDING, next_seq=chunk.from_seq
        ).update(**changes)
        if stored:
            match_id, next_seq = analysis.pk, chunk.next_seq
            if chunk.done:
                transaction.on_commit(lambda: after_analysis.ready(match_id))
                queue_waiting_turns(analysis.person_id)
            else:
                transaction.on_commit(lambda: after_analysis.queue(match_id, next_seq))
    return bool(stored)
