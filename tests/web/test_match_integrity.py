"""Moves are never lost or applied twice, and a move costs the same few queries
however long the match has run."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Match, Move
from tests.play import pick_move, play_moves, post_at_once, post_move, start_table


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_posts_of_one_move_apply_it_exactly_once(alice, bob):
    table = start_table(alice, [bob])
    move = Match.objects.get(pk=table.pk)
    view = Client()
    view.force_login(alice)
    the_move = view.get(f"/api/tables/{table.pk}").json()["view"]["legal_moves"][0]
    statuses = post_at_once(alice, table.pk, move.seq, the_move)

    assert statuses == [200] + [409] * 19
    assert list(Move.objects.filter(match_id=table.pk).values_list("seq", flat=True)) == [0]
    assert Match.objects.get(pk=table.pk).seq == 1


@pytest.mark.django_db
def test_a_move_costs_the_same_queries_early_and_late_in_a_match(alice, bob):
    table = start_table(alice, [bob], options={"match": "first-to-10"})
    clients = {}
    for seat, user in enumerate([alice, bob]):
        clients[seat] = Client()
        clients[seat].force_login(user)

    def counted_move():
        answer = clients[0].get(f"/api/tables/{table.pk}").json()
        seat = answer["to_move"]
        view = clients[seat].get(f"/api/tables/{table.pk}").json()["view"]
        with CaptureQueriesContext(connection) as queries:
            response = post_move(clients[seat], table.pk, answer["seq"], pick_move(view, _rng))
        assert response.status_code == 200
        return len(queries)

    early = counted_move()
    play_moves(table, count=150)
    late = counted_move()

    assert early == late
    assert late <= 8


class _Rng:
    def choice(self, items):
        return items[0]


_rng = _Rng()
