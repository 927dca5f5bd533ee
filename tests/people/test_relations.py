"""Follow, unfollow, block and unblock: from the profile's buttons and over the API; a blocked person cannot join."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import actions
from players.models import Block, Follow

pytestmark = pytest.mark.django_db


def api(client, method: str, path: str, body=None):
    return getattr(client, method)(path, data=json.dumps(body) if body is not None else None,
                                   content_type="application/json")


def test_the_profile_buttons_follow_and_unfollow(client, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("player", args=["bob"])).content.decode()
    assert ">Follow</button>" in page and ">Block</button>" in page

    followed = client.post(reverse("player_relation", args=["bob", "follow"]), follow=True).content.decode()
    assert "You follow Bob." in followed and ">Unfollow</button>" in followed
    assert Follow.objects.filter(follower=alice, followed=bob).exists()

    client.post(reverse("player_relation", args=["bob", "unfollow"]))
    assert not Follow.objects.exists()


def test_ones_own_profile_has_no_follow_or_block_button(client, alice):
    client.force_login(alice)
    page = client.get(reverse("player", args=["alice"])).content.decode()
    assert ">Follow</button>" not in page and ">Block</button>" not in page


def test_a_visitor_is_sent_to_log_in_and_nothing_changes(client, bob):
    response = client.post(reverse("player_relation", args=["bob", "follow"]))
    assert response.status_code == 302 and "login" in response.url
    assert not Follow.objects.exists()


def test_blocking_ends_follows_both_ways_and_the_blocked_cannot_follow(client, alice, bob):
    Follow.objects.create(follower=alice, followed=bob)
    Follow.objects.create(follower=bob, followed=alice)
    client.force_login(alice)
    page = client.post(reverse("player_relation", args=["bob", "block"]), follow=True).content.decode()
    assert "You block Bob" in page and ">Unblock</button>" in page
    assert not Follow.objects.exists() and Block.objects.filter(blocker=alice, blocked=bob).exists()

    client.force_login(bob)
    refused = api(client, "post", "/api/players/alice/follow")
    assert refused.status_code == 403 and refused.json()["code"] == "not_accepted"
    assert not Follow.objects.exists()

    client.force_login(alice)
    client.post(reverse("player_relation", args=["bob", "unblock"]))
    assert not Block.objects.exists()


def test_the_api_follows_lists_and_unfollows(client, alice, bob, charlie):
    client.force_login(alice)
    assert api(client, "post", "/api/players/bob/follow").json()["following"] is True
    assert api(client, "post", "/api/players/BOB/follow").status_code == 200  # twice: still one follow
    api(client, "post", "/api/players/charlie/follow")
    assert [p["username"] for p in client.get("/api/me/following").json()["following"]] == ["bob", "charlie"]

    gone = api(client, "delete", "/api/players/bob/follow")
    assert gone.status_code == 200 and gone.json()["following"] is False
    assert [p["username"] for p in client.get("/api/me/following").json()["following"]] == ["charlie"]


def test_the_api_blocks_and_unblocks(client, alice, bob):
    client.force_login(alice)
    assert api(client, "post", "/api/players/bob/block").json()["blocked"] is True
    assert Block.objects.filter(blocker=alice, blocked=bob).count() == 1
    assert api(client, "delete", "/api/players/bob/block").json()["blocked"] is False
    assert not Block.objects.exists()


@pytest.mark.parametrize(("who", "status", "code"), [
    ("alice", 400, "yourself"), ("nobody", 404, "no_such_player"), ("banned", 404, "no_such_player")])
def test_the_api_refuses_oneself_and_unknown_people_and_stores_nothing(client, alice, make_user, who, status, code):
    make_user("banned", banned=True)
    client.force_login(alice)
    for path in (f"/api/players/{who}/follow", f"/api/players/{who}/block"):
        answer = api(client, "post", path)
        assert answer.status_code == status and answer.json()["code"] == code and answer.json()["error"]
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_the_api_asks_to_log_in(client, bob):
    answer = api(client, "post", "/api/players/bob/follow")
    assert answer.status_code in (401, 403) and "error" in answer.json()
    assert client.get("/api/me/following").status_code == 401


def test_a_blocked_person_cannot_join_the_blockers_table(alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)
    table = actions.create_table(alice, rules="septica", players=2, options={})
    with pytest.raises(actions.NotAllowed) as refused:
        actions.join_table(table.pk, bob)
    assert refused.value.extra["code"] == "blocked" and "alice" not in refused.value.message.lower()
    assert table.seats.get(number=1).user is None


def test_a_blocked_person_cannot_join_where_the_blocker_sits(alice, bob, charlie):
    Block.objects.create(blocker=bob, blocked=charlie)
    table = actions.create_table(alice, rules="septica", players=3, options={})
    actions.join_table(table.pk, bob)
    with pytest.raises(actions.NotAllowed):
        actions.join_table(table.pk, charlie)


def test_the_blocker_is_not_stopped(alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    table = actions.create_table(alice, rules="septica", players=2, options={})
    assert actions.join_table(table.pk, bob).user == bob


def test_the_lobby_join_button_says_why(client, alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)
    table = actions.create_table(alice, rules="septica", players=2, options={})
    client.force_login(bob)
    page = client.post(reverse("lobby_join", args=[table.pk]), follow=True).content.decode()
    assert "does not accept you at their tables" in page
