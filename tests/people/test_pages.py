"""The pages: Following (who is online, their open tables), My matches' challenges, the New table form for several."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import actions, presence
from games.actions.challenges import create_challenge
from games.models import Challenge, ChallengeInvite, Table, TableStatus
from players.models import Follow
from tests.web.test_lobby import form_data

pytestmark = pytest.mark.django_db


def test_following_lists_who_is_online_and_their_open_tables(client, alice, bob, charlie, make_user):
    dana = make_user("dana", display_name="Dana")
    for person in (bob, charlie):
        Follow.objects.create(follower=alice, followed=person)
    bobs = actions.create_table(bob, rules="septica", players=2, options={})
    playing = actions.create_table(charlie, rules="septica", players=2, options={})
    actions.join_table(playing.pk, dana)
    actions.create_table(dana, rules="septica", players=2, options={})  # not followed: not shown
    presence.arrive(presence.person_key(playing.pk, charlie.pk))
    client.force_login(alice)

    page = client.get(reverse("following")).content.decode()

    assert page.index('data-person="charlie"') < page.index('data-person="bob"')  # online first
    charlie_card = page[page.index('data-person="charlie"'):page.index('data-person="bob"')]
    bob_card = page[page.index('data-person="bob"'):]
    assert 'data-online="yes"' in charlie_card and "No open table." in charlie_card
    assert 'data-online="no"' in bob_card and f'data-table="{bobs.pk}"' in bob_card
    assert reverse("lobby_join", args=[bobs.pk]) in bob_card and "dana" not in page.lower().split("</nav>")[-1]


def test_joining_from_following_seats_you(client, alice, bob):
    Follow.objects.create(follower=alice, followed=bob)
    table = actions.create_table(bob, rules="septica", players=2, options={})
    client.force_login(alice)
    response = client.post(reverse("lobby_join", args=[table.pk]), {"next": reverse("following")})
    assert response.status_code == 302 and table.seats.get(number=1).user == alice


def test_following_is_empty_and_linked_from_the_menu(client, alice):
    client.force_login(alice)
    page = client.get(reverse("following")).content.decode()
    assert "You follow nobody yet." in page and f'href="{reverse("following")}"' in page


def test_following_needs_a_login(client):
    assert client.get(reverse("following")).status_code == 302


def test_my_matches_shows_a_received_challenge_with_accept_and_decline(client, alice, bob):
    challenge = create_challenge(alice, [bob], rules="septica", players=2, options={})
    client.force_login(bob)
    page = client.get(reverse("my_matches")).content.decode()
    assert "Alice challenges you" in page
    assert reverse("answer_challenge", args=[challenge.pk, "accept"]) in page
    assert reverse("answer_challenge", args=[challenge.pk, "decline"]) in page
    assert client.get(reverse("api_my_matches")).json()["invitations"] == []  # not twice

    response = client.post(reverse("answer_challenge", args=[challenge.pk, "accept"]))
    assert response.status_code == 302 and response.url == reverse("table", args=[challenge.table_id])
    assert Table.objects.get(pk=challenge.table_id).status == TableStatus.PLAYING


def test_declining_from_my_matches_shows_the_answer_to_the_challenger(client, alice, bob):
    challenge = create_challenge(alice, [bob], rules="septica", players=2, options={})
    client.force_login(bob)
    page = client.post(reverse("answer_challenge", args=[challenge.pk, "decline"]), follow=True).content.decode()
    assert "You declined the challenge." in page and "Alice challenges you" not in page

    client.force_login(alice)
    page = client.get(reverse("my_matches")).content.decode()
    assert "Bob: declined" in page


def test_the_challenger_withdraws_from_my_matches(client, alice, bob):
    challenge = create_challenge(alice, [bob], rules="septica", players=2, options={})
    client.force_login(alice)
    page = client.post(reverse("answer_challenge", args=[challenge.pk, "withdraw"]), follow=True).content.decode()
    assert "You withdrew the challenge" in page
    assert Table.objects.get(pk=challenge.table_id).status == TableStatus.ABORTED


def test_someone_else_cannot_answer_from_the_page(client, alice, bob, charlie):
    challenge = create_challenge(alice, [bob], rules="septica", players=2, options={})
    client.force_login(charlie)
    page = client.post(reverse("answer_challenge", args=[challenge.pk, "accept"]), follow=True).content.decode()
    assert "There is no such challenge." in page
    assert ChallengeInvite.objects.get().status == "pending"


def test_the_new_table_form_challenges_several_people(client, alice, bob, charlie):
    client.force_login(alice)
    page = client.get(reverse("create_table"), {"challenge": "bob,charlie"})
    html = page.content.decode()
    assert "seats 2 on are kept for Bob, Charlie" in html

    response = client.post(reverse("create_table"), {**form_data(page), "challenge": "bob, charlie"})

    challenge = Challenge.objects.get()
    assert response.status_code == 302 and response.url == reverse("table", args=[challenge.table_id])
    assert sorted(challenge.invites.values_list("invitee__username", "seat")) == [("bob", 1), ("charlie", 2)]


def test_the_form_refuses_more_people_than_free_seats(client, alice, bob, charlie):
    client.force_login(alice)
    page = client.get(reverse("create_table"), {"challenge": "bob"})
    response = client.post(reverse("create_table"), {**form_data(page), "challenge": "bob charlie"})
    assert response.status_code == 200 and "fewer than the people you challenge" in response.content.decode()
    assert not Table.objects.exists()


def test_a_challenge_from_the_profile_link_is_a_full_challenge(client, alice, bob, django_capture_on_commit_callbacks):
    client.force_login(alice)
    page = client.get(reverse("create_table"), {"challenge": "bob"})
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("create_table"), {**form_data(page), "challenge": "bob"})
    invite = ChallengeInvite.objects.get()
    assert (invite.invitee, invite.seat, invite.status) == (bob, 1, "pending")
    assert bob.notifications.get().url == reverse("my_matches")
