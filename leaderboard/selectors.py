"""Reads: the boards, the deal of the day, a player's history. Ranks and board rows come from
the Redis index (rows it lacks from PostgreSQL); from PostgreSQL while the index is away only for
small boards. A read never rebuilds an index: the view prepares it first (``services.index_ensure``)."""

import logging
from datetime import date

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext

from games import format_code

from . import board_rows, cache, days
from .boards import index, order
from .errors import NotFound, Unavailable
from .models import Attempt, BoardEntry, DailyDeal, PlayerStats, Submission

log = logging.getLogger(__name__)
User = get_user_model()
BOARD_ORDER = ("rank_key", "submitted_at", "submission_id")


def daily_deal(day: date, viewer) -> dict:
    """The deal of ``day`` as ``viewer`` may see it: its cards (code, number, solution) only once
    the day is final; until then the facts around it, and the viewer's own latest attempt at it
    (they have seen its cards). A future day does not exist yet, and a past day has the deal
    stored then or none (today's is stored by ``days.daily_deal_ensure`` first, which a
    reader never calls: it may make the server solve a deal)."""
    if day > days.today():
        raise NotFound(gettext("There is no deal of the day for %(day)s yet.") % {"day": day.isoformat()})
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is None:
        raise NotFound(gettext("There was no deal of the day on %(day)s.") % {"day": day.isoformat()})
    final = days.day_final(day)
    return {
        "date": day, "proven_winnable": bool(deal.solution), "players": _daily_players(day),
        **days.day_times(day), "final": final,
        "code": format_code(deal.number, "D") if final else None,
        "number": deal.number if final else None,
        "solution": deal.solution if final else None,
        "attempt": _daily_attempt(viewer, day) if viewer.is_authenticated else None,
    }


def _daily_players(day: date) -> int | None:
    """The size of the day's board (its ranked results so far); None while a big board's index
    is away."""
    try:
        return _page(order.daily_board(day), 0, 0)[1]
    except Unavailable:
        return None


def _daily_attempt(player, day: date) -> dict | None:
    """The player's most recent attempt at ``day``'s deal, so the game resumes on any device."""
    attempt = (Attempt.objects.filter(player=player, daily_date=day).order_by("-started_at")
               .values("id", "deal_code", "ranked", "started_at", "submission__id").first())
    if attempt is None:
        return None
    return {"id": attempt["id"], "code": attempt["deal_code"], "ranked": attempt["ranked"],
            "started_at": attempt["started_at"], "submission": attempt["submission__id"]}


# -- ranking index access: Redis when it is there and whole, PostgreSQL otherwise ------------

_NO_INDEX = object()
# A board with more entries than this is "big": its lost index is rebuilt by a task, not inside
# the request that finds it missing (a million entries take about half a minute, past any
# request's time limit), and its ranks are never counted in PostgreSQL per request (a count or
# an OFFSET over a million entries takes seconds): while its index is away, reads are a 503.
BIG_BOARD_ENTRIES = 50_000


def _from_index(board: str, read):
    """``read(ranks)`` on the board's Redis index. ``_NO_INDEX`` when the index is not whole
    (``index.NotReady``: lost, and not rebuilt yet by ``services.index_ensure``, or being
    rebuilt elsewhere) or Redis fails: the caller then turns to PostgreSQL (``_from_record``)."""
    try:
        return read(index.board_index())
    except index.NotReady:
        return _NO_INDEX
    except Exception:
        log.warning("ranking index unavailable for %s", board, exc_info=True)
        return _NO_INDEX


def is_big(board: str) -> bool:
    """More than ``BIG_BOARD_ENTRIES`` entries: a bounded index read, not a count."""
    beyond = BoardEntry.objects.filter(board=board).order_by().values_list("pk", flat=True)
    return bool(beyond[BIG_BOARD_ENTRIES:BIG_BOARD_ENTRIES + 1])


def _from_record(board: str) -> None:
    """Before ranking from PostgreSQL: that is for small boards only; a big board's readers
    are asked to come back once its index is rebuilt."""
    if is_big(board):
        raise Unavailable(gettext("This board's ranking is being rebuilt: try again in a few seconds."),
                          code="ranking_unavailable")


def _filled(board: str, entries: list[tuple[bytes, bytes | None]]) -> list[bytes | None]:
    """The rows of the index's ``(member, row)`` pairs; those it lacks are read from
    PostgreSQL (None: removed meanwhile) and stored back for the next reader."""
    missing = {order.submission_of(member): member for member, row in entries if row is None}
    if not missing:
        return [row for _, row in entries]
    found = board_rows.of_submissions(list(missing))
    try:
        index.board_index().fill_rows(board, {missing[sid]: row for sid, row in found.items()})
    except Exception:
        log.warning("rows not stored in the index of %s", board, exc_info=True)
    return [found.get(order.submission_of(member)) if row is None else row for member, row in entries]


def _rows_of(submission_ids: list[int]) -> list[bytes | None]:
    found = board_rows.of_submissions(submission_ids)
    return [found.get(sid) for sid in submission_ids]


def _record_page(board: str, offset: int, limit: int) -> tuple[list[int], int]:
    """PostgreSQL: the submission ids ranked ``offset`` .. (0-based) and the board's size."""
    entries = BoardEntry.objects.filter(board=board).order_by(*BOARD_ORDER)
    return list(entries.values_list("submission_id", flat=True)[offset:offset + limit]), entries.count()


def _record_rank(board: str, player_id: int) -> int | None:
    """PostgreSQL: the player's 0-based rank (a count, the fallback only)."""
    entry = BoardEntry.objects.filter(board=board, player_id=player_id).first()
    if entry is None:
        return None
    key, at, sid = entry.rank_key, entry.submitted_at, entry.submission_id
    return BoardEntry.objects.filter(board=board).filter(
        Q(rank_key__lt=key) | Q(rank_key=key, submitted_at__lt=at)
        | Q(rank_key=key, submitted_at=at, submission_id__lt=sid)
    ).count()


def _page(board: str, offset: int, limit: int) -> tuple[list[bytes | None], int]:
    """The rows ranked ``offset`` .. ``offset + limit - 1`` (0-based; None for a row removed
    while read) and the board's size."""
    found = _from_index(board, lambda ranks: ranks.page_rows(board, offset, limit))
    if found is not _NO_INDEX:
        total, entries = found
        return _filled(board, entries), total
    _from_record(board)
    ids, total = _record_page(board, offset, limit)
    return _rows_of(ids), total


def _rank_of(board: str, player_id: int) -> int | None:
    """The player's 0-based rank on the board, None when they are not on it."""
    rank = _from_index(board, lambda ranks: ranks.rank_of(board, player_id))
    if rank is _NO_INDEX:
        _from_record(board)
        return _record_rank(board, player_id)
    return rank


def board_page(board: str, page: int, page_size: int) -> bytes:
    """One page of a board, ranks 1-based, as the API's JSON. A top page (within the first
    ``cache.TOP_RANKS``) is cached, rendered: a cached page is sent as stored
    (``rendering.JSONBytesResponse``). Deeper pages are computed each time, from the index
    alone: on a live board every result stales them, and one is rarely asked twice, so caching
    them cost a read and a write per request for few hits."""
    def compute():
        offset = (page - 1) * page_size
        rows, total = _page(board, offset, page_size)
        head = {"board": board, "count": total, "page": page, "page_size": page_size}
        return board_rows.page_json(head, offset + 1, rows)
    last_rank = page * page_size
    if last_rank > cache.TOP_RANKS:
        return compute()
    return cache.cached(board, f"page-json:{page}:{page_size}", compute, last_rank=last_rank)


def board_around(board: str, player, radius: int) -> bytes:
    """The caller's own rank and the rows ``radius`` above and below it, as the API's JSON."""
    found = _from_index(board, lambda ranks: ranks.around(board, player.pk, radius))
    if found is not _NO_INDEX:
        rank, offset, entries, total = found
        rows = _filled(board, entries)
    else:
        _from_record(board)
        rank = _record_rank(board, player.pk)
        offset = max(rank - radius, 0) if rank is not None else 0
        ids, total = _record_page(board, offset, 2 * radius + 1 if rank is not None else 0)
        rows = _rows_of(ids)
    head = {"board": board, "count": total, "me": None if rank is None else rank + 1}
    return board_rows.page_json(head, offset + 1, rows if rank is not None else [])


def players_board(page: int, page_size: int) -> dict:
    """Players by daily wins, then best streak, then current streak."""
    def compute():
        today = days.today()
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


HISTORY_ROWS = 366


def history_boards(username: str) -> list[str]:
    """The daily boards ``player_profile`` ranks the player on."""
    return list(BoardEntry.objects.filter(player__username=username, player__is_active=True,
                                          board__startswith="daily:")
                .order_by("-board").values_list("board", flat=True)[:HISTORY_ROWS])


def player_profile(username: str) -> dict:
    """A player's stats and their daily results, newest first: each day's ranked result with the
    rank it earned, then that day's practice games (verified, never ranked: no rank)."""
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        raise NotFound(gettext("No player named %(username)s.") % {"username": repr(username)})
    stats, _ = PlayerStats.objects.get_or_create(player=player)
    entries = (BoardEntry.objects.filter(player=player, board__startswith="daily:")
               .select_related("submission").order_by("-board")[:HISTORY_ROWS])
    history = [_history_row(entry.submission, (_rank_of(entry.board, player.pk) or 0) + 1) for entry in entries]
    practice = (Submission.objects.filter(player=player, status=Submission.Status.VERIFIED, hidden=False,
                                          flagged=False, daily_date__isnull=False, attempt__ranked=False)
                .order_by("-daily_date", "-submitted_at")[:HISTORY_ROWS])
    history += [_history_row(submission, None) for submission in practice]
    history.sort(key=lambda row: row["date"], reverse=True)  # stable: a day's ranked row first
    return {"player": player.username, "joined": days.day_of(player.date_joined).isoformat(),
            "daily_wins": stats.daily_wins, "best_streak": stats.best_streak,
            "current_streak": current_streak(stats, days.today()), "history": history[:HISTORY_ROWS]}


def _history_row(submission: Submission, rank: int | None) -> dict:
    return {"date": submission.daily_date.isoformat(), "rank": rank, "practice": rank is None,
            "won": submission.won, "moves": submission.moves, "score": submission.score,
            "duration_ms": submission.duration_ms, "clean": submission.clean, "hints": submission.hints,
            "submission": submission.pk}
