"""How fast the rules engine runs, per rule set and player count (default options).

    .venv/bin/python bench/engine.py            # about a minute and a half
    .venv/bin/python bench/engine.py --quick    # a few seconds
    .venv/bin/python bench/engine.py --rules septica --players 2
    .venv/bin/python bench/engine.py --snapshots   # the site's per-move cost: from_state, then play

Bots search with this engine, so the figures that matter are how many
``legal_moves()`` + ``play()`` pairs one core does per second and what one
``view()`` costs. Each row measures, on random play-outs:

- matches/s: whole random matches, from ``new_game`` to the result;
- legal_moves: the first call on a game just returned by ``play`` (cold:
  nothing cached yet);
- play: ``play`` of a legal move on a game whose legal moves are known;
- view: ``view`` of the seat to move (legal moves included);
- pairs/s: the loop a search runs, ``legal_moves()`` then ``play()``.

Random players make unusually long deals (an americana player who draws half
the time can keep a deal going for thousands of moves), and ``view`` hands
out the whole log of the deal. So each row also plays people-like matches,
where a player plays a card whenever one is legal and otherwise makes one of
the other moves, and reports their moves per match and mean ``view`` cost.

``--snapshots`` measures instead what the site pays on every move: it
rebuilds the game from its stored snapshot (``from_state``, which checks the
state) and plays the move. Snapshots are every moment of people-like
matches, each JSON-decoded as the database hands it back.

Targets: at least 50,000 pairs/s for two-player septica and americana, and
``view`` under 50 microseconds in both kinds of play-out. The process pins
itself to one core so the figures compare between machines and runs, and
times CPU seconds so other work on the machine disturbs them less.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import RULESETS  # noqa: E402 - needs the repo root on sys.path first

clock = time.process_time  # CPU seconds of this process
PAIRS_TARGET = 50_000
VIEW_TARGET_US = 50.0
PAIRS_TARGETS = {("septica", 2), ("americana", 2)}


@dataclass
class Row:
    slug: str
    players: int
    matches_per_s: float
    legal_us: float
    play_us: float
    view_us: float
    pairs_per_s: float
    moves_per_match: float
    people_view_us: float
    people_moves_per_match: float


def pin_to_one_core() -> str:
    try:
        os.sched_setaffinity(0, {0})
    except (AttributeError, OSError) as error:
        return f"not pinned ({error.__class__.__name__})"
    return "pinned to core 0"


def random_choice(rng):
    return rng.choice


def people_choice(rng):
    """A player who plays a card whenever one is legal, and otherwise makes one of the other moves."""

    def choose(moves):
        plays = [move for move in moves if move["type"] == "play"]
        return rng.choice(plays or moves)

    return choose


def play_out(rules, players, seed, choose):
    """The games and moves of one match, each game a fresh copy (nothing cached in it yet)."""
    game = rules.new_game(players=players, options={}, seed=seed)
    games, moves = [rules.from_state(game.to_state())], []
    while not game.finished:
        move = choose(game.legal_moves())
        moves.append(move)
        game = game.play(move)
        games.append(rules.from_state(game.to_state()))
    return games, moves


def view_seconds(games):
    seats = [game.to_move for game in games]
    gc.collect()
    start = clock()
    for game, seat in zip(games, seats, strict=True):
        game.view(seat)
    return clock() - start


def people_views(rules, players, budget, seeds, rng):
    """Mean ``view`` cost (microseconds) and moves per match over people-like matches."""
    choose = people_choice(rng)
    view_s = 0.0
    calls = total_moves = matches_seen = 0
    deadline = clock() + budget
    while clock() < deadline:
        games, moves = play_out(rules, players, next(seeds), choose)
        view_s += view_seconds(games)
        calls += len(games)
        total_moves += len(moves)
        matches_seen += 1
    return view_s / calls * 1e6, total_moves / matches_seen


def rate(budget, run, rounds=3):
    """Operations per CPU second of ``run()`` (which returns how many it did), best of ``rounds``.

    CPU time of this process, not wall time, so other work on the machine
    disturbs the figure less; the best round is the one least disturbed.
    """
    best = 0.0
    for _ in range(rounds):
        gc.collect()
        count, start = 0, clock()
        while True:
            count += run()
            elapsed = clock() - start
            if elapsed >= budget / rounds:
                break
        best = max(best, count / elapsed)
    return best


def measure(slug, players, budget):
    rules, rng = RULESETS[slug], random.Random(2024)
    seeds = iter(range(10**9))

    def whole_match():
        game = rules.new_game(players=players, options={}, seed=next(seeds))
        while not game.finished:
            game = game.play(rng.choice(game.legal_moves()))
        return 1

    matches_per_s = rate(budget, whole_match)

    picks = [rng.random() for _ in range(4096)]

    def pairs():
        game, n = rules.new_game(players=players, options={}, seed=next(seeds)), 0
        while not game.finished:
            moves = game.legal_moves()
            game = game.play(moves[int(picks[n & 4095] * len(moves))])
            n += 1
        return n

    pairs_per_s = rate(budget, pairs)

    legal_s = play_s = view_s = 0.0
    calls = total_moves = matches_seen = 0
    deadline = clock() + budget
    while clock() < deadline:  # costs of single calls: the mean over whole random matches
        games, moves = play_out(rules, players, next(seeds), random_choice(rng))
        gc.collect()
        start = clock()
        for game in games:
            game.legal_moves()
        legal_s += clock() - start
        start = clock()
        for game, move in zip(games, moves, strict=False):
            game.play(move)
        play_s += clock() - start
        view_s += view_seconds(games)
        calls += len(games)
        total_moves += len(moves)
        matches_seen += 1
    people_view_us, people_moves_per_match = people_views(rules, players, budget, seeds, rng)
    return Row(
        slug=slug,
        players=players,
        matches_per_s=matches_per_s,
        legal_us=legal_s / calls * 1e6,
        play_us=play_s / total_moves * 1e6,
        view_us=view_s / calls * 1e6,
        pairs_per_s=pairs_per_s,
        moves_per_match=total_moves / matches_seen,
        people_view_us=people_view_us,
        people_moves_per_match=people_moves_per_match,
    )


def measure_snapshots(slug, players, budget):
    """Mean microseconds of ``from_state`` and of ``from_state`` + ``play``, over people-like matches."""
    rules, rng = RULESETS[slug], random.Random(2024)
    choose = people_choice(rng)
    snapshots = []
    for seed in range(20):
        games, moves = play_out(rules, players, seed, choose)
        snapshots += [(json.loads(json.dumps(game.to_state())), move) for game, move in zip(games, moves, strict=False)]
    from_state = rules.from_state

    def load_only():
        for state, _ in snapshots:
            from_state(state)
        return len(snapshots)

    def load_and_play():
        for state, move in snapshots:
            from_state(state).play(move)
        return len(snapshots)

    return 1e6 / rate(budget, load_only), 1e6 / rate(budget, load_and_play), len(snapshots)


def snapshots_main(args, budget):
    print(f"{'rules':<10} {'seats':>5} {'snapshots':>9} {'from_state':>11} {'+ play':>9}")
    for slug, players in tables_asked_for(args):
        load_us, both_us, count = measure_snapshots(slug, players, budget)
        print(f"{slug:<10} {players:>5} {count:>9} {load_us:>9.1f}us {both_us:>7.1f}us", flush=True)
    return 0


def tables_asked_for(args):
    """(rule set, players) for every table size the command line asks for."""
    for slug, rules in RULESETS.items():
        if args.rules and slug != args.rules:
            continue
        for players in range(rules.min_players, rules.max_players + 1):
            if not args.players or players == args.players:
                yield slug, players


def verdicts(row):
    flags = []
    if (row.slug, row.players) in PAIRS_TARGETS:
        flags.append("pairs OK" if row.pairs_per_s >= PAIRS_TARGET else f"pairs BELOW {PAIRS_TARGET:,}")
    for name, view_us in (("view", row.view_us), ("people view", row.people_view_us)):
        flags.append(f"{name} OK" if view_us < VIEW_TARGET_US else f"{name} OVER {VIEW_TARGET_US:.0f}us")
    return ", ".join(flags)


HEADER = (
    f"{'':<16} {'random play-outs':-^70}  {'people-like':-^20}\n"
    f"{'rules':<10} {'seats':>5} {'matches/s':>10} {'moves/match':>11} {'legal_moves':>11} "
    f"{'play':>8} {'view':>8} {'pairs/s':>10}  {'moves/match':>11} {'view':>8}  targets"
)


def format_row(row):
    return (
        f"{row.slug:<10} {row.players:>5} {row.matches_per_s:>10,.1f} {row.moves_per_match:>11,.0f} "
        f"{row.legal_us:>9.1f}us {row.play_us:>6.1f}us {row.view_us:>6.1f}us {row.pairs_per_s:>10,.0f}  "
        f"{row.people_moves_per_match:>11,.0f} {row.people_view_us:>6.1f}us  {verdicts(row)}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (about 0.15 s per measurement)")
    parser.add_argument("--rules", choices=sorted(RULESETS), help="only this rule set")
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument("--snapshots", action="store_true", help="the site's per-move cost: from_state + play")
    args = parser.parse_args(argv)
    budget = 0.15 if args.quick else 1.0
    if args.snapshots:
        print(f"engine bench: Python {platform.python_version()}, {pin_to_one_core()}, {budget:.2f} s per measurement")
        return snapshots_main(args, budget)

    print(f"engine bench: Python {platform.python_version()}, {pin_to_one_core()}, {budget:.2f} s per measurement")
    print(
        f"targets: >= {PAIRS_TARGET:,} play+legal_moves pairs/s for 2-player septica and americana; "
        f"view < {VIEW_TARGET_US:.0f} us in random and people-like play-outs"
    )
    print(HEADER)
    print("-" * len(HEADER.splitlines()[-1]))
    missed = 0
    for slug, players in tables_asked_for(args):
        row = measure(slug, players, budget)
        missed += "BELOW" in verdicts(row) or "OVER" in verdicts(row)
        print(format_row(row), flush=True)
    print(f"{missed} row(s) miss a target." if missed else "Every row meets its targets.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
