"""The language comes from the browser, the language menu, or the profile."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROMANIAN_LOBBY = "Creează o masă"
ENGLISH_LOBBY = "Create a table"


def lobby(client, **headers) -> str:
    response = client.get(reverse("lobby"), **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("accept", "language"), [
    ("ro", "ro"), ("ro-RO,ro;q=0.9,en;q=0.8", "ro"), ("fr-FR,fr;q=0.9,ro;q=0.5", "ro"),
    ("en-GB,en;q=0.9", "en"), ("fr", "en"), ("", "en"),
])
def test_a_visitor_gets_the_first_language_of_their_browser_that_the_site_speaks(client, accept, language):
    html = lobby(client, HTTP_ACCEPT_LANGUAGE=accept)

    assert f'<html lang="{language}"' in html
    assert (ROMANIAN_LOBBY if language == "ro" else ENGLISH_LOBBY) in html


def test_the_language_menu_switches_the_site_and_the_choice_is_remembered(client):
    assert ENGLISH_LOBBY in lobby(client, HTTP_ACCEPT_LANGUAGE="en")

    response = client.post("/i18n/setlang/", {"language": "ro", "next": reverse("lobby")}, HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ro"
    assert ROMANIAN_LOBBY in lobby(client, HTTP_ACCEPT_LANGUAGE="en")  # the browser still asks for English
    client.post("/i18n/setlang/", {"language": "en", "next": reverse("lobby")})
    assert ENGLISH_LOBBY in lobby(client, HTTP_ACCEPT_LANGUAGE="ro")


def test_the_language_menu_is_on_every_page_and_names_each_language_in_itself(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    assert 'action="/i18n/setlang/"' in html
    assert '<option value="en" lang="en">English</option>' in html
    assert '<option value="ro" lang="ro" selected>Română</option>' in html


def test_the_language_menu_refuses_a_language_the_site_does_not_speak(client):
    client.post("/i18n/setlang/", {"language": "xx", "next": reverse("lobby")})

    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert ENGLISH_LOBBY in lobby(client, HTTP_ACCEPT_LANGUAGE="en")


def test_the_profile_language_is_used_on_every_device_whatever_the_browser_asks(client, make_user):
    client.force_login(make_user("dorin", preferred_language="ro"))

    assert ROMANIAN_LOBBY in lobby(client, HTTP_ACCEPT_LANGUAGE="en")
    assert "Partidele mele" in client.get(reverse("my_matches"), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_choosing_a_language_in_the_profile_switches_the_site_at_once(client, alice):
    client.force_login(alice)

    response = client.post(reverse("profile"), {"display_name": "Alice", "preferred_language": "ro",
                                                 "email_on_your_move": "on"}, HTTP_ACCEPT_LANGUAGE="en", follow=True)

    assert "Profilul tău a fost salvat." in response.content.decode()
    assert ROMANIAN_LOBBY in lobby(client, HTTP_ACCEPT_LANGUAGE="en")


def test_the_profile_offers_each_language_by_its_name_in_the_page_language(client, alice):
    client.force_login(alice)

    romanian = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    english = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert ">Engleză</option>" in romanian and ">Română</option>" in romanian
    assert ">English</option>" in english and ">Romanian</option>" in english
