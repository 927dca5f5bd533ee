"""How long a person waits for a bot's answer while tables of bots nobody plays at run.

    .venv/bin/python bench/bot_fairness.py                 # 20 tables of Expert bots, 15 answers a phase
    .venv/bin/python bench/bot_fairness.py --tables 40 --answers 30

The embedded setup, in this process: a fresh SQLite database in a temporary
directory, the embedded Celery worker (4 threads) on the in-memory broker,
and no pause before a bot's move (BOT_MOVE_DELAY_SECONDS=0). Three phases:

1. alone: a person plays 2-player septica against an Expert bot; nothing else runs;
2. unfair: the same beside ``--tables`` 4-player tables of Expert bots made by
   one staff member, with the per-person thinking slots lifted
   (UNATTENDED_BOTS_PER_PERSON=1000: every bot turn queues first come, first served);
3. fair: the same with the default, one slot per person who made the tables.

Each phase prints the wait from the person's move to the bot's answer being
stored (p50, p95, max) and how many moves the tables of bots made meanwhile.
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


def setup_django(directory: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "septica_site.settings",
        "SQLITE_PATH": str(Path(directory) / "bench.sqlite3"),
        "BOT_MOVE_DELAY_SECONDS": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-secret-key-" + "x" * 40),
        "HTTPS": "0",
    })
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def wait_for(condition, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


def answer_waits(person, answers: int, seed: int) -> list[float]:
    from games import actions
    from games.models import Match, TableStatus
    from tests.play import pick_move

    rng = random.Random(seed)
    waits: list[float] = []
    while len(waits) < answers:
        table = actions.create_table(person, rules="septica", players=2,
                                      bots=[actions.BotSpec(seat=1, level="expert", style="expert")])
        while len(waits) < answers:
            if not wait_for(lambda table=table: Match.objects.get(pk=table.pk).to_move in (0, None)):
                raise RuntimeError("the bot never answered")
            match = Match.objects.select_related("table").get(pk=table.pk)
            if match.table.status != TableStatus.PLAYING:
                break
            started = time.monotonic()
            moved, _view = actions.play_move(table.pk, person, match.seq,
                                              pick_move(match.game().view(0), rng))
            if moved.to_move != 1:
                continue  # the person leads again (or the match ended): no bot answer to wait for
            if not wait_for(lambda table=table, seq=moved.seq: Match.objects.get(pk=table.pk).seq > seq):
                raise RuntimeError("the bot never answered")
            waits.append(time.monotonic() - started)
    return waits


def moves_of(tables) -> int:
    from games.models import Match

    return sum(Match.objects.filter(pk__in=[table.pk for table in tables]).values_list("seq", flat=True))


def phase(name: str, person, answers: int, staff=None, tables: int = 0) -> None:
    from games import actions
    from games.models import Table, TableStatus

    bot_tables = [actions.create_bot_table(staff, rules="septica", players=4, level="expert", style="expert",
                                            options={"match": "points-8"}) for _ in range(tables)]
    if bot_tables:
        wait_for(lambda: moves_of(bot_tables) >= 2 * tables)
    before, started = moves_of(bot_tables), time.monotonic()
    waits = sorted(answer_waits(person, answers, seed=1))
    elapsed = time.monotonic() - started
    made = moves_of(bot_tables) - before
    Table.objects.filter(pk__in=[table.pk for table in bot_tables]).update(status=TableStatus.ABORTED)
    p95 = waits[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))]
    print(f"{name:>7}: bot answer p50 {statistics.median(waits):.2f} s, p95 {p95:.2f} s, max {waits[-1]:.2f} s"
          f" over {len(waits)}; tables of bots made {made} moves in {elapsed:.1f} s ({made / elapsed:.1f}/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--answers", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="septica-fairness-") as directory:
        setup_django(directory)
        from django.conf import settings
        from django.contrib.auth import get_user_model

        from septica_site import embedded_worker

        User = get_user_model()
        settings.BOT_TABLES_PER_STAFF = args.tables
        settings.OPEN_TABLES_PER_PERSON = settings.WAITING_TABLES_PER_PERSON = 10**6
        person = User.objects.create_user("person", "person@bench.invalid", None)
        staff = User.objects.create_user("staff", "staff@bench.invalid", None, is_staff=True)
        embedded_worker.start()
        try:
            phase("alone", person, args.answers)
            settings.UNATTENDED_BOTS_PER_PERSON = 1000
            phase("unfair", person, args.answers, staff, args.tables)
            settings.UNATTENDED_BOTS_PER_PERSON = 1
            time.sleep(2)  # the aborted tables' last turns drain
            phase("fair", person, args.answers, staff, args.tables)
        finally:
            embedded_worker.stop()


if __name__ == "__main__":
    main()
