from django.conf import settings
from django.core.management.base import BaseCommand

from ...boards.services import idle


class Command(BaseCommand):
    help = (
        "Drop from Redis the index of every numbered deal's board with no write for "
        "BOARD_IDLE_DAYS days (leaderboard/boards/idle.py), as beat does; the next reader's "
        "request rebuilds it from PostgreSQL."
    )

    def handle(self, *args, **options):
        evicted = idle.idle_boards_evict()
        self.stdout.write(f"{len(evicted)} board(s) idle for {settings.BOARD_IDLE_DAYS} days evicted")
