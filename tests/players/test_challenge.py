"""Challenge: New table with ?challenge=<username> keeps seat 2 for that person; bad challenges create nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import actions
from games.models import Table, TableStatus
from tests.web.test_lobby import form_data

pytestmark = pytest.mark.django_db


def test_a_challenge_keeps_seat_two_for_that_person_who_then_joins(client, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("create_table"), {"challenge": "BOB"})
    html = page.content.decode()
    assert "seat 2 is kept for Bob" in html and 'name="challenge" value="BOB"' in html

    response = client.post(reverse("create_table"), {**form_data(page), "challenge": "BOB"})

    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    kept = table.seats.get(number=1)
    assert kept.reserved_for == bob and kept.user is None and table.status == TableStatus.OPEN
    client.force_login(bob)
    assert f'data-table="{table.pk}"' in client.get(reverse("my_matches")).content.decode()
    actions.join_table(table.pk, bob)
    assert table.seats.get(number=1).user == bob


def test_nobody_else_takes_the_seat_kept_for_the_challenged(client, alice, bob, charlie):
    table = actions.create_table(alice, rules="septica", players=2, options={}, reserve_for=bob)
    with pytest.raises(actions.ServiceError):
        actions.join_table(table.pk, charlie)
    assert table.seats.get(number=1).user is None


@pytest.mark.parametrize(("who", "words"), [
    ("alice", "You cannot challenge yourself."),
    ("nobody", "There is no such player to challenge."),
    ("banned", "There is no such player to challenge."),
])
def test_a_bad_challenge_says_why_and_creates_nothing(client, alice, make_user, who, words):
    make_user("banned", banned=True)
    client.force_login(alice)
    page = client.get(reverse("create_table"), {"challenge": who})
    assert words in page.content.decode() and 'name="challenge"' not in page.content.decode()

    response = client.post(reverse("create_table"), {**form_data(page), "challenge": who})

    assert response.status_code == 200 and words in response.content.decode()
    assert not Table.objects.exists()


def test_the_action_refuses_bad_challenges_with_codes(alice, bob, make_user):
    banned = make_user("banned", banned=True)
    suspended = make_user("away", suspended_until=timezone.now() + timedelta(days=1))
    cases = [(alice, {}, "challenge_yourself"), (banned, {}, "no_such_player"),
             (suspended, {}, "challenged_cannot_play"),
             (bob, {"bots": [actions.BotSpec(seat=1, level="medium", style="balanced")]}, "challenge_seat_taken")]
    for challenged, extra, code in cases:
        with pytest.raises(actions.ServiceError) as refused:
            actions.create_table(alice, rules="septica", players=3, options={}, reserve_for=challenged, **extra)
        assert refused.value.extra["code"] == code
    assert not Table.objects.exists()


def test_my_matches_says_a_challenge_is_one_and_a_rematch_is_one(client, alice, bob):
    actions.create_table(alice, rules="septica", players=2, options={}, reserve_for=bob)
    client.force_login(bob)

    html = client.get(reverse("my_matches")).content.decode()
    invitations = client.get(reverse("api_my_matches")).json()["invitations"]

    assert "<h3 class=\"table-card__rules\">Alice challenges you</h3>" in html and "Alice asks for a rematch" not in html
    assert [invitation["rematch_of"] for invitation in invitations] == [None]
