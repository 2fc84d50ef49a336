from django.core.management.base import BaseCommand, CommandError

from ...history.services import partitions


class Command(BaseCommand):
    help = (
        "Create the monthly partitions of attempts and submissions for the current month and "
        "--ahead months after it (PARTITION_MONTHS_AHEAD), as beat does (leaderboard/partitions.py); "
        "then list them. Safe to run again, or beside beat."
    )

    def add_arguments(self, parser):
        parser.add_argument("--ahead", type=int, help="months ahead of the current one (default: the setting)")

    def handle(self, *args, ahead=None, **options):
        if ahead is not None and ahead < 0:
            raise CommandError("--ahead must be 0 or more")
        for name in partitions.months_ensure(ahead):
            self.stdout.write(f"created {name}")
        for table in partitions.TABLES:
            self.stdout.write(f"{table}: {', '.join(partitions.partitions(table))}")
