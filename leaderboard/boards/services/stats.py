"""Players' statistics, the write: daily wins and both streaks recomputed from the record (called
by ``entries`` when a daily result changes); read by ``boards.selectors.stats``.

Two streaks, as the best daily games keep them: days *played* in a row (a ranked daily result
on the day's board, won or given up) and days *won* in a row (one of them won)."""

from datetime import date, timedelta

from ...core import sql
from ...record.models import Submission, on_boards_sql
from ...record.players import PlayerStats

_SUBMISSIONS, _STATS = Submission._meta.db_table, PlayerStats._meta.db_table
_ON_BOARDS = on_boards_sql()
_COLUMNS = (
    "daily_wins",
    "best_streak",
    "last_streak",
    "last_win_date",
    "best_played_streak",
    "last_played_streak",
    "last_played_date",
)


def runs(days: list[date]) -> tuple[int, int, date | None]:
    """Over ascending distinct ``days``: the longest run of consecutive days, the length of the
    last run and its last day (0, 0, None for no days)."""
    best = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return best, run, previous


def stats_refresh(player_id: int) -> PlayerStats:
    """Daily wins and both streaks, recomputed from the player's verified ranked daily results
    (the caller marks the players' board changed after commit)."""
    played = list(
        sql.run(
            f'SELECT "daily_date", bool_or("won") FROM "{_SUBMISSIONS}" WHERE "player_id" = %s AND {_ON_BOARDS} '
            f'AND "daily_date" IS NOT NULL GROUP BY 1 ORDER BY 1',
            [player_id],
        )
    )
    won_days = [day for day, won in played if won]
    best_won, last_won, last_win_date = runs(won_days)
    best_played, last_played, last_played_date = runs([day for day, _won in played])
    stats = PlayerStats(
        player_id=player_id,
        daily_wins=len(won_days),
        best_streak=best_won,
        last_streak=last_won,
        last_win_date=last_win_date,
        best_played_streak=best_played,
        last_played_streak=last_played,
        last_played_date=last_played_date,
    )
    names = ", ".join(f'"{name}"' for name in _COLUMNS)
    updates = ", ".join(f'"{name}" = EXCLUDED."{name}"' for name in _COLUMNS)
    sql.run(
        f'INSERT INTO "{_STATS}" ("player_id", {names}) VALUES (%s{", %s" * len(_COLUMNS)}) '
        f'ON CONFLICT ("player_id") DO UPDATE SET {updates}',
        [player_id, *(getattr(stats, name) for name in _COLUMNS)],
    )
    return stats
