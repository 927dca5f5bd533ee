"""A finished match leaves each person an outcome, and a rated one moves their ratings."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.actions import moderation
from games.actions.finish import record_finished
from games.models import Actor, Match, Seat, Table, TableStatus
from players.models import Outcome, Rating
from players.outcomes import SeatResult, record_match
from players.skill import PROVISIONAL_UNTIL, START_MU, START_SIGMA, is_provisional
from tests.play import pick_move, play_moves, start_table

pytestmark = pytest.mark.django_db


def rating(user, rules="septica") -> Rating:
    return Rating.objects.get(user=user, rules=rules)


def outcomes_of(table) -> dict[str, Outcome]:
    return {outcome.user.username: outcome for outcome in Outcome.objects.filter(match_id=table.pk).select_related("user")}


def test_a_rated_match_of_two_moves_the_winner_up_and_the_loser_down(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    assert table.rated
    match = play_moves(table)
    winner, loser = (alice, bob) if match.result["winners"] == [0] else (bob, alice)

    assert rating(winner).mu > START_MU > rating(loser).mu
    assert rating(winner).shown > rating(loser).shown
    assert (rating(winner).rated_matches, rating(loser).rated_matches) == (1, 1)
    assert rating(winner).last_rated_at == match.finished_at
    outcomes = outcomes_of(table)
    assert (outcomes[winner.username].place, outcomes[loser.username].place) == (1, 2)
    assert outcomes[winner.username].won and not outcomes[loser.username].won
    for person in (winner, loser):
        outcome = outcomes[person.username]
        assert outcome.rated and outcome.players == 2 and outcome.rules == "septica"
        assert (outcome.mu_before, outcome.sigma_before) == (START_MU, START_SIGMA)
        assert (outcome.mu_after, outcome.sigma_after, outcome.shown_after) == (
            rating(person).mu, rating(person).sigma, rating(person).shown)
        assert outcome.shown_before == 1000


def test_the_next_match_starts_from_where_the_last_left_the_rating(alice, bob):
    first = start_table(alice, [bob], options={"match": "points-8"})
    play_moves(first)
    after_first = rating(alice).mu
    second = start_table(alice, [bob], options={"match": "points-8"})
    play_moves(second, seed=2)

    assert outcomes_of(second)["alice"].mu_before == after_first
    assert rating(alice).rated_matches == 2
    assert rating(alice).mu == outcomes_of(second)["alice"].mu_after


def test_a_free_for_all_of_three_rates_every_person_by_place(people):
    alice, bob, charlie = people[:3]
    table = start_table(alice, [bob, charlie], rules="familie", players=3)
    match = play_moves(table)
    outcomes = outcomes_of(table)
    places = sorted((outcome.place, outcome.mu_after) for outcome in outcomes.values())

    assert len(outcomes) == 3 and all(outcome.rated for outcome in outcomes.values())
    assert [outcome.place for outcome in outcomes.values() if outcome.won] == [1] * len(match.result["winners"])
    # Better places end higher: everyone started alike.
    assert [mu for _, mu in places] == sorted((mu for _, mu in places), reverse=True)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_free_for_all_with_a_tie_moves_the_tied_people_alike(people, players):
    """Seats 1 and 2 tie for second; the others place after them, one by one."""
    tables = start_table(people[0], people[1:players], rules="familie", players=players)
    places = [1, 2, 2] + list(range(4, players + 1))
    results = [SeatResult(user_id=people[seat].pk, seat=seat, side=seat, place=place, won=place == 1)
               for seat, place in enumerate(places)]

    assert record_match(tables.pk, "familie", timezone.now(), results, rated=True)
    after = [rating(person, "familie") for person in people[:players]]
    assert (after[1].mu, after[1].sigma) == (after[2].mu, after[2].sigma)
    # The winner gains most and the last loses most. (In between, openskill's
    # Plackett-Luce with a tie is not strictly in place order: with six, the
    # fourth gains a little more than the two tied second.)
    assert after[0].mu == max(rating.mu for rating in after) > START_MU
    assert after[-1].mu == min(rating.mu for rating in after) < START_MU
    assert Outcome.objects.filter(match_id=tables.pk, rated=True).count() == players


def test_partners_move_together_and_share_their_place(people):
    alice, bob, charlie, dave = people[:4]
    table = start_table(alice, [bob, charlie, dave], players=4)
    assert table.options["teams"]
    match = play_moves(table)
    outcomes = outcomes_of(table)
    # Seats 0 and 2 are partners, as are 1 and 3 (joined in that order).
    by_seat = {outcome.seat: outcome for outcome in outcomes.values()}

    for partner, other in ((0, 2), (1, 3)):
        assert by_seat[partner].place == by_seat[other].place
        assert by_seat[partner].won == by_seat[other].won
        assert (by_seat[partner].mu_after, by_seat[partner].sigma_after) == (
            by_seat[other].mu_after, by_seat[other].sigma_after)
    winners = set(match.result["winners"])
    assert {seat for seat, outcome in by_seat.items() if outcome.won} == winners
    assert {outcome.place for outcome in outcomes.values()} == {1, 2}


def test_a_casual_table_of_people_records_outcomes_but_changes_no_rating(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"}, rated=False)
    play_moves(table)

    assert not table.rated
    assert {outcome.rated for outcome in outcomes_of(table).values()} == {False}
    assert all(outcome.shown_after is None for outcome in outcomes_of(table).values())
    assert not Rating.objects.exists()


def test_a_table_with_a_bot_is_casual_and_the_bot_keeps_no_outcome(alice):
    table = actions.create_table(alice, rules="septica", players=2, options={"match": "points-8"},
                                 bots=[actions.BotSpec(seat=1)], rated=True)
    assert not table.rated
    match = Match.objects.get(pk=table.pk)
    game = match.game()
    rng = random.Random(3)
    while not game.finished:
        move = pick_move({"legal_moves": game.legal_moves()}, rng)
        if game.to_move == 0:
            match, game = actions.play_move(table.pk, alice, match.seq, move)
        else:
            match, game = actions.play_for_seat(table.pk, 1, match.seq, move, Actor.BOT)

    assert list(Outcome.objects.filter(match_id=table.pk).values_list("user__username", "rated")) == [("alice", False)]
    assert not Rating.objects.exists()


def test_a_match_a_moderator_aborts_records_nothing(alice, bob, make_user):
    moderator = make_user("mod", is_superuser=True, is_staff=True)
    table = start_table(alice, [bob], options={"match": "points-8"})
    play_moves(table, count=20)
    moderation.abort_table(moderator, table.pk, "Both players asked for it.")

    assert Table.objects.get(pk=table.pk).status == TableStatus.ABORTED
    assert not Outcome.objects.exists() and not Rating.objects.exists()


def test_a_seat_a_bot_stood_in_for_keeps_its_persons_result(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    match = Match.objects.get(pk=table.pk)
    game = match.game()
    rng = random.Random(5)
    stood_in = 0
    while not game.finished:
        move = pick_move({"legal_moves": game.legal_moves()}, rng)
        if game.to_move == 1 and stood_in < 3:  # bob's clock runs out; a bot plays his next three turns
            if stood_in == 0:
                Match.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=5))
                assert actions.time_out_turn(table.pk, match.seq)
            match, game = actions.play_for_seat(table.pk, 1, match.seq, move, Actor.TIMEOUT)
            stood_in += 1
        else:  # and then he takes his seat back by playing
            user = alice if game.to_move == 0 else bob
            match, game = actions.play_move(table.pk, user, match.seq, move)

    outcomes = outcomes_of(table)
    assert outcomes["bob"].stood_in_turns == 3 and outcomes["alice"].stood_in_turns == 0
    assert outcomes["bob"].rated and rating(bob).rated_matches == 1
    assert outcomes["bob"].won == (match.result["winners"] == [1])


def test_recording_a_match_twice_changes_nothing_the_second_time(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    match = play_moves(table)
    before = list(Rating.objects.order_by("pk").values())
    outcomes = list(Outcome.objects.order_by("pk").values())

    seats = list(Seat.objects.filter(table=table))
    assert not record_finished(match, Table.objects.get(pk=table.pk), seats)
    assert list(Rating.objects.order_by("pk").values()) == before
    assert list(Outcome.objects.order_by("pk").values()) == outcomes


def test_a_rating_is_provisional_until_ten_rated_matches(alice, bob):
    for number in range(PROVISIONAL_UNTIL):
        play_moves(start_table(alice, [bob], options={"match": "points-8"}), seed=number)
        if number == PROVISIONAL_UNTIL - 2:
            assert rating(alice).rated_matches == PROVISIONAL_UNTIL - 1
            assert is_provisional(rating(alice).rated_matches)

    assert rating(alice).rated_matches == rating(bob).rated_matches == PROVISIONAL_UNTIL
    assert not is_provisional(rating(alice).rated_matches)
    assert rating(alice).sigma < START_SIGMA and rating(bob).sigma < START_SIGMA
