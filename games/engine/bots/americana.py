"""Americana heuristics: shed the costly cards first, keep sevens to change suit,
hold twos (or throw them, by style) and name the suit most held."""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from .style import Style

PENALTY = {rank: int(rank) for rank in "23456789"}
PENALTY.update({"T": 10, "J": 10, "Q": 10, "K": 10, "A": 11, "7": 25, "X": 50})


class Spot(NamedTuple):
    seat: int
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    players: int
    draw_ranks: str  # ranks that make the next player draw
    attack: str | None  # "draw", "skip" or None
    stock: int


def spot_from_view(view: dict) -> Spot:
    options = view["options"]
    attack = view.get("attack")
    return Spot(
        seat=view["seat"],
        hand=tuple(view["hand"]),
        hand_counts=tuple(view["hand_counts"]),
        players=view["players"],
        draw_ranks=draw_ranks(options),
        attack=attack["kind"] if attack else None,
        stock=view["stock"],
    )


def draw_ranks(options: dict) -> str:
    return "2" + ("J" if options.get("jacks_draw") else "") + ("X" if options.get("jokers") else "")


def best_suit(hand, without: str = "") -> str:
    counts = Counter(card[1] for card in hand if card != without and card[0] not in "7X")
    weights: Counter[str] = Counter()
    for card in hand:
        if card != without and card[0] not in "7X":
            weights[card[1]] += PENALTY[card[0]]
    if not counts:
        return "S"
    return max("CDHS", key=lambda suit: (counts[suit], weights[suit], suit))


def choose(spot: Spot, moves: list[dict], style: Style, rng: random.Random) -> dict:
    plays = [move for move in moves if move["type"] == "play"]
    fallback = next((move for move in moves if move["type"] != "play"), None)
    if not plays:
        return fallback or moves[0]
    if len(spot.hand) == 1:
        return plays[0]  # going out ends the round
    if spot.attack is not None:
        return plays[0]  # pass the draw or the skip on rather than take it
    nxt = (spot.seat + 1) % spot.players
    danger = spot.hand_counts[nxt] <= 2

    def score(move: dict) -> float:
        card = move["card"]
        rank = card[0]
        rest = [c for c in spot.hand if c != card]
        value = PENALTY[rank] / 10
        value += 0.4 * sum(1 for c in rest if c[1] == card[1] or c[0] == rank)  # can follow on after it
        if rank == "7":
            value = -3.0 if style.sevens_early else -6.0
            if move.get("suit") != best_suit(spot.hand, card):
                value -= 1
        elif rank in spot.draw_ranks:
            value = 3.0 if style.attacks or danger else -1.0
        elif rank == "A":
            value += 1.5 if spot.players == 2 else 0.5
        return value + rng.random() * 0.01

    best = max(plays, key=score)
    if fallback is not None and score(best) < -4 and spot.stock > 0:
        return fallback
    return best


def penalty_of(hand) -> int:
    return sum(PENALTY[card[0]] for card in hand)


def candidates(view: dict, moves: list[dict], liked: dict) -> list[dict]:
    """The moves worth searching: one seven (they are alike once played), naming only suits held.

    Naming a suit this seat holds nothing of leaves it to draw as well, so only
    the suits of the rest of the hand are tried, besides the one the heuristic likes.
    """
    sevens = [move for move in moves if move["type"] == "play" and move["card"][0] == "7"]
    if not sevens:
        return moves
    seven = liked["card"] if liked in sevens else sevens[0]["card"]
    suits = {card[1] for card in view["hand"] if card[0] not in "7X"}
    return [
        move for move in moves if move == liked or move not in sevens or move["card"] == seven and move["suit"] in suits
    ]
