"""Bots go by Romanian first names, distinct at a table, with their level and style as a badge."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import actions
from games.bot_names import FIRST_NAMES, bot_names, names_in_order
from games.models import BotLevel, BotStyle, Match, Table, TableStatus
from games.presenters import table_json, table_summary
from games.reads import tables_with_seats
from players.bot_ratings import published_rating

pytestmark = pytest.mark.django_db


def bots(*specs):
    return [actions.BotSpec(seat=seat, level=level, style=style) for seat, level, style in specs]


def six_bots_and_alice(alice, level="beginner", style="balanced"):
    return actions.create_table(alice, rules="septica", players=6,
                                bots=bots(*[(seat, level, style) for seat in range(1, 6)]))


def api_seats(client, table):
    return client.get(f"/api/tables/{table.pk}").json()["seats"]


def test_five_beginner_bots_at_a_six_player_table_have_five_different_first_names(client, alice):
    table = six_bots_and_alice(alice)

    seats = api_seats(client, table)[1:]

    names = [seat["name"] for seat in seats]
    assert len(set(names)) == 5
    assert all(name in FIRST_NAMES for name in names)
    assert all(seat["kind"] == "bot" and seat["bot"]["name"] == seat["name"] for seat in seats)
    assert not any("Bot (" in name for name in names)


def test_a_bot_is_named_alike_by_the_api_the_lobby_the_table_page_and_once_the_match_has_started(client, alice, bob):
    table = actions.create_table(alice, rules="familie", players=3, bots=bots((2, "medium", "balanced")))
    before = api_seats(client, table)[2]["name"]
    lobby = client.get(reverse("lobby")).content.decode()

    actions.join_table(table.pk, bob)
    client.force_login(bob)
    after = api_seats(client, table)[2]["name"]
    page = client.get(reverse("table", args=[table.pk])).content.decode()

    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING
    assert before == after and before in lobby and before in page


def test_a_socket_sees_the_same_names_as_the_api(client, alice, bob):
    table = actions.create_table(alice, rules="septica", players=4,
                                 bots=bots((1, "expert", "expert"), (3, "beginner", "cautious")))
    row = tables_with_seats().get(pk=table.pk)

    shared = table_summary(row, bob, list(row.seats.all()), cache={})

    assert [seat["name"] for seat in shared["seats"]] == [seat["name"] for seat in api_seats(client, table)]


def test_two_medium_bots_that_win_together_are_named_in_the_result(client, alice):
    table = actions.create_table(alice, rules="familie", players=3,
                                 bots=bots((1, "medium", "balanced"), (2, "medium", "balanced")))
    Match.objects.filter(pk=table.pk).update(result={"winners": [1, 2], "scores": [10, 30, 30]})
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    seats = api_seats(client, table)

    words = client.get(f"/api/tables/{table.pk}").json()["words"]

    assert words["result"] == f"{seats[1]['name']} and {seats[2]['name']} won"
    assert "Bot" not in words["result"] and seats[1]["name"] != seats[2]["name"]


def test_a_bot_never_takes_the_name_of_a_person_at_the_table(client, alice, bob):
    table = actions.create_table(alice, rules="septica", players=3)
    bob.display_name = names_in_order(table.pk)[2].upper()  # the name seat 2 would have
    bob.save()
    actions.join_table(table.pk, bob)
    actions.add_bot(table.pk, alice, seat=2)

    seats = api_seats(client, table)

    assert seats[1]["name"] == bob.display_name
    assert seats[2]["kind"] == "bot" and seats[2]["name"].casefold() != bob.display_name.casefold()


def test_a_name_without_its_diacritics_or_with_a_cedilla_is_the_same_name():
    order = names_in_order(41)
    own = {seat: order[seat] for seat in range(1, 6)}
    stefan_free = [seat for seat, name in own.items() if name != "Ștefan"]

    for person in ("Stefan", "ştefan", "Ștefan Popa"):
        names = bot_names(41, own, [person])
        assert "Ștefan" not in names.values()
        assert all(names[seat] == own[seat] for seat in stefan_free)
        assert len(set(names.values())) == 5


def test_names_depend_on_the_table_so_two_tables_do_not_read_the_same():
    orders = {names_in_order(table_id)[1:6] for table_id in range(1, 21)}

    assert len(orders) > 10


BADGES = {  # the level's published rating (players/bot_ratings.py) beside it
    ("expert", "aggressive"): "Expert ≈ {rating}, aggressive",
    ("expert", "expert"): "Expert ≈ {rating}",
    ("beginner", "team"): "Beginner ≈ {rating}, team player",
    ("medium", "balanced"): "Medium ≈ {rating}, balanced",
}


@pytest.mark.parametrize("level,style", BADGES)
def test_the_badge_says_the_level_first_and_never_the_same_word_twice(client, alice, level, style):
    table = actions.create_table(alice, rules="septica", players=2, bots=bots((1, level, style)))

    bot = api_seats(client, table)[1]["bot"]

    rating = published_rating("septica", level)
    assert bot == {"level": level, "style": style, "name": bot["name"], "rating": rating,
                   "badge": BADGES[level, style].format(rating=rating)}


def test_the_badge_reads_in_romanian_too(alice):
    table = actions.create_table(alice, rules="septica", players=3,
                                 bots=bots((1, "expert", "expert"), (2, "expert", "aggressive")))
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")

    badges = [seat["bot"]["badge"] for seat in api_seats(client, table)[1:]]

    with translation.override("ro"):
        expert, aggressive = str(BotLevel.EXPERT.label), str(BotStyle.AGGRESSIVE.label)
    assert expert != "Expert" or aggressive != "Aggressive"  # the labels are translated
    rating = published_rating("septica", "expert")
    assert badges == [f"{expert} ≈ {rating}", f"{expert} ≈ {rating}, {aggressive.lower()}"]


def test_a_bot_standing_in_for_a_person_keeps_the_persons_name(client, alice, bob):
    table = actions.create_table(alice, rules="septica", players=2)
    actions.join_table(table.pk, bob)
    table.seats.filter(number=1).update(standing_in=True)

    data = table_json(tables_with_seats().get(pk=table.pk), None)

    assert data["seats"][1]["name"] == "Bob" and data["seats"][1]["kind"] == "person"
