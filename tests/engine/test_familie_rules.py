"""Familie, one scenario per rule: each test stacks the deck and plays the moves a table would.

Two ways of stacking the deck:

- ``stacked(players, hands, stock)`` gives each seat its four dealt cards and
  puts ``stock`` on top of the stock, the other cards after it.
- ``by_seat(players, cards)`` puts ``cards[s][k]`` at deck position
  ``k * players + s``. When every trick is an uncut one (the leader leads, all
  pass, the leader takes), the leader draws the one card it needs, so every
  seat ends up playing exactly its own list, in order; the last four of each
  list are the hand it holds when the stock runs out. That is how the end-game
  scenarios reach their positions without a hundred hand-written moves.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove, rules_for
from games.engine.cards import make_deck

RULES = rules_for("familie")
DECK = make_deck("6789TJQKA", jokers=True)
PASS = {"type": "pass"}
TAKE = {"type": "take"}


def card(code):
    return {"type": "play", "card": code}


def stacked(players, hands, stock=()):
    used = [c for hand in hands for c in hand] + list(stock)
    assert len(set(used)) == len(used)
    deck = [hands[seat][k] for k in range(4) for seat in range(players)]
    deck += list(stock) + [c for c in DECK if c not in used]
    return RULES.new_game(players=players, seed=7, decks=[deck])


def by_seat(players, cards):
    deck = [None] * len(DECK)
    for seat, own in enumerate(cards):
        for k, c in enumerate(own):
            deck[k * players + seat] = c
    assert sorted(deck) == sorted(DECK)
    return RULES.new_game(players=players, seed=7, decks=[deck])


def fill(players, ends):
    """Cards per seat for ``by_seat``: the spare cards first, then each seat's chosen last cards."""
    chosen = [c for end in ends for c in end]
    spare = [c for c in DECK if c not in chosen]
    sizes = [len(range(seat, len(DECK), players)) for seat in range(players)]
    cards = []
    for seat, end in enumerate(ends):
        take = sizes[seat] - len(end)
        cards.append(spare[:take] + list(end))
        spare = spare[take:]
    return cards


def play(game, *moves):
    for move in moves:
        if isinstance(move, str):
            move = {"pass": PASS, "take": TAKE}.get(move) or card(move)
        game = game.play(move)
    return game


def uncut_trick(game):
    leader = game.to_move
    game = game.play(card(game.view(leader)["hand"][0]))
    while game.legal_moves() != [TAKE]:
        game = game.play(PASS)
    return game.play(TAKE)


def uncut_until_stock_is_empty(game):
    while game.view(None)["stock"]:
        game = uncut_trick(game)
    return game


def hand(game, seat):
    return sorted(game.view(seat)["hand"])


def illegal(game, move):
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    return str(caught.value)


# --- cards, players, options -------------------------------------------------------


def test_the_deck_is_sixes_to_aces_in_four_suits_and_two_jokers():
    deck = RULES.full_deck(3, {})
    assert len(deck) == 38
    assert {"XR", "XB"} <= set(deck)
    assert {c[0] for c in deck} == set("6789TJQKAX")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_sit_at_a_table(players):
    game = RULES.new_game(players=players, seed=1)
    assert game.view(None)["hand_counts"] == [4] * players


@pytest.mark.parametrize("players", [1, 7])
def test_one_or_seven_players_are_refused(players):
    with pytest.raises(ValueError, match="2 to 6 players"):
        RULES.new_game(players=players, seed=1)


def test_familie_has_no_options():
    assert RULES.default_options(4) == {}
    with pytest.raises(ValueError, match="Unknown option 'jokers'"):
        RULES.validate_options(3, {"jokers": False})


def test_a_trick_is_worth_the_face_value_of_its_cards():
    game = stacked(3, [["KH", "6C", "6D", "6H"], ["7S", "8C", "8D", "8H"], ["AS", "QC", "QD", "QH"]])
    game = play(game, "KH", "7S", "pass", "pass", "take")
    assert game.view(None)["points"] == [0, 13 + 7, 0]


def test_each_rank_scores_its_number_and_the_court_cards_eleven_to_fourteen():
    ranks = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
    for rank, value in ranks.items():
        led = rank + "H"
        others = [c for c in DECK if c[0] not in (rank, "7", "X")][:8]
        game = stacked(2, [[led, *others[:3]], others[3:7]])
        game = play(game, led, "pass", "take")
        assert game.view(None)["points"] == [value, 0], rank


def test_a_joker_scores_nothing():
    game = stacked(2, [["XR", "6C", "6D", "6H"], ["8C", "8D", "8H", "8S"]])
    game = play(game, "XR", "pass", "take")
    assert game.view(None)["points"] == [0, 0]
    game = stacked(2, [["AH", "6C", "6D", "6H"], ["XB", "8D", "8H", "8S"]])
    game = play(game, "AH", "XB", "pass", "take")
    assert game.view(None)["points"] == [0, 14]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_deal_hands_out_360_points(players):
    rng = random.Random(players)
    game = RULES.new_game(players=players, seed=players)
    while not game.finished:
        game = game.play(rng.choice(game.legal_moves()))
    assert sum(game.result["scores"]) == 360


# --- setting up ----------------------------------------------------------------------


def test_four_cards_each_are_dealt_one_at_a_time_from_seat_0_and_the_rest_is_the_stock():
    deck = list(reversed(DECK))
    game = RULES.new_game(players=3, seed=1, decks=[deck])
    for seat in range(3):
        assert game.view(seat)["hand"] == [deck[seat], deck[seat + 3], deck[seat + 6], deck[seat + 9]]
    assert game.view(None)["stock"] == 38 - 12
    assert game.to_state()["stock"] == deck[12:]


def test_seat_0_leads_the_first_trick():
    game = RULES.new_game(players=4, seed=3)
    view = game.view(None)
    assert (game.to_move, view["leader"], view["phase"]) == (0, 0, "lead")
    assert view["dealer"] == 3


# --- a trick -------------------------------------------------------------------------


HANDS3 = [["9H", "7H", "KC", "QC"], ["9S", "7S", "KD", "QD"], ["9D", "XR", "KH", "QH"]]


def test_the_leader_may_lead_any_card():
    game = stacked(3, HANDS3)
    assert game.legal_moves() == [card(c) for c in HANDS3[0]]
    game = play(game, "KC")
    assert game.view(None)["table"] == [{"seat": 0, "card": "KC"}]
    assert game.view(None)["led_rank"] == "K"


def test_a_cut_with_the_led_rank_of_any_suit_holds_the_trick():
    game = play(stacked(3, HANDS3), "9H", "9S")
    view = game.view(None)
    assert view["holder"] == 1
    assert view["table"] == [{"seat": 0, "card": "9H"}, {"seat": 1, "card": "9S"}]
    assert game.to_move == 2


def test_a_seven_cuts_whatever_was_led():
    game = play(stacked(3, HANDS3), "KC", "7S")
    assert game.view(None)["holder"] == 1


def test_a_joker_cuts_whatever_was_led():
    game = play(stacked(3, HANDS3), "QC", "pass", "XR")
    assert game.view(None)["holder"] == 2


def test_a_led_joker_is_cut_only_by_a_seven_or_the_other_joker():
    game = stacked(2, [["XR", "6C", "6D", "6H"], ["XB", "7S", "KD", "QD"]])
    game = play(game, "XR")
    assert game.legal_moves() == [card("XB"), card("7S"), PASS]


def test_the_cutters_may_play_only_the_led_rank_a_seven_or_a_joker_or_pass():
    game = play(stacked(3, HANDS3), "KC")
    assert game.legal_moves() == [card("7S"), card("KD"), PASS]


def test_a_card_that_does_not_cut_is_refused():
    game = play(stacked(3, HANDS3), "KC")
    assert illegal(game, card("QD")) == "that card does not cut: play the led rank, a 7 or a joker, or pass"


def test_a_player_need_not_cut_even_when_able():
    game = play(stacked(3, HANDS3), "9H")
    assert PASS in game.legal_moves()
    game = play(game, "pass")
    assert game.to_move == 2
    assert game.view(None)["passed"] == [1]


def test_a_player_with_nothing_that_cuts_may_only_pass():
    game = stacked(2, [["AH", "6C", "6D", "6H"], ["8C", "8D", "8H", "8S"]])
    game = play(game, "AH")
    assert game.to_move == 1
    assert game.legal_moves() == [PASS]


def test_a_player_who_passed_may_not_cut_later_in_that_trick():
    game = play(stacked(3, HANDS3), "9H", "pass", "9D")
    assert game.to_move == 0  # seat 1 passed, so after the leader the trick would skip it
    game = play(game, "7H")
    assert game.to_move == 2, "seat 1 passed and gets no second chance to cut"
    game = play(game, "pass")
    assert game.to_move == 0 and game.legal_moves() == [TAKE]


def test_a_pass_holds_only_for_the_trick_it_was_made_in():
    game = play(stacked(3, HANDS3), "9H", "pass", "pass", "take")
    assert game.to_move == 1  # the next trick: seat 1 leads
    game = play(game, "KD")
    assert game.view(None)["passed"] == []
    game = play(game, "KH", "KC")
    assert game.to_move == 1, "seat 1, which passed last trick, may cut in this one"
    assert card("7S") in game.legal_moves()


def test_when_nobody_cuts_the_leader_must_take_its_own_card():
    game = play(stacked(3, HANDS3), "KC", "pass", "pass")
    view = game.view(0)
    assert game.to_move == 0 and game.legal_moves() == [TAKE]
    assert view["holder"] == 0 and view["phase"] == "take"
    game = play(game, "take")
    assert game.view(None)["points"] == [13, 0, 0]


def test_the_leader_may_cut_when_play_comes_round_again():
    game = play(stacked(3, HANDS3), "9H", "9S", "pass")
    assert game.to_move == 0
    assert game.legal_moves() == [card("7H"), PASS]
    game = play(game, "7H")
    assert game.view(None)["holder"] == 0
    assert game.to_move == 1


def test_cutting_goes_on_round_the_table_until_only_the_last_cutter_is_left():
    game = stacked(2, [["9H", "7H", "KC", "QC"], ["9S", "7S", "KD", "QD"]])
    game = play(game, "9H", "9S", "7H", "7S")
    assert game.to_move == 0
    game = play(game, "pass")
    assert game.to_move == 1 and game.legal_moves() == [TAKE]


def test_the_last_cutter_takes_every_card_of_the_trick():
    game = play(stacked(3, HANDS3), "9H", "9S", "9D", "7H", "pass", "pass")
    assert game.to_move == 0 and game.legal_moves() == [TAKE]
    game = play(game, "take")
    assert game.view(None)["points"] == [9 + 9 + 9 + 7, 0, 0]


def test_a_taken_trick_is_put_aside_not_into_the_hand():
    game = play(stacked(3, HANDS3), "9H", "9S", "pass", "pass", "take")
    assert "9H" not in game.view(1)["hand"] and "9S" not in game.view(1)["hand"]
    assert game.view(None)["table"] == []
    assert game.view(None)["hand_counts"] == [4, 4, 4]


def test_the_winner_must_take_before_anything_else():
    game = play(stacked(3, HANDS3), "9H", "9S", "pass", "pass")
    assert game.to_move == 1
    assert "must take it" in illegal(game, card("7S"))
    assert "must take it" in illegal(game, PASS)


def test_take_is_refused_while_the_trick_is_still_going():
    game = play(stacked(3, HANDS3), "9H")
    assert illegal(game, TAKE) == "The trick is not over yet, so nobody can take it."


def test_the_leader_cannot_pass():
    assert illegal(stacked(3, HANDS3), PASS) == "The leader cannot pass: lead any card from your hand."


def test_a_card_not_held_is_refused():
    assert illegal(stacked(3, HANDS3), card("9S")) == "You do not hold 9S."
    game = play(stacked(3, HANDS3), "9H")
    assert illegal(game, card("9D")) == "You do not hold 9D."


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("play 9H", "must be an object"),
        ({}, "Unknown move type None"),
        ({"type": "draw"}, "Unknown move type 'draw'"),
        ({"type": "end"}, "Unknown move type 'end'"),
        ({"type": "play"}, 'needs a "card"'),
        ({"type": "play", "card": "1H"}, "'1H' is not a card"),
        ({"type": "play", "card": ["9H"]}, "is not a card"),
        ({"type": "play", "card": "9H", "suit": "S"}, "has no 'suit'"),
        ({"type": "pass", "card": "9H"}, "has no 'card'"),
        ({"type": ["pass"]}, "Unknown move type"),
    ],
)
def test_a_malformed_move_is_refused_with_a_reason(move, words):
    assert words in illegal(stacked(3, HANDS3), move)


def test_a_take_with_extra_keys_is_refused_even_when_taking_is_due():
    game = play(stacked(3, HANDS3), "KC", "pass", "pass")
    assert "has no 'card'" in illegal(game, {"type": "take", "card": None})


# --- drawing and the next leader -----------------------------------------------------


def test_after_the_take_each_player_draws_all_they_need_at_once_from_the_seat_after_the_leader():
    stock = ["AC", "AD", "AH", "AS", "TC"]
    game = stacked(3, HANDS3, stock)
    game = play(game, "9H", "9S", "pass", "7H", "7S", "pass", "take")
    # seat 1 (after the leader) needs two and gets both, seat 2 needs none, then seat 0 gets two
    assert hand(game, 1) == sorted(["KD", "QD", "AC", "AD"])
    assert hand(game, 2) == sorted(HANDS3[2])
    assert hand(game, 0) == sorted(["KC", "QC", "AH", "AS"])
    assert game.view(None)["stock"] == 38 - 12 - 4
    draws = [(e["seat"], e["count"]) for e in game.view(None)["log"] if e["type"] == "draw"]
    assert draws == [(1, 2), (0, 2)]


def test_the_seat_after_the_previous_leader_leads_next_not_the_winner():
    game = play(stacked(3, HANDS3), "9H", "pass", "9D", "pass", "take")
    assert game.view(None)["points"] == [0, 0, 18]
    assert game.to_move == 1 and game.view(None)["leader"] == 1


def test_the_draw_stops_when_the_stock_runs_out():
    hands = [
        ["9H", "7D", "6C", "6D"],
        ["9S", "7C", "8C", "6H"],
        ["9D", "8D", "TC", "6S"],
        ["9C", "XR", "TD", "JC"],
        ["7H", "XB", "TH", "JD"],
        ["7S", "JH", "JS", "QC"],
    ]
    game = stacked(6, hands)
    assert game.view(None)["stock"] == 14
    game = play(game, "9H", "9S", "9D", "9C", "7H", "7S", "7D", "7C", *["pass"] * 5, "take")
    assert game.view(None)["stock"] == 6 and game.to_move == 1
    game = play(game, "8C", "8D", "XR", "XB", *["pass"] * 5, "take")
    assert game.view(None)["stock"] == 2 and game.to_move == 2
    game = play(game, "TC", "TD", "TH", *["pass"] * 5, "take")
    view = game.view(None)
    # seats 3 and 4 draw the last two cards; seat 2, last in the draw order, gets none
    assert view["stock"] == 0
    assert view["hand_counts"] == [4, 4, 3, 4, 4, 4]
    assert game.to_move == 3


def test_play_goes_on_with_the_cards_in_hand_once_the_stock_is_empty():
    game = uncut_until_stock_is_empty(RULES.new_game(players=2, seed=11))
    assert game.view(None)["hand_counts"] == [4, 4]
    game = uncut_trick(game)
    assert game.view(None)["hand_counts"] in ([3, 4], [4, 3])
    assert not game.finished


def endgame3():
    """Three players, stock just emptied, seat 2 to lead; hands chosen for the skipping scenarios."""
    ends = [["9S", "KC", "QC", "7C"], ["QH", "6H", "AC", "AD"], ["9H", "8H", "AH", "AS"]]
    game = uncut_until_stock_is_empty(by_seat(3, fill(3, ends)))
    assert game.to_move == 2
    assert [hand(game, seat) for seat in range(3)] == [sorted(end) for end in ends]
    return game


def test_a_player_with_no_cards_is_skipped_when_choosing_the_next_leader():
    game = endgame3()
    game = play(game, "9H", "9S", "pass", "pass", "take")  # seat 0 leads next
    game = play(game, "KC", "pass", "pass", "take")  # seat 1 leads next
    game = play(game, "QH", "pass", "QC", "pass", "take")  # seat 2 leads next
    game = play(game, "8H", "7C", "pass", "pass", "take")
    view = game.view(None)
    assert view["hand_counts"] == [0, 3, 2]
    assert game.to_move == 1, "seat 0, after the leader, holds no cards, so seat 1 leads"


def test_a_player_with_no_cards_is_skipped_in_the_cutting_turns():
    game = endgame3()
    game = play(game, "9H", "9S", "pass", "pass", "take")
    game = play(game, "KC", "pass", "pass", "take")
    game = play(game, "QH", "pass", "QC", "pass", "take")
    game = play(game, "8H", "7C", "pass", "pass", "take")
    game = play(game, "6H", "pass")
    assert game.to_move == 1 and game.legal_moves() == [TAKE], "seat 0 has no cards and is not asked"


def test_the_only_player_with_cards_leads_and_takes_each_card_alone():
    ends = [["9H", "7H", "XR", "AC"], ["9S", "KD", "QD", "QH"]]
    game = uncut_until_stock_is_empty(by_seat(2, fill(2, ends)))
    assert game.to_move == 0
    game = play(game, "9H", "9S", "7H", "pass", "take")  # seat 1 leads next
    game = play(game, "KD", "XR", "pass", "take")  # seat 0 leads next
    game = play(game, "AC", "pass", "take")
    assert game.view(None)["hand_counts"] == [0, 2]
    assert game.to_move == 1
    game = play(game, "QD")
    assert game.to_move == 1 and game.legal_moves() == [TAKE], "nobody can cut, so the leader takes at once"
    game = play(game, "take")
    assert game.to_move == 1 and game.view(None)["leader"] == 1, "the turn comes back to the only hand left"
    game = play(game, "QH", "take")
    assert game.finished


# --- the end ---------------------------------------------------------------------------


def test_the_game_ends_when_no_one_has_cards_and_scores_are_the_points_taken():
    game = RULES.new_game(players=3, seed=4)
    rng = random.Random(4)
    while not game.finished:
        assert game.view(None)["scores"] == [0, 0, 0]
        game = game.play(rng.choice(game.legal_moves()))
    view = game.view(None)
    assert view["hand_counts"] == [0, 0, 0] and view["stock"] == 0
    assert game.to_move is None and game.legal_moves() == []
    assert view["scores"] == view["points"] == game.result["scores"]
    best = max(view["points"])
    assert game.result["winners"] == [s for s in range(3) if view["points"][s] == best]
    assert view["last_deal"] == {"deal": 0, "points": view["points"]}
    assert view["log"][-1] == {"seat": None, "type": "deal_over", "deal": 0, "points": view["points"]}
    assert illegal(game, PASS) == "The match is over: no more moves can be made."


def test_the_highest_score_wins():
    # Seat 0 is given every ace, king and queen; uncut tricks let each seat keep what it is given.
    top = [c for c in DECK if c[0] in "AKQ"]
    game = by_seat(2, fill(2, [top, []]))
    while not game.finished:
        game = uncut_trick(game)
    assert game.result["winners"] == [0]
    assert game.result["scores"][0] > game.result["scores"][1]


def test_every_player_level_at_the_top_wins():
    # Seats 0 and 1 receive the same ranks; seat 2 gets every six, every seven, two eights and the jokers.
    low = ["6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S", "8C", "8D", "XB", "XR"]
    pairs = [c for c in DECK if c not in low]
    cards = [pairs[0::2], pairs[1::2], low]
    game = by_seat(3, cards)
    while not game.finished:
        game = uncut_trick(game)
    assert game.result == {"scores": [146, 146, 68], "winners": [0, 1]}


def test_two_players_who_tie_both_win():
    game = by_seat(2, [DECK[0::2], DECK[1::2]])
    while not game.finished:
        game = uncut_trick(game)
    assert game.result == {"scores": [180, 180], "winners": [0, 1]}


# --- views, log, state ----------------------------------------------------------------------


def test_the_view_shows_the_trick_in_play():
    game = play(stacked(3, HANDS3), "9H", "pass", "9D")
    view = game.view(0)
    assert view["table"] == [{"seat": 0, "card": "9H"}, {"seat": 2, "card": "9D"}]
    assert (view["leader"], view["holder"], view["led_rank"], view["passed"]) == (0, 2, "9", [1])
    assert view["legal_moves"] == [card("7H"), PASS]
    assert game.view(1)["legal_moves"] == [] and game.view(None)["legal_moves"] == []
    assert view["scores"] == [0, 0, 0] and view["last_deal"] is None and view["deal"] == 0


def test_a_view_shows_no_card_of_another_hand_or_of_the_stock():
    game = play(stacked(3, HANDS3, ["AC", "AD"]), "9H", "9S", "pass", "pass", "take")
    state = game.to_state()
    for seat in (None, 0, 1, 2):
        text = json.dumps(game.view(seat))
        hidden = [c for s, held in enumerate(state["hands"]) if s != seat for c in held] + state["stock"]
        assert not [c for c in hidden if f'"{c}"' in text], seat


def test_the_log_shows_moves_tricks_and_draw_counts_without_drawn_cards():
    game = play(stacked(3, HANDS3, ["AC", "AD"]), "9H", "9S", "pass", "pass", "take")
    assert game.view(2)["log"] == [
        {"seat": 0, "type": "play", "card": "9H"},
        {"seat": 1, "type": "play", "card": "9S"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "take"},
        {"seat": 1, "type": "trick", "cards": ["9H", "9S"], "points": 18},
        {"seat": 1, "type": "draw", "count": 1},
        {"seat": 0, "type": "draw", "count": 1},
    ]


def round_trip(game):
    again = RULES.from_state(json.loads(json.dumps(game.to_state())))
    assert again.to_state() == game.to_state()
    for seat in (None, *range(game.players)):
        assert again.view(seat) == game.view(seat)
    assert again.legal_moves() == game.legal_moves()
    return again


def test_to_state_round_trips_at_every_step_of_a_match():
    rng = random.Random(9)
    game = RULES.new_game(players=4, seed=9)
    while not game.finished:
        again = round_trip(game)
        move = rng.choice(game.legal_moves())
        game = game.play(move)
        assert again.play(move).to_state() == game.to_state()
    round_trip(game)


def test_the_state_holds_the_shared_keys():
    state = stacked(3, HANDS3).to_state()
    assert state["seed"] == 7 and state["deal"] == 0
    assert state["hands"] == HANDS3
    assert len(state["stock"]) == 26


def test_play_leaves_the_old_game_unchanged():
    game = play(stacked(3, HANDS3), "9H")
    before = game.to_state()
    game.play(card("9S"))
    game.play(PASS)
    assert game.to_state() == before
