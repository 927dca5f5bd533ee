"""Scenario tests for Septica Americana: one per rule of americana.txt and per
contract decision, each on a fixed deck or a restored position."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove, rules_for
from games.engine.americana import penalty
from games.engine.cards import shuffle

RULES = rules_for("americana")
DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def card(code: str, suit: str | None = None) -> dict:
    move = {"type": "play", "card": code}
    if suit is not None:
        move["suit"] = suit
    return move


def dealt(hands, turn_up=("5D",), stock=(), seed=7, **options):
    """Deal 0 from a fixed deck: hands[seat] (seat 0 is dealt first), the
    turned-up cards, the given stock, then every other card in sorted order."""
    players = len(hands)
    cards = [hands[j % players][j // players] for j in range(5 * players)]
    cards += [*turn_up, *stock]
    assert len(set(cards)) == len(cards), "a card twice in the test's deck"
    full = RULES.full_deck(players, RULES.validate_options(players, options))
    rest = sorted(c for c in full if c not in cards)
    return RULES.new_game(players=players, options=options, seed=seed, decks=[cards + rest])


TOP_SUIT = object()


def position(hands, top, stock=None, to_move=0, suit=TOP_SUIT, attack=None, passes=0, scores=None, **options):
    """A restored mid-deal table. Cards nobody holds go to the stock, or under
    the pile when the stock is given."""
    players = len(hands)
    state = RULES.new_game(players=players, options=options, seed=7).to_state()
    held = [c for hand in hands for c in hand] + [top] + list(stock or [])
    rest = sorted(c for c in RULES.full_deck(players, state["options"]) if c not in held)
    state.update(
        hands=[list(hand) for hand in hands],
        stock=rest if stock is None else list(stock),
        pile=([] if stock is None else rest) + [top],
        suit=(None if top[0] == "X" else top[1]) if suit is TOP_SUIT else suit,
        attack=attack,
        to_move=to_move,
        passes=passes,
        scores=scores or [0] * players,
        log=[],
    )
    return RULES.from_state(state)


def plays(game) -> set:
    return {m["card"] for m in game.legal_moves() if m["type"] == "play"}


def kinds(game) -> set:
    return {m["type"] for m in game.legal_moves()}


def illegal(game, move, match):
    with pytest.raises(IllegalMove, match=match):
        game.play(move)


# --- players, cards, options ----------------------------------------------


def test_two_to_four_players_with_a_52_card_pack():
    assert (RULES.min_players, RULES.max_players) == (2, 4)
    for players in (1, 5):
        with pytest.raises(ValueError, match="2 to 4 players"):
            RULES.new_game(players=players)
    deck = RULES.full_deck(3, RULES.default_options(3))
    assert len(deck) == len(set(deck)) == 52


def test_jokers_are_dealt_only_at_a_table_that_plays_them():
    assert RULES.default_options(2)["jokers"] is False
    assert "XR" not in RULES.full_deck(2, RULES.default_options(2))
    deck = RULES.full_deck(2, RULES.validate_options(2, {"jokers": True}))
    assert len(deck) == 54 and {"XR", "XB"} <= set(deck)


def test_options_are_checked_with_readable_messages():
    assert RULES.default_options(2) == {"jokers": False, "pairs": False, "jacks_draw": False, "target": 101}
    for target in (101, 301, 501):
        assert RULES.validate_options(2, {"target": target})["target"] == target
    with pytest.raises(ValueError, match="target must be 101, 301 or 501"):
        RULES.validate_options(2, {"target": 200})
    with pytest.raises(ValueError, match="target must be 101, 301 or 501"):
        RULES.validate_options(2, {"target": "101"})
    with pytest.raises(ValueError, match="'pairs' must be true or false"):
        RULES.validate_options(2, {"pairs": 1})
    with pytest.raises(ValueError, match="Unknown option"):
        RULES.validate_options(2, {"wild": True})


# --- the deal -----------------------------------------------------------------


def test_five_cards_each_dealt_one_at_a_time_then_one_turned_up_and_the_rest_is_the_stock():
    deck = shuffle(RULES.full_deck(3, RULES.default_options(3)), 7, 0)
    game = RULES.new_game(players=3, seed=7, decks=[deck])
    state = game.to_state()
    assert state["hands"] == [deck[0:15:3], deck[1:15:3], deck[2:15:3]]
    view = game.view(0)
    assert view["hand_counts"] == [5, 5, 5] and view["pile_count"] == 1
    assert view["stock"] == 52 - 15 - 1
    assert view["top"] == state["pile"][-1]


def test_the_deck_of_each_deal_comes_from_the_published_shuffle():
    game = RULES.new_game(players=2, seed=99)
    deck = shuffle(RULES.full_deck(2, RULES.default_options(2)), 99, 0)
    assert game.to_state()["hands"][0] == deck[0:10:2]


def test_a_special_turned_up_card_is_buried_under_the_stock_and_another_turned():
    hands = [["3C", "4C", "5C", "6C", "8C"], ["3H", "4H", "5H", "6H", "8H"]]
    game = dealt(hands, turn_up=("7S", "2S", "JS", "AS", "9D"))
    assert game.view(0)["top"] == "9D" and game.view(0)["suit"] == "D"
    assert game.to_state()["stock"][-4:] == ["7S", "2S", "JS", "AS"]
    log = game.view(None)["log"]
    buried = [e["card"] for e in log if e["type"] == "bury"]
    assert buried == ["7S", "2S", "JS", "AS"]
    assert [e["card"] for e in log if e["type"] == "turn_up"] == ["7S", "2S", "JS", "AS", "9D"]


def test_a_turned_up_joker_is_buried_too():
    hands = [["3C", "4C", "5C", "6C", "8C"], ["3H", "4H", "5H", "6H", "8H"]]
    game = dealt(hands, turn_up=("XR", "9D"), jokers=True)
    assert game.view(0)["top"] == "9D"
    assert game.to_state()["stock"][-1] == "XR"


def test_the_player_left_of_the_dealer_goes_first_and_play_runs_round():
    hands = [["3D", "4C", "5C", "6C", "8C"], ["3H", "4D", "5H", "6H", "8H"], ["3S", "4S", "6D", "6S", "8S"]]
    game = dealt(hands)
    view = game.view(None)
    assert (view["dealer"], view["first"], game.to_move) == (2, 0, 0)
    for seat, code in ((0, "3D"), (1, "4D"), (2, "6D")):
        assert game.to_move == seat
        game = game.play(card(code))
    assert game.to_move == 0


# --- a turn -------------------------------------------------------------------


def test_follow_the_suit_in_force():
    game = dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    assert plays(game) == {"9D"}


def test_follow_the_rank_on_top():
    game = dealt([["5C", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    assert plays(game) == {"5C"}
    game = game.play(card("5C"))
    assert game.view(1)["suit"] == "C"
    assert plays(game) == {"3C", "5H"}


def test_a_card_that_fits_neither_suit_nor_rank_is_refused():
    game = dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    illegal(game, card("KC"), "KC follows neither the suit in force")


def test_a_seven_goes_on_anything_and_names_any_suit_even_one_not_held():
    game = dealt([["7C", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    sevens = [m for m in game.legal_moves() if m.get("card") == "7C"]
    assert sorted(m["suit"] for m in sevens) == ["C", "D", "H", "S"]
    game = game.play(card("7C", "D"))
    view = game.view(1)
    assert view["top"] == "7C" and view["suit"] == "D"
    assert view["log"][-1] == {"seat": 0, "type": "play", "card": "7C", "suit": "D"}
    assert plays(game) == set()  # seat 1 holds no diamond and no seven


def test_a_seven_must_name_a_suit_and_nothing_else_may():
    game = dealt([["7C", "5C", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    illegal(game, card("7C"), "naming the suit")
    illegal(game, card("5C", "S"), "Only a seven names a suit")


def test_draw_one_card_even_holding_a_playable_card_and_the_turn_is_done():
    game = dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]], stock=["QS"])
    assert "draw" in kinds(game) and plays(game) == {"9D"}
    game = game.play(DRAW)
    assert game.to_state()["hands"][0][-1] == "QS"
    assert game.to_move == 1  # no play after the draw
    assert game.view(1)["log"][-1] == {"seat": 0, "type": "draw", "count": 1}


def test_under_an_attack_only_an_answer_is_legal():
    game = dealt([["2D", "KC", "3H", "4S", "6S"], ["5H", "2C", "AH", "7H", "8D"]])
    game = game.play(card("2D"))
    assert game.view(1)["attack"] == {"kind": "draw", "count": 2}
    assert game.legal_moves() == [card("2C"), DRAW]
    illegal(game, card("8D"), "8D cannot answer a draw of 2: only a two can")
    illegal(game, PASS, "cannot pass a draw")


def test_an_answer_to_an_attack_need_not_follow_suit():
    game = dealt([["2D", "KC", "3H", "4S", "6S"], ["5H", "JC", "AH", "8H", "9H"]], jacks_draw=True)
    game = game.play(card("2D"))
    assert plays(game) == {"JC"}  # a club jack on a diamond two
    game = position([["XR", "3H"], ["5H", "3C"]], "AD", attack={"kind": "draw", "count": 2}, jokers=True)
    assert plays(game) == {"XR"}


# --- sevens -------------------------------------------------------------------


def test_a_seven_cannot_answer_a_draw():
    game = dealt([["2D", "KC", "3H", "4S", "6S"], ["5H", "3C", "AH", "7H", "8D"]])
    game = game.play(card("2D"))
    assert plays(game) == set()
    illegal(game, card("7H", "S"), "a seven cannot answer a draw")


def test_a_seven_cannot_answer_a_skip():
    game = dealt([["AD", "KC", "3H", "4S", "6S"], ["5H", "3C", "AH", "7H", "8D"]])
    game = game.play(card("AD"))
    illegal(game, card("7H", "S"), "a seven cannot answer a skip")


# --- twos and jacks -----------------------------------------------------------


def test_twos_stack_two_four_six_and_the_victim_takes_them_all_at_once():
    stock = ["3S", "4S", "5S", "6S", "8S", "9S", "TS"]
    game = dealt([["2D", "2H", "3H", "4C", "6C"], ["2C", "KC", "AH", "8H", "9H"]], stock=stock)
    game = game.play(card("2D")).play(card("2C")).play(card("2H"))
    assert game.view(1)["attack"] == {"kind": "draw", "count": 6}
    game = game.play(DRAW)
    assert game.to_state()["hands"][1][-6:] == stock[:6]
    assert game.view(0)["log"][-1] == {"seat": 1, "type": "draw", "count": 6}
    view = game.view(0)
    assert view["attack"] is None and view["to_move"] == 0 and view["suit"] == "H"


def test_jacks_do_not_draw_unless_the_table_says_so():
    hands = [["JD", "KC", "3H", "4S", "6S"], ["5H", "3C", "AH", "8H", "9H"]]
    assert dealt(hands).play(card("JD")).view(1)["attack"] is None
    game = dealt(hands, jacks_draw=True).play(card("JD"))
    assert game.view(1)["attack"] == {"kind": "draw", "count": 2}


def test_with_jacks_draw_a_jack_and_a_two_pass_the_draw_on_each_other():
    hands = [["JD", "2H", "3H", "4S", "6S"], ["5H", "JC", "AH", "8H", "9H"]]
    game = dealt(hands, jacks_draw=True).play(card("JD"))
    assert plays(game) == {"JC"}
    game = game.play(card("JC")).play(card("2H"))
    assert game.view(1)["attack"] == {"kind": "draw", "count": 6}


# --- aces ----------------------------------------------------------------------


def test_an_ace_makes_the_next_player_miss_a_turn():
    hands = [["AD", "KC", "3H", "4S", "6S"], ["5H", "3C", "8D", "8H", "9H"], ["4D", "3S", "9C", "TH", "QH"]]
    game = dealt(hands).play(card("AD"))
    assert game.view(1)["attack"] == {"kind": "skip"}
    assert game.legal_moves() == [PASS]
    illegal(game, DRAW, "cannot draw")
    illegal(game, card("8D"), "only an ace can")
    game = game.play(PASS)
    assert game.to_move == 2 and game.view(2)["attack"] is None
    assert game.view(2)["log"][-1] == {"seat": 1, "type": "pass", "skip": True}


def test_an_ace_is_handed_on_with_an_ace():
    hands = [["AD", "KC", "3H", "4S", "6S"], ["5H", "AC", "8D", "8H", "9H"], ["4D", "3S", "9C", "TH", "QH"]]
    game = dealt(hands).play(card("AD"))
    assert game.legal_moves() == [card("AC"), PASS]
    game = game.play(card("AC"))
    assert game.to_move == 2 and game.view(2)["attack"] == {"kind": "skip"}
    game = game.play(PASS)
    assert game.to_move == 0 and game.view(0)["suit"] == "C"


def test_with_two_players_an_ace_comes_straight_back():
    game = dealt([["AD", "KD", "3H", "4S", "6S"], ["5H", "3C", "8D", "8H", "9H"]]).play(card("AD"))
    assert game.to_move == 1 and game.legal_moves() == [PASS]
    game = game.play(PASS)
    assert game.to_move == 0  # the ace's player moves again
    assert plays(game) == {"KD"}


def test_with_two_players_the_ace_can_be_thrown_straight_back():
    game = dealt([["AD", "KD", "3H", "4S", "6S"], ["5H", "AC", "8D", "8H", "9H"]]).play(card("AD"))
    game = game.play(card("AC"))
    assert game.to_move == 0 and game.legal_moves() == [PASS]
    assert game.play(PASS).to_move == 1


# --- pairs ----------------------------------------------------------------------


def test_pairs_a_jack_on_a_two_a_queen_on_a_three_a_king_on_a_four_whatever_the_suits():
    for top, follower in (("2D", "JC"), ("3D", "QC"), ("4D", "KC")):
        hands = [["8S", "9S", "TH", follower, "6S"], ["5H", "3C" if top != "3D" else "4H", "8H", "9H", "TS"]]
        game = position(hands, top, pairs=True)
        assert plays(game) == {follower}
        assert plays(position(hands, top)) == set()  # off unless the table plays it


def test_pairs_go_only_that_way_round():
    hands = [["2C", "3C", "4C", "5S", "6S"], ["5H", "3H", "8H", "9H", "TS"]]
    for top in ("JD", "QD", "KD"):
        assert plays(position(hands, top, pairs=True)) == set()
    assert plays(position([["QC", "KC", "5S", "6S", "8S"], hands[1]], "2D", pairs=True)) == set()


def test_pairs_never_on_a_pending_draw():
    hands = [["JC", "8S", "9S", "5S", "6S"], ["5H", "3H", "8H", "9H", "TS"]]
    game = position(hands, "2D", attack={"kind": "draw", "count": 2}, pairs=True)
    assert plays(game) == set()
    illegal(game, card("JC"), "cannot answer a draw")


# --- jokers ---------------------------------------------------------------------


def test_a_joker_goes_on_any_card_and_makes_the_next_take_five():
    stock = ["3D", "4D", "6D", "8D", "9D", "TD"]
    hands = [["XR", "KC", "3H", "4S", "6S"], ["5H", "3C", "AH", "8H", "9H"]]
    game = dealt(hands, stock=stock, jokers=True)
    assert "XR" in plays(game)
    game = game.play(card("XR"))
    view = game.view(1)
    assert view["attack"] == {"kind": "draw", "count": 5} and view["suit"] is None
    game = game.play(DRAW)
    assert game.to_state()["hands"][1][-5:] == stock[:5]


def test_jokers_stack_like_twos_and_are_thrown_back_at_a_waiting_draw():
    hands = [["2D", "XB", "3H", "4S", "6S"], ["XR", "3C", "AH", "8H", "9H"]]
    game = dealt(hands, jokers=True).play(card("2D"))
    assert plays(game) == {"XR"}
    game = game.play(card("XR"))
    assert game.view(0)["attack"] == {"kind": "draw", "count": 7}
    game = game.play(card("XB"))  # either joker: neither is stronger
    assert game.view(1)["attack"] == {"kind": "draw", "count": 12}


def test_a_joker_leaves_nothing_to_follow():
    hands = [["XR", "KC", "3H", "4S", "6S"], ["5H", "3C", "AH", "8H", "9H"]]
    game = dealt(hands, jokers=True).play(card("XR")).play(DRAW)
    assert game.view(0)["suit"] is None and game.view(0)["attack"] is None
    assert plays(game) == {"KC", "3H", "4S", "6S"}
    game = position([["KC", "3H"], ["5H", "3C"]], "XB", jokers=True)  # a joker on top with nothing pending
    assert plays(game) == {"KC", "3H"}


def test_a_joker_cannot_answer_a_skip():
    game = position([["XR", "3H"], ["5H", "3C"]], "AD", attack={"kind": "skip"}, jokers=True)
    assert game.legal_moves() == [PASS]


def test_a_joker_costs_fifty():
    game = position([["3H"], ["XR", "XB"]], "3D", jokers=True, target=301)
    game = game.play(card("3H"))
    assert game.view(0)["last_deal"] == {"deal": 0, "charged": [0, 100], "out": 0}


# --- the stock -----------------------------------------------------------------


def test_the_pile_under_its_top_card_is_shuffled_into_a_new_stock_as_soon_as_the_stock_runs_out():
    game = position([["4H", "KC"], ["5H", "3C"]], "9D", stock=["QS"])
    under = game.to_state()["pile"][:-1]
    game = game.play(DRAW)
    state = game.to_state()
    assert state["stock"] == shuffle(under, 7, 0, 1) and state["pile"] == ["9D"]
    view = game.view(1)
    assert view["stock"] == len(under) and view["pile_count"] == 1 and view["top"] == "9D"
    assert view["log"][-1] == {"seat": None, "type": "reshuffle", "count": len(under)}


def test_each_reshuffle_of_a_deal_uses_the_next_k():
    game = position([["4H", "KC"], ["5H", "3C"]], "9D", stock=["QS"]).play(DRAW)
    state = game.to_state()
    state["stock"], state["pile"] = state["stock"][:1], state["stock"][1:] + ["9D"]
    game = RULES.from_state(state).play(DRAW)
    assert game.to_state()["stock"] == shuffle(state["pile"][:-1], 7, 0, 2)


def test_owed_cards_beyond_what_the_pack_can_produce_are_written_off():
    full = RULES.full_deck(2, RULES.default_options(2))
    mine = ["2C", "KD"]
    theirs = sorted(c for c in full if c not in mine + ["2D", "9C", "QS"]) + ["2D"]
    game = position([mine, theirs], "9C", stock=["QS"])  # the whole pack is held but for one card
    game = game.play(card("2C")).play(card("2D"))  # the pile: 9C 2C 2D
    game = game.play(DRAW)  # four owed: QS, then the reshuffled 9C and 2C, then nothing
    assert sorted(game.to_state()["hands"][0]) == ["2C", "9C", "KD", "QS"]
    assert game.view(1)["log"][-1] == {"seat": 0, "type": "draw", "count": 3, "written_off": 1}
    assert game.view(1)["stock"] == 0 and game.view(1)["attack"] is None


def test_stock_zero_means_nothing_can_be_drawn():
    full = RULES.full_deck(2, RULES.default_options(2))
    mine = ["4H", "KC"]
    game = position([mine, [c for c in full if c not in mine + ["9D"]]], "9D", stock=[])
    assert game.view(0)["stock"] == 0
    assert game.legal_moves() == [PASS]
    illegal(game, DRAW, "nothing left to draw")


def test_pass_is_legal_only_when_nothing_can_be_drawn_or_played():
    full = RULES.full_deck(2, RULES.default_options(2))
    illegal(dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]]), PASS, "only pass when nothing")
    game = position([["9H", "KC"], [c for c in full if c not in ["9H", "KC", "9D"]]], "9D", stock=[])
    assert game.legal_moves() == [card("9H")]
    illegal(game, PASS, "nothing to play")


def test_a_draw_with_nothing_left_to_draw_and_no_answer_is_passed_and_written_off():
    full = RULES.full_deck(2, RULES.default_options(2))
    mine = ["4H", "KC"]
    game = position([mine, [c for c in full if c not in mine + ["2D"]]], "2D", attack={"kind": "draw", "count": 2})
    assert game.legal_moves() == [PASS]
    game = game.play(PASS)
    assert game.view(1)["log"][-1] == {"seat": 0, "type": "pass", "written_off": 2}
    assert game.view(1)["attack"] is None and game.to_move == 1


# --- the end of a round ---------------------------------------------------------


def test_the_round_ends_the_moment_someone_plays_their_last_card():
    game = position([["3D"], ["5H", "KC"]], "9D", target=301)
    game = game.play(card("3D"))
    view = game.view(None)
    assert view["last_deal"] == {"deal": 0, "charged": [0, 15], "out": 0}
    assert view["scores"] == [0, 15] and view["deal"] == 1 and view["hand_counts"] == [5, 5]


def test_a_last_card_that_attacks_does_nothing():
    game = position([["2D"], ["5H", "KC"]], "9D")
    game = game.play(card("2D"))
    view = game.view(0)
    assert view["last_deal"] == {"deal": 0, "charged": [0, 15], "out": 0}
    assert view["attack"] is None and view["hand_counts"] == [5, 5]  # nobody took the two


@pytest.mark.parametrize(
    ("last", "top", "suit_after"),
    [
        (card("9S"), "9D", "S"),  # follows the rank: the suit changes to the last card's
        (card("7C", "H"), "9D", "H"),  # a seven names the suit in force
        (card("XR"), "9D", None),  # after a joker there is none
    ],
)
def test_the_final_view_shows_the_suit_in_force_after_the_last_card(last, top, suit_after):
    game = position([[last["card"]], ["4H", "KC"]], top, scores=[0, 100], jokers=True)
    game = game.play(last)
    assert game.finished
    view = game.view(None)
    assert view["top"] == last["card"] and view["suit"] == suit_after
    assert RULES.from_state(json.loads(json.dumps(game.to_state()))).view(1)["suit"] == suit_after


def test_penalties_by_card():
    hand = ["2C", "3C", "4C", "5C", "6C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "7C"]
    game = position([["3H"], hand], "3D", target=501).play(card("3H"))
    assert game.view(0)["last_deal"]["charged"] == [0, 2 + 3 + 4 + 5 + 6 + 8 + 9 + 10 + 10 + 10 + 10 + 11 + 25]


def everything_else(hands, top, players):
    """The rest of the pack, for a table where the stock is empty and the pile is just its top card."""
    held = [c for hand in hands for c in hand] + [top]
    return [c for c in RULES.full_deck(players, RULES.default_options(players)) if c not in held]


def test_passes_all_the_way_round_end_the_round_and_charge_all_but_the_lowest_hand():
    hands = [["4H", "KC"], [], ["2C", "3C"]]
    hands[1] = everything_else(hands, "9D", 3)
    # Seats 1 and 2 passed before (a restored table: with every card in a hand
    # some seat could always play), so seat 0, stuck, makes three in a row.
    game = position(hands, "9D", stock=[], passes=2, target=501)
    assert game.legal_moves() == [PASS]
    view = game.play(PASS).view(None)
    assert view["last_deal"] == {"deal": 0, "charged": [14, penalty(hands[1]), 0], "out": None}
    assert view["scores"] == [14, penalty(hands[1]), 0] and view["deal"] == 1


def test_a_match_ended_by_passes_all_the_way_round_loads_back():
    hands = [["4H", "KC"], [], ["2C", "3C"]]
    hands[1] = everything_else(hands, "9D", 3)
    game = position(hands, "9D", stock=[], passes=2, scores=[100, 0, 0]).play(PASS)
    assert game.finished and game.view(None)["passes"] == 3
    assert RULES.from_state(json.loads(json.dumps(game.to_state()))).to_state() == game.to_state()


def test_fewer_passes_than_players_do_not_end_the_round():
    hands = [["4H", "KC"], [], ["2C", "3C"]]
    hands[1] = everything_else(hands, "9D", 3)
    game = position(hands, "9D", stock=[], passes=1).play(PASS)
    assert game.view(None)["deal"] == 0 and game.view(None)["passes"] == 2 and game.to_move == 1


def test_the_lowest_hand_is_the_lowest_penalty_total_not_the_fewest_cards():
    hands = [["2C", "3C", "4C"], ["7H"], []]  # 9 in three cards against 25 in one
    hands[2] = everything_else(hands, "9D", 3)
    game = position(hands, "9D", stock=[], passes=2, target=501).play(PASS)
    assert game.view(None)["last_deal"]["charged"] == [0, 25, penalty(hands[2])]


def test_with_the_lowest_hands_level_nobody_is_charged():
    hands = [["4H", "KC"], ["8S", "6S"], []]  # 14 each
    hands[2] = everything_else(hands, "9D", 3)
    game = position(hands, "9D", stock=[], passes=2, target=501)
    assert game.view(None)["stock"] == 0 and game.legal_moves() == [PASS]
    game = game.play(PASS)
    assert game.view(None)["last_deal"] == {"deal": 0, "charged": [0, 0, 0], "out": None}
    assert game.view(None)["scores"] == [0, 0, 0]


def test_a_sat_out_skip_restarts_the_count_of_passes():
    game = position([["4H", "KC"], ["8S", "6S"]], "AD", attack={"kind": "skip"}, passes=1)
    game = game.play(PASS)
    assert game.view(None)["passes"] == 0 and game.view(None)["deal"] == 0


# --- rounds and the match ---------------------------------------------------------


def test_the_deal_moves_one_seat_on_each_round_and_charges_add_up():
    game = position([["3D"], ["5H", "KC"], ["6H"]], "9D", scores=[10, 20, 30], target=301)
    game = game.play(card("3D"))
    view = game.view(None)
    assert (view["deal"], view["dealer"], view["first"], game.to_move) == (1, 0, 1, 1)
    assert view["scores"] == [10, 35, 36]
    assert [e["type"] for e in view["log"][:2]] == ["deal", "turn_up"]


def test_reaching_the_target_ends_the_match():
    game = position([["5H", "KC"], ["3D"]], "9D", to_move=1, scores=[85, 0])
    assert not game.play(card("3D")).finished  # 100 is short of 101
    game = position([["5H", "KC"], ["3D"]], "9D", to_move=1, scores=[86, 0]).play(card("3D"))
    assert game.finished and game.to_move is None and game.legal_moves() == []
    assert game.result == {"scores": [101, 0], "winners": [1]}


def test_the_lowest_total_wins_the_match():
    game = position([["5H", "KC"], ["3D"], ["6S"]], "9D", to_move=1, scores=[90, 50, 40])
    game = game.play(card("3D"))
    assert game.result == {"scores": [105, 50, 46], "winners": [2]}
    view = game.view(0)
    assert view["finished"] and view["legal_moves"] == [] and view["to_move"] is None
    illegal(game, DRAW, "match is over")


def test_a_tie_at_the_bottom_has_no_winner():
    game = position([["5H", "KC"], ["3D"], ["6S"]], "9D", to_move=1, scores=[90, 40, 34])
    game = game.play(card("3D"))
    assert game.result == {"scores": [105, 40, 40], "winners": []}


# --- moves, views and state --------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "match"),
    [
        ("draw", "must be an object"),
        ({}, "Unknown move type"),
        ({"type": "take"}, "Unknown move type"),
        ({"type": "draw", "card": "5H"}, "has no 'card'"),
        ({"type": "play"}, 'needs a "card"'),
        ({"type": "play", "card": "ZZ"}, "is not a card"),
        ({"type": "play", "card": ["5H"]}, "is not a card"),
        ({"type": "play", "card": "7C", "suit": "s"}, "is not a suit"),
        ({"type": "play", "card": "QH"}, "You do not hold QH"),
    ],
)
def test_illegal_moves_say_why(move, match):
    game = dealt([["9D", "KC", "7C", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    illegal(game, move, match)


def test_play_leaves_the_old_game_unchanged():
    game = dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]])
    before = game.to_state()
    game.play(card("9D"))
    game.play(DRAW)
    assert game.to_state() == before


def test_views_show_only_what_a_player_at_the_table_could_see():
    game = dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]], turn_up=("7S", "5D"))
    state = game.to_state()
    for seat in (None, 0, 1):
        text = json.dumps(game.view(seat))
        others = [c for s, hand in enumerate(state["hands"]) if s != seat for c in hand]
        hidden = [c for c in others + state["stock"] if c != "7S"]  # the buried seven was seen by all
        assert not [c for c in hidden if f'"{c}"' in text]
    assert game.view(1)["legal_moves"] == [] and game.view(0)["legal_moves"] == game.legal_moves()
    with pytest.raises(ValueError):
        game.view(2)


def test_every_view_has_the_contract_keys():
    view = dealt([["9D", "KC", "3H", "4S", "6S"], ["3C", "4H", "5H", "6H", "8H"]]).view(0)
    contract = {"rules", "options", "players", "seat", "to_move", "hand", "hand_counts", "stock", "legal_moves"}
    contract |= {"scores", "finished", "result", "deal", "log", "top", "suit", "attack", "pile_count", "dealer"}
    assert contract | {"last_deal"} <= set(view)
    assert view["rules"] == "americana" and view["last_deal"] is None


def test_state_round_trips_at_every_step_of_a_random_match():
    rng = random.Random(3)
    game = RULES.new_game(players=3, seed=11, options={"jokers": True, "pairs": True, "jacks_draw": True})
    while not game.finished:
        state = json.loads(json.dumps(game.to_state()))
        copy = RULES.from_state(state)
        assert copy.to_state() == game.to_state()
        assert copy.legal_moves() == game.legal_moves()
        assert [copy.view(s) for s in (None, 0, 1, 2)] == [game.view(s) for s in (None, 0, 1, 2)]
        move = rng.choice(game.legal_moves())
        assert copy.play(move).to_state() == game.play(move).to_state()
        game = game.play(move)
    assert RULES.from_state(game.to_state()).result == game.result


def test_a_damaged_state_is_refused():
    state = RULES.new_game(players=2, seed=1).to_state()
    state["stock"] = state["stock"][1:]
    with pytest.raises(ValueError, match="cards do not add up"):
        RULES.from_state(state)
