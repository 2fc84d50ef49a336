"""Players' statistics, the reads: the players' board and a player's profile (their days
played and won, win rate, both streaks and the distribution of their moves in won games). The
daily wins and streaks they show are recomputed by ``boards.services.stats``."""

from datetime import date

from django.contrib.auth import get_user_model
from django.utils.translation import gettext

from ...core import cache, days, sql
from ...core.errors import NotFound
from ...record.models import BoardEntry, Submission, is_guest, on_boards_sql
from ...record.players import PlayerStats
from .. import order
from ..store import stores_for
from . import histogram

User = get_user_model()
_SUBMISSIONS = Submission._meta.db_table
HISTORY_ROWS = 366


def players_board(page: int, page_size: int) -> dict:
    """Players by daily wins, then best streak, then current streak."""

    def compute():
        today = days.today()
        stats = PlayerStats.objects.filter(daily_wins__gt=0, player__is_active=True).select_related("player")
        ordered = stats.order_by("-daily_wins", "-best_streak", "player_id")
        offset = (page - 1) * page_size
        results = [
            {
                "rank": offset + i + 1,
                "player": s.player.username,
                "daily_wins": s.daily_wins,
                "current_streak": current_streak(s, today),
                "best_streak": s.best_streak,
            }
            for i, s in enumerate(ordered[offset : offset + page_size])
        ]
        return {"count": stats.count(), "page": page, "page_size": page_size, "results": results}

    return cache.cached("players", f"page:{page}:{page_size}", compute)


def current_streak(stats: PlayerStats, today: date) -> int:
    """The run of winning days that ends today, or yesterday while today is still open."""
    return _running(stats.last_streak, stats.last_win_date, today)


def played_streak(stats: PlayerStats, today: date) -> int:
    """The run of days played (won or given up) that ends today, or yesterday while today is open."""
    return _running(stats.last_played_streak, stats.last_played_date, today)


def _running(length: int, last_day: date | None, today: date) -> int:
    return length if last_day and (today - last_day).days <= 1 else 0


# A player's daily record, a row per day played: whether any of the day's ranked results won,
# and the fewest moves of its wins. The results that count are those of the streaks
# (``stats_refresh``): verified, on the boards, not practice.
_DAYS_PLAYED = (
    f'SELECT "daily_date", bool_or("won"), min("moves") FILTER (WHERE "won") FROM "{_SUBMISSIONS}" '
    f'WHERE "player_id" = %s AND {on_boards_sql()} AND "daily_date" IS NOT NULL GROUP BY 1'
)


def daily_record(player_id: int) -> dict:
    """Days played and won (each day once, whatever its number of ranked tries), the win rate
    (None before a first game) and the distribution of the moves of the won days (each won day
    by its fewest moves), bucketed as a day's histogram is (``histogram.buckets``)."""
    played = won = 0
    moves: dict[int, int] = {}
    for _day, day_won, day_moves in sql.run(_DAYS_PLAYED, [player_id]):
        played += 1
        if day_won:
            won += 1
            moves[day_moves] = moves.get(day_moves, 0) + 1
    return {
        "played": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else None,
        "moves_distribution": histogram.buckets(moves),
    }


def player_profile(username: str) -> dict:
    """A player's stats and their daily results, newest first: each day's ranked result with the
    rank it earned, then that day's practice games (verified, never ranked: no rank)."""
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None or is_guest(player):  # a guest has no name, nor a page, until it keeps its results
        raise NotFound(gettext("No player named %(username)s.") % {"username": repr(username)})
    stats = PlayerStats.objects.filter(player=player).first() or PlayerStats(player=player)  # none yet: zeros
    entries = (
        BoardEntry.objects.filter(player=player, board__startswith=order.DAILY_PREFIX)
        .select_related("submission")
        .defer(*(f"submission__{name}" for name in _LOG_FIELDS))
        .order_by("-board")[:HISTORY_ROWS]
    )
    stores = stores_for([entry.board for entry in entries])  # one look at all their indexes
    history = [_history_row(entry.submission, (stores[entry.board].rank(player.pk) or 0) + 1) for entry in entries]
    practice = (
        Submission.objects.filter(
            player=player,
            status=Submission.Status.VERIFIED,
            hidden=False,
            flagged=False,
            daily_date__isnull=False,
            attempt__ranked=False,
        )
        .defer(*_LOG_FIELDS)
        .order_by("-daily_date", "-submitted_at")[:HISTORY_ROWS]
    )
    history += [_history_row(submission, None) for submission in practice]
    history.sort(key=lambda row: row["date"], reverse=True)  # stable: a day's ranked row first
    return {
        "player": player.username,
        "joined": days.day_of(player.date_joined).isoformat(),
        "daily_wins": stats.daily_wins,
        "best_streak": stats.best_streak,
        "current_streak": current_streak(stats, days.today()),
        "played_streak": played_streak(stats, days.today()),
        "best_played_streak": stats.best_played_streak,
        **daily_record(player.pk),
        "history": history[:HISTORY_ROWS],
    }


#: What a history row never shows: the logs are decoded from their compact bytes when loaded.
_LOG_FIELDS = ("actions", "times", "tempo")


def _history_row(submission: Submission, rank: int | None) -> dict:
    return {
        "date": submission.daily_date.isoformat(),
        "rank": rank,
        "practice": rank is None,
        "won": submission.won,
        "moves": submission.moves,
        "score": submission.score,
        "duration_ms": submission.duration_ms,
        "clean": submission.clean,
        "hints": submission.hints,
        "submission": submission.pk,
    }
