"""Players' statistics, the write: daily wins and streaks recomputed from the record (called by
``entries`` when a daily result changes); read by ``boards.selectors.stats``."""

from datetime import timedelta

from ...core import sql
from ...record.models import PlayerStats, Submission, on_boards_sql

_SUBMISSIONS, _STATS = Submission._meta.db_table, PlayerStats._meta.db_table
_ON_BOARDS = on_boards_sql()


def stats_refresh(player_id: int) -> PlayerStats:
    """Daily wins and streaks, recomputed from the player's verified daily wins (the caller
    marks the players' board changed after commit)."""
    won_days = [day for day, in sql.run(
        f'SELECT DISTINCT "daily_date" FROM "{_SUBMISSIONS}" WHERE "player_id" = %s AND {_ON_BOARDS} '
        f'AND "won" AND "daily_date" IS NOT NULL ORDER BY 1',
        [player_id])]
    best = run = 0
    previous = None
    for day in won_days:
        run = run + 1 if previous and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    stats = PlayerStats(player_id=player_id, daily_wins=len(won_days), best_streak=best,
                        last_streak=run if won_days else 0, last_win_date=previous)
    sql.run(f'INSERT INTO "{_STATS}" ("player_id", "daily_wins", "best_streak", "last_streak", "last_win_date") '
            f'VALUES (%s, %s, %s, %s, %s) ON CONFLICT ("player_id") DO UPDATE SET '
            f'"daily_wins" = EXCLUDED."daily_wins", "best_streak" = EXCLUDED."best_streak", '
            f'"last_streak" = EXCLUDED."last_streak", "last_win_date" = EXCLUDED."last_win_date"',
            [player_id, stats.daily_wins, stats.best_streak, stats.last_streak, stats.last_win_date])
    return stats
