"""How strong and how quick the bots are.

    .venv/bin/python bench/bots.py              # a few minutes on two cores
    .venv/bin/python bench/bots.py --quick      # under a minute
    .venv/bin/python bench/bots.py --deals 2000 --expert-deals 200 --budget-ms 400

Plays single deals of two-player septica and americana between neighbouring
levels (and Beginner against a player who picks any legal move). Every deck is
played twice with the seats swapped, so neither side is favoured by the cards
or by leading. A deal is won by more points (septica) or by the lower charge
(americana); a tied deal counts half. Prints each pairing's win rate with a 95%
Wilson interval, and each level's decision time (p50, p95) in wall-clock and
CPU seconds, over decisions with more than one legal move.

Targets: each level beats the one below at least 60% of the time, Beginner
beats random, and Expert decides in under 500 ms at p95.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import rules_for  # noqa: E402 - needs the repo root on sys.path first
from games.engine.bots import DEFAULT_BUDGET_MS, choose_move  # noqa: E402

GAMES = ("septica", "americana")
PAIRINGS = (("beginner", "random"), ("medium", "beginner"), ("expert", "medium"))
WIN_TARGET = 0.60
EXPERT_P95_TARGET_MS = 500.0


def play_deal(job: tuple) -> tuple:
    """One deal: (rules, first level, second level, deck seed, seat of the first level, budget)."""
    rules, first, second, seed, first_seat, budget_ms = job
    game = rules_for(rules).new_game(players=2, seed=seed)
    levels = {first_seat: first, 1 - first_seat: second}
    rng = random.Random(seed * 2 + first_seat)
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    while not game.finished and game.view(None)["deal"] == 0:
        seat = game.to_move
        view = game.view(seat)
        level = levels[seat]
        started, cpu = time.perf_counter(), time.process_time()
        if level == "random":
            move = rng.choice(view["legal_moves"])
        else:
            move = choose_move(view, level, "expert", rng, budget_ms=budget_ms)
        if len(view["legal_moves"]) > 1:
            times[level].append((time.perf_counter() - started, time.process_time() - cpu))
        game = game.play(move)
    last = game.view(None)["last_deal"]
    if rules == "septica":
        mine, theirs = last["points"][first_seat], last["points"][1 - first_seat]
        score = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    else:
        mine, theirs = last["charged"][first_seat], last["charged"][1 - first_seat]
        score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return rules, first, second, score, dict(times)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def jobs(deals: int, expert_deals: int, budget_ms: float, games: tuple[str, ...]) -> list[tuple]:
    out = []
    for rules in games:
        for first, second in PAIRINGS:
            count = expert_deals if "expert" in (first, second) else deals
            for seed in range(count // 2 or 1):
                for first_seat in (0, 1):
                    out.append((rules, first, second, 10_000 + seed, first_seat, budget_ms))
    # the slow deals first, so two workers finish together
    out.sort(key=lambda job: "expert" not in job[1:3])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000, help="deals per pairing without the expert")
    parser.add_argument("--expert-deals", type=int, default=120, help="deals per pairing with the expert")
    parser.add_argument(
        "--budget-ms", type=float, default=DEFAULT_BUDGET_MS, help="the expert's time budget per decision"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", choices=GAMES, action="append", help="only this rule set (repeatable)")
    parser.add_argument("--quick", action="store_true", help="100 and 20 deals: a rough look")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.expert_deals = 100, 20
    games = tuple(args.rules or GAMES)
    work = jobs(args.deals, args.expert_deals, args.budget_ms, games)
    results: dict[tuple, list[float]] = defaultdict(list)
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for rules, first, second, score, deal_times in pool.imap_unordered(play_deal, work, chunksize=1):
            results[rules, first, second].append(score)
            for level, values in deal_times.items():
                times[level].extend(values)
    elapsed = time.perf_counter() - started
    report(results, times, games, elapsed, args)


def report(results, times, games, elapsed, args) -> None:
    print(f"{'pairing':<36} {'deals':>6} {'win rate':>9} {'95% interval':>17} {'ties':>5}  target")
    for rules in games:
        for first, second in PAIRINGS:
            scores = results[rules, first, second]
            n, wins = len(scores), sum(scores)
            low, high = wilson(wins, n)
            ties = sum(1 for s in scores if s == 0.5)
            target = WIN_TARGET if first != "beginner" else 0.5
            verdict = "met" if low >= target else "likely" if wins / n >= target else "MISSED"
            name = f"{rules}: {first} vs {second}"
            print(f"{name:<36} {n:>6} {wins / n:>8.1%} {low:>8.1%}-{high:>6.1%} {ties:>5}  >{target:.0%} {verdict}")
    print()
    print(f"{'level':<10} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'p50 cpu':>8} {'p95 cpu':>8}")
    for level in ("random", "beginner", "medium", "expert"):
        values = times.get(level, [])
        wall = [w * 1000 for w, _ in values]
        cpu = [c * 1000 for _, c in values]
        print(
            f"{level:<10} {len(values):>9} {percentile(wall, 0.5):>8.2f} {percentile(wall, 0.95):>8.2f}"
            f" {percentile(cpu, 0.5):>8.2f} {percentile(cpu, 0.95):>8.2f}"
        )
    expert = [w * 1000 for w, _ in times.get("expert", [])]
    if expert:
        p95 = percentile(expert, 0.95)
        print(
            f"\nexpert p95 {p95:.0f} ms (target < {EXPERT_P95_TARGET_MS:.0f} ms): {'met' if p95 < EXPERT_P95_TARGET_MS else 'MISSED'}"
        )
    print(f"{elapsed:.0f} s with {args.workers} workers, expert budget {args.budget_ms:.0f} ms")
    # other work on the machine takes time from time-budgeted decisions: say how busy it was
    print(f"load average at the end (1, 5, 15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
