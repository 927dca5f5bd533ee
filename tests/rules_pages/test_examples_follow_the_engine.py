"""The worked examples are real play: each is replayed through the engine from the hands the page shows,
and every picture of the table on the page is what the engine has on the table at that moment."""

from __future__ import annotations

import pytest

from games.engine import rules_for

from .pages import example_hands, example_strips, get_page

pytestmark = pytest.mark.django_db

TAKE, PASS, DRAW = {"type": "take"}, {"type": "pass"}, {"type": "draw"}


def play(card: str) -> dict:
    return {"type": "play", "card": card}


def deck_dealing(hands: list[list[str]], full_deck: list[str], turned_up: tuple[str, ...] = ()) -> list[str]:
    """The deck that deals these hands one card at a time from seat 0, then turns up `turned_up`."""
    dealt = [hands[k % len(hands)][k // len(hands)] for k in range(len(hands) * len(hands[0]))]
    rest = [card for card in sorted(full_deck) if card not in dealt and card not in turned_up]
    return dealt + list(turned_up) + rest


def replay(slug, options, hands, moves, turned_up=()):
    """The game after each move, starting from the deal of `hands`."""
    rules = rules_for(slug)
    full = rules.full_deck(len(hands), rules.validate_options(len(hands), options))
    game = rules.new_game(len(hands), options, seed=7, decks=[deck_dealing(hands, full, turned_up)])
    games = [game]
    for move in moves:
        game = game.play(move)
        games.append(game)
    return games


def assert_strip_is_the_table(strip, view, seats):
    assert [(card, seats[who]) for card, who, _ in strip] == [(c["card"], c["seat"]) for c in view["table"]]
    assert [seats[who] for _, who, holder in strip if holder] == [view["holder"]]


@pytest.fixture(scope="module")
def pages(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        client = Client()
        return {url: get_page(client, url, "en") for url in ("/rules/septica/", "/rules/familie/", "/rules/americana/")}


def test_the_septica_example_is_a_trick_the_leader_continues_and_wins_back(pages):
    html = pages["/rules/septica/"]
    hands = example_hands(html, "example-continue")
    seats = {name: seat for seat, name in enumerate(hands)}
    moves = [play("TH"), play("7C"), play("TS"), play("7D"), play("7H"), play("9D"), TAKE]

    games = replay("septica", {"match": "points-8"}, list(hands.values()), moves)

    strips = example_strips(html, "example-continue")
    for strip, after in zip(strips, (2, 4, 6), strict=True):
        assert_strip_is_the_table(strip, games[after].view(0), seats)
    assert {"type": "end"} in games[2].legal_moves()  # Ioana chose to continue: Gata was open to her
    assert {"type": "end"} in games[4].legal_moves()
    assert games[6].legal_moves() == [TAKE] and games[6].to_move == seats["Ioana"]
    after_take = games[7].view(0)
    assert after_take["points"] == [2, 0]
    assert after_take["to_move"] == seats["Ioana"] and after_take["hand_counts"] == [4, 4]


def test_the_septica_team_example_ends_when_the_leaders_partner_holds_the_trick(pages):
    hands = [["KH", "9C", "TD", "AS"], ["7C", "8D", "JS", "QS"], ["KS", "8H", "9S", "JD"], ["9H", "QC", "JC", "8C"]]
    seats = {"Ioana": 0, "Mihai": 1, "Elena": 2, "Radu": 3}

    games = replay("septica", {}, hands, [play("KH"), play("7C"), play("KS"), play("9H"), TAKE])

    (strip,) = example_strips(pages["/rules/septica/"], "example-teams")
    assert_strip_is_the_table(strip, games[4].view(0), seats)
    assert games[4].legal_moves() == [TAKE] and games[4].to_move == seats["Elena"]
    assert games[5].to_move == seats["Elena"]


def test_the_familie_example_cuts_passes_and_cuts_back(pages):
    html = pages["/rules/familie/"]
    hands = example_hands(html, "example-trick")
    seats = {name: seat for seat, name in enumerate(hands)}
    moves = [play("9C"), play("9H"), PASS, play("7D"), PASS, TAKE]

    games = replay("familie", {}, list(hands.values()), moves)

    strips = example_strips(html, "example-trick")
    for strip, after in zip(strips, (3, 5), strict=True):
        assert_strip_is_the_table(strip, games[after].view(0), seats)
    assert play("XR") in games[2].legal_moves()  # Elena could have cut with her joker
    assert games[4].legal_moves() == [PASS]  # Mihai has nothing that cuts
    done = games[6].view(0)
    assert done["points"] == [25, 0, 0]
    assert done["to_move"] == seats["Mihai"]
    assert done["hand_counts"] == [4, 4, 4]


def test_the_americana_example_is_a_stack_of_twos_answered_and_taken(pages):
    html = pages["/rules/americana/"]
    hands = example_hands(html, "example-twos")
    moves = [play("2S"), play("2H"), DRAW, play("9H")]
    options = {"jokers": False, "pairs": False, "jacks_draw": False, "target": 101}

    games = replay("americana", options, list(hands.values()), moves, turned_up=("5S",))

    assert games[0].view(0)["top"] == "5S"
    strips = example_strips(html, "example-twos")
    for strip, game in zip(strips, games[1:], strict=True):
        assert [card for card, _, holder in strip if holder] == [game.view(0)["top"]]
    assert games[1].view(0)["attack"] == {"kind": "draw", "count": 2}
    assert games[2].view(0)["attack"] == {"kind": "draw", "count": 4}
    assert play("JD") not in games[2].legal_moves()  # Elena's jack is no answer at this table
    assert games[3].view(0)["hand_counts"] == [4, 4, 9]
    assert games[4].view(0)["suit"] == "H"


def test_with_jacks_drawing_the_americana_example_passes_six_on(pages):
    hands = example_hands(pages["/rules/americana/"], "example-twos")
    options = {"jokers": False, "pairs": False, "jacks_draw": True, "target": 101}

    games = replay("americana", options, list(hands.values()), [play("2S"), play("2H"), play("JD")], ("5S",))

    assert games[3].view(0)["attack"] == {"kind": "draw", "count": 6}
    assert games[3].to_move == 0
