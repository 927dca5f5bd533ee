"""How each seat of a finished match places: the order ratings are computed from."""

from __future__ import annotations

from games.actions.finish import places_of


def test_the_winner_of_two_places_first_and_the_other_second():
    assert places_of("septica", {"scores": [1, 2], "winners": [1]}, 2, teams=False) == [2, 1]


def test_in_americana_the_lowest_penalty_places_best():
    result = {"scores": [105, 20, 64], "winners": [1]}
    assert places_of("americana", result, 3, teams=False) == [3, 1, 2]


def test_in_familie_the_highest_points_place_best_and_equal_scores_share_a_place():
    result = {"scores": [48, 0, 224, 32, 0, 56], "winners": [2]}
    assert places_of("familie", result, 6, teams=False) == [3, 5, 1, 4, 5, 2]


def test_every_winner_shares_first_place():
    assert places_of("familie", {"scores": [90, 90, 12], "winners": [0, 1]}, 3, teams=False) == [1, 1, 3]


def test_a_match_with_no_winner_places_by_score():
    assert places_of("americana", {"scores": [30, 30], "winners": []}, 2, teams=False) == [1, 1]


def test_partners_share_their_team_place():
    result = {"scores": [2, 0, 2, 0], "winners": [0, 2]}
    assert places_of("septica", result, 4, teams=True) == [1, 2, 1, 2]


def test_three_teams_of_two_place_by_their_team_score():
    result = {"scores": [1, 3, 0, 1, 3, 0], "winners": [1, 4]}
    assert places_of("septica", result, 6, teams=True) == [2, 1, 3, 2, 1, 3]


def test_a_resigned_seat_places_last_whatever_its_score():
    result = {"scores": [40, 100, 60], "winners": [1]}
    assert places_of("familie", result, 3, teams=False, resigned_seats={1}) == [2, 3, 1]


def test_a_resignation_in_the_result_puts_the_resigners_whole_side_last():
    result = {"scores": [1, 0, 1, 0], "winners": [1, 3], "resigned": [0]}
    assert places_of("septica", result, 4, teams=True) == [2, 1, 2, 1]


def test_two_resigned_seats_share_the_last_place():
    result = {"scores": [40, 100, 60, 5], "winners": [1]}
    assert places_of("familie", result, 4, teams=False, resigned_seats={1, 2}) == [1, 3, 3, 2]
