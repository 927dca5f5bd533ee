"""On a real worker: a finished match's analysis is stored with nobody calling the task, and a
bot's turn queued while analyses are judging is answered before they end (they yield).

Embedded, the worker is the thread inside this process (tests/conftest.py `running_worker`) and
sees this process's settings; on Redis it is a `celery worker` process of this module's own,
started with the same judge in its environment. Either way it has four threads, and the
analyses may take all four (ANALYSIS_SLOTS), so nothing but their queueing lets a bot in.
"""

from __future__ import annotations

import os
import random
from unittest import mock

import pytest

from games import actions
from games.after_commit import analysis as after_analysis
from games.models import AnalysisStatus, MatchAnalysis, Move
from septica_site.celery import app
from tests.bots.conftest import match_of, table_against_a_bot, wait_for
from tests.conftest import worker_name, worker_process
from tests.play import finished_match, pick_move

from .test_analysis_task import person_decisions

# A judge that thinks for a fixed wall time per decision, one decision a run, as many judging at
# once as the worker has threads (and as many queued for one person): a familie deal (36 decisions
# or so) takes a few seconds.
JUDGE = {"ANALYSIS_ROUNDS": 0, "ANALYSIS_BUDGET_MS": 100.0, "ANALYSIS_DECISIONS_PER_RUN": 1, "ANALYSIS_SLOTS": 4,
         "ANALYSIS_QUEUED_PER_PERSON": 4}
WORKER_THREADS = 4
RULES = "familie"  # one deal: the shortest match there is


@pytest.fixture(scope="module")
def judging_worker(django_db_setup, request):
    """A real worker that judges with JUDGE (a settings override reaches the embedded thread,
    not a separate process: that one is started with JUDGE in its environment). On Redis it is the
    only worker taking tasks meanwhile: the session's, if running, would judge with its own judge
    and answer the bots itself."""
    from django.conf import settings

    if settings.CELERY_EMBEDDED_WORKER:
        yield request.getfixturevalue("running_worker")
        return
    queue, session_worker = app.conf.task_default_queue, worker_name("tests")
    paused = app.control.cancel_consumer(queue, destination=[session_worker], reply=True, timeout=2)
    try:
        with mock.patch.dict(os.environ, {name: str(value) for name, value in JUDGE.items()}):
            worker = worker_process(worker_name("judging"))
            next(worker)
        yield worker
        worker.close()  # terminates it
    finally:
        if paused:
            app.control.add_consumer(queue, destination=[session_worker], reply=True, timeout=2)


@pytest.fixture
def judge_settings(settings):
    for name, value in JUDGE.items():
        setattr(settings, name, value)


def pending(match_ids) -> list[int]:
    """Those of `match_ids` whose analysis is begun and not ready."""
    return list(MatchAnalysis.objects.filter(pk__in=match_ids, status=AnalysisStatus.PENDING)
                .values_list("pk", flat=True))


def ready(match_ids) -> bool:
    return MatchAnalysis.objects.filter(pk__in=match_ids, status=AnalysisStatus.READY).count() == len(match_ids)


@pytest.mark.django_db(transaction=True)
def test_the_worker_stores_the_analysis_of_a_match_that_ends(judging_worker, judge_settings, alice, bob):
    match = finished_match(alice, [bob], rules=RULES)  # its last move's commit queues the analysis

    assert wait_for(lambda: ready([match.pk]), timeout=60, every=0.05), "the analysis was never ready"
    analysis = MatchAnalysis.objects.get(pk=match.pk)
    assert [entry["seq"] for entry in analysis.decisions] == person_decisions(match)
    assert sum(total["decisions"] for total in analysis.totals) == len(analysis.decisions)


@pytest.mark.django_db(transaction=True)
def test_a_bot_answers_while_analyses_fill_every_thread_of_the_worker(
        judging_worker, judge_settings, alice, bob, monkeypatch):
    with monkeypatch.context() as held:  # the matches end with their analyses held back, to start together
        held.setattr(app, "send_task", lambda *args, **kwargs: None)
        matches = [finished_match(alice, [bob], rules=RULES, seed=seed).pk for seed in range(WORKER_THREADS)]
    table = table_against_a_bot(alice, rules="septica")
    assert wait_for(lambda: match_of(table).to_move == 0), "the bot never led"
    for match_id in matches:
        after_analysis.queue(match_id)  # as the end of a match queues it
    assert wait_for(lambda: MatchAnalysis.objects.filter(pk__in=matches, next_seq__gt=0).count() == len(matches),
                    timeout=60, every=0.01), "the analyses never began"

    seq = match_of(table).seq
    moved, _ = actions.play_move(table.pk, alice, seq, pick_move(match_of(table).game().view(0), random.Random(1)))
    assert moved.to_move == 1
    answered = wait_for(lambda: Move.objects.filter(match_id=table.pk, seq=seq + 1).exists(), timeout=30, every=0.01)
    still_judging = pending(matches)

    assert answered, "the bot never answered"
    assert sorted(still_judging) == sorted(matches), "the bot's turn waited for analyses to end"
    assert wait_for(lambda: ready(matches), timeout=120, every=0.1), "the analyses never ended"
