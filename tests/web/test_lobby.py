"""The lobby lists open public tables; the create form makes tables from presets
and every option, and shows the engine's reason when it refuses."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import actions
from games.forms import PRESETS
from games.models import Table, TableStatus
from games.presenters import bot_names_of

pytestmark = pytest.mark.django_db


def new_table(user, **fields) -> Table:
    fields.setdefault("rules", "septica")
    fields.setdefault("players", 2)
    return actions.create_table(user, **fields)


def listed_ids(response) -> list[int]:
    return [int(n) for n in re.findall(r'data-table="(\d+)"', response.content.decode())]


def form_data(response) -> dict:
    """What a browser would send back for the form as the page shows it."""
    data = {}
    for field in response.context["form"]:
        value = field.value()
        if isinstance(value, bool) or field.widget_type == "checkbox":
            if value:
                data[field.html_name] = "on"
        elif value is not None:
            data[field.html_name] = value
    return data


# --- the lobby ----------------------------------------------------------------
def test_the_lobby_lists_open_public_tables_only(client, alice, bob, charlie):
    open_table = new_table(alice)
    new_table(alice, private=True)
    hidden = new_table(alice)
    Table.objects.filter(pk=hidden.pk).update(hidden=True)
    closed = new_table(alice)
    Table.objects.filter(pk=closed.pk).update(closed=True)
    playing = new_table(bob)
    actions.join_table(playing.pk, charlie)
    finished = new_table(charlie)
    Table.objects.filter(pk=finished.pk).update(status=TableStatus.FINISHED)
    left = new_table(charlie, players=3)
    actions.leave_table(left.pk, charlie)

    response = client.get(reverse("lobby"))

    assert listed_ids(response) == [open_table.pk]


def test_the_lobby_shows_the_newest_table_first(client, alice, bob):
    older = new_table(alice)
    newer = new_table(bob)

    assert listed_ids(client.get(reverse("lobby"))) == [newer.pk, older.pk]


def test_the_lobby_says_the_rules_options_seats_and_time_in_plain_words(client, alice, bob):
    new_table(alice, options={"match": "points-8"}, seconds_per_move=30)
    bobs = new_table(
        bob,
        rules="americana",
        players=3,
        options={"target": 501, "jokers": True},
        seconds_per_move=86400,
        bots=[actions.BotSpec(seat=2, level="expert", style="aggressive")],
    )

    page = client.get(reverse("lobby")).content.decode()

    assert "Șeptică" in page and "to 8 points" in page and "30 s per move" in page and "live" in page
    assert "Șeptică americană" in page and "to 501 points, with jokers" in page and "1 day per move" in page
    assert "correspondence" in page
    bot_name = bot_names_of(bobs.seats.all())[2]
    assert "2 of 3 seats" in page and "Bob" in page and bot_name in page and "free" in page
    assert "1 of 2 seats" in page and "Alice" in page


def test_anonymous_visitors_see_a_log_in_link_instead_of_join(client, alice):
    new_table(alice)

    page = client.get(reverse("lobby")).content.decode()

    assert "Log in to join" in page and f"{reverse('login')}?next=/play/" in page
    assert ">Join<" not in page


def test_a_player_joins_from_the_lobby_and_the_full_table_starts(client, alice, bob):
    table = new_table(alice)
    client.force_login(bob)
    assert ">Join<" in client.get(reverse("lobby")).content.decode()

    response = client.post(reverse("lobby_join", args=[table.pk]))

    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    assert table.seats.get(number=1).user == bob


def test_joining_a_table_that_filled_meanwhile_says_so(client, alice, bob, charlie):
    table = new_table(alice)
    actions.join_table(table.pk, charlie)
    client.force_login(bob)

    response = client.post(reverse("lobby_join", args=[table.pk]), follow=True)

    assert "This table has already started." in response.content.decode()
    assert not table.seats.filter(user=bob).exists()


def test_anonymous_join_is_sent_to_log_in(client, alice):
    table = new_table(alice)

    response = client.post(reverse("lobby_join", args=[table.pk]))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert table.seats.filter(user__isnull=True).count() == 1


def test_my_own_table_in_the_lobby_offers_the_table_and_leave(client, alice, bob):
    table = new_table(alice, players=3)
    actions.join_table(table.pk, bob)
    client.force_login(bob)
    page = client.get(reverse("lobby")).content.decode()
    assert "Go to the table" in page and ">Leave<" in page

    response = client.post(reverse("lobby_leave", args=[table.pk]), {"next": "/play/"})

    assert response.url == "/play/"
    assert not table.seats.filter(user=bob).exists()


def test_a_seat_kept_for_a_rematch_is_not_offered_to_others(client, alice, bob, charlie):
    table = new_table(alice)
    actions.join_table(table.pk, bob)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    actions.rematch(table.pk, alice)
    client.force_login(charlie)

    page = client.get(reverse("lobby")).content.decode()

    assert "Seat kept for a rematch" in page and ">Join<" not in page


def test_the_api_lists_the_same_words_the_page_shows(client, alice):
    new_table(alice, options={"match": "points-21"}, seconds_per_move=300)

    table = client.get(reverse("api_tables")).json()["tables"][0]

    assert table["words"]["rules"] == "Șeptică"
    assert table["words"]["options"] == "to 21 points"
    assert table["words"]["time"] == "5 min"


# --- the create form ------------------------------------------------------------
def test_anonymous_users_are_sent_to_log_in_to_create_a_table(client):
    response = client.get(reverse("create_table"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('create_table')}"

    response = client.post(reverse("create_table"), {"rules": "septica", "players": 2, "seconds_per_move": 30})
    assert response.status_code == 302 and not Table.objects.exists()


def test_the_lobby_links_to_the_create_form(client):
    assert f'href="{reverse("create_table")}"' in client.get(reverse("lobby")).content.decode()


def test_the_form_offers_every_preset_and_time_step(client, alice):
    client.force_login(alice)

    page = client.get(reverse("create_table")).content.decode()

    for label in (
        "Septica Clasica — short table to 8",
        "Septica Clasica — long table to 21",
        "Quick play — best of 3",
        "Familie",
        "Americana to 101",
        "Americana to 301",
        "Americana to 501",
    ):
        assert label in page
    for step in ("30 s", "1 min", "2 min", "5 min", "15 min", "1 h", "8 h", "1 day", "2 days", "3 days"):
        assert f">{step}</option>" in page
    for option in ("Eights cut too", "Play in teams", "With the two jokers", "Pairing: J on 2", "Jacks make"):
        assert option in page
    assert "Beginner" in page and "Team player" in page and "Private table" in page


EXPECTED = {
    "septica-8": ("septica", 2, {"match": "points-8", "eights_cut": False, "teams": False}),
    "septica-21": ("septica", 2, {"match": "points-21", "eights_cut": False, "teams": False}),
    "quick": ("septica", 2, {"match": "best-of-3", "eights_cut": False, "teams": False}),
    "familie": ("familie", 3, {}),
    "americana-101": ("americana", 2, {"target": 101, "jokers": False, "pairs": False, "jacks_draw": False}),
    "americana-301": ("americana", 2, {"target": 301, "jokers": False, "pairs": False, "jacks_draw": False}),
    "americana-501": ("americana", 2, {"target": 501, "jokers": False, "pairs": False, "jacks_draw": False}),
}


@pytest.mark.parametrize("preset", [preset.slug for preset in PRESETS])
def test_each_preset_fills_the_form_and_creates_that_table(client, alice, preset):
    client.force_login(alice)
    page = client.get(reverse("create_table"), {"preset": preset})
    assert f'data-preset="{preset}" aria-pressed="true"' in page.content.decode()

    response = client.post(reverse("create_table"), form_data(page))

    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    assert (table.rules, table.players, table.options) == EXPECTED[preset]
    assert table.seconds_per_move == 60 and not table.private  # the form's defaults: bots, on a live clock
    assert table.seats.get(number=0).user == alice
    assert table.seats.filter(bot_level="medium").count() == table.players - 1
    assert table.status == TableStatus.PLAYING


def test_the_form_seats_bots_and_sets_the_time_and_a_private_table(client, alice):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table"), {"preset": "americana-301"}))
    data.update(
        players=4,
        jokers="on",
        pairs="on",
        jacks_draw="on",
        seconds_per_move=300,
        private="on",
        seat_1="bot",
        seat_1_level="expert",
        seat_1_style="aggressive",
        seat_2="person",
        seat_3="bot",
        seat_3_level="beginner",
        seat_3_style="cautious",
        seat_5="bot",
    )  # past the player count: ignored

    response = client.post(reverse("create_table"), data)

    table = Table.objects.get()
    assert response.url == reverse("table", args=[table.pk])
    assert (table.rules, table.players, table.seconds_per_move, table.private) == ("americana", 4, 300, True)
    assert table.options == {"target": 301, "jokers": True, "pairs": True, "jacks_draw": True}
    bots = {seat.number: (seat.bot_level, seat.bot_style) for seat in table.seats.exclude(bot_level="")}
    assert bots == {1: ("expert", "aggressive"), 3: ("beginner", "cautious")}
    assert table.seats.get(number=2).is_free
    assert table.pk not in listed_ids(client.get(reverse("lobby")))


def test_a_table_full_of_bots_starts_at_once(client, alice):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table"), {"preset": "familie"}))
    data.update(seat_1="bot", seat_2="bot", seconds_per_move=30)

    client.post(reverse("create_table"), data)

    assert Table.objects.get().status == TableStatus.PLAYING


def test_septica_options_by_player_count(client, alice):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table"), {"preset": "quick"}))
    data.update(players=6, match="first-to-10", eights_cut="on", teams="on")

    client.post(reverse("create_table"), data)

    assert Table.objects.get().options == {"match": "first-to-10", "eights_cut": True, "teams": True}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 2, "eights_cut": "on"}, "Eights cut only with 3, 5 or 6 players"),
        ({"players": 3, "teams": "on"}, "Teams play only with 4 or 6 players, not with 3."),
        ({"rules": "americana", "players": 5}, "americana is played by 2 to 4 players, not 5."),
    ],
)
def test_bad_options_show_the_engines_message_on_the_form(client, alice, change, message):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table"), {"preset": "septica-8"}))
    data.update(change)

    response = client.post(reverse("create_table"), data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert not Table.objects.exists()


def test_a_time_off_the_list_is_refused_on_the_form(client, alice):
    client.force_login(alice)
    data = form_data(client.get(reverse("create_table")))
    data["seconds_per_move"] = 5

    response = client.post(reverse("create_table"), data)

    assert response.status_code == 200 and "Time per move" in response.content.decode()
    assert not Table.objects.exists()
