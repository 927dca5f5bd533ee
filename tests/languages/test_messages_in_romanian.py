"""What the site says outside its page templates speaks the reader's language
too: refusals shown on pages and by the table's script, and e-mails (the
websockets are in test_live_words_in_romanian). Scripts that ask for no
language get the English they always got."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import ApiToken
from accounts.token_read import active_token
from games.after_commit import your_move
from games.models import Match, Seat
from games.words.refusals import card_short
from tests.play import play_moves, start_table

from .untranslated import untranslated


def not_your_turn(client, table, **headers):
    match = Match.objects.get(pk=table.pk)
    return client.post(reverse("api_moves", args=[table.pk]), {"seq": match.seq, "move": {"type": "end"}},
                       content_type="application/json", **headers)


@pytest.mark.django_db
def test_an_api_refusal_is_in_the_language_the_table_page_asks_for(client, alice, bob):
    table = start_table(alice, [bob])
    waiting = alice if Match.objects.get(pk=table.pk).to_move == 1 else bob
    client.force_login(waiting)

    assert not_your_turn(client, table, HTTP_ACCEPT_LANGUAGE="ro").json() == {"error": "Nu e rândul tău."}
    assert not_your_turn(client, table).json() == {"error": "It is not your turn."}  # scripts: as before


@pytest.mark.django_db
def test_a_script_with_a_token_reads_english_whatever_its_owners_profile_says(client, alice, make_user):
    dorin = make_user("dorin", preferred_language="ro")
    table = start_table(alice, [dorin])
    _token, secret = ApiToken.issue(alice if Match.objects.get(pk=table.pk).to_move == 1 else dorin, "script")
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    waiting = active_token(secret).user
    waiting.preferred_language = "ro"
    waiting.save()

    assert not_your_turn(client, table, **bearer).json() == {"error": "It is not your turn."}
    assert not_your_turn(client, table, HTTP_ACCEPT_LANGUAGE="ro", **bearer).json() == {"error": "Nu e rândul tău."}


@pytest.mark.django_db
def test_a_refused_join_says_why_in_romanian_on_the_lobby(client, alice, bob, charlie):
    table = start_table(alice, [bob])
    client.force_login(charlie)

    response = client.post(reverse("lobby_join", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="ro", follow=True)

    assert "Jocul la această masă a început deja." in response.content.decode()


@pytest.mark.django_db
def test_the_your_move_email_is_in_the_players_language(alice, bob, make_user):
    dorin = make_user("dorin", preferred_language="ro")
    table = start_table(alice, [dorin])
    match = play_moves(table, 1) if Match.objects.get(pk=table.pk).to_move == 0 else Match.objects.get(pk=table.pk)
    seat = Seat.objects.get(table=table, user=dorin)
    romanian = your_move._message(match, seat)
    dorin.preferred_language = ""
    dorin.save()
    english = your_move._message(match, Seat.objects.select_related("user").get(pk=seat.pk))

    assert romanian.subject.startswith("E rândul tău la Șeptică")
    assert untranslated(english.alternatives[0].content, romanian.alternatives[0].content) == []
    assert "E rândul tău la masa" in romanian.body and "Deschide masa:" in romanian.body


@pytest.mark.django_db
def test_the_password_reset_email_is_in_the_language_of_the_page_that_asked(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    client.post(reverse("password_reset"), {"email": alice.email}, HTTP_ACCEPT_LANGUAGE="ro")

    assert [message.subject for message in mail.outbox] == ["Resetează-ți parola Șeptică"]
    assert "Cineva, sperăm că tu, a cerut resetarea parolei" in mail.outbox[0].body



@pytest.mark.django_db
def test_a_card_that_does_not_fit_is_refused_in_romanian_on_the_table_page(client, alice, bob):
    table = start_table(alice, [bob], rules="americana")
    match = Match.objects.get(pk=table.pk)
    game = match.game()
    while not (misfits := [c for c in game.view(game.to_move)["hand"] if c[0] != "7" and {"type": "play", "card": c} not in game.legal_moves()]):
        match = play_moves(table, 1, seed=match.seq)
        game = match.game()
    client.force_login(alice if game.to_move == 0 else bob)
    move = {"seq": match.seq, "move": {"type": "play", "card": misfits[0]}}

    refusal = client.post(reverse("api_moves", args=[table.pk]), move, content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="ro")

    assert refusal.status_code == 400
    assert refusal.json()["error"].startswith(f"Nu poți pune {card_short(misfits[0])} peste")
