"""Names that pass for someone else, or hide characters, are refused on the sign-up and profile pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

User = get_user_model()
PASSWORD = "a-whole-new-deck-42"


def sign_up(client, username, email=None):
    return client.post(reverse("signup"), {
        "username": username,
        "email": email or "newcomer@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    })


def save_profile(client, display_name):
    return client.post(reverse("profile"), {"display_name": display_name, "preferred_language": ""})


def field_errors(response, field):
    form = response.context["form"]
    return [str(error) for error in form.errors.get(field, [])]


# --- display names on the profile page -----------------------------------------

REFUSED_DISPLAY_NAMES = {
    "another player's display name": ("Bob", "looks too much like another player"),
    "another player's display name, other case": ("bOB", "looks too much like another player"),
    "another player's username written in Cyrillic": ("Соре", "looks too much like another player"),
    "another player's username with a Cyrillic letter": ("сharlie", "one alphabet"),
    "another player's name with a digit for a letter": ("Charl1e", "looks too much like another player"),
    "a right-to-left override": ("\u202eBob the Great", "invisible, control or text-direction"),
    "a right-to-left isolate": ("Ana\u2067x", "invisible, control or text-direction"),
    "only zero-width characters": ("\u200b\u200c\u200d", "invisible, control or text-direction"),
    "a zero-width space inside": ("Ma\u200bria", "invisible, control or text-direction"),
    "a Hangul filler that draws nothing": ("\u3164", "invisible, control or text-direction"),
    "a control character": ("Ana\x07", "invisible, control or text-direction"),
    "no letter at all": ("...", "at least one letter or digit"),
    "Latin and Cyrillic mixed": ("Mаria", "one alphabet"),
    "a bot's label at tables": ("Bot (Expert, Expert)", "kept for the site and its bots"),
    "a bot's label in Romanian": ("Robot (Expert, Echipier)", "kept for the site and its bots"),
    "a bot level": ("Expert bot", "kept for the site and its bots"),
    "a bot level in Romanian, no diacritics": ("Incepator", "kept for the site and its bots"),
    "a bot style": ("Team player", "kept for the site and its bots"),
    "bot with digits": ("bot_42", "kept for the site and its bots"),
    "robot": ("Robotul", "kept for the site and its bots"),
    "the site's name": ("Septica", "kept for the site and its bots"),
    "admin": ("ADMIN", "kept for the site and its bots"),
    "moderator": ("Moderator", "kept for the site and its bots"),
    "a bot's first name": ("Ilinca", "kept for the site and its bots"),
    "a bot's first name with a cedilla": ("Ştefan", "kept for the site and its bots"),
    "a bot's first name without diacritics": ("madalina", "kept for the site and its bots"),
    "a bot's badge at tables": ("Ștefan · Medium, balanced", "·"),
    "a person's name in a bot's badge": ("Ana · Medium, balanced", "·"),
    "a middle dot between names": ("Ana·Maria", "·"),
    "a look-alike of the middle dot": ("Ana • Expert", "·"),
}


@pytest.mark.parametrize("display_name,error", REFUSED_DISPLAY_NAMES.values(), ids=REFUSED_DISPLAY_NAMES.keys())
def test_a_display_name_that_passes_for_someone_else_or_hides_characters_is_refused(
        client, alice, bob, charlie, make_user, display_name, error):
    make_user("cope")
    client.force_login(alice)

    response = save_profile(client, display_name)

    assert response.status_code == 200
    assert any(error in text for text in field_errors(response, "display_name")), field_errors(response, "display_name")
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.parametrize("display_name", ["Ștefania", "Ioana-Mădălina", "Țuțu Brăileanu", "Дмитрий", "Zoë", "Alice",
                                          "Ilinca Popescu"])
def test_ordinary_names_with_diacritics_and_other_alphabets_are_accepted(client, alice, bob, display_name):
    client.force_login(alice)

    response = save_profile(client, display_name)

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == display_name


def test_a_display_name_is_normalised_before_it_is_stored(client, alice):
    client.force_login(alice)

    # Full-width letters, a no-break space and a run of spaces around and inside.
    response = save_profile(client, "  Ｉoana\u00a0  Mădălina ")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Ioana Mădălina"


def test_ones_own_username_may_be_the_display_name(client, make_user):
    ana = make_user("ana")
    client.force_login(ana)

    assert save_profile(client, "Ana").status_code == 302
    ana.refresh_from_db()
    assert ana.display_name == "Ana"


def test_a_username_ștefania_blocks_a_cedilla_ştefania_display_name(client, alice, make_user):
    make_user("Ștefania")
    client.force_login(alice)

    response = save_profile(client, "Ştefania")  # s with cedilla, not comma below

    assert any("looks too much like" in text for text in field_errors(response, "display_name"))
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


# --- usernames on the sign-up page ------------------------------------------------

REFUSED_USERNAMES = {
    "Cyrillic а for Latin a": ("аlice", "one alphabet"),
    "all Cyrillic look-alike of a display name": ("Сое", "looks too much like another player"),
    "digit one for l": ("a1ice", "looks too much like another player"),
    "capital I for l": ("AIice", "looks too much like another player"),
    "another player's display name": ("charl1e", "looks too much like another player"),
    "Latin and Greek mixed": ("mariο", "one alphabet"),
    "a bot's name": ("expert_bot", "kept for the site and its bots"),
    "admin": ("admin", "kept for the site and its bots"),
    "the site's name": ("septica", "kept for the site and its bots"),
    "full-width letters": ("ｚｅｄ", "plain letters: zed"),
    "a bot's first name": ("Ilinca", "kept for the site and its bots"),
    "a bot's first name in small letters": ("ilinca", "kept for the site and its bots"),
    "a bot's first name without its comma below": ("Stefan", "kept for the site and its bots"),
}


@pytest.mark.parametrize("username,error", REFUSED_USERNAMES.values(), ids=REFUSED_USERNAMES.keys())
def test_a_username_that_passes_for_someone_else_is_refused_at_sign_up(
        client, alice, bob, charlie, make_user, username, error):
    make_user("zoe", display_name="Coe")
    before = User.objects.count()

    response = sign_up(client, username)

    assert response.status_code == 200
    assert any(error in text for text in field_errors(response, "username")), field_errors(response, "username")
    assert User.objects.count() == before


def test_a_username_whose_display_name_is_taken_by_its_look_alike_is_refused(client, make_user):
    make_user("zed", display_name="Ioana-Mădălina")

    response = sign_up(client, "ioana_madalina_x")
    assert response.status_code == 302  # different enough
    client.logout()

    response = sign_up(client, "IoanaMădălina", email="other@example.com")
    assert any("looks too much like" in text for text in field_errors(response, "username"))
    assert not User.objects.filter(username="IoanaMădălina").exists()


@pytest.mark.parametrize("username", ["ștefania", "ioana-mădălina", "dana", "ilinca_pop"])
def test_ordinary_usernames_sign_up(client, alice, username):
    response = sign_up(client, username)

    assert response.status_code == 302
    user = User.objects.get(username=username)
    assert user.username_key  # kept for the next look-alike check


def test_saving_keeps_the_keys_that_the_look_up_reads(make_user):
    dana = make_user("dana")
    dana.display_name = "Dana Pop"
    dana.save(update_fields=["display_name"])

    assert User.objects.filter(display_name_key="danapop", username_key="dana").exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_accounts_their_keys():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("accounts", "0003_suspension")], [("accounts", "0004_name_keys")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        OldUser = executor.loader.project_state(before).apps.get_model("accounts", "User")
        OldUser.objects.create(username="Stefan", email="s@example.com", display_name="Ştefan cel Mare")
        executor = MigrationExecutor(connection)
        executor.migrate(after)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert list(User.objects.values_list("username_key", "display_name_key")) == [("stefan", "ștefanceimare")]


def test_no_bot_first_name_is_a_username_in_any_case_or_spelling(client, db):
    from games.bot_names import FIRST_NAMES, folded

    for name in FIRST_NAMES:
        for spelling in {name, name.lower(), name.upper(), folded(name)}:
            response = sign_up(client, spelling, email=f"{folded(name)}@example.com")
            assert response.status_code == 200, spelling
            assert any("kept for the site and its bots" in text for text in field_errors(response, "username")), \
                (spelling, field_errors(response, "username"))
    assert not User.objects.exists()


def test_a_display_name_kept_as_it_was_is_not_refused_for_a_bot_s_name(client, make_user):
    # Set before bots' names were kept; at a table, a bot takes another name than a person's there.
    ilinca = make_user("ilinca_pop", display_name="Ilinca")
    client.force_login(ilinca)

    response = client.post(reverse("profile"), {"display_name": "Ilinca", "preferred_language": "ro"})

    assert response.status_code == 302
    ilinca.refresh_from_db()
    assert ilinca.preferred_language == "ro" and ilinca.display_name == "Ilinca"


def test_the_middle_dot_is_refused_in_romanian_too(alice):
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from accounts.names import clean_display_name

    with translation.override("ro"), pytest.raises(ValidationError) as refusal:
        clean_display_name("Ana · Mediu, echilibrat", alice)

    assert refusal.value.messages == ["Numele nu pot conține „·”: mesele îl pun între numele unui robot și nivelul lui."]
