"""The last move of a rated match, posted many times at once, rates the match once."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection
from django.test import Client

from games import actions
from games.models import Match
from players.models import Outcome, Rating
from tests.play import pick_move, post_at_once, post_move, start_table


def play_to_the_last_move(table) -> tuple[Match, int, dict]:
    """Random moves until the next one ends the match: (match, seat to move, that move)."""
    users = {seat.number: seat.user for seat in table.seats.select_related("user")}
    match = Match.objects.get(pk=table.pk)
    game, rng = match.game(), random.Random(4)
    while True:
        move = pick_move({"legal_moves": game.legal_moves()}, rng)
        if game.play(move).finished:
            return match, game.to_move, move
        match, game = actions.play_move(table.pk, users[game.to_move], match.seq, move)


@pytest.mark.django_db(transaction=True)
def test_the_last_move_of_a_rated_match_posted_twenty_times_at_once_rates_it_once(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    match, seat, last_move = play_to_the_last_move(table)
    mover = alice if seat == 0 else bob
    statuses = post_at_once(mover, table.pk, match.seq, last_move)

    assert statuses == [200] + [409] * 19
    assert Match.objects.get(pk=table.pk).result is not None
    assert sorted(Outcome.objects.filter(match_id=table.pk).values_list("user__username", "rated")) == [
        ("alice", True), ("bob", True)]
    assert list(Rating.objects.order_by("user__username").values_list("user__username", "rated_matches")) == [
        ("alice", 1), ("bob", 1)]
    # Each person's rating is what their one outcome says, so it moved once.
    for outcome in Outcome.objects.filter(match_id=table.pk):
        rating = Rating.objects.get(user_id=outcome.user_id)
        assert (rating.mu, rating.sigma) == (outcome.mu_after, outcome.sigma_after)
        assert (outcome.mu_before, outcome.shown_before) == (25.0, 1000)


@pytest.mark.django_db(transaction=True)
def test_two_rated_matches_of_one_person_ending_at_once_both_count_in_order(make_user):
    """Alice ends two matches at the same moment: neither waits for ever, both rate her,
    and the second applied starts from the first's figures."""
    alice, bob, charlie = (make_user(name) for name in ("alice", "bob", "charlie"))
    ends = []
    for other in (bob, charlie):
        table = start_table(alice, [other], options={"match": "points-8"})
        ends.append((table, *play_to_the_last_move(table)))
    start, statuses = threading.Barrier(2, timeout=30), []

    def post(table, match, seat, move):
        client = Client()
        client.force_login(alice if seat == 0 else table.seats.get(number=1).user)
        start.wait()
        try:
            statuses.append(post_move(client, table.pk, match.seq, move).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=end) for end in ends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert statuses == [200, 200]
    first, second = Outcome.objects.filter(user=alice).order_by("pk")
    assert first.mu_before == 25.0 and second.mu_before == first.mu_after
    assert Rating.objects.get(user=alice).mu == second.mu_after
    assert Rating.objects.get(user=alice).rated_matches == 2
