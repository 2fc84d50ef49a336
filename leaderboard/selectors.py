"""Reads: the boards, the deal of the day, a player's history, a submission as a given
viewer may see it. Ranks come from the Redis index; rows come from PostgreSQL."""

import logging
from datetime import date

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q

from . import cache, ranking, services, sql
from .errors import Forbidden, NotFound
from .models import Attempt, BoardEntry, DailyDeal, PlayerStats, Submission
from .rendering import json_bytes

log = logging.getLogger(__name__)
User = get_user_model()
BOARD_ORDER = ("rank_key", "submitted_at", "submission_id")


def daily_deal(day: date) -> DailyDeal:
    """The deal of ``day`` (today's is stored on first need); a future day does not exist yet
    and a past day has the deal stored then or none (a reader never makes the server solve
    the deal of an old date)."""
    today = services.utc_today()
    if day > today:
        raise NotFound(f"There is no deal of the day for {day.isoformat()} yet.")
    if day < today:
        stored = DailyDeal.objects.filter(date=day).first()
        if stored is None:
            raise NotFound(f"There was no deal of the day on {day.isoformat()}.")
        return stored
    return services.daily_deal_ensure(day)


# -- ranking index access: Redis when it is there and whole, PostgreSQL otherwise ------------

def _index_for(board: str):
    index = ranking.redis_ranking()
    if index is None:
        return None
    try:
        if index.is_ready(board):
            return index
        if index.client.set(f"lb:{board}:rebuilding", 1, nx=True, ex=300):
            try:
                services.board_rebuild(board)
            finally:
                index.client.delete(f"lb:{board}:rebuilding")
            return index
    except Exception:
        log.warning("ranking index unavailable for %s; reading PostgreSQL", board, exc_info=True)
    return None


def _ranked_ids(board: str, offset: int, limit: int) -> tuple[list[int], int]:
    index = _index_for(board)
    if index is not None:
        try:
            return index.page_and_size(board, offset, limit)
        except Exception:
            log.warning("ranking index failed for %s; reading PostgreSQL", board, exc_info=True)
    entries = BoardEntry.objects.filter(board=board).order_by(*BOARD_ORDER)
    ids = list(entries.values_list("submission_id", flat=True)[offset:offset + limit])
    return ids, entries.count()


def _rank_of(board: str, player_id: int) -> int | None:
    index = _index_for(board)
    if index is not None:
        try:
            return index.rank_of(board, player_id)
        except Exception:
            log.warning("ranking index failed for %s; reading PostgreSQL", board, exc_info=True)
    entry = BoardEntry.objects.filter(board=board, player_id=player_id).first()
    if entry is None:
        return None
    key, at, sid = entry.rank_key, entry.submitted_at, entry.submission_id
    return BoardEntry.objects.filter(board=board).filter(
        Q(rank_key__lt=key) | Q(rank_key=key, submitted_at__lt=at)
        | Q(rank_key=key, submitted_at=at, submission_id__lt=sid)
    ).count()


_ROW_FIELDS = ("pk", "player__username", "won", "moves", "score", "duration_ms", "clean", "submitted_at")
# ``submitted_at`` as ``datetime.isoformat()`` writes it for a UTC time (what the API shows),
# made by PostgreSQL: loading a timestamptz into a datetime runs Django's Python loader per row.
_ISO_UTC = ("""to_char(s."submitted_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') """
            """|| CASE WHEN date_trunc('second', s."submitted_at") = s."submitted_at" THEN '' """
            """ELSE to_char(s."submitted_at" AT TIME ZONE 'UTC', '.US') END || '+00:00'""")


def _row_values(submission_ids: list[int]):
    """``_ROW_FIELDS`` of these submissions, ``submitted_at`` in ISO 8601. On PostgreSQL one
    plain SQL statement with the ids as one array literal (the rows of a page are the hottest
    read: compiling the ORM query cost as much as running it, psycopg parses a statement with
    more than 50 parameters anew every time, and its list dumper is slower than a join)."""
    if not submission_ids:
        return []
    if not sql.on_postgresql():
        rows = Submission.objects.filter(pk__in=submission_ids).values_list(*_ROW_FIELDS)
        return [(*row[:-1], row[-1].isoformat()) for row in rows]
    submission, user = Submission._meta.db_table, User._meta.db_table
    return sql.run(
        f'SELECT s."id", u."username", s."won", s."moves", s."score", s."duration_ms", s."clean", {_ISO_UTC} '
        f'FROM "{submission}" s INNER JOIN "{user}" u ON s."player_id" = u."id" '
        f'WHERE s."id" = ANY(%s::bigint[])',
        ["{%s}" % ",".join(str(int(sid)) for sid in submission_ids)])


def _rows(submission_ids: list[int], first_rank: int) -> list[dict]:
    # Only the columns a row shows: never the move log (thousands of actions per row).
    found = {row[0]: row for row in _row_values(submission_ids)}
    rows = []
    for offset, sid in enumerate(submission_ids):
        s = found.get(sid)
        if s is None:  # removed between the index read and this one
            continue
        pk, username, won, moves, score, duration_ms, clean, submitted_at = s
        rows.append({
            "rank": first_rank + offset, "player": username, "won": won, "moves": moves,
            "score": score, "duration_ms": duration_ms, "clean": clean, "submission": pk,
            "submitted_at": submitted_at,
        })
    return rows


def board_page(board: str, page: int, page_size: int) -> bytes:
    """One page of a board, ranks 1-based, as the API's JSON. A top page (within the first
    ``cache.TOP_RANKS``) is cached, rendered: a cached page is sent as stored
    (``rendering.JSONBytesResponse``). Deeper pages are computed each time: on a live board
    every result stales them, and one is rarely asked twice, so caching them cost a read and a
    write per request for few hits."""
    def compute():
        offset = (page - 1) * page_size
        ids, total = _ranked_ids(board, offset, page_size)
        return json_bytes({"board": board, "count": total, "page": page, "page_size": page_size,
                           "results": _rows(ids, offset + 1)})
    last_rank = page * page_size
    if last_rank > cache.TOP_RANKS:
        return compute()
    return cache.cached(board, f"page-json:{page}:{page_size}", compute, last_rank=last_rank)


def board_around(board: str, player, radius: int) -> dict:
    """The caller's own rank and the rows ``radius`` above and below it."""
    index = _index_for(board)
    if index is not None:
        try:
            rank, offset, ids, total = index.around(board, player.pk, radius)
        except Exception:
            log.warning("ranking index failed for %s; reading PostgreSQL", board, exc_info=True)
        else:
            if rank is None:
                return {"board": board, "count": total, "me": None, "results": []}
            return {"board": board, "count": total, "me": rank + 1, "results": _rows(ids, offset + 1)}
    rank = _rank_of(board, player.pk)
    if rank is None:
        _, total = _ranked_ids(board, 0, 0)
        return {"board": board, "count": total, "me": None, "results": []}
    offset = max(rank - radius, 0)
    ids, total = _ranked_ids(board, offset, 2 * radius + 1)
    return {"board": board, "count": total, "me": rank + 1, "results": _rows(ids, offset + 1)}


def players_board(page: int, page_size: int) -> dict:
    """Players by daily wins, then best streak, then current streak."""
    def compute():
        today = services.utc_today()
        stats = PlayerStats.objects.filter(daily_wins__gt=0, player__is_active=True).select_related("player")
        ordered = stats.order_by("-daily_wins", "-best_streak", "player_id")
        offset = (page - 1) * page_size
        results = [
            {"rank": offset + i + 1, "player": s.player.username, "daily_wins": s.daily_wins,
             "current_streak": current_streak(s, today), "best_streak": s.best_streak}
            for i, s in enumerate(ordered[offset:offset + page_size])
        ]
        return {"count": stats.count(), "page": page, "page_size": page_size, "results": results}
    return cache.cached("players", f"page:{page}:{page_size}", compute)


def current_streak(stats: PlayerStats, today: date) -> int:
    """The run of winning days that ends today, or yesterday while today is still open."""
    if stats.last_win_date and (today - stats.last_win_date).days <= 1:
        return stats.last_streak
    return 0


def player_profile(username: str) -> dict:
    """A player's stats and their daily results, newest first, with the rank each earned."""
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        raise NotFound(f"No player named {username!r}.")
    stats, _ = PlayerStats.objects.get_or_create(player=player)
    entries = (BoardEntry.objects.filter(player=player, board__startswith="daily:")
               .select_related("submission").order_by("-board")[:366])
    history = []
    for entry in entries:
        s = entry.submission
        history.append({
            "date": s.daily_date.isoformat(), "rank": (_rank_of(entry.board, player.pk) or 0) + 1,
            "won": s.won, "moves": s.moves, "score": s.score, "duration_ms": s.duration_ms,
            "clean": s.clean, "submission": s.pk,
        })
    return {"player": player.username, "joined": player.date_joined.date().isoformat(),
            "daily_wins": stats.daily_wins, "best_streak": stats.best_streak,
            "current_streak": current_streak(stats, services.utc_today()), "history": history}


def attempt_for(viewer, attempt_id) -> Attempt:
    attempt = _attempt(attempt_id)
    if attempt is None:
        raise NotFound("No such attempt.")
    if attempt.player_id != viewer.pk:
        raise Forbidden("This attempt belongs to another player.")
    return attempt


_ATTEMPT_FIELDS = Attempt._meta.concrete_fields


def _attempt(attempt_id) -> Attempt | None:
    """The attempt, whole. On PostgreSQL one plain statement: every submission reads one,
    and compiling the ORM query cost more than running it."""
    if not sql.on_postgresql():
        return Attempt.objects.filter(pk=attempt_id).first()
    columns = ", ".join(f'"{field.column}"' for field in _ATTEMPT_FIELDS)
    rows = sql.run(f'SELECT {columns} FROM "{Attempt._meta.db_table}" WHERE "id" = %s', [attempt_id])
    return Attempt.from_db(connection.alias, [field.attname for field in _ATTEMPT_FIELDS], rows[0]) if rows else None


def submission_for(viewer, submission_id: int) -> tuple[Submission, bool]:
    """The submission and whether ``viewer`` may see its log: the owner and staff at once,
    everyone else once the day it was played on has closed (UTC)."""
    submission = Submission.objects.select_related("attempt", "player").filter(pk=submission_id).first()
    if submission is None:
        raise NotFound("No such submission.")
    is_owner = viewer.is_authenticated and viewer.pk == submission.player_id
    played_on = submission.daily_date or submission.attempt.started_at.date()
    public = services.day_closed(played_on) and submission.on_boards
    return submission, is_owner or viewer.is_staff or public
