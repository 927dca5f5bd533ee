"""A move the rules refuse, sent to POST /api/tables/<id>/moves, is answered in
the reader's language with cards as faces; the answer keeps its "error" and
adds the engine's "code" and "params" for scripts.

Alice and Bob play each rule set; for septica they hold a known deal (Alice
holds KH AD KS 8C and leads; Bob holds 7C 9S TD JH).
"""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from games import actions
from games.engine import IllegalMove
from games.models import Match, Seat
from games.words.refusals import card_short
from tests.play import fix_deck, pick_move, start_table
from tests.realtime.test_table_socket import known_deck

from .refusals import ENGLISH_LEFT, RAW_CARD, ZERO_SEAT

pytestmark = pytest.mark.django_db


def move(user, table, seq, the_move, language):
    client = Client()
    client.force_login(user)
    return client.post(f"/api/tables/{table.pk}/moves", data=json.dumps({"seq": seq, "move": the_move}),
                       content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


def seq_of(table) -> int:
    return Match.objects.get(pk=table.pk).seq


@pytest.fixture
def septica(alice, bob):
    table = start_table(alice, [bob], options={"match": "points-8"})
    fix_deck(table, decks=[known_deck()])
    return table


def refused_card(table, seed: int = 1) -> tuple:
    """Legal moves through the site until the player to move may play some cards but not another:
    (that player, the seq, that card's move, the engine's refusal)."""
    rng = random.Random(seed)
    users = {seat.number: seat.user for seat in Seat.objects.filter(table=table).select_related("user")}
    match = Match.objects.get(pk=table.pk)
    game = match.game()
    while not game.finished:
        playable = {legal["card"] for legal in game.legal_moves() if legal["type"] == "play"}
        refused = [card for card in game.view(game.to_move)["hand"] if card not in playable]
        if playable and refused:
            the_move = {"type": "play", "card": refused[0]}
            with pytest.raises(IllegalMove) as refusal:
                game.play(the_move)
            return users[game.to_move], match.seq, the_move, refusal.value
        match, game = actions.play_move(table.pk, users[game.to_move], match.seq, pick_move(game.view(game.to_move), rng))
    raise AssertionError("the match ended without a refused card")


def test_a_card_that_cannot_continue_the_trick_is_refused_in_words_in_both_languages(septica, alice, bob):
    actions.play_move(septica.pk, alice, 0, {"type": "play", "card": "KH"})
    actions.play_move(septica.pk, bob, 1, {"type": "play", "card": "7C"})  # Bob cuts: Alice continues or ends

    english = move(alice, septica, 2, {"type": "play", "card": "AD"}, "en")
    romanian = move(alice, septica, 2, {"type": "play", "card": "AD"}, "ro")

    assert (english.status_code, romanian.status_code) == (400, 400)
    assert english.json() == {
        "error": "You cannot continue the trick with A♦: continue with a king or a seven, or end it (Gata).",
        "code": "cannot-continue", "params": {"card": "AD", "ranks": ["K", "7"]},
    }
    assert romanian.json()["error"] == (
        "Nu poți continua levata cu A♦: continuă cu un rege sau un șapte, ori închide levata (Gata).")
    assert seq_of(septica) == 2


def test_a_refusal_about_the_readers_own_seat_says_you(septica, alice):
    english = move(alice, septica, 0, {"type": "take"}, "en").json()
    romanian = move(alice, septica, 0, {"type": "take"}, "ro").json()

    assert english["error"] == "The trick is not over yet: you still have to play a card."
    assert romanian["error"] == "Levata nu s-a terminat: mai ai de jucat o carte."
    assert (english["code"], english["params"]) == ("take-mid-round", {"seat": 0})


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_a_refused_card_of_each_game_reads_in_both_languages_with_no_card_codes(rules, alice, bob):
    table = start_table(alice, [bob], rules=rules)
    fix_deck(table)  # a known deal: some deals of septica end with no card ever refused
    user, seq, the_move, refusal = refused_card(table)

    said = {}
    for language in ("en", "ro"):
        response = move(user, table, seq, the_move, language)
        assert response.status_code == 400
        answer = response.json()
        assert answer == {"error": answer["error"], "code": refusal.code, "params": refusal.params}
        said[language] = answer["error"]
    assert said["en"] != str(refusal) and said["ro"] != said["en"]
    assert not ENGLISH_LEFT.search(said["ro"])
    for text in said.values():
        assert card_short(the_move["card"]) in text
        assert not RAW_CARD.search(text) and not ZERO_SEAT.search(text), text
    assert seq_of(table) == seq


def test_a_script_reads_the_words_and_can_still_tell_the_rule_by_its_code(septica, alice):
    response = move(alice, septica, 0, {"type": "play", "card": "7C"}, "")  # Bob's card

    assert response.status_code == 400
    assert response.json() == {"error": "You do not hold 7♣.", "code": "card-not-held",
                               "params": {"seat": 0, "card": "7C"}}


def create(user, body: dict, language: str):
    client = Client()
    client.force_login(user)
    return client.post("/api/tables", data=json.dumps(body), content_type="application/json",
                       HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize(("body", "english", "romanian"), [
    ({"rules": "septica", "players": 3, "options": {"teams": True}},
     "Teams play only with 4 or 6 players, not with 3.", "Echipele se joacă doar la 4 sau 6 jucători, nu la 3."),
    ({"rules": "septica", "players": 4, "options": {"eights_cut": True}},
     "Eights cut only with 3, 5 or 6 players, where two eights are taken out; not with 4.",
     "Optarii taie doar la 3, 5 sau 6 jucători, când se scot doi optari; nu la 4."),
    ({"rules": "familie", "players": 9},
     "familie is played by 2 to 6 players, not 9.", "familie se joacă în 2 până la 6 jucători, nu în 9."),
    ({"rules": "americana", "players": 2, "options": {"target": 200}},
     "The target must be 101, 301 or 501, not 200.", "Ținta trebuie să fie 101, 301 sau 501, nu 200."),
    ({"rules": "septica", "players": 2, "options": {"colour": "red"}},
     "Unknown option 'colour' for septica; the options are: eights_cut, match, teams.",
     "Nu există opțiunea 'colour' la septica; opțiunile sunt: eights_cut, match, teams."),
])
def test_table_options_the_rules_refuse_are_answered_in_the_readers_language(alice, body, english, romanian):
    for language, sentence in (("en", english), ("ro", romanian)):
        answer = create(alice, body, language)

        assert answer.status_code == 400
        assert answer.json()["error"] == sentence
    assert not Match.objects.exists()  # nothing was made
