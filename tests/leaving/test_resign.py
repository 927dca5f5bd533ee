"""Resigning: two players and teams lose at once; in a free-for-all a bot plays the seat to the end
and the resigner ranks last. Through the actions and POST /api/tables/<id>/moves."""

from __future__ import annotations

import random

import pytest

from games import actions
from games.engine.bots import choose_move
from games.models import Actor, Match, Move, Seat, Table, TableStatus
from games.replay import verify
from players.models import Outcome
from tests.play import pick_move, play_moves, start_table

pytestmark = pytest.mark.django_db


def resign_move(seq=0):
    return {"seq": seq, "move": {"type": "resign"}}


def moves_url(table):
    return f"/api/tables/{table.pk}/moves"


def finish_by_bots_and_people(table, seed=3):
    """Play to the end: people move through play_move, resigned seats through the bot's own path."""
    rng = random.Random(seed)
    while True:
        match = Match.objects.select_related("table").get(pk=table.pk)
        if match.table.status != TableStatus.PLAYING:
            return match
        turn = actions.bot_turn_for(match.pk, match.seq)
        if turn is not None:
            move = choose_move(turn.view, turn.level, turn.style, rng)
            assert actions.play_bot_turn(match.pk, match.seq, turn.seat, move, turn.actor)
            continue
        seat = Seat.objects.select_related("user").get(table=table, number=match.to_move)
        actions.play_move(table.pk, seat.user, match.seq, pick_move({"legal_moves": match.game().legal_moves()}, rng))


# --- two players, teams ------------------------------------------------------------------
def test_resigning_a_two_player_match_ends_it_at_once_and_the_other_wins(alice, bob, post):
    table = start_table(alice, [bob])
    play_moves(table, count=3)
    seq = Match.objects.get(pk=table.pk).seq

    answer = post(bob, moves_url(table), resign_move(seq=0))  # any seq: resigning is not a card move

    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["status"] == "finished"
    assert data["result"]["winners"] == [0] and data["result"]["resigned"] == [1]
    assert data["seed"]  # revealed as at any end
    assert data["may_resign"] is False and data["may_abort"] is None
    match = Match.objects.get(pk=table.pk)
    assert match.seq == seq and match.to_move is None and match.deadline is None and match.finished_at
    assert Move.objects.filter(match=match).count() == seq  # no move row: the log stays the engine's
    outcomes = {o.user_id: o for o in Outcome.objects.filter(match=match)}
    assert outcomes[alice.pk].won and outcomes[alice.pk].place == 1
    assert not outcomes[bob.pk].won and outcomes[bob.pk].resigned and outcomes[bob.pk].place == 2
    assert verify(match).ok, verify(match).line()


def test_in_teams_the_resigners_side_loses_and_both_partners_of_the_other_win(alice, bob, charlie, dave):
    table = start_table(alice, [bob, charlie, dave], players=4, options={"teams": True})
    actions.resign(table.pk, charlie)  # seat 2: partner of seat 0

    match = Match.objects.select_related("table").get(pk=table.pk)
    assert match.table.status == TableStatus.FINISHED
    assert match.result["winners"] == [1, 3] and match.result["resigned"] == [2]
    places = dict(Outcome.objects.filter(match=match).values_list("seat", "place"))
    assert places == {0: 2, 1: 1, 2: 2, 3: 1}
    assert verify(match).ok, verify(match).line()


# --- free-for-all --------------------------------------------------------------------------
def test_in_a_free_for_all_a_bot_plays_the_resigned_seat_and_the_match_goes_on(alice, bob, charlie, get):
    table = start_table(alice, [bob, charlie], players=3)
    actions.resign(table.pk, alice)  # seat 0, to move first

    seat = Seat.objects.get(table=table, number=0)
    assert seat.resigned and seat.standing_in
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING
    turn = actions.bot_turn_for(table.pk, 0)
    assert turn is not None and turn.seat == 0 and turn.actor == Actor.BOT  # not a timeout: it counts for nobody
    data = get(bob, f"/api/tables/{table.pk}").json()
    assert data["seats"][0]["resigned"] is True and data["seats"][0]["standing_in"] is True
    mine = get(alice, f"/api/tables/{table.pk}").json()
    assert mine["may_resign"] is False and mine["may_abort"] is None


def test_who_resigned_a_free_for_all_can_neither_move_nor_take_the_seat_back(alice, bob, charlie, post):
    table = start_table(alice, [bob, charlie], players=3)
    actions.resign(table.pk, alice)
    legal = Match.objects.get(pk=table.pk).game().legal_moves()[0]

    moved = post(alice, moves_url(table), {"seq": 0, "move": legal})
    back = post(alice, f"/api/tables/{table.pk}/back")
    again = post(alice, moves_url(table), resign_move())

    assert moved.status_code == 403 and "resigned" in moved.json()["error"]
    assert back.status_code == 409 and "resigned" in back.json()["error"]
    assert again.status_code == 409 and again.json()["code"] == "already_resigned"
    assert Match.objects.get(pk=table.pk).seq == 0
    assert Seat.objects.get(table=table, number=0).standing_in


def test_a_free_for_all_played_out_ranks_the_resigner_last_and_never_a_winner(alice, bob, charlie):
    table = start_table(alice, [bob, charlie], players=3, options={"match": "points-8"})
    actions.resign(table.pk, bob)

    match = finish_by_bots_and_people(table)

    assert match.table.status == TableStatus.FINISHED
    assert match.result["resigned"] == [1] and 1 not in match.result["winners"]
    places = dict(Outcome.objects.filter(match=match).values_list("seat", "place"))
    assert places[1] == 3 and max(places.values()) == 3
    assert not Outcome.objects.get(match=match, user=bob).won
    assert Outcome.objects.get(match=match, user=bob).stood_in_turns == 0  # resigning is fair: no timeout counted
    assert set(Move.objects.filter(match=match, seat=1).values_list("actor", flat=True)) <= {Actor.BOT}
    assert verify(match).ok, verify(match).line()


def test_when_all_but_one_have_resigned_the_last_one_wins_at_once(alice, bob, charlie):
    table = start_table(alice, [bob, charlie], players=3)
    actions.resign(table.pk, alice)
    actions.resign(table.pk, charlie)

    match = Match.objects.select_related("table").get(pk=table.pk)
    assert match.table.status == TableStatus.FINISHED
    assert match.result["winners"] == [1] and match.result["resigned"] == [0, 2]
    assert verify(match).ok, verify(match).line()


def test_when_only_bots_would_play_on_the_match_ends(alice, bob, make_user):
    table = actions.create_table(alice, rules="septica", players=3, bots=[actions.BotSpec(seat=2)])
    actions.join_table(table.pk, bob)
    actions.resign(table.pk, alice)
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING  # Bob still plays, against two bots
    actions.resign(table.pk, bob)

    match = Match.objects.select_related("table").get(pk=table.pk)
    assert match.table.status == TableStatus.FINISHED and match.result["winners"] == [2]


# --- refusals ------------------------------------------------------------------------------
def test_resigning_a_finished_match_is_refused_and_changes_nothing(alice, bob, post):
    table = start_table(alice, [bob])
    actions.resign(table.pk, bob)
    before = Match.objects.get(pk=table.pk).result

    answer = post(alice, moves_url(table), resign_move())

    assert answer.status_code == 409 and answer.json()["code"] == "match_over"
    assert Match.objects.get(pk=table.pk).result == before


def test_a_second_resign_of_a_two_player_match_is_refused(alice, bob, post):
    table = start_table(alice, [bob])
    assert post(bob, moves_url(table), resign_move()).status_code == 200
    answer = post(bob, moves_url(table), resign_move())
    assert answer.status_code == 409
    assert Match.objects.get(pk=table.pk).result["resigned"] == [1]


def test_someone_without_a_seat_cannot_resign(alice, bob, charlie, post):
    table = start_table(alice, [bob])
    answer = post(charlie, moves_url(table), resign_move())
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_an_outsider_of_a_private_table_is_told_it_does_not_exist(alice, bob, charlie, post):
    table = start_table(alice, [bob], private=True)
    answer = post(charlie, moves_url(table), resign_move())
    assert answer.status_code == 404
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_nobody_logged_in_cannot_resign(alice, bob, post):
    table = start_table(alice, [bob])
    assert post(None, moves_url(table), resign_move()).status_code == 401


def test_a_match_not_started_cannot_be_resigned(alice, post):
    table = actions.create_table(alice, rules="septica", players=2)
    answer = post(alice, moves_url(table), resign_move())
    assert answer.status_code == 409 and answer.json()["code"] == "not_started"
