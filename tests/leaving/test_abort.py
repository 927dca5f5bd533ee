"""Aborting: alone before the second trick (septica, familie) or the fifth turn (americana);
afterwards by a request every other person at the table must accept. Aborted matches leave no outcome."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.leaving_rules import abort_alone_allowed
from games.models import AbortRequest, Match, Table, TableStatus
from players.models import Outcome
from tests.play import play_moves, start_table

pytestmark = pytest.mark.django_db


def abort_url(table):
    return f"/api/tables/{table.pk}/abort"


def answer_url(table):
    return f"/api/tables/{table.pk}/abort/answer"


def play_until(table, done, limit=200):
    """Legal moves until `done(view)` holds for the spectator's view."""
    for _ in range(limit):
        match = Match.objects.get(pk=table.pk)
        if done(match.game().view(None)):
            return match
        play_moves(table, count=1)
    raise AssertionError("never got there")


def past_the_young_part(table):
    return play_until(table, lambda view: not abort_alone_allowed(table.rules, view))


# --- alone ---------------------------------------------------------------------------------
def test_any_seated_person_aborts_alone_before_the_second_trick(alice, bob, post, get):
    table = start_table(alice, [bob])
    play_moves(table, count=1)
    assert get(bob, f"/api/tables/{table.pk}").json()["may_abort"] == "alone"

    answer = post(bob, abort_url(table))

    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["abort"] == "aborted" and data["status"] == "aborted"
    assert data["abort_reason"] == "Aborted by Bob before the second trick."
    assert "seed" not in data  # no end: the seed stays secret, as at a moderator's abort
    assert not Outcome.objects.filter(match_id=table.pk).exists()  # unrated, nothing recorded


def test_septica_stays_young_while_the_first_trick_is_taken_and_not_after_the_next_lead(alice, bob):
    table = start_table(alice, [bob])
    taken = play_until(table, lambda view: any(e["type"] == "take" for e in view["log"]))
    assert abort_alone_allowed("septica", taken.game().view(None))  # the second trick has not begun
    play_moves(table, count=1)  # its lead
    assert not abort_alone_allowed("septica", Match.objects.get(pk=table.pk).game().view(None))


def test_familie_is_young_until_the_second_trick(alice, bob):
    table = start_table(alice, [bob], rules="familie")
    assert abort_alone_allowed("familie", Match.objects.get(pk=table.pk).game().view(None))
    match = past_the_young_part(table)
    takes = sum(entry["type"] == "take" for entry in match.game().view(None)["log"])
    assert takes == 1 and match.game().view(None)["table"]  # the second trick's first card is down


def test_americana_is_young_for_four_turns_and_not_on_the_fifth(alice, bob, charlie):
    table = start_table(alice, [bob, charlie], rules="americana", players=3)
    match = past_the_young_part(table)
    seats = [entry["seat"] for entry in match.game().view(None)["log"]
             if entry["type"] in ("play", "draw", "pass") and entry["seat"] is not None]
    turns = sum(1 for i, seat in enumerate(seats) if i == 0 or seats[i - 1] != seat)
    assert turns == 5


def test_a_person_against_bots_alone_may_abort_at_any_time(alice):
    table = actions.create_table(alice, rules="septica", players=2, bots=[actions.BotSpec(seat=1)])
    game = Match.objects.get(pk=table.pk).game()
    while abort_alone_allowed("septica", game.view(None)):
        game = game.play(game.legal_moves()[0])
    Match.objects.filter(pk=table.pk).update(state=game.to_state(), to_move=game.to_move)

    assert actions.abort(table.pk, alice) == "aborted"
    assert "nobody else" in Match.objects.get(pk=table.pk).abort_reason


# --- by consent ------------------------------------------------------------------------------
def test_later_an_abort_is_a_request_which_everyone_else_accepting_ends_the_match(alice, bob, post, get):
    table = start_table(alice, [bob], seconds_per_move=120)
    past_the_young_part(table)
    assert get(alice, f"/api/tables/{table.pk}").json()["may_abort"] == "ask"

    asked = post(alice, abort_url(table)).json()

    assert asked["abort"] == "asked" and asked["status"] == "playing"
    assert asked["abort_request"]["asked_by"] == "Alice" and asked["abort_request"]["you_may_answer"] is False
    assert asked["may_abort"] is None
    request = AbortRequest.objects.get(table=table)
    assert timedelta(seconds=118) < request.expires_at - timezone.now() <= timedelta(seconds=120)
    bobs = get(bob, f"/api/tables/{table.pk}").json()
    assert bobs["abort_request"]["you_may_answer"] is True and bobs["abort_request"]["answered"] == []

    answered = post(bob, answer_url(table), {"accept": True}).json()

    assert answered["abort"] == "aborted" and answered["status"] == "aborted"
    assert "Alice" in answered["abort_reason"]
    assert AbortRequest.objects.get(table=table).status == "accepted"
    assert not Outcome.objects.filter(match_id=table.pk).exists()


def test_one_decline_of_three_ends_the_request_and_the_match_goes_on(alice, bob, charlie, post, get):
    table = start_table(alice, [bob, charlie], players=3)
    past_the_young_part(table)
    seq = Match.objects.get(pk=table.pk).seq
    post(alice, abort_url(table))

    waiting = post(bob, answer_url(table), {"accept": True}).json()
    assert waiting["abort"] == "waiting" and waiting["abort_request"]["answered"] == [1]
    declined = post(charlie, answer_url(table), {"accept": False}).json()

    assert declined["abort"] == "declined" and declined["abort_request"] is None
    assert declined["status"] == "playing" and Match.objects.get(pk=table.pk).seq == seq
    assert AbortRequest.objects.get(table=table).status == "declined"
    assert get(alice, f"/api/tables/{table.pk}").json()["may_abort"] == "ask"  # may ask again


def test_an_open_request_does_not_stop_the_match(alice, bob, post):
    table = start_table(alice, [bob])
    past_the_young_part(table)
    post(alice, abort_url(table))
    before = Match.objects.get(pk=table.pk).seq
    play_moves(table, count=2)
    assert Match.objects.get(pk=table.pk).seq == before + 2


def test_an_expired_request_cannot_be_answered_and_is_stored_as_expired(alice, bob, post, get):
    table = start_table(alice, [bob])
    past_the_young_part(table)
    post(alice, abort_url(table))
    AbortRequest.objects.filter(table=table).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert get(bob, f"/api/tables/{table.pk}").json()["abort_request"] is None  # over the moment it expires

    answer = post(bob, answer_url(table), {"accept": True})

    assert answer.status_code == 409 and "expired" in answer.json()["error"]
    assert answer.json()["code"] == "no_abort_request"
    assert AbortRequest.objects.get(table=table).status == "expired"
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_the_expiry_task_is_sent_by_name_and_is_idempotent(alice, bob, sent_tasks, django_capture_on_commit_callbacks):
    table = start_table(alice, [bob], seconds_per_move=60)
    past_the_young_part(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.abort(table.pk, alice) == "asked"
    request = AbortRequest.objects.get(table=table)
    assert ("games.tasks.expire_abort_request", (request.pk,)) in [(name, args) for name, args, _ in sent_tasks]

    assert actions.expire_abort_request(request.pk) is False  # too early: nothing changes
    AbortRequest.objects.filter(pk=request.pk).update(expires_at=timezone.now())
    assert actions.expire_abort_request(request.pk) is True
    assert actions.expire_abort_request(request.pk) is False  # delivered twice: harmless
    assert AbortRequest.objects.get(pk=request.pk).status == "expired"


def test_a_request_left_open_when_the_match_ends_is_withdrawn(alice, bob):
    table = start_table(alice, [bob])
    past_the_young_part(table)
    actions.abort(table.pk, alice)
    actions.resign(table.pk, bob)
    assert AbortRequest.objects.get(table=table).status == "withdrawn"


# --- refusals ------------------------------------------------------------------------------
def test_aborting_someone_elses_table_is_refused(alice, bob, charlie, post):
    table = start_table(alice, [bob])
    answer = post(charlie, abort_url(table))
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_aborting_a_finished_match_is_refused(alice, bob, post):
    table = start_table(alice, [bob])
    actions.resign(table.pk, bob)
    answer = post(alice, abort_url(table))
    assert answer.status_code == 409 and answer.json()["code"] == "match_over"
    assert Table.objects.get(pk=table.pk).status == TableStatus.FINISHED


def test_consent_from_a_non_player_is_refused(alice, bob, charlie, post):
    table = start_table(alice, [bob])
    past_the_young_part(table)
    post(alice, abort_url(table))
    answer = post(charlie, answer_url(table), {"accept": True})
    assert answer.status_code == 403
    assert AbortRequest.objects.get(table=table).status == "open"


def test_answering_twice_or_ones_own_request_is_refused(alice, bob, charlie, post):
    table = start_table(alice, [bob, charlie], players=3)
    past_the_young_part(table)
    post(alice, abort_url(table))
    assert post(bob, answer_url(table), {"accept": True}).status_code == 200

    twice = post(bob, answer_url(table), {"accept": False})
    own = post(alice, answer_url(table), {"accept": True})

    assert twice.status_code == 409 and twice.json()["code"] == "already_answered"
    assert own.status_code == 403 and own.json()["code"] == "not_asked"
    assert AbortRequest.objects.get(table=table).status == "open"


def test_a_second_request_while_one_is_open_is_refused(alice, bob, charlie, post):
    table = start_table(alice, [bob, charlie], players=3)
    past_the_young_part(table)
    post(alice, abort_url(table))
    answer = post(bob, abort_url(table))
    assert answer.status_code == 409 and answer.json()["code"] == "abort_already_asked"
    assert AbortRequest.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("body", [{}, {"accept": "yes"}, {"accept": 1}])
def test_an_answer_must_be_true_or_false(alice, bob, post, body):
    table = start_table(alice, [bob])
    past_the_young_part(table)
    post(alice, abort_url(table))
    answer = post(bob, answer_url(table), body)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_accept"
    assert not AbortRequest.objects.get(table=table).answers.exists()


def test_answering_when_nobody_asked_is_refused(alice, bob, post):
    table = start_table(alice, [bob])
    answer = post(bob, answer_url(table), {"accept": True})
    assert answer.status_code == 409 and answer.json()["error"] == "Nobody has asked to abort this match."
