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

    .venv/bin/python bench/bots.py --master --master-deals 400 --master-budget-ms 600 --budget-ms 400

`--master` plays Master against Expert: two-player septica and americana
(target: the Master wins at least 60%), three-player septica and familie (one
Master against two Experts, each deck played once with the Master in every
seat; the Master scores against each Expert in turn, more points winning, so
50% is level; target 55%), and for calibration the "oracle" Expert (the
expert's search unchanged, but its guesses are the true hidden cards) against
the Master in two-player septica and americana. Prints win rates with 95%
Wilson intervals and their lower bounds, and the Master's decision times.

    .venv/bin/python bench/bots.py --master --ceiling --pairing hand-oracle-septica-2 --pairing full-oracle-septica-2

`--ceiling` adds what any guessing of the hidden cards could gain: the
"hand oracle" (the expert's search knowing the other hands as they are, but
the stock only as a set, shuffled afresh in every sampled deal, since nothing
a player does tells its order) against the Expert, in two-player septica and
americana, beside the full oracle (which knows the stock's order too, which no
inference can learn) against the Expert. The hand oracle's win rate is the most
the Master's inference could reach with the same search; both oracles think
for the Master's budget, in the Master's seat.

    .venv/bin/python bench/bots.py --ratings           # the published ratings, ~10 minutes
    .venv/bin/python bench/bots.py --ratings --quick   # a rough look, under 2 minutes

`--ratings` plays whole two-player matches (what the site rates: septica best
of three, familie one deal, americana to 101) of each rule set in a round robin
among the three bot levels (the site's default style, balanced) and three
people-like players: "random" picks any legal move, "high" plays its highest
card whenever it may play one (and any other move otherwise), "low" its lowest;
Beginner itself is the careless player who now and then plays any legal move.
Every pairing plays the same decks twice with the seats swapped. Every
participant starts from a fresh rating (players/skill.py: mu 25, sigma 25/3,
shown 1000, as a newcomer does on the site) and the matches are rated one by
one in a fixed order with players.skill.rate, the function the site rates
people with, so the figure is what a person who did as well against that field
would be shown after as many rated matches. Prints, per rule set and
participant, the matches, mu, sigma and the shown number; players/bot_ratings.py
keeps the published ones. `--with-master` seats the Master in the round robin
too, thinking for `--master-budget-ms` (its site budget) while the Expert
thinks for `--budget-ms`.
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
from games.engine.bots import DEFAULT_BUDGET_MS, MASTER_BUDGET_MS, choose_move, search  # noqa: E402
from games.engine.bots.americana_table import Table  # noqa: E402
from games.engine.bots.style import STYLES_BY_NAME  # noqa: E402
from games.engine.cards import RANKS  # noqa: E402
from players.skill import Skill, rate  # noqa: E402

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
    parser.add_argument("--rules", choices=("septica", "familie", "americana"), action="append",
                        help="only this rule set (repeatable; familie with --ratings only)")
    parser.add_argument("--quick", action="store_true", help="100 and 20 deals: a rough look")
    parser.add_argument("--ratings", action="store_true", help="rate whole matches instead (see above)")
    parser.add_argument("--decks", type=int, default=3, help="--ratings: decks per pairing, each played twice")
    parser.add_argument("--rounds", type=int, help="--ratings: the expert samples this many deals, not a time budget")
    parser.add_argument("--with-master", action="store_true",
                        help="--ratings: the Master joins the round robin (at --master-budget-ms)")
    parser.add_argument("--master", action="store_true", help="Master against Expert instead (see above)")
    parser.add_argument("--master-deals", type=int, default=400, help="--master: deals per two-player pairing")
    parser.add_argument("--master-tables", type=int, default=100,
                        help="--master: decks per three-player pairing, each played with the Master in every seat")
    parser.add_argument("--oracle-deals", type=int, default=200, help="--master: deals per oracle pairing")
    parser.add_argument("--master-budget-ms", type=float, default=MASTER_BUDGET_MS)
    parser.add_argument("--pairing", action="append", help="--master: only this pairing (repeatable)")
    parser.add_argument("--ceiling", action="store_true",
                        help="--master: also the hand oracle against the Expert (see above)")
    args = parser.parse_args()
    if args.ratings:
        ratings_main(args)
        return
    if args.master:
        master_main(args)
        return
    if set(args.rules or ()) - set(GAMES):
        parser.error("the deal win rates are for septica and americana; familie is rated with --ratings")
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


# --- Master against Expert ----------------------------------------------------------------------------

MASTER_PAIRINGS = (  # (name, rules, players, the Master's opponent, target)
    ("septica-2", "septica", 2, "expert", 0.60),
    ("americana-2", "americana", 2, "expert", 0.60),
    ("septica-3", "septica", 3, "expert", 0.55),
    ("familie-3", "familie", 3, "expert", 0.55),
    ("oracle-septica-2", "septica", 2, "oracle", None),
    ("oracle-americana-2", "americana", 2, "oracle", None),
)
# --ceiling: an oracle takes the Master's seat against the Expert: the hand oracle, and the full one.
CEILING_PAIRINGS = (
    ("hand-oracle-septica-2", "septica", 2, "expert", None),
    ("hand-oracle-americana-2", "americana", 2, "expert", None),
    ("full-oracle-septica-2", "septica", 2, "expert", None),
    ("full-oracle-americana-2", "americana", 2, "expert", None),
)
ORACLE_STYLE = STYLES_BY_NAME["expert"]


def oracle_move(game, view: dict, rng: random.Random, budget_ms: float, stock_known: bool = True) -> dict:
    """The expert's search, unchanged, but guessing the true hidden cards (the bench's game, not a view);
    with `stock_known` false the stock's cards are known but not their order (the hand oracle)."""
    moves = view["legal_moves"]
    if len(moves) == 1:
        return dict(moves[0])
    if view["rules"] == "americana":
        def guesses(guess_rng):
            table = Table.from_game(game, random.Random(guess_rng.getrandbits(32)))
            if not stock_known:
                guess_rng.shuffle(table.stock)
            return table
    elif stock_known:
        def guesses(guess_rng):
            return game
    else:
        state = game.to_state()
        engine = rules_for(view["rules"])

        def guesses(guess_rng):
            stock = list(state["stock"])
            guess_rng.shuffle(stock)
            return engine.from_state({**state, "stock": stock})
    return search.search(view, moves, ORACLE_STYLE, rng, budget_ms, None, guesses=guesses)


def master_deal(job: tuple) -> tuple:
    """One deal: (pairing, deck seed, the Master's seat, the opponent's budget, the Master's) -> the Master's score."""
    name, rules, players, opponent, seed, master_seat, budget_ms, master_budget_ms = job
    game = rules_for(rules).new_game(players=players, seed=seed)
    rng = random.Random(seed * 7 + master_seat)
    times: list[tuple[float, float]] = []
    while not game.finished and game.view(None)["deal"] == 0:
        seat = game.to_move
        view = game.view(seat)
        started, cpu = time.perf_counter(), time.process_time()
        if seat == master_seat and name.startswith(("hand-oracle-", "full-oracle-")):
            move = oracle_move(game, view, rng, master_budget_ms, stock_known=name.startswith("full-"))
            if len(view["legal_moves"]) > 1:
                times.append((time.perf_counter() - started, time.process_time() - cpu))
        elif seat == master_seat:
            move = choose_move(view, "master", "expert", rng, budget_ms=master_budget_ms)
            if len(view["legal_moves"]) > 1:
                times.append((time.perf_counter() - started, time.process_time() - cpu))
        elif opponent == "oracle":
            move = oracle_move(game, view, rng, budget_ms)
        else:
            move = choose_move(view, "expert", "expert", rng, budget_ms=budget_ms)
        game = game.play(move)
    last = game.view(None)["last_deal"]
    scores = []
    for other in range(players):
        if other == master_seat:
            continue
        if rules == "americana":
            mine, theirs = -last["charged"][master_seat], -last["charged"][other]
        else:
            mine, theirs = last["points"][master_seat], last["points"][other]
        scores.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    return name, sum(scores) / len(scores), times


def master_jobs(args) -> list[tuple]:
    out = []
    for name, rules, players, opponent, _ in master_pairings(args):
        if args.pairing and name not in args.pairing:
            continue
        count = args.oracle_deals if opponent == "oracle" else args.master_deals
        decks = args.master_tables if players > 2 else count // 2 or 1
        for deck in range(decks):
            for seat in range(players):
                out.append((name, rules, players, opponent, 20_000 + deck, seat, args.budget_ms, args.master_budget_ms))
    return out


def master_pairings(args) -> tuple:
    return MASTER_PAIRINGS + (CEILING_PAIRINGS if args.ceiling else ())


def master_main(args) -> None:
    work = master_jobs(args)
    results: dict[str, list[float]] = defaultdict(list)
    times: list[tuple[float, float]] = []
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for name, score, deal_times in pool.imap_unordered(master_deal, work, chunksize=1):
            results[name].append(score)
            times.extend(deal_times)
    elapsed = time.perf_counter() - started
    print(f"{'pairing (Master against)':<34} {'deals':>6} {'win rate':>9} {'95% interval':>17} {'lower':>6}  target")
    for name, _, _, opponent, target in master_pairings(args):
        scores = results.get(name)
        if not scores:
            continue
        n, wins = len(scores), sum(scores)
        low, high = wilson(wins, n)
        verdict = "" if target is None else (
            f">{target:.0%} " + ("met" if low >= target else "likely" if wins / n >= target else "MISSED"))
        label = f"{name} ({opponent})"
        print(f"{label:<34} {n:>6} {wins / n:>8.1%} {low:>8.1%}-{high:>6.1%} {low:>6.1%}  {verdict}")
    wall = [w * 1000 for w, _ in times]
    cpu = [c * 1000 for _, c in times]
    print(f"\nmaster decisions {len(times)}: p50 {percentile(wall, 0.5):.0f} ms, p95 {percentile(wall, 0.95):.0f} ms"
          f" (cpu p50 {percentile(cpu, 0.5):.0f} ms, p95 {percentile(cpu, 0.95):.0f} ms)")
    print(f"{elapsed:.0f} s with {args.workers} workers, master budget {args.master_budget_ms:.0f} ms,"
          f" expert and oracle budget {args.budget_ms:.0f} ms")
    print(f"load average at the end (1, 5, 15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")


# --- Ratings: whole matches rated as the site rates people ---------------------------------------------

RATING_RULES = ("septica", "familie", "americana")
PEOPLE_LIKE = ("random", "low", "high")
PARTICIPANTS = (*PEOPLE_LIKE, "beginner", "medium", "expert")
BOT_STYLE = "balanced"  # what the site seats when nobody picks a style
MOVE_CAP = 5000  # a match this long counts as drawn (none has come near it)
CARD_ORDER = {rank: i for i, rank in enumerate(RANKS)} | {"X": len(RANKS)}  # jokers above aces


def people_like_move(kind: str, moves: list[dict], rng: random.Random) -> dict:
    """A move as a naive person might make it: any legal one, or always the highest (lowest) card that may go."""
    plays = [move for move in moves if move["type"] == "play"]
    if kind == "random" or not plays:
        return rng.choice(moves)
    pick = max if kind == "high" else min
    return pick(plays, key=lambda move: CARD_ORDER[move["card"][0]])


def places_of(rules: str, result: dict, players: int) -> list[int]:
    """Each seat's place (1 the best, ties share): the winners first, then by score (americana: fewer penalties)."""
    lower_better = rules == "americana"
    winners = set(result.get("winners") or ())

    def standing(seat: int) -> tuple:
        score = result["scores"][seat]
        return (seat not in winners, score if lower_better else -score)

    keys = [standing(seat) for seat in range(players)]
    return [1 + sum(other < keys[seat] for other in keys) for seat in range(players)]


def rating_jobs(
    rules_sets, participants, decks: int, budget_ms, rounds, players: int = 2, master_budget_ms=None
) -> list[tuple]:
    """Every match of the round robin, in the order they are rated: deck by deck, pairing by pairing,
    both seatings of one deck together. The Master thinks for ``master_budget_ms`` (else ``budget_ms``)."""
    out = []
    pairings = [(a, b) for i, a in enumerate(participants) for b in participants[i + 1:]]
    for rules in rules_sets:
        for deck in range(decks):
            for first, second in pairings:
                seed = 50_000 + deck
                for seating in ((first, second), (second, first)):
                    out.append((len(out), rules, seating, seed, budget_ms, rounds, master_budget_ms or budget_ms))
    return out


def play_match(job: tuple) -> tuple:
    """One whole match: (index, rules, who sits in each seat, seed, budget, rounds, the Master's budget)
    -> (index, places, moves)."""
    index, rules, seating, seed, budget_ms, rounds, master_budget_ms = job
    game = rules_for(rules).new_game(players=len(seating), seed=seed)
    rng = random.Random(f"{index}:{seed}")
    moves = 0
    while not game.finished and moves < MOVE_CAP:
        view = game.view(game.to_move)
        kind = seating[game.to_move]
        if kind in PEOPLE_LIKE:
            move = people_like_move(kind, view["legal_moves"], rng)
        else:
            budget = None if rounds else master_budget_ms if kind == "master" else budget_ms
            move = choose_move(view, kind, BOT_STYLE, rng, budget_ms=budget, rounds=rounds)
        game = game.play(move)
        moves += 1
    places = places_of(rules, game.result, len(seating)) if game.finished else [1] * len(seating)
    return index, places, moves


def rate_matches(jobs: list[tuple], outcomes: dict[int, list[int]]) -> dict[tuple[str, str], tuple[Skill, int]]:
    """Everybody's (skill, matches) per (rules, participant), from a fresh Skill, the matches rated in job order."""
    skills: dict[tuple[str, str], Skill] = {}
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for index, rules, seating, *_ in jobs:
        keys = [(rules, kind) for kind in seating]
        before = [[skills.get(key, Skill())] for key in keys]
        after = rate(before, outcomes[index])
        for key, (skill,) in zip(keys, after, strict=True):
            skills[key] = skill
            counts[key] += 1
    return {key: (skill, counts[key]) for key, skill in skills.items()}


def run_ratings(rules_sets, participants, decks: int, budget_ms, rounds, workers: int, master_budget_ms=None) -> dict:
    work = rating_jobs(rules_sets, participants, decks, budget_ms, rounds, master_budget_ms=master_budget_ms)
    outcomes: dict[int, list[int]] = {}
    # the slowest thinkers' matches first, so the workers finish together
    ordered = sorted(work, key=lambda job: ("master" not in job[2], "expert" not in job[2]))
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            for index, places, _moves in pool.imap_unordered(play_match, ordered, chunksize=1):
                outcomes[index] = places
    else:
        for job in ordered:
            index, places, _moves = play_match(job)
            outcomes[index] = places
    return rate_matches(work, outcomes)


def ratings_main(args) -> None:
    if args.quick:
        args.decks = 1
        args.budget_ms = min(args.budget_ms, 100.0)
    rules_sets = tuple(args.rules or RATING_RULES)
    started = time.perf_counter()
    participants = (*PARTICIPANTS, "master") if args.with_master else PARTICIPANTS
    ratings = run_ratings(rules_sets, participants, args.decks, args.budget_ms, args.rounds, args.workers,
                          master_budget_ms=args.master_budget_ms)
    elapsed = time.perf_counter() - started
    print(f"{'rules':<10} {'participant':<11} {'matches':>7} {'mu':>7} {'sigma':>6} {'shown':>6}")
    for rules in rules_sets:
        rows = sorted(((key[1], *value) for key, value in ratings.items() if key[0] == rules), key=lambda r: -r[1].shown)
        for kind, skill, matches in rows:
            print(f"{rules:<10} {kind:<11} {matches:>7} {skill.mu:>7.2f} {skill.sigma:>6.2f} {skill.shown:>6}")
    print()
    print("BOT_RATINGS = {")
    for rules in rules_sets:
        figures = ", ".join(f'("{rules}", "{level}"): {ratings[rules, level][0].shown}'
                            for level in participants if level not in PEOPLE_LIKE)
        print(f"    {figures},")
    print("}")
    thinking = f"{args.rounds} sampled deals a decision" if args.rounds else f"budget {args.budget_ms:.0f} ms"
    if args.with_master and not args.rounds:
        thinking += f", the Master's {args.master_budget_ms:.0f} ms"
    print(f"{elapsed:.0f} s with {args.workers} workers, {args.decks} decks a pairing, the expert's {thinking}")
    print(f"load average at the end (1, 5, 15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
