"""/players/<username>/: ratings per rule set, charts, counts, reliability, the last matches, and who may see it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players.reads import RULE_SETS

from .conftest import finished_table, outcome, rating

pytestmark = pytest.mark.django_db


def page(client, username: str, status: int = 200) -> str:
    response = client.get(reverse("player", args=[username]))
    assert response.status_code == status
    return response.content.decode()


def test_the_rule_sets_are_the_games_own():
    from games.words.rulesets import RULES_NAMES

    assert RULE_SETS == RULES_NAMES


def test_a_profile_shows_the_name_the_ratings_and_provisional_until_ten(client, alice, bob):
    rating(alice, "septica", shown=1234, rated_matches=12)
    rating(alice, "americana", shown=1010, rated_matches=3)

    html = page(client, "alice")

    assert "<h1>Alice</h1>" in html
    septica = html.split('data-rules="septica"')[1].split("</li>")[0]
    americana = html.split('data-rules="americana"')[1].split("</li>")[0]
    familie = html.split('data-rules="familie"')[1].split("</li>")[0]
    assert "1234" in septica and "provisional" not in septica and "12 rated matches" in septica
    assert "1010" in americana and "provisional" in americana and "7 more before it stops being provisional" in americana
    assert "No rated match yet." in familie


def test_the_username_is_found_in_any_case(client, alice):
    assert "<h1>Alice</h1>" in page(client, "ALICE")


def test_an_unknown_player_is_not_found(client):
    page(client, "nobody", status=404)


def test_a_banned_player_is_not_found_except_by_staff(client, alice, make_user):
    alice.banned = True
    alice.save()
    page(client, "alice", status=404)

    client.force_login(make_user("mod", is_staff=True))
    assert "banned" in page(client, "alice")


def test_a_suspended_player_keeps_a_profile(client, alice):
    alice.suspended_until = timezone.now() + timedelta(days=3)
    alice.save()
    assert "<h1>Alice</h1>" in page(client, "alice")


def test_the_chart_draws_the_rating_after_each_rated_match_with_words(client, alice, bob):
    rating(alice, shown=1100, rated_matches=3)
    start = timezone.now() - timedelta(days=3)
    for day, shown in enumerate([1020, 1060, 1100]):
        table = finished_table([alice, bob], when=start + timedelta(days=day))
        outcome(table, alice, shown_before=shown - 20, shown_after=shown)
    casual = finished_table([alice, bob])
    outcome(casual, alice, rated=False)

    html = page(client, "alice")
    septica = html.split('data-rules="septica"')[1].split("</li>")[0]

    assert '<svg class="rating-chart"' in septica and 'role="img"' in septica
    assert "<title id=\"chart-septica-title\">Șeptică: rating over time</title>" in septica
    assert "last 3 rated matches: from 1020 to 1100; lowest 1020, highest 1100." in septica
    assert septica.count("<polyline") == 1 and len(septica.split('points="')[1].split('"')[0].split()) == 3
    assert "4 matches played, 4 won" in septica


def test_played_and_won_are_counted_per_rule_set(client, alice, bob):
    for place in (1, 2, 2):
        outcome(finished_table([alice, bob], rules="familie"), alice, place=place, rated=False)

    familie = page(client, "alice").split('data-rules="familie"')[1].split("</li>")[0]

    assert "3 matches played, 1 won" in familie


def test_reliability_says_the_share_or_that_there_is_nothing_yet(client, alice, bob):
    assert "No finished match yet." in page(client, "alice").split('id="reliability-title"')[1]
    outcome(finished_table([alice, bob]), alice)
    outcome(finished_table([alice, bob]), alice, stood_in_turns=3)

    html = page(client, "alice").split('id="reliability-title"')[1].split("</section>")[0]

    assert "<strong>50%</strong>" in html and "50% of their last 2 matches finished without a bot standing in." in html


def test_the_last_twenty_matches_say_result_place_rated_people_and_replay(client, alice, bob, charlie):
    old = timezone.now() - timedelta(days=30)
    for _ in range(21):
        outcome(finished_table([alice, bob], when=old), alice, rated=False)
    ffa = finished_table([alice, bob, charlie], rules="americana", bots=["expert"])
    outcome(ffa, alice, place=3, won=False, shown_before=1040, shown_after=1012)

    html = page(client, "alice").split('id="matches-title"')[1]

    assert html.count('class="past-match"') == 20
    first = html.split('class="past-match"')[1]
    assert "Șeptică americană" in first and "Lost" in first and "place 3 of 4" in first
    assert "rated (1040 → 1012)" in first
    assert f'href="{reverse("player", args=["bob"])}"' in first and ">Bob</a>" in first
    assert "Charlie" in first and "bot (Expert)" in first
    assert f'href="{reverse("replay", args=[ffa.pk])}"' in first
    assert "casual" in html.split('class="past-match"')[2]


def test_a_resigned_match_says_so(client, alice, bob):
    outcome(finished_table([alice, bob]), alice, place=2, won=False, resigned=True)
    assert "Resigned" in page(client, "alice").split('id="matches-title"')[1]


def test_a_private_table_shows_no_names_nor_replay_to_outsiders(client, alice, bob, charlie):
    table = finished_table([alice, bob], private=True)
    outcome(table, alice)
    replay = reverse("replay", args=[table.pk])

    client.force_login(charlie)
    outsider = page(client, "alice").split('id="matches-title"')[1]
    client.force_login(bob)
    seated = page(client, "alice").split('id="matches-title"')[1]

    assert "A private table" in outsider and "Bob" not in outsider and replay not in outsider
    assert "Bob" in seated and replay in seated


def test_challenge_is_offered_to_a_signed_in_other_person_only(client, alice, bob):
    challenge = f'{reverse("create_table")}?challenge=alice'
    assert challenge not in page(client, "alice")
    client.force_login(alice)
    assert challenge not in page(client, "alice")
    client.force_login(bob)
    assert challenge in page(client, "alice") and "Challenge Alice" in page(client, "alice")


def test_the_profile_reads_in_a_few_queries_whatever_the_matches(client, alice, bob, charlie,
                                                                django_assert_max_num_queries):
    for _ in range(20):
        table = finished_table([alice, bob, charlie], bots=["medium"])
        outcome(table, alice, shown_after=1000)
    rating(alice)
    with django_assert_max_num_queries(14):
        page(client, "alice")


def test_the_chart_puts_the_highest_at_the_top_and_a_single_match_level_across_the_middle():
    from players.chart import HEIGHT, points_of, rating_chart

    assert [y for _x, y in points_of([1000, 1100, 1050])] == [HEIGHT - 6, 6, HEIGHT / 2]
    assert {y for _x, y in points_of([1040, 1040])} == {HEIGHT / 2}
    assert "1040" in rating_chart([1040], "c", "t") and rating_chart([], "c", "t") == ""
