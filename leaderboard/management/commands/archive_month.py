from datetime import date

from django.core.management.base import BaseCommand, CommandError

from ...history.services import archive


def _month(text: str) -> date:
    try:
        return date.fromisoformat(f"{text}-01")
    except ValueError:
        raise CommandError(f"not a month (YYYY-MM): {text}") from None


class Command(BaseCommand):
    help = (
        "Archive a closed month (every day of it final, its boards frozen): its attempts and "
        "submissions written to ARCHIVE_DIR/easyharp-YYYY-MM.jsonl.gz, the file checked (every log "
        "replayed against its result), then the month's partitions detached: kept as plain tables "
        "(..._archived), or dropped with --drop. The results on the boards stay, without their logs "
        "(docs/partitions.md). Check the file again any time: manage.py replay --archive FILE."
    )

    def add_arguments(self, parser):
        parser.add_argument("month", type=_month, help="the month, YYYY-MM")
        parser.add_argument("--drop", action="store_true", help="drop the detached partitions (else kept)")
        parser.add_argument("--dir", help="where to write the file (default: ARCHIVE_DIR)")

    def handle(self, *args, month, drop=False, dir=None, **options):
        try:
            record = archive.month_archive(month, drop=drop, directory=dir)
        except archive.ArchiveRefused as exc:
            raise CommandError(str(exc)) from None
        fate = "dropped" if record.dropped else "kept as ..._archived tables"
        self.stdout.write(f"archived {record.month:%Y-%m} to {record.path} (sha256 {record.sha256})")
        self.stdout.write(
            f"{record.attempts} attempts, {record.submissions} submissions checked; "
            f"{record.kept} results on the boards kept without their logs; partitions {fate}"
        )
