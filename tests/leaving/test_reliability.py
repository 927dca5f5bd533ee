"""A table's least reliability to join, and what each person's seat says: reliability, profile, resigned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.models import Seat, Table
from players.models import Outcome
from players.reliability import reliabilities, reliability
from tests.play import start_table

pytestmark = pytest.mark.django_db


def finished_for(user, creator, partner, stood_in_turns: int):
    """One finished match of `user`'s, with a bot standing in `stood_in_turns` times for them."""
    table = start_table(creator, [partner])
    Outcome.objects.create(match_id=table.pk, user=user, rules="septica", seat=1, place=2, players=2, won=False,
                           rated=False, stood_in_turns=stood_in_turns, finished_at=timezone.now())


def demanding_table(creator, least: int) -> Table:
    table = actions.create_table(creator, rules="septica", players=2)
    Table.objects.filter(pk=table.pk).update(min_reliability=least)
    return table


def test_a_person_below_the_least_reliability_cannot_join_and_is_told_the_figures(alice, bob, charlie, post):
    finished_for(charlie, alice, charlie, stood_in_turns=3)  # 0% of 1 match
    table = demanding_table(bob, 80)

    answer = post(charlie, f"/api/tables/{table.pk}/join")

    assert answer.status_code == 403
    body = answer.json()
    assert "80%" in body["error"] and "0%" in body["error"]
    assert body["code"] == "not_reliable_enough" and body["least"] == 80 and body["yours"] == 0
    assert Seat.objects.get(table=table, number=1).user_id is None


def test_a_reliable_person_joins(alice, bob, charlie, post):
    finished_for(charlie, alice, charlie, stood_in_turns=1)  # one missed turn is bad luck: 100%
    table = demanding_table(bob, 95)
    assert post(charlie, f"/api/tables/{table.pk}/join").status_code == 200


def test_a_person_with_no_finished_match_yet_may_join_any_table(bob, charlie, post):
    table = demanding_table(bob, 95)
    assert post(charlie, f"/api/tables/{table.pk}/join").status_code == 200


def test_a_person_a_seat_is_kept_for_joins_whatever_the_figure(alice, bob, charlie):
    finished_for(charlie, alice, charlie, stood_in_turns=3)
    table = demanding_table(bob, 80)
    Seat.objects.filter(table=table, number=1).update(reserved_for=charlie)
    assert actions.join_table(table.pk, charlie).number == 1


def test_each_persons_seat_shows_reliability_profile_and_resigned(alice, bob, charlie, get):
    finished_for(bob, alice, charlie, stood_in_turns=0)
    table = start_table(alice, [bob])

    seats = get(charlie, f"/api/tables/{table.pk}").json()["seats"]

    assert [seat["reliability"] for seat in seats] == [None, 100]  # Alice has no finished match yet
    assert [seat["resigned"] for seat in seats] == [False, False]
    assert seats[1]["profile_url"] in ("/players/bob/", None)  # None until the profiles' URL is routed


def test_a_bot_seat_has_no_reliability_or_profile(alice, get):
    table = actions.create_table(alice, rules="septica", players=2, bots=[actions.BotSpec(seat=1)])
    bot = get(alice, f"/api/tables/{table.pk}").json()["seats"][1]
    assert bot["kind"] == "bot" and bot["reliability"] is None and bot["profile_url"] is None



def test_the_seats_reliabilities_read_at_once_count_each_persons_last_fifty_matches(
        alice, bob, charlie, dave, settings):
    settings.OPEN_TABLES_PER_PERSON = settings.WAITING_TABLES_PER_PERSON = 100
    now = timezone.now()
    # Alice: 60 matches, the oldest ten abandoned (outside her last 50), then 5 abandoned among the last 50.
    turns = [3] * 10 + [0] * 45 + [2] * 5
    Outcome.objects.bulk_create([
        Outcome(match_id=start_table(bob, [charlie]).pk, user=alice, rules="septica", seat=0, place=1, players=2,
                won=True, rated=False, stood_in_turns=count, finished_at=now - timedelta(minutes=len(turns) - n))
        for n, count in enumerate(turns)
    ])
    finished_for(bob, charlie, bob, stood_in_turns=1)  # one missed turn is forgiven

    together = reliabilities([alice.pk, bob.pk, dave.pk])

    assert together == {user.pk: reliability(user.pk) for user in (alice, bob, dave)}
    assert (together[alice.pk].finished, together[alice.pk].percent) == (50, 90)
    assert together[bob.pk].percent == 100
    assert together[dave.pk].percent is None
