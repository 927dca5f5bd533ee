"""Scenario tests for septica: one per rule sentence of the two septica texts and
per septica decision of the engine contract (the map is in tests/engine/README.md).

Every scenario is built from fixed decks. Two helpers make them:

- ``deck_of(hands, stock)`` lays out a deck that deals the given hands and puts
  the given cards on top of the stock;
- ``deck_of_tricks(tricks)`` lays out a whole deal in which every trick is a
  single round, each player plays the oldest card in hand, and a leader who is
  asked always says ``end``. ``autoplay`` plays exactly that way.
"""

from __future__ import annotations

import json

import pytest

from games.engine import IllegalMove, rules_for
from games.engine.cards import make_deck, shuffle

RULES = rules_for("septica")
DECK = make_deck("789TJQKA")
POINT_CARDS = ["TC", "TD", "TH", "TS", "AC", "AD", "AH", "AS"]
FILLERS = [rank + suit for rank in "89JQK" for suit in "CDHS"]


# --- building decks -----------------------------------------------------------
def deck_of(hands, stock=(), removed=(), first=0):
    """The deck that deals ``hands`` (one card at a time from ``first``) with ``stock`` next."""
    players = len(hands)
    deck = [hands[(first + i) % players][i // players] for i in range(4 * players)]
    deck += list(stock)
    rest = [card for card in DECK if card not in deck and card not in removed]
    return deck + rest


def deck_of_tricks(tricks, first=0, cutters="7", removed=()):
    """The deck of a deal whose tricks (each a tuple of cards in the order played) go as written.

    Each seat plays its cards in the order it received them, and every trick
    is one round, so the k-th card a seat plays is the k-th it was dealt or drew.
    """
    players = len(tricks[0])
    played = {seat: [] for seat in range(players)}
    winners = []
    leader = first
    for cards in tricks:
        holder = leader
        for offset, card in enumerate(cards):
            seat = (leader + offset) % players
            played[seat].append(card)
            if card[0] == cards[0][0] or card[0] in cutters:
                holder = seat
        winners.append(holder)
        leader = holder
    size = len(tricks) * players
    deck = [None] * size
    for seat, cards in played.items():
        for k, card in enumerate(cards):
            if k < 4:
                deck[k * players + (seat - first) % players] = card
            else:
                trick = k - 4
                deck[4 * players + trick * players + (seat - winners[trick]) % players] = card
    assert sorted(deck) == sorted(c for c in DECK if c not in removed), "the tricks must use every card once"
    return deck


def deal_won_by_leader(first_points):
    """Two-player tricks in which the first player takes ``first_points`` and the other the rest.

    The first player leads point cards that nobody cuts; then the other player
    cuts a plain card with the seven of clubs, leads the remaining point cards,
    and everything left goes uncut.
    """
    fillers = list(FILLERS)
    tricks = [(POINT_CARDS[i], fillers.pop()) for i in range(first_points)]
    sevens = ["7C", "7D", "7H", "7S"]
    if first_points < 8:
        tricks.append((fillers.pop(0), sevens.pop(0)))
        tricks += [(POINT_CARDS[i], fillers.pop()) for i in range(first_points, 8)]
    tricks += [(seven, fillers.pop()) for seven in sevens]
    half = len(fillers) // 2
    tricks += list(zip(fillers[:half], fillers[half:], strict=True))
    return tricks


def two_player_deck(deal, first_points):
    """Deal ``deal`` of a two-player match where that deal's first player takes ``first_points``."""
    return deck_of_tricks(deal_won_by_leader(first_points), first=deal % 2)


# --- playing ------------------------------------------------------------------
def autoplay(game, stop=lambda game: False):
    """Oldest card first, `end` whenever asked, `take` when due; until ``stop`` or the match ends."""
    while not game.finished and not stop(game):
        moves = game.legal_moves()
        kinds = {move["type"] for move in moves}
        if "take" in kinds:
            game = game.play({"type": "take"})
        elif "end" in kinds:
            game = game.play({"type": "end"})
        else:
            game = game.play(moves[0])
    return game


def play(game, *cards):
    for card in cards:
        game = game.play({"type": "play", "card": card})
    return game


def take(game):
    return game.play({"type": "take"})


def end(game):
    return game.play({"type": "end"})


def moves_of(game):
    return sorted((move["type"], move.get("card", "")) for move in game.legal_moves())


def new_deal(game):
    deal = game.view(None)["deal"]
    return lambda g: g.view(None)["deal"] != deal


def table_cards(game):
    return [(entry["seat"], entry["card"]) for entry in game.view(None)["table"]]


def two_player(hands, stock=(), **options):
    return RULES.new_game(players=2, options=options, seed=7, decks=[deck_of(hands, stock)])


# --- the deck and the deal ----------------------------------------------------
def test_two_players_use_all_thirty_two_cards_seven_to_ace():
    game = RULES.new_game(players=2, seed=3)
    state = game.to_state()
    cards = [card for hand in state["hands"] for card in hand] + state["stock"]
    assert sorted(cards) == sorted(DECK)
    assert game.view(None)["removed"] == []


def test_four_players_use_all_thirty_two_cards():
    game = RULES.new_game(players=4, seed=3)
    state = game.to_state()
    assert len(state["stock"]) == 32 - 16
    assert game.view(0)["removed"] == []


@pytest.mark.parametrize("players", [3, 5, 6])
def test_with_three_five_or_six_players_two_eights_are_taken_out_and_shown(players):
    game = RULES.new_game(players=players, seed=11)
    state = game.to_state()
    cards = [card for hand in state["hands"] for card in hand] + state["stock"]
    removed = game.view(None)["removed"]
    assert len(cards) == 30 and len(removed) == 2
    assert all(card[0] == "8" for card in removed)
    assert sorted(cards + removed) == sorted(DECK)
    assert {"seat": None, "type": "remove", "cards": removed} in game.view(None)["log"]


def test_the_removed_eights_are_the_first_two_of_the_shuffled_deck():
    game = RULES.new_game(players=3, seed=1)
    # The contract's test vector: TH 7D 8D AD QD JS JC 9S JD KD 9H TC 8H QH ...
    assert game.view(None)["removed"] == ["8D", "8H"]
    assert game.view(0)["hand"] == ["TH", "QD", "9S", "9H"]
    assert game.view(1)["hand"] == ["7D", "JS", "JD", "TC"]
    assert game.view(2)["hand"] == ["AD", "JC", "KD", "QH"]


def test_the_removed_eights_change_from_deal_to_deal():
    removed = set()
    for seed in range(6):
        removed.add(tuple(RULES.new_game(players=5, seed=seed).view(None)["removed"]))
    assert len(removed) > 1


def test_a_given_three_player_deck_is_the_thirty_cards_left_and_its_missing_eights_are_removed():
    deck = [card for card in shuffle(DECK, 5, 0) if card not in ("8C", "8S")]
    game = RULES.new_game(players=3, seed=0, decks=[deck])
    assert game.view(None)["removed"] == ["8C", "8S"]
    assert game.view(0)["hand"] == deck[0:12:3]


@pytest.mark.parametrize(
    "deck",
    [
        [card for card in DECK if card not in ("9C", "9S")],  # two nines missing, not eights
        list(DECK),  # all 32
        [card for card in DECK if card not in ("8C", "8S", "8D")] + ["7C"],  # a duplicate
        [card for card in DECK if card not in ("8C", "8S")][:-1] + [7],  # not a card
    ],
)
def test_a_three_player_deck_must_be_thirty_cards_missing_two_eights(deck):
    with pytest.raises(ValueError, match="30 cards"):
        RULES.new_game(players=3, decks=[deck])


def test_a_two_player_deck_must_be_the_whole_thirty_two_cards():
    with pytest.raises(ValueError, match="32 cards"):
        RULES.new_game(players=2, decks=[[card for card in DECK if card[0] != "8"] + ["8C"] * 4])


def test_everyone_is_dealt_four_cards_one_at_a_time_and_the_rest_is_the_stock():
    deck = shuffle(DECK, 9, 0)
    game = RULES.new_game(players=2, seed=0, decks=[deck])
    assert game.view(0)["hand"] == deck[0:8:2]
    assert game.view(1)["hand"] == deck[1:8:2]
    assert game.to_state()["stock"] == deck[8:]
    assert game.view(None)["stock"] == 24
    assert game.view(None)["hand_counts"] == [4, 4]


def test_the_first_deal_is_dealt_by_the_last_seat_and_led_by_seat_zero():
    game = RULES.new_game(players=4, seed=2)
    view = game.view(None)
    assert (view["dealer"], view["first"], game.to_move) == (3, 0, 0)


# --- players, teams and options -------------------------------------------------
@pytest.mark.parametrize("players", [1, 7, 0])
def test_septica_is_for_two_to_six_players(players):
    with pytest.raises(ValueError, match="2 to 6 players"):
        RULES.new_game(players=players)


@pytest.mark.parametrize(
    ("players", "teams"),
    [(2, None), (3, None), (4, [[0, 2], [1, 3]]), (5, None), (6, [[0, 3], [1, 4], [2, 5]])],
)
def test_four_and_six_players_play_in_teams_of_partners_sitting_opposite(players, teams):
    assert RULES.new_game(players=players).view(None)["teams"] == teams


def test_teams_are_refused_with_two_three_or_five_players():
    for players in (2, 3, 5):
        with pytest.raises(ValueError, match="Teams play only with 4 or 6 players"):
            RULES.validate_options(players, {"teams": True})


def test_four_players_may_play_everyone_for_themselves():
    game = RULES.new_game(players=4, options={"teams": False})
    assert game.view(None)["teams"] is None


def test_eights_cut_is_refused_with_two_or_four_players():
    for players in (2, 4):
        with pytest.raises(ValueError, match="Eights cut only with 3, 5 or 6 players"):
            RULES.validate_options(players, {"eights_cut": True})


@pytest.mark.parametrize(
    "options",
    [{"teams": "yes"}, {"eights_cut": 1}, {"match": 3}, {"match": "best-of-7"}, {"colour": "red"}],
)
def test_options_of_the_wrong_type_or_value_are_refused(options):
    with pytest.raises(ValueError):
        RULES.validate_options(4, options)


def test_the_default_match_is_best_of_three():
    assert RULES.default_options(2)["match"] == "best-of-3"


# --- what cuts ------------------------------------------------------------------
def test_the_leader_may_lead_any_card_and_its_rank_is_what_cuts():
    game = two_player([["9H", "KS", "QD", "JD"], ["9C", "8C", "8D", "8H"]])
    assert moves_of(game) == [("play", "9H"), ("play", "JD"), ("play", "KS"), ("play", "QD")]
    game = play(game, "QD")
    assert game.view(None)["led_rank"] == "Q"


def test_any_card_may_follow_there_is_no_obligation_to_follow_suit():
    game = play(two_player([["9H", "KS", "QD", "JD"], ["9C", "8D", "KD", "AS"]]), "QD")
    assert moves_of(game) == [("play", "8D"), ("play", "9C"), ("play", "AS"), ("play", "KD")]


def test_a_card_of_the_led_rank_cuts_the_trick():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["KC", "8D", "9D", "AS"]]), "KH", "KC")
    assert game.view(None)["holder"] == 1
    assert game.to_move == 0  # an opponent holds it, so the leader decides


def test_a_seven_cuts_any_rank():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    assert game.view(None)["holder"] == 1


def test_a_card_of_the_same_suit_but_another_rank_does_nothing():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["QH", "8D", "9D", "AS"]]), "KH", "QH")
    assert game.view(None)["holder"] == 0
    assert moves_of(game) == [("take", "")]


def test_with_two_players_an_eight_is_an_ordinary_card():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["8C", "8D", "9D", "AS"]]), "KH", "8C")
    assert game.view(None)["holder"] == 0
    assert game.view(None)["cutters"] == ["7"]


def three_player(hands, removed=("8S", "8D"), **options):
    deck = deck_of(hands, removed=removed)
    return RULES.new_game(players=3, options=options, seed=0, decks=[deck])


def test_with_three_players_the_eights_left_in_the_deck_cut():
    hands = [["KH", "9S", "QD", "JD"], ["8C", "9D", "JS", "AS"], ["9H", "QC", "KC", "JH"]]
    game = play(three_player(hands), "KH", "8C", "9H")
    view = game.view(None)
    assert view["cutters"] == ["7", "8"]
    assert view["holder"] == 1
    assert game.to_move == 0 and moves_of(game) == [("end", "")]


def test_eights_do_not_cut_with_three_players_when_the_option_is_off():
    hands = [["KH", "9S", "QD", "JD"], ["8C", "9D", "JS", "AS"], ["9H", "QC", "KC", "JH"]]
    game = play(three_player(hands, eights_cut=False), "KH", "8C", "9H")
    assert game.view(None)["holder"] == 0
    assert moves_of(game) == [("take", "")]


def test_sevens_cut_whatever_the_number_of_players():
    for players in (2, 3, 4, 5, 6):
        assert "7" in RULES.new_game(players=players).view(None)["cutters"]


# --- how a trick goes -----------------------------------------------------------
def test_every_player_plays_one_card_in_seat_order_from_the_leader():
    hands = [["KH", "9S", "QD", "JD"], ["9C", "QS", "JS", "AS"], ["9H", "QC", "KC", "JH"]]
    game = three_player(hands)
    seen = []
    for card in ("KH", "9C", "9H"):
        seen.append(game.to_move)
        game = play(game, card)
    assert seen == [0, 1, 2]
    assert table_cards(game) == [(0, "KH"), (1, "9C"), (2, "9H")]


def test_the_last_player_who_cut_holds_the_trick():
    hands = [["KH", "9S", "QD", "JD"], ["7C", "QS", "JS", "AS"], ["KC", "QC", "9C", "JH"]]
    game = three_player(hands)
    game = play(game, "KH", "7C")
    assert game.view(None)["holder"] == 1
    game = play(game, "KC")
    assert game.view(None)["holder"] == 2


def test_the_leader_keeps_a_trick_nobody_cut():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["9C", "8D", "9D", "AS"]]), "KH", "9C")
    assert game.view(None)["holder"] == 0
    assert game.to_move == 0 and moves_of(game) == [("take", "")]


def test_cards_stay_on_the_table_until_the_winner_takes_them():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["9C", "8D", "9D", "AS"]]), "KH", "9C")
    assert table_cards(game) == [(0, "KH"), (1, "9C")]
    with pytest.raises(IllegalMove, match="seat 0 won it and must take it"):
        play(game, "9S")
    game = take(game)
    assert table_cards(game) == []


def test_the_leader_may_continue_when_an_opponent_holds_the_trick():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    view = game.view(0)
    assert view["can_continue"] is True
    assert moves_of(game) == [("end", ""), ("play", "7D"), ("play", "KS")]
    game = play(game, "KS")
    assert game.view(None)["holder"] == 0 and game.to_move == 1  # everyone plays one more card


def test_the_leader_may_end_and_leave_the_trick_with_the_opponent():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    game = end(game)
    assert game.to_move == 1 and moves_of(game) == [("take", "")]
    assert game.view(None)["log"][-1] == {"seat": 0, "type": "end"}
    game = take(game)
    assert game.to_move == 1 and game.view(None)["points"] == [0, 0]


def test_the_leader_may_continue_several_times_while_holding_cutting_cards():
    game = two_player([["KH", "KS", "7D", "KD"], ["7C", "KC", "7H", "AS"]])
    game = play(game, "KH", "7C", "KS", "KC", "7D", "7H")
    assert game.view(None)["holder"] == 1
    assert moves_of(game) == [("end", ""), ("play", "KD")]
    game = play(game, "KD", "AS")
    assert game.view(None)["holder"] == 0
    game = take(game)
    assert game.view(None)["points"] == [1, 0]


def test_the_trick_grows_while_it_is_fought_over():
    game = two_player([["KH", "KS", "7D", "KD"], ["7C", "TC", "7H", "AS"]])
    game = play(game, "KH", "7C", "KS", "TC")
    assert len(game.view(None)["table"]) == 4
    assert moves_of(game) == [("take", "")]


def test_continuing_with_a_card_that_does_not_cut_is_refused():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    with pytest.raises(IllegalMove, match="QD cannot continue the trick: continue with a king or a seven, or end it"):
        play(game, "QD")


def test_continuing_names_the_eight_when_eights_cut():
    hands = [["KH", "KS", "QD", "JD"], ["7C", "9D", "JS", "AS"], ["9H", "QC", "KC", "JH"]]
    game = play(three_player(hands), "KH", "7C", "9H")
    with pytest.raises(IllegalMove, match="continue with a king, a seven or an eight"):
        play(game, "QD")


def test_the_leader_with_no_continuing_card_is_still_asked():
    game = play(two_player([["KH", "9S", "QD", "JD"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    assert game.to_move == 0
    assert game.legal_moves() == [{"type": "end"}]
    assert game.view(1)["can_continue"] is True  # the same question whatever the leader holds


def test_the_question_to_the_leader_reveals_nothing_about_the_leader_hand():
    with_king = play(two_player([["KH", "KS", "QD", "JD"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    without = play(two_player([["KH", "9S", "QD", "JD"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    assert with_king.view(1) == without.view(1)
    assert with_king.view(None) == without.view(None)


def test_when_the_leader_holds_the_trick_there_is_no_continuing():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["KC", "8D", "9D", "AS"]]), "KH", "KC", "KS", "9D")
    assert game.view(None)["holder"] == 0
    assert moves_of(game) == [("take", "")]
    with pytest.raises(IllegalMove, match="seat 0 won it and must take it"):
        end(game)


def four_player(hands, stock=(), **options):
    return RULES.new_game(players=4, options=options, seed=0, decks=[deck_of(hands, stock)])


FOUR_HANDS = [["KH", "9S", "QD", "JD"], ["7C", "9D", "JS", "AS"], ["KS", "QC", "TC", "JH"], ["9H", "8C", "8D", "QH"]]


def test_with_four_players_the_trick_ends_when_the_leader_partner_holds_it():
    game = play(four_player(FOUR_HANDS), "KH", "7C", "KS", "9H")
    assert game.view(None)["holder"] == 2
    assert game.to_move == 2 and moves_of(game) == [("take", "")]


def test_with_four_players_without_teams_the_leader_decides_when_another_player_holds():
    game = play(four_player(FOUR_HANDS, teams=False), "KH", "7C", "KS", "9H")
    assert game.view(None)["holder"] == 2
    assert game.to_move == 0 and {"type": "end"} in game.legal_moves()


def test_with_four_players_the_leader_decides_when_an_opponent_holds():
    hands = [["KH", "KD", "QD", "JD"], ["7C", "9D", "JS", "AS"], ["9C", "QC", "TC", "JH"], ["9H", "8C", "8D", "QH"]]
    game = play(four_player(hands), "KH", "7C", "9C", "9H")
    assert game.view(None)["holder"] == 1
    assert moves_of(game) == [("end", ""), ("play", "KD")]


def test_the_trick_ends_by_itself_when_the_leader_has_no_cards_left():
    # The last trick: seat 0 leads its last card and seat 1 cuts it with a seven.
    tricks = [("TC", "8C"), ("TD", "8D"), ("TH", "8H"), ("TS", "8S"), ("AC", "9C"), ("AD", "9D"), ("AH", "9H")]
    tricks += [("AS", "9S"), ("7C", "JC"), ("7D", "JD"), ("7H", "JH"), ("QC", "JS"), ("QD", "KC"), ("QH", "KD")]
    tricks += [("KH", "QS"), ("KS", "7S")]
    game = RULES.new_game(players=2, seed=0, decks=[deck_of_tricks(tricks)])
    game = autoplay(game, lambda g: g.view(None)["hand_counts"] == [1, 1] and g.view(None)["table"] == [])
    game = play(game, "KS", "7S")
    assert game.to_move == 1 and moves_of(game) == [("take", "")]


# --- end is only for the leader after a round -------------------------------------
def test_end_is_refused_in_the_middle_of_a_round():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]]), "KH")
    with pytest.raises(IllegalMove, match="Only the leader can end a trick"):
        end(game)


def test_end_is_refused_before_the_first_card():
    game = two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]])
    with pytest.raises(IllegalMove, match="Only the leader can end a trick"):
        end(game)


def test_take_is_refused_while_the_trick_is_still_being_played():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]]), "KH")
    with pytest.raises(IllegalMove, match="seat 1 still has to play a card"):
        take(game)
    game = play(game, "7C")
    with pytest.raises(IllegalMove, match="seat 0 must continue it or end it first"):
        take(game)


# --- after the trick --------------------------------------------------------------
def test_the_winner_takes_the_trick_and_its_tens_and_aces():
    game = play(two_player([["AH", "KS", "QD", "7D"], ["TC", "8D", "9D", "AS"]]), "AH", "TC")
    game = take(game)
    view = game.view(None)
    assert view["points"] == [2, 0]
    assert view["log"][-3] == {"seat": 0, "type": "take", "cards": ["AH", "TC"], "points": 2}


def test_hands_refill_to_four_one_card_at_a_time_starting_with_the_winner():
    hands = [["KH", "9S", "QD", "JD"], ["7C", "9D", "JS", "AS"], ["9C", "QC", "KC", "JH"]]
    stock = ["TC", "TD", "TH", "AC", "AD", "AH"]
    game = RULES.new_game(players=3, seed=0, decks=[deck_of(hands, stock, removed=("8S", "8D"))])
    game = take(end(play(game, "KH", "7C", "9C")))  # seat 1 wins
    assert game.view(1)["hand"] == ["9D", "JS", "AS", "TC"]
    assert game.view(2)["hand"] == ["QC", "KC", "JH", "TD"]
    assert game.view(0)["hand"] == ["9S", "QD", "JD", "TH"]
    draws = [(entry["seat"], entry["count"]) for entry in game.view(None)["log"] if entry["type"] == "draw"]
    assert draws == [(1, 1), (2, 1), (0, 1)]


def test_after_a_continued_trick_each_hand_draws_back_up_to_four_round_the_table():
    hands = [["KH", "KS", "QD", "JD"], ["7C", "9D", "JS", "AS"]]
    stock = ["TC", "TD", "TH", "AC"]
    game = two_player(hands, stock)
    game = take(play(game, "KH", "7C", "KS", "9D"))
    assert game.view(0)["hand"] == ["QD", "JD", "TC", "TH"]
    assert game.view(1)["hand"] == ["JS", "AS", "TD", "AC"]
    assert game.view(None)["stock"] == 20


def test_the_taker_leads_the_next_trick():
    game = play(two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]]), "KH", "7C")
    game = take(end(game))
    view = game.view(None)
    assert game.to_move == 1 and view["leader"] == 1 and view["table"] == []


def test_when_the_stock_runs_short_everyone_draws_what_is_left_and_hands_stay_equal():
    tricks = [("TC", "8C"), ("TD", "8D"), ("TH", "8H"), ("TS", "8S"), ("AC", "9C"), ("AD", "9D"), ("AH", "9H")]
    tricks += [("AS", "9S"), ("7D", "JC"), ("7H", "JD"), ("7S", "JH"), ("KH", "7C"), ("JS", "KS")]
    tricks += [("QC", "KC"), ("QD", "KD"), ("QH", "QS")]
    game = RULES.new_game(players=2, seed=0, decks=[deck_of_tricks(tricks)])
    game = autoplay(game, lambda g: g.view(None)["stock"] == 2)
    assert game.view(None)["hand_counts"] == [4, 4] and game.to_move == 0
    game = take(play(game, "KH", "7C", "KS", "JS"))  # a two-round trick: each played two cards
    assert game.view(None)["hand_counts"] == [3, 3] and game.view(None)["stock"] == 0


def test_when_the_stock_is_gone_the_hands_are_played_out_and_the_deal_ends():
    game = RULES.new_game(players=2, seed=0, decks=[two_player_deck(0, 8)])
    game = autoplay(game, lambda g: g.view(None)["stock"] == 0)
    assert game.view(None)["hand_counts"] == [4, 4] and game.view(None)["deal"] == 0
    game = autoplay(game, new_deal(game))
    view = game.view(None)
    assert view["deal"] == 1 and view["last_deal"] == {"deal": 0, "points": [8, 0]}
    assert view["hand_counts"] == [4, 4] and view["stock"] == 24


# --- points ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_there_are_eight_points_in_every_deal(players):
    game = RULES.new_game(players=players, seed=players)
    game = autoplay(game, new_deal(game))
    assert sum(game.view(None)["last_deal"]["points"]) == 8


def test_captured_points_are_public():
    game = take(play(two_player([["AH", "KS", "QD", "7D"], ["TC", "8D", "9D", "AS"]]), "AH", "TC"))
    assert game.view(None)["points"] == game.view(1)["points"] == [2, 0]


def test_points_are_kept_per_seat_even_in_teams():
    game = four_player(FOUR_HANDS)
    game = take(play(game, "KH", "7C", "KS", "9H"))
    assert game.view(None)["points"] == [0, 0, 0, 0]
    game = four_player(
        [["AH", "9S", "QD", "JD"], ["7C", "9D", "JS", "AS"], ["AC", "QC", "TC", "JH"], ["9H", "8C", "8D", "QH"]]
    )
    game = take(play(game, "AH", "7C", "AC", "9H"))
    assert game.view(None)["points"] == [0, 0, 2, 0]


def test_a_clean_sweep_earns_no_bonus():
    game = RULES.new_game(players=2, options={"match": "points-21"}, seed=0, decks=[two_player_deck(0, 8)])
    game = autoplay(game, new_deal(game))
    assert game.view(None)["scores"] == [8, 0]


# --- match formats -------------------------------------------------------------------
def match(options, first_points, players=2):
    decks = [two_player_deck(deal, points) for deal, points in enumerate(first_points)]
    return RULES.new_game(players=players, options=options, seed=0, decks=decks)


def play_deals(game, count):
    for _ in range(count):
        game = autoplay(game, new_deal(game))
    return game


def test_best_of_three_ends_when_a_player_has_won_two_games():
    game = match({}, [8, 8, 8])  # deal 1 is led by seat 1, so seat 1 wins it
    game = play_deals(game, 2)
    assert game.view(None)["scores"] == [1, 1] and not game.finished
    game = autoplay(game)
    assert game.result == {"scores": [2, 1], "winners": [0]}
    assert game.to_move is None and game.legal_moves() == []


def test_a_tied_game_does_not_count():
    game = match({"match": "best-of-3"}, [4, 4, 0, 8])
    game = play_deals(game, 1)
    assert game.view(None)["scores"] == [0, 0]
    assert game.view(None)["last_deal"] == {"deal": 0, "points": [4, 4]}
    game = autoplay(game)
    assert game.result == {"scores": [0, 2], "winners": [1]}


def test_best_of_five_ends_at_three_games():
    game = match({"match": "best-of-5"}, [8] * 5)
    game = play_deals(game, 4)
    assert game.view(None)["scores"] == [2, 2] and not game.finished
    game = autoplay(game)
    assert game.result == {"scores": [3, 2], "winners": [0]}


def test_first_to_ten_ends_at_ten_games():
    game = match({"match": "first-to-10"}, [8] * 19)
    game = play_deals(game, 18)
    assert game.view(None)["scores"] == [9, 9] and not game.finished
    game = autoplay(game)
    assert game.result == {"scores": [10, 9], "winners": [0]}


def test_the_player_with_more_points_wins_the_game():
    game = match({}, [5, 3])
    game = play_deals(game, 1)
    assert game.view(None)["scores"] == [1, 0]
    game = play_deals(game, 1)  # deal 1: seat 1 leads and takes 3
    assert game.view(None)["scores"] == [2, 0] and game.finished


def test_points_eight_deals_until_someone_reaches_eight():
    game = match({"match": "points-8"}, [5, 4])
    game = play_deals(game, 1)
    assert game.view(None)["scores"] == [5, 3] and not game.finished
    game = autoplay(game)
    assert game.result == {"scores": [9, 7], "winners": [0]}


def test_points_twenty_one_adds_up_deals_until_twenty_one():
    game = match({"match": "points-21"}, [8, 0, 8])
    game = play_deals(game, 2)
    assert game.view(None)["scores"] == [16, 0] and not game.finished
    game = autoplay(game)
    assert game.result == {"scores": [24, 0], "winners": [0]}


def test_when_several_pass_the_target_the_highest_total_wins():
    game = match({"match": "points-8"}, [6, 6, 6])  # 6-2, then seat 1 leads: 2-6, then 6-2
    game = play_deals(game, 2)
    assert game.view(None)["scores"] == [8, 8] and not game.finished  # both reached 8, level: deal again
    game = autoplay(game)
    assert game.result == {"scores": [14, 10], "winners": [0]}


def test_a_tie_at_the_top_deals_again_in_points_formats():
    game = match({"match": "points-8"}, [4, 4, 4, 8])
    game = play_deals(game, 2)
    assert game.view(None)["scores"] == [8, 8] and not game.finished
    game = play_deals(game, 1)
    assert game.view(None)["scores"] == [12, 12] and not game.finished
    game = autoplay(game)
    assert game.result == {"scores": [12, 20], "winners": [1]}


def four_player_sweep(first):
    """Four-player tricks where the leader keeps every trick (nobody follows with its rank or a seven)."""
    leads = ["7C", "7D", "7H", "7S", "TC", "TD", "TH", "TS"]
    others = [card for card in DECK if card not in leads]
    tricks = [(lead, *others[3 * i : 3 * i + 3]) for i, lead in enumerate(leads)]
    return deck_of_tricks(tricks, first=first)


def test_teams_share_their_scores_and_both_partners_win():
    decks = [four_player_sweep(0), four_player_sweep(1), four_player_sweep(2)]
    game = RULES.new_game(players=4, seed=0, decks=decks)
    game = play_deals(game, 1)
    view = game.view(None)
    assert view["last_deal"] == {"deal": 0, "points": [8, 0, 0, 0]}
    assert view["scores"] == [1, 0, 1, 0]
    game = autoplay(game)
    assert game.result == {"scores": [2, 1, 2, 1], "winners": [0, 2]}


def test_team_points_are_added_per_team_in_points_formats():
    decks = [four_player_sweep(0), four_player_sweep(1)]
    game = RULES.new_game(players=4, options={"match": "points-21"}, seed=0, decks=decks)
    game = play_deals(game, 2)
    assert game.view(0)["scores"] == [8, 8, 8, 8]


# --- deals ----------------------------------------------------------------------------
def test_the_next_deal_is_led_by_the_next_player():
    game = match({}, [8, 0, 8])
    game = play_deals(game, 1)
    view = game.view(None)
    assert (view["deal"], view["first"], view["dealer"], game.to_move) == (1, 1, 0, 1)
    assert game.view(1)["hand"] == two_player_deck(1, 0)[0:8:2]


def test_a_new_deal_log_holds_no_card_from_the_deal_before():
    game = match({}, [8, 0, 8])
    game = play_deals(game, 1)
    assert game.view(0)["log"] == []
    assert game.view(0)["points"] == [0, 0]


def test_the_match_end_log_reports_the_deal_over():
    game = autoplay(match({}, [8, 0]))
    assert game.view(None)["log"][-1] == {"seat": None, "type": "deal_over", "points": [8, 0]}


# --- the worked example of the online rules -----------------------------------------
ANA, BOGDAN = 0, 1


def ana_and_bogdan(bogdan_third):
    hands = [["KH", "KS", "9S", "QD"], ["7C", bogdan_third, "JS", "8D"]]
    return two_player(hands, ["QC", "JC", "9C", "8C"])


def test_ana_and_bogdan_a_trick_with_a_continuation():
    game = ana_and_bogdan("TD")
    game = play(game, "KH", "7C")
    assert game.view(None)["holder"] == BOGDAN
    assert game.to_move == ANA and {"type": "play", "card": "KS"} in game.legal_moves()
    game = play(game, "KS", "TD")
    assert game.view(None)["holder"] == ANA
    assert game.to_move == ANA and moves_of(game) == [("take", "")]
    game = take(game)
    assert game.view(None)["points"] == [1, 0]
    assert game.view(None)["log"][4]["cards"] == ["KH", "7C", "KS", "TD"]
    assert game.view(ANA)["hand"] == ["9S", "QD", "QC", "9C"]  # Ana draws first
    assert game.view(BOGDAN)["hand"] == ["JS", "8D", "JC", "8C"]
    assert game.to_move == ANA


def test_ana_and_bogdan_if_bogdan_had_played_another_seven():
    game = ana_and_bogdan("7H")
    game = play(game, "KH", "7C", "KS", "7H")
    assert game.view(None)["holder"] == BOGDAN
    assert game.legal_moves() == [{"type": "end"}]  # Ana has no king or seven left, but is asked
    game = take(end(game))
    assert game.view(None)["points"] == [0, 0] and game.to_move == BOGDAN


# --- moves that are refused --------------------------------------------------------------
@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("KH", "A move must be an object"),
        ({}, "Unknown move type None"),
        ({"type": "pass"}, "Unknown move type 'pass'"),
        ({"type": "play"}, 'A play move needs a "card"'),
        ({"type": "play", "card": "KH", "suit": "S"}, "A play move has no 'suit'"),
        ({"type": "play", "card": "ZZ"}, "'ZZ' is not a card"),
        ({"type": "play", "card": 7}, "7 is not a card"),
        ({"type": "play", "card": "AS"}, "Seat 0 does not hold AS"),
        ({"type": "play", "card": "2H"}, "Seat 0 does not hold 2H"),
        ({"type": "take", "card": "KH"}, "A take move has no 'card'"),
    ],
)
def test_a_malformed_or_impossible_move_is_refused_with_a_reason(move, message):
    game = two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]])
    with pytest.raises(IllegalMove, match=message):
        game.play(move)


def test_no_move_is_accepted_once_the_match_is_over():
    game = autoplay(match({}, [8, 0]))
    assert game.finished
    with pytest.raises(IllegalMove, match="The match is over"):
        take(game)


def test_a_refused_move_leaves_the_game_unchanged():
    game = two_player([["KH", "KS", "QD", "7D"], ["7C", "8D", "9D", "AS"]])
    before = game.to_state()
    with pytest.raises(IllegalMove):
        play(game, "AS")
    after_good = play(game, "KH")
    assert game.to_state() == before and after_good.to_state() != before


# --- views and state -------------------------------------------------------------------
def test_a_view_shows_no_hidden_card():
    game = RULES.new_game(players=3, seed=4)
    game = play(game, game.legal_moves()[0]["card"])
    state = game.to_state()
    public = set(game.view(None)["removed"]) | {entry["card"] for entry in game.view(None)["table"]}
    for seat in (None, 0, 1, 2):
        text = json.dumps(game.view(seat))
        own = set(state["hands"][seat]) if seat is not None else set()
        for card in DECK:
            if card in text:
                assert card in own | public, (seat, card)


def test_the_view_has_every_contract_key():
    view = RULES.new_game(players=2, seed=1).view(0)
    contract = {
        "rules", "options", "players", "seat", "to_move", "hand", "hand_counts", "stock", "legal_moves",
        "scores", "finished", "result", "deal", "log", "points", "table", "removed", "last_deal",
    }  # fmt: skip
    assert contract <= set(view)
    assert view["legal_moves"] == RULES.new_game(players=2, seed=1).legal_moves()
    assert RULES.new_game(players=2, seed=1).view(1)["legal_moves"] == []


def test_a_bad_seat_cannot_be_viewed():
    with pytest.raises(ValueError):
        RULES.new_game(players=2).view(2)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_state_round_trip_is_exact_at_every_step(players):
    game = RULES.new_game(players=players, seed=players * 10, options={"match": "points-8"})
    steps = 0
    while not game.finished and steps < 400:
        state = json.loads(json.dumps(game.to_state()))
        again = RULES.from_state(state)
        assert again.to_state() == game.to_state()
        assert again.legal_moves() == game.legal_moves()
        for seat in [None, *range(players)]:
            assert again.view(seat) == game.view(seat)
        move = game.legal_moves()[steps % len(game.legal_moves())]
        assert again.play(move).to_state() == game.play(move).to_state()
        game = game.play(move)
        steps += 1
    assert RULES.from_state(game.to_state()).to_state() == game.to_state()


def test_a_damaged_state_is_refused():
    state = RULES.new_game(players=2).to_state()
    del state["hands"]
    with pytest.raises(ValueError):
        RULES.from_state(state)


def test_playing_leaves_the_old_game_unchanged():
    game = RULES.new_game(players=2, seed=3)
    before = game.to_state()
    game.play(game.legal_moves()[0])
    assert game.to_state() == before
