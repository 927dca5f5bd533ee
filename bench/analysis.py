"""How long the analysis of a finished match takes, and whether bots' turns wait for it.

    PYTHONPATH=. .venv/bin/python bench/analysis.py                  # 3 septica matches of 60+ decisions
    ... bench/analysis.py --matches 1 --budget-ms 200                 # quicker, a smaller judge
    ... bench/analysis.py --rules americana --decisions 40
    ... bench/analysis.py --with-bot-turns                            # also: bots' answers during an analysis
    ... bench/analysis.py --matches 4 --with-bot-turns --analyses 4   # analyses on every worker thread

The embedded setup, in this process: a fresh SQLite database in a temporary
directory (SQLITE_PATH and SEPTICA_VAR_DIR point there; DATABASE_URL and
REDIS_URL are ignored), so it never touches a real database.

1. Makes ``--matches`` finished matches played by people only (``--players``
   accounts, all through ``games.actions.play_move``, so the log says a person
   made every move), each move picked by the Medium bot from the seat's view.
   A match must hold at least ``--decisions`` person decisions (positions with
   more than one legal move); one that ends short is played again with the rule
   set's next longer match option (septica: points-8, points-21, first-to-10).
   The deals and moves come from ``--seed``, so a run plays the same matches.
2. Analyses each match with the real task, ``games.tasks.analyse_match``, called
   in this process from the cursor it stored (``MatchAnalysis.next_seq``) until
   the analysis is ready, as the worker would run its chain of tasks; the tasks
   it queues after its commits are caught, not sent.
3. Prints per match the decisions judged, the wall seconds, the p50/p95 of one
   run (one decision each by default, ANALYSIS_DECISIONS_PER_RUN), the costly
   decisions, those the judge solved exactly (two-player septica endgames: no
   guessed deals, so no budget spent), and the seconds per 60 decisions against
   the target (60 decisions analysed within 60 s), with the load average and CPU
   count at the start.

``--with-bot-turns`` then starts the embedded Celery worker (4 threads on the
in-memory broker, as the server runs it) and measures how long a Medium bot
takes to answer a person's move (every ``--move-every`` seconds, from the move's
commit until the bot's move is in the log): first with nothing else running,
then while the worker analyses ``--analyses`` of the matches again, at once
(ANALYSIS_SLOTS raised to as many; queued the way the end of a match queues it,
``games.after_commit.analysis.queue``). Bot turns come first when their answers
during the analysis are about as quick as without it: with ``--analyses 4`` the
analyses can take every thread of the worker, and only their queueing (one
decision a run, the rest queued behind) lets the bot's turn in.

Figures depend on the machine: the judge thinks for a fixed time per decision
(``--budget-ms``, by default ANALYSIS_BUDGET_MS), so a busy machine judges less
well, not slower; the replay and storing around it is what varies.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_DECISIONS, TARGET_SECONDS = 60, 60.0
# Shortest first: a match too short for --decisions is played again with the next.
MATCH_OPTIONS = {
    "septica": [{"match": "points-8"}, {"match": "points-21"}, {"match": "first-to-10"}],
    "americana": [{"target": 101}, {"target": 301}, {"target": 501}],
    "familie": [{}],
}


def setup_django(directory: str, budget_ms: float | None) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "septica_site.settings",
        "SEPTICA_VAR_DIR": directory,
        "SQLITE_PATH": str(Path(directory) / "bench.sqlite3"),
        "SEPTICA_NO_EMBEDDED_WORKER": "1",
        "BOT_MOVE_DELAY_SECONDS": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key-" + "x" * 40,
        "HTTPS": "0",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
    })
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_EMBEDDED_WORKER"):
        os.environ.pop(name, None)
    if budget_ms is not None:
        os.environ["ANALYSIS_BUDGET_MS"] = str(budget_ms)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# --- the matches ----------------------------------------------------------------------------
def people(count: int, prefix: str = "person") -> list:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.get_or_create(username=f"{prefix}{seat}",
                                       defaults={"email": f"{prefix}{seat}@bench.invalid"})[0]
            for seat in range(count)]


def person_decisions(match) -> int:
    from games.analysis import decisions_from
    from games.replay import logged_moves

    return sum(1 for _ in decisions_from(match, logged_moves(match), 0))


def play_match(users: list, rules: str, options: dict, seed: int):
    """A table of these people, every move theirs, picked by the Medium bot from the seat's view."""
    from games import actions
    from games.engine.bots import choose_move
    from games.models import Match
    from tests.play import deal_again_from

    table = actions.create_table(users[0], rules=rules, players=len(users), options=options, seconds_per_move=86400)
    for user in users[1:]:
        actions.join_table(table.pk, user, invite_code=table.invite_code)
    deal_again_from(table, seed)  # the same deals on every run
    rng = random.Random(seed)
    match = Match.objects.select_related("table").get(pk=table.pk)
    game = match.game()
    while not game.finished:
        move = choose_move(game.view(game.to_move), "medium", "balanced", rng)
        match, game = actions.play_move(table.pk, users[game.to_move], match.seq, move)
    return Match.objects.select_related("table").get(pk=table.pk)


def long_enough_match(users: list, rules: str, decisions: int, seed: int):
    """A finished match of at least `decisions` person decisions (or the longest option's, if none has as many)."""
    for tries, options in enumerate(MATCH_OPTIONS[rules]):
        match = play_match(users, rules, options, seed * 10 + tries)
        if person_decisions(match) >= decisions:
            break
    return match


# --- the analysis -----------------------------------------------------------------------------
class CaughtTasks:
    """The tasks the after-commit modules send by name, kept here instead (no worker runs meanwhile)."""

    def __init__(self) -> None:
        from septica_site.celery import app

        self.app, self.sent = app, []

    def __enter__(self) -> CaughtTasks:
        self.real = self.app.send_task
        self.app.send_task = lambda name, args=(), **options: self.sent.append((name, tuple(args)))
        return self

    def __exit__(self, *exc) -> None:
        self.app.send_task = self.real


def analyse(match) -> dict:
    """Run the task from its stored cursor until the analysis is ready; each run timed."""
    from games import tasks
    from games.models import AnalysisStatus, MatchAnalysis

    runs: list[float] = []
    from_seq = 0
    started = time.perf_counter()
    while True:
        run_started = time.perf_counter()
        tasks.analyse_match(match.pk, from_seq)
        runs.append(time.perf_counter() - run_started)
        analysis = MatchAnalysis.objects.get(pk=match.pk)
        if analysis.status == AnalysisStatus.READY:
            break
        if analysis.next_seq == from_seq:
            raise RuntimeError(f"the analysis of match {match.pk} stopped at seq {from_seq}")
        from_seq = analysis.next_seq
    return {"seconds": time.perf_counter() - started, "runs": runs, "decisions": analysis.decisions}


def report_analysis(number: int, match, result: dict) -> float:
    decisions = result["decisions"]
    judged = len(decisions)
    per_60 = result["seconds"] * TARGET_DECISIONS / judged if judged else float("nan")
    runs_ms = [run * 1000 for run in result["runs"]]
    print(f"match {number} (table {match.pk}, {match.table.options or 'no options'}, {match.seq} moves): "
          f"{judged} decisions judged in {result['seconds']:.1f} s over {len(runs_ms)} runs; "
          f"per run p50 {statistics.median(runs_ms):.0f} ms, p95 {percentile(runs_ms, 0.95):.0f} ms; "
          f"{sum(entry['costly'] for entry in decisions)} costly, "
          f"{sum(entry['rounds'] == 0 for entry in decisions)} solved exactly (no guessed deals); "
          f"{per_60:.1f} s per {TARGET_DECISIONS} decisions",
          flush=True)
    return per_60


def analyse_all(args) -> list:
    from django.conf import settings

    users = people(args.players)
    print(f"{args.rules}, {args.players} people, judge budget {settings.ANALYSIS_BUDGET_MS:.0f} ms, "
          f"{settings.ANALYSIS_DECISIONS_PER_RUN} decision(s) a run, {settings.ANALYSIS_SLOTS} slot(s)", flush=True)
    matches, per_60 = [], []
    with CaughtTasks():
        for number in range(1, args.matches + 1):
            made = time.perf_counter()
            match = long_enough_match(users, args.rules, args.decisions, seed=args.seed * 1000 + number)
            print(f"match {number}: played {match.seq} moves, {person_decisions(match)} person decisions, "
                  f"in {time.perf_counter() - made:.1f} s", flush=True)
            per_60.append(report_analysis(number, match, analyse(match)))
            matches.append(match)
    worst = max(per_60)
    verdict = "within" if worst <= TARGET_SECONDS else "OVER"
    print(f"target: {TARGET_DECISIONS} decisions within {TARGET_SECONDS:.0f} s; worst match "
          f"{worst:.1f} s per {TARGET_DECISIONS} decisions, median {statistics.median(per_60):.1f} s: {verdict}",
          flush=True)
    return matches


# --- bots' turns during an analysis ---------------------------------------------------------
def bot_answers(person, seconds: float, every: float, seed: int, still=lambda: True) -> list[float]:
    """A person plays a Medium bot, a move every `every` s for `seconds` (or while `still()`):
    the ms from each move's commit until the bot's answer is in the log."""
    from games import actions
    from games.engine.bots import choose_move
    from games.models import Match, TableStatus
    from tests.bots.conftest import wait_for

    rng = random.Random(seed)
    waits: list[float] = []
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at and still():
        table = actions.create_table(person, rules="septica", players=2, options={"match": "first-to-10"},
                                     bots=[actions.BotSpec(seat=1, level="medium", style="balanced")])
        while time.monotonic() < stop_at and still():
            if not wait_for(lambda table=table: Match.objects.get(pk=table.pk).to_move in (0, None),
                            timeout=60, every=0.002):
                raise RuntimeError("the bot never answered")
            match = Match.objects.select_related("table").get(pk=table.pk)
            if match.table.status != TableStatus.PLAYING:
                break
            moved, _game = actions.play_move(table.pk, person, match.seq,
                                              choose_move(match.game().view(0), "medium", "balanced", rng))
            committed = time.monotonic()
            if moved.to_move == 1:
                if not wait_for(lambda table=table, seq=moved.seq: Match.objects.get(pk=table.pk).seq > seq,
                                timeout=60, every=0.002):
                    raise RuntimeError("the bot never answered")
                waits.append((time.monotonic() - committed) * 1000)
            time.sleep(max(0.0, every - (time.monotonic() - committed)))
    return waits


def print_waits(name: str, waits: list[float], extra: str = "") -> None:
    if not waits:
        print(f"{name:>16}: no bot answers measured{extra}", flush=True)
        return
    print(f"{name:>16}: bot answer p50 {statistics.median(waits):.0f} ms, max {max(waits):.0f} ms "
          f"over {len(waits)} answers{extra}", flush=True)


def bot_turns_during_analysis(args, matches: list) -> None:
    from django.conf import settings

    from games.after_commit import analysis as after_analysis
    from games.models import AnalysisStatus, MatchAnalysis
    from septica_site import embedded_worker
    from tests.bots.conftest import wait_for

    analysed = [match.pk for match in matches[:args.analyses]]
    settings.ANALYSIS_SLOTS = max(settings.ANALYSIS_SLOTS, len(analysed))
    person = people(1, prefix="player")[0]
    MatchAnalysis.objects.filter(pk__in=analysed).delete()  # analysed again, on the worker this time
    embedded_worker.start()
    try:
        print(f"bot turns (Medium), a person's move every {args.move_every:.1f} s, embedded worker (4 threads), "
              f"{settings.ANALYSIS_SLOTS} analysis slot(s):", flush=True)
        print_waits("no analysis", bot_answers(person, args.bot_seconds, args.move_every, seed=1))

        def pending() -> bool:
            return MatchAnalysis.objects.filter(pk__in=analysed, status=AnalysisStatus.READY).count() < len(analysed)

        started = time.monotonic()
        for match_id in analysed:
            after_analysis.queue(match_id)
        waits = bot_answers(person, 3600, args.move_every, seed=2, still=pending)
        finished = wait_for(lambda: not pending(), timeout=600, every=0.05)
        took = time.monotonic() - started
        judged = sum(len(decisions) for decisions in
                     MatchAnalysis.objects.filter(pk__in=analysed).values_list("decisions", flat=True))
        print_waits(f"during {len(analysed)} analys{'is' if len(analysed) == 1 else 'es'}", waits,
                    f"; the analyses ({judged} decisions) were "
                    + (f"ready after {took:.1f} s" if finished else "not ready after 600 s"))
    finally:
        embedded_worker.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="septica", choices=sorted(MATCH_OPTIONS))
    parser.add_argument("--players", type=int, default=2, help="people at each table (all of them people)")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=TARGET_DECISIONS,
                        help="the fewest person decisions a match must hold")
    parser.add_argument("--seed", type=int, default=1, help="another seed plays other deals and moves")
    parser.add_argument("--budget-ms", type=float, default=None, help="instead of ANALYSIS_BUDGET_MS")
    parser.add_argument("--with-bot-turns", action="store_true",
                        help="also time a bot's answers while the worker analyses a match")
    parser.add_argument("--analyses", type=int, default=1,
                        help="with --with-bot-turns: analyse this many of the matches at once on the worker "
                             "(ANALYSIS_SLOTS raised to as many)")
    parser.add_argument("--move-every", type=float, default=2.0, help="seconds between the person's moves")
    parser.add_argument("--bot-seconds", type=float, default=20.0,
                        help="how long to time the bot's answers with no analysis running")
    args = parser.parse_args()
    if args.with_bot_turns and not 1 <= args.analyses <= args.matches:
        parser.error("--analyses counts matches analysed at once: from 1 to --matches")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} CPUs", flush=True)
    with tempfile.TemporaryDirectory(prefix="septica-analysis-") as directory:
        setup_django(directory, args.budget_ms)
        matches = analyse_all(args)
        if args.with_bot_turns:
            bot_turns_during_analysis(args, matches)


if __name__ == "__main__":
    main()
