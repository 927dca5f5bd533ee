"""The analysis task: each person's decisions judged once, bots' moves left alone, only after the end."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import actions, tasks
from games.after_commit.analysis import ANALYSE_TASK
from games.engine import rules_for
from games.models import Actor, AnalysisStatus, Match, MatchAnalysis, Move
from tests.bots.conftest import match_of, table_against_a_bot
from tests.play import finished_match, pick_move, play_moves, seated_table

from .conftest import analysed


def person_decisions(match) -> list[int]:
    """The seqs where a person chose among more than one legal move."""
    game = rules_for(match.table.rules).new_game(players=match.table.players, options=match.table.options,
                                                 seed=int(match.seed))
    seqs = []
    for move in Move.objects.filter(match=match).order_by("seq"):
        if move.actor == Actor.PERSON and len(game.view(move.seat)["legal_moves"]) > 1:
            seqs.append(move.seq)
        game = game.play(move.move)
    return seqs


def test_the_end_of_a_match_queues_its_analysis_after_commit(django_capture_on_commit_callbacks, alice, bob,
                                                              sent_tasks):
    with django_capture_on_commit_callbacks(execute=True):
        match = finished_match(alice, [bob])

    assert [args for name, args, _ in sent_tasks if name == ANALYSE_TASK] == [(match.pk, 0)]


def test_every_decision_of_each_person_is_judged_once_and_totalled(alice, bob, analyse):
    match = finished_match(alice, [bob])

    analyse(match.pk)

    analysis = analysed(match.pk)
    assert analysis.status == AnalysisStatus.READY and analysis.computed_at is not None
    assert [entry["seq"] for entry in analysis.decisions] == person_decisions(match)
    for seat in (0, 1):
        costs = [entry["cost"] for entry in analysis.decisions if entry["seat"] == seat]
        assert analysis.totals[seat]["given_away"] == pytest.approx(sum(costs), abs=0.01)
        assert analysis.totals[seat]["decisions"] == len(costs)


def test_run_twice_it_stores_one_analysis(alice, bob, analyse):
    match = finished_match(alice, [bob])
    analyse(match.pk)
    first = analysed(match.pk)

    assert tasks.analyse_match(match.pk, 0) is False
    assert tasks.analyse_match(match.pk, first.next_seq) is False

    again = analysed(match.pk)
    assert MatchAnalysis.objects.filter(pk=match.pk).count() == 1
    assert again.decisions == first.decisions and again.computed_at == first.computed_at


def test_a_chunk_delivered_twice_is_stored_once(alice, bob, analyse, django_capture_on_commit_callbacks):
    match = finished_match(alice, [bob])

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.analyse_match(match.pk, 0) is True
    assert tasks.analyse_match(match.pk, 0) is False  # the cursor moved on: a late copy of the first run
    ran = analyse(match.pk, analysed(match.pk).next_seq)  # the continuation, and a second copy of it

    assert False in ran
    seqs = [entry["seq"] for entry in analysed(match.pk).decisions]
    assert seqs == sorted(set(seqs)) == person_decisions(match)


def test_the_same_seed_judges_the_same(alice, bob, analyse):
    match = finished_match(alice, [bob])
    analyse(match.pk)
    first = analysed(match.pk).decisions
    MatchAnalysis.objects.filter(pk=match.pk).delete()

    analyse(match.pk)

    assert analysed(match.pk).decisions == first


def test_an_unfinished_match_is_not_analysed(alice, bob, sent_tasks):
    table = seated_table(alice, [bob])
    play_moves(table, 3)

    assert tasks.analyse_match(table.pk, 0) is False
    assert not MatchAnalysis.objects.filter(pk=table.pk).exists()
    assert not sent_tasks


def test_bot_moves_are_not_judged(alice, analyse):
    table = table_against_a_bot(alice)
    rng = random.Random(5)
    while match_of(table).to_move is not None:
        match = match_of(table)
        if match.to_move == 0:
            actions.play_move(table.pk, alice, match.seq, pick_move(match.game().view(0), rng))
        else:
            tasks.bot_turn(table.pk, match.seq)
    match = match_of(table)

    analyse(match.pk)

    analysis = analysed(match.pk)
    assert analysis.decisions and {entry["seat"] for entry in analysis.decisions} == {0}
    assert analysis.totals[1] == {"seat": 1, "given_away": 0.0, "decisions": 0, "costly": 0}

    page = Client().get(f"/tables/{match.pk}/replay/").content.decode()
    totals = page[page.index('class="analysis-totals"'):page.index("</table>")]
    assert totals.count('<th scope="row">') == 1 and "Alice" in totals  # the bot's seat has no row


def test_the_sweeper_queues_again_what_stopped_or_never_began_and_leaves_what_moves_on(alice, bob, sent_tasks):
    from datetime import timedelta

    from django.utils import timezone

    long_ago = timezone.now() - timedelta(seconds=tasks.LOST_ANALYSIS_SECONDS + 60)
    stopped, moving, never_begun, ready = (finished_match(alice, [bob], seed=seed) for seed in range(4))
    Match.objects.filter(pk__in=[stopped.pk, moving.pk, never_begun.pk, ready.pk]).update(finished_at=long_ago)
    for match, stored_at, status in ((stopped, long_ago, AnalysisStatus.PENDING),
                                     (moving, timezone.now(), AnalysisStatus.PENDING),
                                     (ready, long_ago, AnalysisStatus.READY)):
        MatchAnalysis.objects.update_or_create(match=match, defaults={
            "created_at": long_ago, "stored_at": stored_at, "next_seq": 5, "status": status})
    MatchAnalysis.objects.filter(pk=never_begun.pk).delete()
    sent_tasks.clear()

    assert tasks.sweep_analyses() == 2

    assert sorted(args for name, args, _ in sent_tasks if name == ANALYSE_TASK) == sorted(
        [(stopped.pk, 5), (never_begun.pk, 0)])


def test_a_run_told_to_judge_no_decision_still_judges_one(alice, bob, settings, analyse):
    settings.ANALYSIS_DECISIONS_PER_RUN = 0
    match = finished_match(alice, [bob])

    assert tasks.analyse_match(match.pk, 0) is True
    assert analysed(match.pk).next_seq > 0 and len(analysed(match.pk).decisions) == 1


def test_a_queue_of_their_own_takes_every_run_when_one_is_named(alice, bob, settings, sent_tasks,
                                                                  django_capture_on_commit_callbacks):
    settings.ANALYSIS_QUEUE = "analysis"
    with django_capture_on_commit_callbacks(execute=True):
        match = finished_match(alice, [bob])
        tasks.analyse_match(match.pk, 0)

    runs = [options for name, _, options in sent_tasks if name == ANALYSE_TASK]
    assert len(runs) == 2 and all(options["queue"] == "analysis" for options in runs)
    assert all(options.get("queue") != "analysis" for name, _, options in sent_tasks if name != ANALYSE_TASK)
