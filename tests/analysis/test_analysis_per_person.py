"""Each person's analyses take their turn: at most ANALYSIS_QUEUED_PER_PERSON queued or running at once,
so one person finishing match after match cannot keep everyone else's analysis waiting.

The queue is run here as a worker runs it, first in, first out: a run of the
task judges a few decisions and sends the next run to the back of the queue.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import tasks
from games.actions import analysis as actions_analysis
from games.after_commit.analysis import ANALYSE_TASK
from games.models import AnalysisStatus, MatchAnalysis
from tests.play import finished_match

pytestmark = pytest.mark.django_db

QUEUED_PER_PERSON = 2
RULES = "familie"  # one deal: the shortest match there is


@pytest.fixture(autouse=True)
def two_each(settings):
    settings.ANALYSIS_QUEUED_PER_PERSON = QUEUED_PER_PERSON
    settings.ANALYSIS_DECISIONS_PER_RUN = 4


@pytest.fixture
def worker(sent_tasks, django_capture_on_commit_callbacks):
    """Runs the queued analysis tasks in the order they were sent, each one's own tasks sent after its
    commits, until `done()` (or the queue is empty); calls `after_each()` after every run."""
    def run(done=lambda: False, after_each=lambda: None) -> None:
        while not done():
            index = next((i for i, (name, _, _) in enumerate(sent_tasks) if name == ANALYSE_TASK), None)
            if index is None:
                return
            _, args, _ = sent_tasks.pop(index)
            with django_capture_on_commit_callbacks(execute=True):
                tasks.analyse_match(*args)
            after_each()

    return run


def matches_ended(django_capture_on_commit_callbacks, maker, opponent, seeds) -> list[int]:
    """Matches `maker` made and played to the end, each end's commit queueing its analysis."""
    with django_capture_on_commit_callbacks(execute=True):
        return [finished_match(maker, [opponent], rules=RULES, seed=seed).pk for seed in seeds]


def began(match_ids) -> list[int]:
    """Those of `match_ids` whose analysis has judged anything."""
    return list(MatchAnalysis.objects.filter(pk__in=match_ids, next_seq__gt=0).values_list("pk", flat=True))


def queued_or_running(match_ids) -> int:
    return MatchAnalysis.objects.filter(pk__in=match_ids, status=AnalysisStatus.PENDING).count()


def test_one_persons_many_matches_leave_anothers_analysis_to_be_judged_beside_only_two_of_theirs(
        alice, bob, charlie, worker, django_capture_on_commit_callbacks):
    alices = matches_ended(django_capture_on_commit_callbacks, alice, bob, range(6))
    charlies = matches_ended(django_capture_on_commit_callbacks, charlie, bob, [7])[0]
    most_at_once = []

    worker(done=lambda: began([charlies]), after_each=lambda: most_at_once.append(queued_or_running(alices)))

    assert len(began(alices)) <= QUEUED_PER_PERSON, "Charlie's analysis waited behind all of Alice's"

    worker(done=lambda: MatchAnalysis.objects.filter(pk=charlies, status=AnalysisStatus.READY).exists(),
           after_each=lambda: most_at_once.append(queued_or_running(alices)))

    assert max(most_at_once) <= QUEUED_PER_PERSON
    assert MatchAnalysis.objects.filter(pk__in=alices, status=AnalysisStatus.WAITING).exists()

    worker(after_each=lambda: most_at_once.append(queued_or_running(alices)))  # and then the rest, in turn

    assert MatchAnalysis.objects.filter(pk__in=alices, status=AnalysisStatus.READY).count() == 6
    assert max(most_at_once) <= QUEUED_PER_PERSON


def test_a_waiting_analysis_asked_for_by_someone_else_who_played_it_is_queued_on_their_turn(
        alice, bob, sent_tasks, django_capture_on_commit_callbacks):
    alices = matches_ended(django_capture_on_commit_callbacks, alice, bob, range(4))
    for args in [args for name, args, _ in sent_tasks if name == ANALYSE_TASK]:
        tasks.analyse_match(*args)  # each begun: two queued, two waiting
    waiting = list(MatchAnalysis.objects.filter(pk__in=alices, status=AnalysisStatus.WAITING)
                   .order_by("pk").values_list("pk", flat=True))
    assert len(waiting) == 2
    sent_tasks.clear()
    as_alice, as_bob = Client(), Client()
    as_alice.force_login(alice)
    as_bob.force_login(bob)

    with django_capture_on_commit_callbacks(execute=True):
        hers = as_alice.get(f"/api/tables/{waiting[0]}/analysis").json()
        his = as_bob.get(f"/api/tables/{waiting[1]}/analysis").json()

    assert hers["status"] == AnalysisStatus.WAITING  # her own two are being judged: hers waits its turn
    assert his["status"] == AnalysisStatus.PENDING  # Bob's turn: he had none queued
    assert [args for name, args, _ in sent_tasks if name == ANALYSE_TASK] == [(waiting[1], 0)]


def test_the_sweeper_queues_each_persons_oldest_waiting_ones_as_their_queue_empties(
        alice, bob, charlie, sent_tasks, django_capture_on_commit_callbacks):
    alices = matches_ended(django_capture_on_commit_callbacks, alice, bob, range(5))
    charlies = matches_ended(django_capture_on_commit_callbacks, charlie, bob, range(5, 8))
    for args in [args for name, args, _ in sent_tasks if name == ANALYSE_TASK]:
        tasks.analyse_match(*args)  # each begun: two of each queued, the rest waiting
    sent_tasks.clear()
    # Alice's two finished since (their "next one" lost with a worker); Charlie's two still run.
    MatchAnalysis.objects.filter(pk__in=alices, status=AnalysisStatus.PENDING).update(
        status=AnalysisStatus.READY, computed_at=timezone.now())
    MatchAnalysis.objects.filter(pk__in=alices + charlies).update(created_at=timezone.now() - timedelta(minutes=5))

    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_analyses()

    queued = sorted(args[0] for name, args, _ in sent_tasks if name == ANALYSE_TASK)
    assert queued == sorted(alices[2:4])  # Alice's two oldest waiting; Charlie has no room yet
    assert queued_or_running(alices) == 2 and queued_or_running(charlies) == 2


def test_the_replay_page_says_a_waiting_analysis_waits_its_turn_in_the_readers_language(
        alice, bob, sent_tasks, django_capture_on_commit_callbacks):
    alices = matches_ended(django_capture_on_commit_callbacks, alice, bob, range(3))
    for args in [args for name, args, _ in sent_tasks if name == ANALYSE_TASK]:
        tasks.analyse_match(*args)
    waiting = alices[2]

    english = Client().get(f"/tables/{waiting}/replay/", headers={"Accept-Language": "en"}).content.decode()
    romanian = Client().get(f"/tables/{waiting}/replay/", headers={"Accept-Language": "ro"}).content.decode()

    assert 'data-status="waiting"' in english and "waits its turn" in english
    assert "își așteaptă rândul" in romanian
    assert "Bots made every choice" not in english


@pytest.mark.django_db(transaction=True)
def test_matches_whose_analyses_begin_at_once_still_queue_two(alice, bob, sent_tasks):
    from tests.chat.test_chat_burst import at_once

    alices = [finished_match(alice, [bob], rules=RULES, seed=seed).pk for seed in range(6)]

    at_once(len(alices), lambda number: actions_analysis.begin_analysis(alices[number]))

    assert queued_or_running(alices) == QUEUED_PER_PERSON
    assert MatchAnalysis.objects.filter(pk__in=alices, status=AnalysisStatus.WAITING).count() == 4
