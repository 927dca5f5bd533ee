"""Card codes, the decks of each rule set, and the published seeded shuffle.

A card is a two-character string, rank then suit: ``"7H"``, ``"TS"``, ``"AC"``.
The jokers are ``"XR"`` and ``"XB"``. Strings keep cards cheap to copy,
hash and send, which matters because bots search with this engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
JOKERS = ("XB", "XR")
JOKER_RANK = "X"


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def is_joker(card: str) -> bool:
    return card[0] == JOKER_RANK


def make_deck(ranks: Iterable[str], jokers: bool = False) -> list[str]:
    """Every card of the given ranks in every suit, jokers last when asked for."""
    cards = [rank + suit for rank in ranks for suit in SUITS]
    if jokers:
        cards.extend(JOKERS)
    return cards


def is_card_code(value: object) -> bool:
    if not isinstance(value, str) or len(value) != 2:
        return False
    if value in JOKERS:
        return True
    return value[0] in RANKS and value[1] in SUITS


def _swap_index(seed: int, deal: int, k: int, i: int) -> int:
    digest = hashlib.sha256(f"{seed}:{deal}:{k}:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (i + 1)


def shuffle(cards: Iterable[str], seed: int, deal: int, k: int = 0) -> list[str]:
    """The published shuffle, so anyone holding the revealed seed can recompute it.

    Sort the codes as strings, then for ``i`` from ``n-1`` down to 1 swap
    positions ``i`` and ``j``, where ``j`` is the first 8 bytes of
    ``SHA-256(f"{seed}:{deal}:{k}:{i}")`` read big-endian, modulo ``i + 1``.
    ``k`` is 0 for the deal's own deck and counts reshuffles of the pile.
    """
    order = sorted(cards)
    for i in range(len(order) - 1, 0, -1):
        j = _swap_index(seed, deal, k, i)
        order[i], order[j] = order[j], order[i]
    return order
