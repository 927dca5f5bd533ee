"""`manage.py verify_matches`: replay matches from their seed and move log and
report every one that differs from what is stored."""

from django.core.management.base import BaseCommand, CommandError

from ...models import Match, TableStatus
from ...replay import verify


class Command(BaseCommand):
    help = (
        "Replay finished matches from their seed and move log and compare with the stored snapshot and "
        "result; exit 1 if any differ."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--match",
            type=int,
            action="append",
            dest="match_ids",
            metavar="ID",
            help="check only this match (may be repeated)",
        )
        parser.add_argument(
            "--all",
            action="store_true",
            dest="include_all",
            help="also check matches still being played, each up to the moves its snapshot as read stands after",
        )

    def handle(self, *args, match_ids=None, include_all=False, **options):
        matches = Match.objects.select_related("table").order_by("pk")
        if match_ids:
            matches = matches.filter(pk__in=match_ids)
            missing = set(match_ids) - set(matches.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no such match: {', '.join(map(str, sorted(missing)))}")
        elif not include_all:
            matches = matches.filter(table__status=TableStatus.FINISHED)
        checked = differing = 0
        for match in matches.iterator(chunk_size=200):
            verdict = verify(match)
            checked += 1
            if not verdict.ok:
                differing += 1
                self.stdout.write(verdict.line())
            elif options["verbosity"] > 1:
                self.stdout.write(verdict.line())
        summary = f"{checked} matches checked, {differing} differ"
        if differing:
            self.stdout.write(self.style.ERROR(summary))
            raise SystemExit(1)
        self.stdout.write(self.style.SUCCESS(summary))
