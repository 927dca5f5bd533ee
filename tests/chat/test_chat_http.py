"""GET and POST /api/tables/<id>/chat, for scripts (a token) and pages (a session)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.actions.chat import say
from games.models import ChatLine, ChatRoom
from players.models import Block

pytestmark = pytest.mark.django_db


def client_of(user=None, token=None) -> Client:
    client = Client(headers={"authorization": f"Bearer {token}"} if token else {})
    if user is not None:
        client.force_login(user)
    return client


def post(client, table, body, query=""):
    return client.post(f"/api/tables/{table.pk}/chat{query}", data=json.dumps(body), content_type="application/json")


def test_a_script_posts_a_line_with_its_token_and_reads_it_back(bob, playing, token_for):
    client = client_of(token=token_for(bob))

    posted = post(client, playing, {"phrase": "noroc"})
    read = client.get(f"/api/tables/{playing.pk}/chat")

    assert posted.status_code == 201
    assert posted.json()["line"]["words"] == "Noroc!" and posted.json()["line"]["author"]["username"] == "bob"
    assert read.json()["room"] == ChatRoom.PLAYERS
    assert [line["phrase"] for line in read.json()["lines"]] == ["noroc"]
    assert {"code": "well_played", "words": "Well played"} in read.json()["phrases"]


def test_a_page_posts_with_its_session(alice, playing):
    answer = post(client_of(alice), playing, {"text": "Salut"})

    assert answer.status_code == 201 and ChatLine.objects.get().text == "Salut"


def test_the_reader_gets_only_their_room_without_the_authors_they_block(alice, bob, charlie, playing):
    say(alice, playing.pk, text="players only")
    say(charlie, playing.pk, text="stands")
    say(bob, playing.pk, text="bob in the players' chat")
    Block.objects.create(blocker=alice, blocked=bob)

    lines = client_of(alice).get(f"/api/tables/{playing.pk}/chat").json()["lines"]
    watching = client_of(charlie).get(f"/api/tables/{playing.pk}/chat").json()

    assert [line["words"] for line in lines] == ["players only"]
    assert watching["room"] == ChatRoom.SPECTATORS and [line["words"] for line in watching["lines"]] == ["stands"]


@pytest.mark.parametrize(("body", "status"), [
    ({"text": "x" * 301}, 400), ({"text": ""}, 400), ({}, 400), ({"text": "a", "phrase": "thanks"}, 400),
    ({"phrase": "nope"}, 400),
])
def test_a_refused_line_is_a_json_error_and_stores_nothing(alice, playing, body, status):
    answer = post(client_of(alice), playing, body)

    assert answer.status_code == status and answer.json()["error"] and answer.json()["code"]
    assert not ChatLine.objects.exists()


def test_nobody_logged_in_may_post(playing):
    answer = post(client_of(), playing, {"text": "hi"})

    assert answer.status_code == 401 and "error" in answer.json()
    assert not ChatLine.objects.exists()


def test_a_private_table_is_no_such_table_to_an_outsider(charlie, private_playing):
    assert post(client_of(charlie), private_playing, {"text": "hi"}).status_code == 404
    assert client_of(charlie).get(f"/api/tables/{private_playing.pk}/chat").status_code == 404
    assert not ChatLine.objects.exists()


def test_an_invited_spectator_of_a_private_table_reads_no_chat_and_may_not_write(alice, charlie, private_playing):
    say(alice, private_playing.pk, text="between us")
    invite = f"?invite={private_playing.invite_code}"

    read = client_of(charlie).get(f"/api/tables/{private_playing.pk}/chat{invite}")
    written = post(client_of(charlie), private_playing, {"text": "hi"}, invite)

    assert read.status_code == 200 and (read.json()["room"], read.json()["lines"]) == (None, [])
    assert written.status_code == 403 and written.json()["code"] == "no_chat_here"


def test_no_such_table(alice):
    assert post(client_of(alice), type("T", (), {"pk": 987654})(), {"text": "hi"}).status_code == 404
