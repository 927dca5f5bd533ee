"""Finished matches to analyse, with the judge kept small so the tests are fast and repeatable."""

from __future__ import annotations

import pytest

from games import tasks
from games.after_commit.analysis import ANALYSE_TASK
from games.models import MatchAnalysis


@pytest.fixture(autouse=True)
def small_judge(settings):
    settings.ANALYSIS_ROUNDS = 6
    settings.ANALYSIS_DECISIONS_PER_RUN = 2
    settings.ANALYSIS_SLOTS = 100  # on Redis the session's worker may hold a slot, judging other tests' matches


@pytest.fixture
def analyse(sent_tasks, django_capture_on_commit_callbacks):
    """Run the match's analysis task from `from_seq`, then the tasks it sends after its commits, to the end."""
    def run(match_id: int, from_seq: int = 0) -> list[bool]:
        sent_tasks.append((ANALYSE_TASK, (match_id, from_seq), {}))
        ran = []
        while any(name == ANALYSE_TASK for name, _, _ in sent_tasks):
            index = next(i for i, (name, _, _) in enumerate(sent_tasks) if name == ANALYSE_TASK)
            _, args, _ = sent_tasks.pop(index)
            with django_capture_on_commit_callbacks(execute=True):
                ran.append(tasks.analyse_match(*args))
        return ran

    return run


def analysed(match_id: int) -> MatchAnalysis:
    return MatchAnalysis.objects.get(pk=match_id)
