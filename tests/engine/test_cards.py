"""Card codes and the published shuffle.

The shuffle is checked both ways: the engine's ``shuffle`` and a small
re-implementation written here from the contract's prose must both give the
vectors checked in as ``shuffle_vectors.json``. If either drifts, every
revealed seed of every past match stops being checkable, so these vectors must
never be regenerated to make a failing test pass.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.engine import RULESETS
from games.engine.cards import (
    JOKERS,
    RANKS,
    SUITS,
    is_card_code,
    is_joker,
    make_deck,
    rank_of,
    shuffle,
    suit_of,
)

VECTORS = json.loads((Path(__file__).with_name("shuffle_vectors.json")).read_text())

# The decks, spelled out here rather than taken from the engine.
SEPTICA_DECK = [rank + suit for rank in "789TJQKA" for suit in "CDHS"]
FAMILIE_DECK = [rank + suit for rank in "6789TJQKA" for suit in "CDHS"] + ["XR", "XB"]
AMERICANA_DECK = [rank + suit for rank in "23456789TJQKA" for suit in "CDHS"]
DECKS = {
    "septica": SEPTICA_DECK,
    "familie": FAMILIE_DECK,
    "americana": AMERICANA_DECK,
    "americana-jokers": AMERICANA_DECK + ["XR", "XB"],
    "pile": VECTORS["decks"]["pile"].split(),
}


def codes(text):
    return text.split()


PUBLISHED_DEAL_0 = codes(
    "TH 7D 8D AD QD JS JC 9S JD KD 9H TC 8H QH 7C KS KC TS KH 7H AH 9C 8C AS AC 8S JH QC QS 7S 9D TD"
)
PUBLISHED_DEAL_1_START = codes("9H TC 9C TS KD 9D 7D 8D")


def reference_shuffle(cards, seed, deal, k):
    """The contract's prose, followed word by word."""
    order = sorted(cards)
    for i in range(len(order) - 1, 0, -1):
        digest = hashlib.sha256(f"{seed}:{deal}:{k}:{i}".encode()).digest()  # str.encode is UTF-8
        j = int.from_bytes(digest[:8], byteorder="big", signed=False) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def vector_cases():
    return [pytest.param(vector, id=vector["name"]) for vector in VECTORS["vectors"]]


# --- the published vector --------------------------------------------------


def test_the_published_vector_for_deal_0():
    assert shuffle(SEPTICA_DECK, 1, 0, 0) == PUBLISHED_DEAL_0
    assert reference_shuffle(SEPTICA_DECK, 1, 0, 0) == PUBLISHED_DEAL_0


def test_the_published_vector_for_deal_1():
    assert shuffle(SEPTICA_DECK, 1, 1, 0)[:8] == PUBLISHED_DEAL_1_START
    assert reference_shuffle(SEPTICA_DECK, 1, 1, 0)[:8] == PUBLISHED_DEAL_1_START


def test_the_checked_in_vectors_agree_with_the_published_one():
    by_name = {vector["name"]: vector for vector in VECTORS["vectors"]}
    assert by_name["septica seed 1 deal 0 (published)"]["expected"].split() == PUBLISHED_DEAL_0
    assert by_name["septica seed 1 deal 1 (published prefix)"]["expected"].split()[:8] == PUBLISHED_DEAL_1_START


# --- the checked-in vectors, both ways --------------------------------------


@pytest.mark.parametrize("vector", vector_cases())
def test_the_engine_shuffle_matches_the_checked_in_vector(vector):
    deck = DECKS[vector["deck"]]
    assert shuffle(deck, vector["seed"], vector["deal"], vector["k"]) == vector["expected"].split()


@pytest.mark.parametrize("vector", vector_cases())
def test_the_reference_shuffle_matches_the_checked_in_vector(vector):
    deck = DECKS[vector["deck"]]
    assert reference_shuffle(deck, vector["seed"], vector["deal"], vector["k"]) == vector["expected"].split()


def test_the_vectors_cover_every_deck_size_a_reshuffle_and_a_large_seed():
    sizes = {len(DECKS[vector["deck"]]) for vector in VECTORS["vectors"]}
    assert {32, 38, 52, 54} <= sizes
    assert any(vector["k"] >= 1 for vector in VECTORS["vectors"])
    assert any(vector["seed"] >= 2**127 for vector in VECTORS["vectors"])


@pytest.mark.parametrize("seed", [0, 1, 2, 99, -1, 2**64 + 1, 2**127 + 12345])
@pytest.mark.parametrize("deck", ["septica", "familie", "americana", "americana-jokers"])
def test_the_engine_and_the_reference_agree_on_other_seeds(deck, seed):
    for deal in range(3):
        for k in range(2):
            assert shuffle(DECKS[deck], seed, deal, k) == reference_shuffle(DECKS[deck], seed, deal, k)


def test_the_shuffle_does_not_depend_on_the_input_order():
    backwards = list(reversed(AMERICANA_DECK))
    assert shuffle(backwards, 5, 0) == shuffle(AMERICANA_DECK, 5, 0)


def test_the_shuffle_is_a_permutation_and_leaves_its_input_alone():
    deck = list(FAMILIE_DECK)
    shuffled = shuffle(deck, 11, 2, 0)
    assert deck == FAMILIE_DECK
    assert sorted(shuffled) == sorted(FAMILIE_DECK)


def test_the_shuffle_takes_any_iterable_and_defaults_k_to_zero():
    assert shuffle(iter(SEPTICA_DECK), 1, 0) == PUBLISHED_DEAL_0


def test_different_deals_and_reshuffles_give_different_orders():
    orders = {tuple(shuffle(AMERICANA_DECK, 3, deal, k)) for deal in range(3) for k in range(3)}
    assert len(orders) == 9


def test_tiny_piles_shuffle_without_trouble():
    assert shuffle([], 1, 0, 1) == []
    assert shuffle(["7H"], 1, 0, 1) == ["7H"]
    assert sorted(shuffle(["7H", "2C"], 1, 0, 1)) == ["2C", "7H"]


# --- card codes -------------------------------------------------------------


def test_ranks_and_suits_are_the_contract_ones():
    assert RANKS == "23456789TJQKA"
    assert SUITS == "CDHS"
    assert set(JOKERS) == {"XR", "XB"}


@pytest.mark.parametrize(
    ("card", "rank", "suit"),
    [("7H", "7", "H"), ("TS", "T", "S"), ("AC", "A", "C"), ("2D", "2", "D")],
)
def test_a_card_code_is_rank_then_suit(card, rank, suit):
    assert rank_of(card) == rank
    assert suit_of(card) == suit
    assert not is_joker(card)


def test_jokers_are_jokers():
    assert all(is_joker(card) for card in JOKERS)
    assert all(is_card_code(card) for card in JOKERS)


@pytest.mark.parametrize("card", SEPTICA_DECK + FAMILIE_DECK + AMERICANA_DECK)
def test_every_card_of_every_deck_is_a_card_code(card):
    assert is_card_code(card)


@pytest.mark.parametrize(
    "value",
    ["", "7", "7HH", "1H", "7X", "7h", "th", "XX", "XH", "JK", "10H", " 7H", None, 7, 7.0, ["7H"], ("7", "H"), b"7H"],
)
def test_anything_else_is_not_a_card_code(value):
    assert not is_card_code(value)


def test_make_deck_gives_every_rank_in_every_suit():
    assert sorted(make_deck("789TJQKA")) == sorted(SEPTICA_DECK)
    assert sorted(make_deck("6789TJQKA", jokers=True)) == sorted(FAMILIE_DECK)
    assert sorted(make_deck(RANKS)) == sorted(AMERICANA_DECK)
    assert make_deck(RANKS, jokers=True)[-2:] == list(JOKERS)


def test_make_deck_has_no_duplicates():
    deck = make_deck(RANKS, jokers=True)
    assert len(deck) == len(set(deck)) == 54


# --- the decks the rule sets use --------------------------------------------

EXPECTED_FULL_DECKS = [
    ("septica", 2, {}, SEPTICA_DECK),
    ("septica", 4, {}, SEPTICA_DECK),
    ("familie", 2, {}, FAMILIE_DECK),
    ("familie", 6, {}, FAMILIE_DECK),
    ("americana", 2, {}, AMERICANA_DECK),
    ("americana", 2, {"jokers": True}, AMERICANA_DECK + ["XR", "XB"]),
]


@pytest.mark.parametrize(("slug", "players", "options", "expected"), EXPECTED_FULL_DECKS)
def test_each_rule_set_uses_its_deck(slug, players, options, expected):
    if slug not in RULESETS:
        pytest.skip(f"{slug} is not written yet")
    rules = RULESETS[slug]
    deck = rules.full_deck(players, rules.validate_options(players, options))
    assert sorted(deck) == sorted(expected)
