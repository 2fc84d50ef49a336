from datetime import date

from django.core.management.base import BaseCommand, CommandError

from ...boards import freeze
from ...boards.order import daily_board


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"not a date (YYYY-MM-DD): {text}") from None


class Command(BaseCommand):
    help = (
        "Freeze the boards of final days into PostgreSQL and drop their Redis indexes "
        "(leaderboard/boards/freeze.py), as beat does: every final day not frozen yet, or one "
        "--date. Safe to run again, or beside beat."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", type=_day, help="only this day (YYYY-MM-DD); it must be final")

    def handle(self, *args, date=None, **options):
        frozen = freeze.days_freeze(date)
        board = daily_board(date) if date is not None else None
        if board and not frozen and not freeze.is_frozen(board):
            if not freeze.is_final(board):
                raise CommandError(f"{date} is not final yet: its board stays open")
            raise CommandError(f"{board} is being frozen or changed by another process: try again")
        for board in frozen:
            self.stdout.write(f"froze {board}")
        self.stdout.write(f"{len(frozen)} board(s) frozen")
