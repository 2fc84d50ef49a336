"""Board entries, the writes: each player's best standing result on each board, kept in
PostgreSQL (``BoardEntry``, the record) and mirrored into the Redis index (``index``) after
commit; the index rebuilt from the record when Redis lost it, and checked against it by beat.

The rebuild of a big board is queued by the task's name (``REBUILD_TASK``), not by importing
``leaderboard.tasks``: tasks import the services, never the other way round.
"""

import logging
from datetime import timedelta

from celery import current_app
from django.contrib.auth import get_user_model
from django.db import transaction

from ...core import cache, days, sql
from ...record.models import BoardEntry, Submission, on_boards_sql
from .. import freeze, index, order, rows
from . import stats

log = logging.getLogger(__name__)

# A board with more entries than this is "big": its lost index is rebuilt by a task, not inside
# the request that finds it missing (a million entries take about half a minute, past any
# request's time limit), and its ranks are never counted in PostgreSQL per request (a count or
# an OFFSET over a million entries takes seconds): while its index is away, reads are a 503.
BIG_BOARD_ENTRIES = 50_000

#: The Celery task that rebuilds a board's index (leaderboard.tasks.rebuild_board is registered
#: under this name).
REBUILD_TASK = "leaderboard.tasks.rebuild_board"

# The tables of the plain-SQL statements below (leaderboard.sql).
_SUBMISSIONS, _ENTRIES = Submission._meta.db_table, BoardEntry._meta.db_table
_USERS = get_user_model()._meta.db_table
_ON_BOARDS = on_boards_sql("s")  # written once: the verification's hot statement


def boards_of(submission: Submission) -> list[str]:
    """A daily result ranks on its day's board only: on its deal's board it would tell anyone
    polling every numbered board which deal is today's before the day is final. A deal's board
    holds the attempts played as numbered deals (N codes, and D codes of other days)."""
    if submission.daily_date:
        return [order.daily_board(submission.daily_date)]
    return [order.deal_board(submission.deal_number)]


def boards_refresh(submission: Submission) -> None:
    """After any change to a result (staff hid, flagged or re-verifies it): recompute the
    player's best entry on each board the submission belongs to, and their stats for a daily
    result, inside the caller's transaction; the index follows after commit."""
    _lock_player(submission.player_id)
    boards = boards_of(submission)
    frozen = freeze.boards_lock(boards)  # a closed day frozen already is re-ranked
    for board in boards:
        _entry_recompute(board, submission)
    freeze.boards_rerank(frozen)
    _refreshed(submission.player_id, boards, players=bool(submission.daily_date))


def boards_refresh_verified(submission: Submission) -> None:
    """After a result was verified, nothing else of the player's changed: each entry can only
    improve (one conditional upsert, ``_entries_improve``), and only a daily win that is on the
    boards changes the stats."""
    _lock_player(submission.player_id)
    frozen = freeze.boards_lock(boards_of(submission))  # a late verification on a frozen day
    boards = _entries_improve(submission.pk, boards_of(submission))
    freeze.boards_rerank([board for board in frozen if board in boards])
    players = bool(submission.daily_date) and submission.won and submission.on_boards
    _refreshed(submission.player_id, boards, players=players)


def _lock_player(player_id: int) -> None:
    """One refresh per player at a time: concurrent verifications must not race on entries."""
    sql.run(f'SELECT 1 FROM "{_USERS}" WHERE "id" = %s FOR UPDATE', [player_id])


def _refreshed(player_id: int, boards: list[str], *, players: bool) -> None:
    """The stats recomputed when ``players``; the changed ``boards`` (and the players' board)
    mirrored into the index after commit."""
    if players:
        stats.stats_refresh(player_id)
    if boards or players:
        transaction.on_commit(lambda: boards_mirror(boards, player_id, players=players))


def _entry_recompute(board: str, submission: Submission) -> None:
    """The player's entry on ``board``: their best verified result there that is on the boards."""
    scope = {"daily_date": submission.daily_date} if order.is_daily(board) else {
        "deal_number": submission.deal_number, "daily_date__isnull": True}  # daily results: boards_of
    best = (
        Submission.objects.on_boards().filter(player_id=submission.player_id, **scope)
        .order_by("rank_key", "submitted_at", "pk").values_list("pk", "rank_key", "submitted_at").first()
    )
    if best is None:
        BoardEntry.objects.filter(board=board, player_id=submission.player_id).delete()
        return
    BoardEntry.objects.bulk_create(
        [BoardEntry(board=board, player_id=submission.player_id, submission_id=best[0], rank_key=best[1],
                    submitted_at=best[2])],
        update_conflicts=True, unique_fields=["board", "player"],
        update_fields=["submission", "rank_key", "submitted_at"],
    )


def _entries_improve(submission_id: int, boards: list[str]) -> list[str]:
    """A newly verified submission: on each board, make it the player's entry when it is on the
    boards (not hidden, flagged, practice or a copy) and ranks better than their entry (or they
    have none), in one statement. The boards whose entry changed."""
    return [board for board, in sql.run(
        f'INSERT INTO "{_ENTRIES}" AS e ("board", "player_id", "submission_id", "rank_key", "submitted_at") '
        f'SELECT b.board, s."player_id", s."id", s."rank_key", s."submitted_at" '
        f'FROM "{_SUBMISSIONS}" s, unnest(%s::varchar[]) AS b(board) '
        f'WHERE s."id" = %s AND {_ON_BOARDS} '
        f'ON CONFLICT ("board", "player_id") DO UPDATE SET "submission_id" = EXCLUDED."submission_id", '
        f'"rank_key" = EXCLUDED."rank_key", "submitted_at" = EXCLUDED."submitted_at" '
        f'WHERE (EXCLUDED."rank_key", EXCLUDED."submitted_at", EXCLUDED."submission_id") '
        f'< (e."rank_key", e."submitted_at", e."submission_id") '
        f'RETURNING e."board"', [boards, submission_id])]


def boards_mirror(boards: list[str], player_id: int, *, players: bool = False) -> None:
    """Copy a player's committed entries on ``boards`` into the Redis index (re-read, so that
    callbacks running out of order still leave the latest record), then mark the boards
    changed (and the players' board when ``players``). When the index update fails, those
    boards' indexes are dropped: the next read rebuilds them from PostgreSQL instead of
    serving a stale rank. A frozen board has no index: only its pages are staled."""
    changed: dict[str, int | None] = dict.fromkeys(boards)
    ranks = index.board_index()
    indexed = boards
    if boards:
        try:
            frozen = freeze.frozen_boards(boards)
            indexed = [board for board in boards if board not in frozen]
            wanted = dict.fromkeys(indexed)
            for board, key, submitted_at, submission_id, row in _entries_of(player_id, indexed):
                wanted[board] = (key, order.member(submitted_at, submission_id), row)
            changed.update(ranks.set_entries(player_id, wanted))
        except Exception:  # PostgreSQL or Redis away after the commit
            log.warning("ranking index not updated for %s; dropping it", boards, exc_info=True)
            changed = dict.fromkeys(boards)
            for board in indexed:
                try:
                    ranks.drop(board)
                except Exception:  # Redis away: reconcile_boards rebuilds the index from PostgreSQL
                    log.warning("ranking index of %s not dropped", board, exc_info=True)
    if players:
        changed["players"] = None
    cache.boards_changed(changed)


def player_rows_refresh(player_id: int) -> None:
    """Rewrite the player's rows in the index of every board they are on, after commit (their
    name is in each row)."""
    boards = list(BoardEntry.objects.filter(player_id=player_id).values_list("board", flat=True))
    if boards:
        transaction.on_commit(lambda: boards_mirror(boards, player_id))


def _entries_of(player_id: int, boards: list[str]):
    """``(board, rank_key, submitted_at, submission_id, row)`` of the player's entries on
    ``boards``, the row as ``rows`` renders it."""
    found = sql.run(f'SELECT e."board", e."rank_key", e."submitted_at", {rows.SQL_COLUMNS} '
                    f'FROM "{_ENTRIES}" e INNER JOIN {rows.SQL_JOIN} ON s."id" = e."submission_id" '
                    f'WHERE e."player_id" = %s AND e."board" = ANY(%s)', [player_id, boards])
    return [(board, key, at, values[0], rows.render(values)) for board, key, at, *values in found]


# -- the index rebuilt from the record ---------------------------------------------------------

def board_rebuild(board: str) -> int:
    """Reload a board's Redis index from PostgreSQL (after Redis lost it)."""
    ranks = index.board_index()
    ranks.drop(board)
    found = (BoardEntry.objects.filter(board=board)
             .values_list("player_id", "rank_key", "submitted_at", *rows.ENTRY_FIELDS).iterator(chunk_size=5000))
    count = ranks.rebuild(board, ((player, key, at, values[0], rows.render(values))
                                  for player, key, at, *values in found))
    cache.board_changed(board)
    return count


def board_rebuild_claimed(board: str) -> int:
    """``board_rebuild`` of a board whose rebuild ``board_rebuild_queue`` claimed and queued (the
    task): the claim is released whatever happens."""
    try:
        return board_rebuild(board)
    finally:
        index.board_index().release_rebuild(board)


def index_ensure(board: str) -> None:
    """``index_prepare``, unless the board is frozen (read from PostgreSQL: it has no index)."""
    if not freeze.is_frozen(board):
        index_prepare(board)


def index_prepare(board: str) -> None:
    """Prepare a board's Redis index for its readers (``store.store_for`` calls this before a
    read): when it is not whole (Redis lost it), rebuild it from PostgreSQL now for a small
    board, or queue the rebuild for a big one (``BIG_BOARD_ENTRIES``; its readers get a 503
    until then). Nothing when another process is rebuilding it, or Redis is away: readers then
    rank from PostgreSQL where they may. One round trip when the index is whole."""
    ranks = index.board_index()
    try:
        if ranks.is_ready(board) or not ranks.claim_rebuild(board):
            return
        if is_big(board):
            board_rebuild_queue(board)  # the task holds the claim from here
            return
        try:
            board_rebuild(board)
        finally:
            ranks.release_rebuild(board)
    except Exception:
        log.warning("ranking index of %s not prepared", board, exc_info=True)


def indexes_prepare(boards: list[str]) -> None:
    """``index_prepare`` of each of ``boards`` (none frozen) whose index is not whole, after
    one round trip for all."""
    try:
        lost = [board for board, ready in zip(boards, index.board_index().are_ready(boards)) if not ready]
    except Exception:
        log.warning("ranking indexes of %d boards not checked", len(boards), exc_info=True)
        return
    for board in lost:
        index_prepare(board)


def is_big(board: str) -> bool:
    """More than ``BIG_BOARD_ENTRIES`` entries: a bounded index read, not a count."""
    beyond = BoardEntry.objects.filter(board=board).order_by().values_list("pk", flat=True)
    return bool(beyond[BIG_BOARD_ENTRIES:BIG_BOARD_ENTRIES + 1])


def board_rebuild_queue(board: str) -> None:
    """Queue ``board_rebuild`` for a board whose index ``index_prepare`` claimed
    (``claim_rebuild``); the task releases the claim. If the broker is away, the claim is
    released at once so the next reader tries again."""
    try:
        current_app.send_task(REBUILD_TASK, (board,), ignore_result=True, retry=False)
    except Exception:
        log.warning("could not queue the rebuild of %s", board, exc_info=True)
        index.board_index().release_rebuild(board)


def boards_reconcile(recent=None) -> list[str]:
    """Rebuild the index of recent daily boards (``recent`` days; today's and yesterday's by
    default) whose size differs from the record; a frozen day has no index."""
    ranks = index.board_index()
    today = days.today()
    rebuilt = []
    for day in recent or (today, today - timedelta(days=1)):
        board = order.daily_board(day)
        if freeze.is_frozen(board):
            continue
        if ranks.size(board) != BoardEntry.objects.filter(board=board).count():
            board_rebuild(board)
            rebuilt.append(board)
    return rebuilt
