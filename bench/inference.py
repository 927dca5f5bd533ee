"""How well the Master's inference guesses the hidden hands, quicker and steadier than a win rate.

    .venv/bin/python bench/inference.py                      # about a minute on two cores
    .venv/bin/python bench/inference.py --deals 60 --players medium
    .venv/bin/python bench/inference.py --rules americana --misfit 0.1 --recent-turns 16
    .venv/bin/python bench/inference.py --rules septica --ranks 7TA   # only sevens, tens and aces

Plays deals between bots (the Expert at a short budget, or the Medium) and, at
decisions with more than one legal move, builds the Master's pool of guessed
deals from that seat's view alone. For each position it counts how many of the
other players' cards the pool gets right: weighed as the Master weighs it,
and with every deal of the same pool counted alike (what guessing without the
model gives). Prints both as a share of the other hands' cards, and the lift.
A win rate against the Expert needs hundreds of deals at full budgets to tell
a few points apart; this tells a refinement of the model from the one before
in a minute, though only a win rate says what it is worth at the table.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import rules_for  # noqa: E402
from games.engine.bots import americana_guess, choose_move, inference  # noqa: E402

TABLES = {"septica": 2, "familie": 3, "americana": 2}  # rule set: players
POSITIONS_PER_DEAL = 40
PLAYERS_BUDGET_MS = 15  # the Expert's, while it plays the deals: its moves, not its strength, matter here


def positions(job: tuple) -> list[tuple[dict, dict[int, list[str]]]]:
    """(view, the other seats' true hands) at a deal's decisions with a choice."""
    rules, seed, players_level = job
    game = rules_for(rules).new_game(players=TABLES[rules], seed=seed)
    rng = random.Random(seed)
    found = []
    while not game.finished and game.view(None)["deal"] == 0:
        seat = game.to_move
        view = game.view(seat)
        if len(view["legal_moves"]) > 1 and len(found) < POSITIONS_PER_DEAL:
            others = {other: list(game.view(other)["hand"]) for other in range(view["players"]) if other != seat}
            found.append((view, others))
        game = game.play(choose_move(view, players_level, "balanced", rng, budget_ms=PLAYERS_BUDGET_MS))
    return found


def pool_of(view: dict, seed: int, epsilon: float) -> tuple[list[dict[int, list[str]]], list[float]]:
    """The Master's pool for a view: each deal's other hands, and its weight (with ``epsilon`` for the model
    of septica and familie, weighed as WeightedDeals does)."""
    rng = random.Random(seed)
    if view["rules"] == "americana":
        guesser = americana_guess.WeightedGuesser(view, rng, pool=inference.AMERICANA_POOL)
        cumulative = guesser.cumulative
        weights = [cumulative[0]] + [b - a for a, b in itertools.pairwise(cumulative)]
        return [dict(enumerate(hands)) for hands, _ in guesser.deals], weights
    deals = inference.WeightedDeals(view, rng)
    hands_of = [deals.full_hands(hands) for hands, _ in deals.deals]
    if epsilon == inference.EPSILON:
        return [dict(enumerate(hands)) for hands in hands_of], deals.weights
    logs = [
        inference.log_likelihood(deals.model, hands, random.Random(index), epsilon)
        for index, hands in enumerate(hands_of)
    ]
    return [dict(enumerate(hands)) for hands in hands_of], [math.exp(value - max(logs)) for value in logs]


def score(job: tuple) -> tuple[float, float, int]:
    """Cards of the other hands right (weighed, alike) and how many there are, at one position."""
    (view, others), seed, settings, ranks = job
    epsilon, americana_guess.MISFIT, americana_guess.RECENT_TURNS = settings  # americana's are read per call
    deals, weights = pool_of(view, seed, epsilon)
    total = sum(weights)

    def counted(cards: list[str]) -> set[str]:
        return {card for card in cards if not ranks or card[0] in ranks}

    def right(hands: dict[int, list[str]]) -> int:
        return sum(len(counted(true) & set(hands[seat])) for seat, true in others.items())

    counts = [right(hands) for hands in deals]
    weighed = sum(weight * count for weight, count in zip(weights, counts, strict=True)) / total
    alike = sum(counts) / len(counts)
    return weighed, alike, sum(len(counted(hand)) for hand in others.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", choices=tuple(TABLES), action="append", help="default: all three")
    parser.add_argument("--deals", type=int, default=30, help="deals per rule set")
    parser.add_argument("--players", choices=("expert", "medium"), default="expert", help="who plays the deals")
    parser.add_argument("--epsilon", type=float, default=inference.EPSILON, help="septica and familie's model")
    parser.add_argument("--misfit", type=float, default=americana_guess.MISFIT, help="americana's model")
    parser.add_argument("--recent-turns", type=int, default=americana_guess.RECENT_TURNS, help="americana's model")
    parser.add_argument("--ranks", default="", help="count only the cards of these ranks (e.g. 7TA); default: all")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    settings = (args.epsilon, args.misfit, args.recent_turns)
    print(
        f"players {args.players}; epsilon {args.epsilon}, misfit {args.misfit}, recent turns {args.recent_turns}; "
        f"{args.deals} deals per rule set; ranks counted: {args.ranks or 'all'}"
    )
    print(f"{'rules':>10} {'players':>7} {'positions':>9} {'weighed':>8} {'alike':>8} {'lift':>6} {'secs':>6}")
    with Pool(args.workers) as pool:
        for rules in args.rules or tuple(TABLES):
            started = time.perf_counter()
            jobs = [(rules, 10_000 + deal, args.players) for deal in range(args.deals)]
            found = [position for deal in pool.map(positions, jobs) for position in deal]
            scored = pool.map(score, [(position, index, settings, args.ranks) for index, position in enumerate(found)])
            cards = sum(count for _, _, count in scored)
            weighed = sum(value for value, _, _ in scored) / cards
            alike = sum(value for _, value, _ in scored) / cards
            print(
                f"{rules:>10} {TABLES[rules]:>7} {len(found):>9} {weighed:>8.1%} {alike:>8.1%} "
                f"{weighed / alike - 1:>+6.1%} {time.perf_counter() - started:>6.0f}"
            )


if __name__ == "__main__":
    main()
