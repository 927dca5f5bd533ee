"""Every page of the site, rendered in Romanian, has no English left in it.

Each page is fetched twice by the same person with the same data, with the
browser asking for English and then for Romanian; see `untranslated` for
what counts as left in English.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.views.defaults import server_error

from accounts.models import ApiToken
from games import actions
from tests.play import finished_match, play_moves, seated_table, start_table
from tests.second_factor import log_in, set_up_totp

from .untranslated import looks_english, untranslated

pytestmark = pytest.mark.django_db


def both_languages(client, url: str, status: int = 200) -> tuple[str, str]:
    pages = []
    for language in ("en", "ro"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == status, f"{url} answered {response.status_code} in {language}"
        assert response["Content-Language"] == language
        pages.append(response.content.decode())
    return pages[0], pages[1]


def assert_all_romanian(client, urls: list[str], status: int = 200) -> None:
    left = {url: untranslated(*both_languages(client, url, status)) for url in urls}
    left = {url: found for url, found in left.items() if found}
    assert not left, "English left on Romanian pages:\n" + "\n".join(
        f"{url}\n    " + "\n    ".join(found) for url, found in left.items()
    )


def test_the_check_catches_a_string_nobody_marked_for_translation():
    english = '<h1>Masă</h1><p>Waiting for Bob</p><button title="Play now">▶</button><script type="application/json">{"text": {"go": "Go on"}, "step": {"hint": "Lead the seven", "url": "/play/"}}</script>'
    romanian = '<h1>Masă</h1><p>Waiting for Bob</p><button title="Joacă acum">▶</button><script type="application/json">{"text": {"go": "Go on"}, "step": {"hint": "Lead the seven", "url": "/play/"}}</script>'

    assert untranslated(english, romanian) == [
        "script word step.hint: 'Lead the seven'", "script word text.go: 'Go on'", "text: 'Waiting for Bob'"]
    assert looks_english("Play") and not looks_english("Alice · 3") and not looks_english("Joacă")


def test_the_check_catches_an_english_msgid_even_where_the_english_page_differs():
    assert untranslated("<p>Something else</p>", "<p>Log in to play.</p>") == ["text: 'Log in to play.'"]


def test_pages_for_visitors_are_all_in_romanian(client, alice, bob):
    table = start_table(alice, [bob])
    assert_all_romanian(client, [
        reverse("home"), reverse("lobby"), reverse("login"), reverse("signup"), reverse("password_reset"),
        reverse("password_reset_done"), reverse("password_reset_complete"), reverse("api_docs"),
        reverse("table", args=[table.pk]),
        reverse("password_reset_confirm", args=["MQ", "not-a-valid-token"]),
    ])


def test_the_page_for_a_missing_table_is_in_romanian(client):
    assert_all_romanian(client, ["/tables/999999/", "/no-such-page/"], status=404)


def test_a_password_reset_link_opens_a_romanian_form(client, alice):
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    link = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(alice)])
    form_url = client.get(link, follow=True).redirect_chain[-1][0]

    assert_all_romanian(client, [form_url])


def test_account_pages_are_all_in_romanian(client, alice):
    token, _secret = ApiToken.issue(alice, "🤖 1")
    client.force_login(alice)
    assert_all_romanian(client, [
        reverse("home"), reverse("profile"), reverse("api_tokens"), reverse("revoke_api_token", args=[token.pk]),
        reverse("password_change"), reverse("password_change_done"), reverse("api_docs"),
    ])


def test_a_new_token_and_a_refused_form_are_shown_in_romanian(client, alice):
    client.force_login(alice)
    pages = [client.post(reverse("api_tokens"), {"name": "🤖 2"}, HTTP_ACCEPT_LANGUAGE=language, follow=True)
             for language in ("en", "ro")]
    assert untranslated(*(page.content.decode() for page in pages)) == []

    pages = [client.post(reverse("password_change"), {"oldpassword": "wrong"}, HTTP_ACCEPT_LANGUAGE=language)
             for language in ("en", "ro")]
    assert untranslated(*(page.content.decode() for page in pages)) == []


def test_the_lock_after_too_many_failed_log_ins_is_explained_in_romanian(client, alice):
    def log_in(language):
        return client.post(reverse("login"), {"login": "alice", "password": "wrong"}, HTTP_ACCEPT_LANGUAGE=language)

    for _attempt in range(5):
        log_in("en")
    pages = [log_in(language) for language in ("en", "ro")]

    assert [page.status_code for page in pages] == [429, 429]
    assert untranslated(*(page.content.decode() for page in pages)) == []
    assert "încearcă din nou peste 15 minute" in pages[1].content.decode()


def posted_in_both(client, url: str, form: dict) -> tuple[str, str]:
    pages = [client.post(url, form, HTTP_ACCEPT_LANGUAGE=language) for language in ("en", "ro")]
    assert [page.status_code for page in pages] == [200, 200], url
    return pages[0].content.decode(), pages[1].content.decode()


def test_refused_account_forms_say_why_in_romanian(client, alice):
    refused = {
        reverse("signup"): {"username": "alice", "email": "alice@example.com", "password1": "abc", "password2": "abd"},
        reverse("signup") + "?weak": {"username": "ana", "email": "ana@example.com", "password1": "ana", "password2": "ana"},
        reverse("signup") + "?numbers": {"username": "ana", "email": "ana@example.com", "password1": "12345678",
                                          "password2": "12345678"},
        reverse("signup") + "?like-name": {"username": "ana-maria-popescu", "email": "ana@example.com",
                                            "password1": "ana-maria-popescu", "password2": "ana-maria-popescu"},
        reverse("login"): {"login": "nobody", "password": "wrong"},
        reverse("password_reset"): {"email": "not an address"},
    }
    left = {url: untranslated(*posted_in_both(client, url, form)) for url, form in refused.items()}
    assert {url: found for url, found in left.items() if found} == {}


def test_the_lobby_the_create_form_and_my_matches_are_all_in_romanian(client, alice, bob, charlie):
    start_table(charlie, [], players=3, options={"eights_cut": True})
    bots = [actions.BotSpec(seat=1, level="beginner", style="team"), actions.BotSpec(seat=2, level="medium", style="cautious")]
    start_table(charlie, [], players=4, bots=bots)  # bots' names: level and style
    start_table(charlie, [], rules="americana", options={"target": 301, "jokers": True, "pairs": True})
    playing = seated_table(alice, [bob])
    play_moves(playing, count=1)  # now it is Bob's move: one table in each section
    seated_table(bob, [alice])
    start_table(alice, [], players=3)
    finished = finished_match(alice, [bob])
    actions.rematch(finished.pk, bob)  # an invitation for Alice
    client.force_login(alice)

    assert_all_romanian(client, [
        reverse("lobby"), reverse("create_table"), reverse("create_table") + "?preset=americana-301",
        reverse("my_matches"),
    ])


def test_a_refused_table_form_is_in_romanian(client, alice):
    client.force_login(alice)
    form = {"rules": "septica", "players": 4, "match": "points-8", "teams": "on", "seconds_per_move": 5}
    pages = [client.post(reverse("create_table"), form, HTTP_ACCEPT_LANGUAGE=language) for language in ("en", "ro")]

    assert all(page.status_code == 200 for page in pages)
    assert untranslated(*(page.content.decode() for page in pages)) == []


@pytest.mark.parametrize(("rules", "players", "options"), [
    ("septica", 2, {"match": "points-21"}),
    ("septica", 4, {"teams": True}),
    ("septica", 3, {"eights_cut": True}),
    ("familie", 3, {}),
    ("americana", 2, {"jokers": True, "pairs": True, "jacks_draw": True}),
])
def test_a_table_page_is_all_in_romanian_for_its_players_and_spectators(
    client, make_user, alice, bob, charlie, rules, players, options
):
    others = [bob, charlie, make_user("dana"), make_user("erin")][: players - 1]
    table = start_table(alice, others, rules=rules, players=players, options=options, private=True)
    play_moves(table, count=3)
    page = reverse("table", args=[table.pk])
    client.force_login(alice)
    assert_all_romanian(client, [page])

    client.force_login(make_user("frank"))
    assert_all_romanian(client, [f"{page}?invite={table.invite_code}"])


def test_a_table_waiting_for_players_is_all_in_romanian(client, alice, bob):
    table = start_table(alice, [], players=3, private=True)
    client.force_login(alice)
    assert_all_romanian(client, [reverse("table", args=[table.pk])])


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_a_finished_table_and_its_replay_are_all_in_romanian(client, alice, bob, rules):
    match = finished_match(alice, [bob], rules=rules)
    client.force_login(alice)
    assert_all_romanian(client, [reverse("table", args=[match.pk]), reverse("replay", args=[match.pk])])


def rules_and_tutorial_pages() -> list[str]:
    from games.views.rules import PAGES
    from tutorial.scripts import GAMES

    return [reverse("rules"), *(reverse("rules_page", args=[page]) for page in PAGES), reverse("tutorial"),
            *(reverse("tutorial_step", args=[game, number]) for game, steps in GAMES.items()
              for number in range(1, len(steps) + 1))]


def test_the_rules_and_every_tutorial_step_are_all_in_romanian_for_visitors(client):
    assert_all_romanian(client, rules_and_tutorial_pages())


def test_the_rules_and_every_tutorial_step_are_all_in_romanian_for_players(client, alice):
    client.force_login(alice)
    assert_all_romanian(client, rules_and_tutorial_pages())


def test_the_server_error_page_is_in_romanian(rf):
    pages = []
    for language in ("en", "ro"):
        with translation.override(language):
            pages.append(server_error(rf.get("/")).content.decode())

    assert untranslated(*pages) == []
    assert "Ceva n-a mers bine" in pages[1]


@pytest.mark.usefixtures("account_limits_unused")
def test_the_second_factor_pages_are_all_in_romanian_with_their_diacritics(client, alice, password):
    log_in(client, "alice", password)
    set_up_totp(client, password)
    client.get(reverse("mfa_generate_recovery_codes"))  # the index then counts the codes left
    urls = [reverse(name) for name in (
        "mfa_index", "mfa_list_webauthn", "mfa_add_webauthn", "mfa_view_recovery_codes",
        "mfa_generate_recovery_codes", "mfa_deactivate_totp", "account_reauthenticate", "mfa_reauthenticate",
    )]
    assert_all_romanian(client, urls)
    pages = {url: client.get(url, HTTP_ACCEPT_LANGUAGE="ro").content.decode() for url in urls}
    second_step = Client().post(reverse("login"), {"login": "alice", "password": password},
                                HTTP_ACCEPT_LANGUAGE="ro", follow=True)
    assert second_step.redirect_chain[-1][0] == reverse("mfa_authenticate")
    pages["the log-in's second step"] = second_step.content.decode()

    # allauth's own Romanian writes some of these words without their diacritics
    assert {where: WITHOUT_DIACRITICS.findall(page) for where, page in pages.items()
            if WITHOUT_DIACRITICS.search(page)} == {}


WITHOUT_DIACRITICS = re.compile(r"\b(?:Conecteaza|Confirma|Salvați-le)\b")
