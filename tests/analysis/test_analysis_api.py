"""GET /api/tables/<id>/analysis: refused before the end, pending while computed, then each person's
costly moves, the three biggest and per-player totals, in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client

from games import actions
from games.after_commit.analysis import ANALYSE_TASK
from games.models import AnalysisStatus, MatchAnalysis
from tests.play import finished_match, play_moves, seated_table

from .conftest import analysed

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def analysis_of(client: Client, table_id: int, **headers):
    return client.get(f"/api/tables/{table_id}/analysis", headers=headers)


def test_before_the_end_it_is_refused_and_nothing_is_begun(alice, bob, sent_tasks):
    table = seated_table(alice, [bob])
    play_moves(table, count=3)

    answer = analysis_of(logged_in(alice), table.pk)

    assert answer.status_code == 409 and answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "match_not_over" and answer.json()["error"]
    assert not MatchAnalysis.objects.exists()
    assert not [name for name, _, _ in sent_tasks if name == ANALYSE_TASK]


def test_an_aborted_match_has_none(alice, bob):
    table = seated_table(alice, [bob])
    assert actions.abort(table.pk, alice) == "aborted"

    answer = analysis_of(logged_in(alice), table.pk)

    assert answer.status_code == 409 and answer.json()["code"] == "match_aborted"
    assert not MatchAnalysis.objects.exists()


def test_a_table_you_may_not_see_is_a_404(alice, bob, charlie):
    match = finished_match(alice, [bob], private=True)

    assert analysis_of(logged_in(charlie), match.pk).status_code == 404
    assert analysis_of(Client(), 999_999).json()["error"]
    assert analysis_of(logged_in(bob), match.pk).status_code == 200


def test_pending_then_ready_with_totals_and_the_three_biggest(alice, bob, analyse):
    match = finished_match(alice, [bob])

    pending = analysis_of(Client(), match.pk).json()
    assert pending["status"] == "pending" and pending["judged"] == 0
    assert pending["totals"] is None and pending["biggest"] == [] and pending["computed_at"] is None

    analyse(match.pk)
    ready = analysis_of(Client(), match.pk).json()

    stored = analysed(match.pk)
    assert ready["status"] == "ready" and ready["judged"] == len(stored.decisions) > 0
    assert [entry["seq"] for entry in ready["decisions"]] == sorted(entry["seq"] for entry in ready["decisions"])
    assert [(total["seat"], total["name"]) for total in ready["totals"]] == [(0, "Alice"), (1, "Bob")]
    for total in ready["totals"]:
        mine = [entry for entry in ready["decisions"] if entry["seat"] == total["seat"]]
        assert total["decisions"] == len(mine)
        assert total["given_away"] == pytest.approx(sum(entry["cost"] for entry in mine), abs=0.01)
        assert total["costly"] == sum(entry["costly"] for entry in mine)
        assert total["words"]
    costly = sorted((entry for entry in ready["decisions"] if entry["costly"]), key=lambda entry: -entry["cost"])
    assert [entry["seq"] for entry in ready["biggest"]] == [entry["seq"] for entry in costly[:3]]
    for entry in ready["decisions"]:
        assert entry["costly"] == (entry["cost"] >= ready["costly_from"] and entry["cost"] >= 2 * entry["error"])
        if entry["chosen"] == entry["best"]:
            assert entry["cost"] == 0 and entry["words"] is None
        if entry["words"] is not None:
            assert entry["words"]["why"] and entry["words"]["cost"]


def test_the_words_follow_the_readers_language(alice, bob, analyse):
    match = finished_match(alice, [bob])
    analyse(match.pk)

    english = analysis_of(Client(), match.pk, **{"Accept-Language": "en"}).json()
    romanian = analysis_of(Client(), match.pk, **{"Accept-Language": "ro"}).json()

    said = [entry for entry in english["decisions"] if entry["words"]]
    assert said, "a random player's match has moves the Master would not make"
    assert [entry["seq"] for entry in romanian["decisions"]] == [entry["seq"] for entry in english["decisions"]]
    assert english["totals"][0]["words"] != romanian["totals"][0]["words"]
    assert all(entry["words"]["why"] != romanian_entry["words"]["why"]
               for entry, romanian_entry in zip(english["decisions"], romanian["decisions"], strict=True)
               if entry["words"])


def test_a_finished_match_without_one_has_it_begun_by_its_first_read_once(alice, bob, sent_tasks,
                                                                           django_capture_on_commit_callbacks):
    match = finished_match(alice, [bob])
    MatchAnalysis.objects.filter(pk=match.pk).delete()
    sent_tasks.clear()

    with django_capture_on_commit_callbacks(execute=True):
        first = analysis_of(Client(), match.pk).json()
        analysis_of(Client(), match.pk)

    assert first["status"] == AnalysisStatus.PENDING
    assert [args for name, args, _ in sent_tasks if name == ANALYSE_TASK] == [(match.pk, 0)]
    assert MatchAnalysis.objects.filter(pk=match.pk).count() == 1
