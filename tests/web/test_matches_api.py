"""The JSON API for tables and matches, as an outside client uses it.

Alice and Bob play; Charlie is outside the table.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from django.test import Client

from accounts.models import ApiToken
from games.models import Match, Move, Table, TableStatus
from players.bot_ratings import published_rating
from tests.play import HiddenCardWatch, fix_deck, pick_move, start_table

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def as_alice(alice):
    return client_for(alice)


@pytest.fixture
def as_bob(bob):
    return client_for(bob)


@pytest.fixture
def as_charlie(charlie):
    return client_for(charlie)


def post(client, url, body=None, **extra):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json", **extra)


def create(client, **body):
    body.setdefault("rules", "septica")
    body.setdefault("players", 2)
    return post(client, "/api/tables", body)


def move(client, table_id, seq, the_move):
    return post(client, f"/api/tables/{table_id}/moves", {"seq": seq, "move": the_move})


@pytest.fixture
def playing(alice, bob):
    """A started two-player septica table with a known deal: Alice leads."""
    table = start_table(alice, [bob], options={"match": "points-8"})
    deck = ["KH", "7C", "AD", "9S", "KS", "TD", "8C", "JH", *[c for c in _septica_rest()]]
    fix_deck(table, decks=[deck])
    return table


def _septica_rest():
    used = {"KH", "7C", "AD", "9S", "KS", "TD", "8C", "JH"}
    return [rank + suit for rank in "789TJQKA" for suit in "CDHS" if rank + suit not in used]


# --- creating and listing -------------------------------------------------------------
def test_creating_a_table_seats_the_creator_and_the_bots(as_alice):
    response = create(as_alice, rules="septica", players=3, options={"match": "points-21"},
                      seconds_per_move=300, bots=[{"seat": 2, "level": "expert", "style": "aggressive"}])

    assert response.status_code == 201
    table = response.json()
    assert table["status"] == "open"
    assert table["options"] == {"eights_cut": True, "teams": False, "match": "points-21"}
    kinds = [(seat["seat"], seat["kind"]) for seat in table["seats"]]
    assert kinds == [(0, "person"), (1, "free"), (2, "bot")]
    assert table["seats"][0]["you"] is True
    rating = published_rating("septica", "expert")
    assert table["seats"][2]["bot"] == {"level": "expert", "style": "aggressive", "name": table["seats"][2]["name"],
                                        "badge": f"Expert ≈ {rating}, aggressive", "rating": rating}
    assert len(table["seed_sha256"]) == 64 and "seed" not in table
    assert table["view"] is None


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"options": {"eights_cut": True}}, "eights"),
        ({"options": {"colour": "red"}}, "Unknown option"),
        ({"rules": "poker"}, "Unknown rule set"),
        ({"players": 9}, "2 to 6 players"),
        ({"seconds_per_move": 5}, "time per move"),
        ({"bots": [{"seat": 0}]}, "seat 0 is yours"),
        ({"bots": [{"seat": 1, "level": "grandmaster"}]}, "Unknown bot level"),
    ],
)
def test_a_bad_table_is_refused_with_a_readable_message(as_alice, body, message):
    response = create(as_alice, **body)

    assert response.status_code == 400
    assert message.lower() in response.json()["error"].lower()
    assert Table.objects.count() == 0


def test_a_table_filled_with_bots_starts_at_once(as_alice):
    response = create(as_alice, rules="familie", players=3, bots=[{"seat": 1}, {"seat": 2, "level": "beginner"}])

    table = response.json()
    assert table["status"] == "playing"
    assert table["view"]["seat"] == 0 and len(table["view"]["hand"]) == 4
    assert table["deadline"] is not None


def test_anonymous_visitors_cannot_create_tables(client):
    response = create(client)

    assert response.status_code == 401
    assert Table.objects.count() == 0


def test_the_lobby_lists_open_public_tables_only(as_alice, as_bob, alice, bob, charlie):
    open_public = create(as_alice).json()["id"]
    create(as_alice, private=True)
    start_table(bob, [charlie])

    listed = [table["id"] for table in as_bob.get("/api/tables").json()["tables"]]

    assert listed == [open_public]


def test_a_token_script_creates_and_reads_a_table(alice):
    _, secret = ApiToken.issue(alice, "script")
    script = Client(HTTP_AUTHORIZATION=f"Bearer {secret}", enforce_csrf_checks=True)

    created = create(script, rules="americana", players=2, options={"jokers": True, "target": 301})

    assert created.status_code == 201
    assert created.json()["options"]["target"] == 301
    assert script.get(f"/api/tables/{created.json()['id']}").json()["seats"][0]["you"] is True


def test_a_session_post_without_the_csrf_token_is_refused(alice):
    page = Client(enforce_csrf_checks=True)
    page.force_login(alice)

    response = create(page)

    assert response.status_code == 403
    assert Table.objects.count() == 0


def test_a_malformed_body_is_refused(as_alice):
    response = as_alice.post("/api/tables", data="{not json", content_type="application/json")

    assert response.status_code == 400
    assert "not valid JSON" in response.json()["error"]


# --- joining and leaving -----------------------------------------------------------------
def test_joining_takes_the_first_free_seat_and_the_last_seat_starts_the_match(as_alice, as_bob):
    table_id = create(as_alice).json()["id"]

    response = post(as_bob, f"/api/tables/{table_id}/join")

    assert response.status_code == 200
    assert response.json()["seat"] == 1
    assert response.json()["status"] == "playing"
    assert response.json()["view"]["seat"] == 1
    assert Match.objects.get(pk=table_id).state is not None


def test_a_full_table_refuses_another_player(as_alice, as_bob, as_charlie):
    table_id = create(as_alice).json()["id"]
    post(as_bob, f"/api/tables/{table_id}/join")

    response = post(as_charlie, f"/api/tables/{table_id}/join")

    assert response.status_code == 409
    assert "already started" in response.json()["error"]


def test_a_private_table_is_invisible_without_its_invite(as_alice, as_bob):
    created = create(as_alice, private=True).json()
    table_id = created["id"]
    invite = Table.objects.get(pk=table_id).invite_code

    assert as_bob.get(f"/api/tables/{table_id}").status_code == 404
    assert post(as_bob, f"/api/tables/{table_id}/join").status_code == 404
    joined = post(as_bob, f"/api/tables/{table_id}/join", {"invite": invite})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert created["invite_url"].endswith(f"/invite/{invite}/")


def test_leaving_before_the_start_frees_the_seat(as_alice, as_bob, as_charlie):
    table_id = create(as_alice, players=3).json()["id"]
    post(as_bob, f"/api/tables/{table_id}/join")

    assert post(as_bob, f"/api/tables/{table_id}/leave").status_code == 200

    assert post(as_charlie, f"/api/tables/{table_id}/join").json()["seat"] == 1


def test_nobody_can_leave_a_running_match(playing, as_bob):
    response = post(as_bob, f"/api/tables/{playing.pk}/leave")

    assert response.status_code == 409


def test_an_outsider_cannot_leave_a_table_they_do_not_sit_at(as_alice, as_charlie):
    table_id = create(as_alice).json()["id"]

    assert post(as_charlie, f"/api/tables/{table_id}/leave").status_code == 403


# --- moves ---------------------------------------------------------------------------------
def test_a_legal_move_answers_with_the_new_seq_and_view(playing, as_alice):
    response = move(as_alice, playing.pk, 0, {"type": "play", "card": "KH"})

    assert response.status_code == 200
    body = response.json()
    assert body["seq"] == 1
    assert body["view"]["table"] == [{"seat": 0, "card": "KH"}]
    assert "KH" not in body["view"]["hand"]
    logged = Move.objects.get(match_id=playing.pk)
    assert (logged.seq, logged.seat, logged.move, logged.actor) == (0, 0, {"type": "play", "card": "KH"}, "person")


def test_an_illegal_move_gets_the_rules_reason_and_code_and_changes_nothing(playing, as_alice):
    response = move(as_alice, playing.pk, 0, {"type": "play", "card": "7H"})

    assert response.status_code == 400
    assert response.json() == {"error": "You do not hold 7♥.", "code": "card-not-held",
                               "params": {"seat": 0, "card": "7H"}}
    assert Match.objects.get(pk=playing.pk).seq == 0
    assert not Move.objects.exists()


@pytest.mark.parametrize("bad", [None, "KH", {"type": "fly"}, {"type": "play", "card": "KH", "x": 1}, {"type": "play"}])
def test_a_malformed_move_is_a_400(playing, as_alice, bad):
    response = move(as_alice, playing.pk, 0, bad)

    assert response.status_code == 400
    assert Match.objects.get(pk=playing.pk).seq == 0


def test_a_stale_seq_is_a_conflict_with_the_current_seq(playing, as_alice, as_bob):
    move(as_alice, playing.pk, 0, {"type": "play", "card": "KH"})

    response = move(as_bob, playing.pk, 0, {"type": "play", "card": "7C"})

    assert response.status_code == 409
    assert response.json()["seq"] == 1
    assert Move.objects.count() == 1


def test_moving_out_of_turn_is_forbidden(playing, as_bob):
    response = move(as_bob, playing.pk, 0, {"type": "play", "card": "7C"})

    assert response.status_code == 403
    assert "not your turn" in response.json()["error"]


def test_an_outsider_cannot_move(playing, as_charlie):
    response = move(as_charlie, playing.pk, 0, {"type": "play", "card": "KH"})

    assert response.status_code == 403
    assert not Move.objects.exists()


def test_an_anonymous_visitor_cannot_move(playing, client):
    assert move(client, playing.pk, 0, {"type": "play", "card": "KH"}).status_code == 401


def test_a_missing_table_is_a_404(as_alice):
    assert as_alice.get("/api/tables/999999").status_code == 404
    assert move(as_alice, 999999, 0, {"type": "end"}).status_code == 404


def test_each_player_sees_only_their_own_hand(playing, as_alice, as_bob, as_charlie):
    alice_view = as_alice.get(f"/api/tables/{playing.pk}").json()["view"]
    bob_view = as_bob.get(f"/api/tables/{playing.pk}").json()["view"]
    spectator_view = as_charlie.get(f"/api/tables/{playing.pk}").json()["view"]

    assert sorted(alice_view["hand"]) == sorted(["KH", "AD", "KS", "8C"])
    assert sorted(bob_view["hand"]) == sorted(["7C", "9S", "TD", "JH"])
    assert spectator_view["hand"] == [] and spectator_view["seat"] is None
    assert not {"7C", "9S", "TD", "JH"} & set(json.dumps(alice_view).replace('"', " ").split())


# --- whole matches, every rule set ------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "players", "options"),
    [
        ("septica", 2, {"match": "points-8"}),
        ("septica", 3, {"match": "best-of-3"}),
        ("familie", 3, {}),
        ("americana", 2, {"target": 101, "jokers": True, "pairs": True}),
        ("americana", 3, {"target": 101, "jacks_draw": True}),
    ],
)
def test_a_whole_match_plays_to_the_end_and_no_answer_shows_a_hidden_card(
    make_user, charlie, rules, players, options
):
    people = [make_user(f"player{n}") for n in range(players)]
    clients = [client_for(person) for person in people]
    spectator = client_for(charlie)
    table = start_table(people[0], people[1:], rules=rules, players=players, options=options)
    rng, watch, seq = random.Random(f"{rules}{players}"), HiddenCardWatch(), 0

    for _ in range(5000):
        state = Match.objects.get(pk=table.pk).state
        watch.saw_spectator_view(spectator.get(f"/api/tables/{table.pk}").json()["view"])
        answers = [client.get(f"/api/tables/{table.pk}").json() for client in clients]
        for seat, answer in enumerate(answers):
            watch.check(answer, seat, state)
            assert ("seed" in answer) == (answer["status"] == "finished")
        to_move = answers[0]["to_move"]
        if to_move is None:
            break
        response = move(clients[to_move], table.pk, seq, pick_move(answers[to_move]["view"], rng))
        assert response.status_code == 200, response.json()
        watch.saw_spectator_view(spectator.get(f"/api/tables/{table.pk}").json()["view"])
        watch.check(response.json(), to_move, Match.objects.get(pk=table.pk).state)
        seq = response.json()["seq"]

    final = spectator.get(f"/api/tables/{table.pk}").json()
    assert final["status"] == "finished"
    assert final["view"]["finished"] is True and final["result"]["scores"]
    assert hashlib.sha256(final["seed"].encode()).hexdigest() == final["seed_sha256"]
    assert list(Move.objects.filter(match_id=table.pk).values_list("seq", flat=True)) == list(range(seq))
    assert move(clients[0], table.pk, seq, {"type": "end"}).status_code == 409


# --- my matches -----------------------------------------------------------------------------
def test_my_matches_puts_the_tables_where_it_is_my_move_first(alice, bob, charlie, as_bob):
    waiting = start_table(alice, [bob])  # Alice leads: Bob waits
    my_move = start_table(charlie, [bob])  # Charlie... seat 0 leads, so also waiting
    fix_deck(my_move)
    Match.objects.filter(pk=my_move.pk).update(to_move=1)
    open_table = create(as_bob).json()["id"]

    listed = as_bob.get("/api/me/matches").json()["tables"]

    assert [table["id"] for table in listed] == [my_move.pk, waiting.pk, open_table]
    assert listed[0]["your_seat"] == 1 and listed[0]["to_move"] == 1


def test_my_matches_needs_a_login(client):
    assert client.get("/api/me/matches").status_code == 401


# --- rematch ----------------------------------------------------------------------------------
def test_a_rematch_keeps_the_seats_and_starts_when_everyone_is_back(alice, bob, as_alice, as_bob, as_charlie):
    table = start_table(alice, [bob])
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)

    assert post(as_charlie, f"/api/tables/{table.pk}/rematch").status_code == 403
    first = post(as_alice, f"/api/tables/{table.pk}/rematch")
    assert first.status_code == 201 and first.json()["status"] == "open"
    assert post(as_charlie, f"/api/tables/{first.json()['id']}/join").status_code == 409  # Bob's seat is kept
    second = post(as_bob, f"/api/tables/{table.pk}/rematch")

    assert second.json()["id"] == first.json()["id"]
    assert second.json()["status"] == "playing"
    assert [seat["user_id"] for seat in second.json()["seats"]] == [alice.pk, bob.pk]


def test_a_private_rematch_is_joined_through_the_api_by_the_invited_player(alice, bob, as_alice, as_bob):
    table = start_table(alice, [bob], private=True)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    rematch_id = post(as_alice, f"/api/tables/{table.pk}/rematch").json()["id"]

    joined = post(as_bob, f"/api/tables/{rematch_id}/join")

    assert joined.status_code == 200
    assert joined.json()["status"] == "playing"
