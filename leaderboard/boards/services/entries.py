"""Board entries, the writes: each player's best standing result on each board, kept in
PostgreSQL (``BoardEntry``, the record) and mirrored into the Redis index (``index``) after
commit; the index checked against the record by beat (a lost one is rebuilt: ``rebuild``).
Whether a board is frozen, and so where its ranks live, is the board's store's to say
(``store.stores_to_change``, ``store.stores_to_mirror``): a frozen board is re-ranked in
PostgreSQL and has no index to mirror into.
"""

import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction

from ...core import cache, days, sql
from ...record.models import BoardEntry, Submission, on_boards_sql
from .. import index, order, rows, store
from . import stats
from .rebuild import board_rebuild, index_prepare

log = logging.getLogger(__name__)

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
    stores = store.stores_to_change(boards)
    for board in boards:
        _entry_recompute(board, submission)
    for board in boards:
        stores[board].entries_changed()  # a closed day frozen already is re-ranked
    _refreshed(submission.player_id, boards, players=bool(submission.daily_date))


def boards_refresh_verified(submission: Submission) -> None:
    """After a result was verified, nothing else of the player's changed: each entry can only
    improve (one conditional upsert, ``_entries_improve``), and only a daily result that improved
    the player's entries, won or given up, changes the stats (days played, days won): a worse
    one of the same day leaves them as they are."""
    _lock_player(submission.player_id)
    stores = store.stores_to_change(boards_of(submission))
    boards = _entries_improve(submission.pk, list(stores))
    for board in boards:
        stores[board].entries_changed()  # a late verification on a frozen day re-ranks it
    players = bool(submission.daily_date) and submission.on_boards and bool(boards)
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
    scope = (
        {"daily_date": submission.daily_date}
        if order.is_daily(board)
        else {"deal_number": submission.deal_number, "daily_date__isnull": True}
    )  # daily results: boards_of
    best = (
        Submission.objects.on_boards()
        .filter(player_id=submission.player_id, **scope)
        .order_by("rank_key", "submitted_at", "pk")
        .values_list("pk", "rank_key", "submitted_at")
        .first()
    )
    if best is None:
        BoardEntry.objects.filter(board=board, player_id=submission.player_id).delete()
        return
    BoardEntry.objects.bulk_create(
        [
            BoardEntry(
                board=board,
                player_id=submission.player_id,
                submission_id=best[0],
                rank_key=best[1],
                submitted_at=best[2],
            )
        ],
        update_conflicts=True,
        unique_fields=["board", "player"],
        update_fields=["submission", "rank_key", "submitted_at"],
    )


def _entries_improve(submission_id: int, boards: list[str]) -> list[str]:
    """A newly verified submission: on each board, make it the player's entry when it is on the
    boards (not hidden, flagged, practice or a copy) and ranks better than their entry (or they
    have none), in one statement. The boards whose entry changed."""
    return [
        board
        for (board,) in sql.run(
            f'INSERT INTO "{_ENTRIES}" AS e ("board", "player_id", "submission_id", "rank_key", "submitted_at") '
            f'SELECT b.board, s."player_id", s."id", s."rank_key", s."submitted_at" '
            f'FROM "{_SUBMISSIONS}" s, unnest(%s::varchar[]) AS b(board) '
            f'WHERE s."id" = %s AND {_ON_BOARDS} '
            f'ON CONFLICT ("board", "player_id") DO UPDATE SET "submission_id" = EXCLUDED."submission_id", '
            f'"rank_key" = EXCLUDED."rank_key", "submitted_at" = EXCLUDED."submitted_at" '
            f'WHERE (EXCLUDED."rank_key", EXCLUDED."submitted_at", EXCLUDED."submission_id") '
            f'< (e."rank_key", e."submitted_at", e."submission_id") '
            f'RETURNING e."board"',
            [boards, submission_id],
        )
    ]


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
            stores = store.stores_to_mirror(boards)
            indexed = [board for board in boards if stores[board].indexed]
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
    found = sql.run(
        f'SELECT e."board", e."rank_key", e."submitted_at", {rows.SQL_COLUMNS} '
        f'FROM "{_ENTRIES}" e INNER JOIN {rows.SQL_JOIN} ON s."id" = e."submission_id" '
        f'WHERE e."player_id" = %s AND e."board" = ANY(%s)',
        [player_id, boards],
    )
    return [(board, key, at, values[0], rows.render(values)) for board, key, at, *values in found]


def index_ensure(board: str) -> None:
    """Prepare ``board``'s index for reading, as a read of it does when it finds it not whole
    (kept for callers outside the app: the benchmarks). Nothing for a frozen day."""
    if store.stores_to_mirror([board])[board].indexed:
        index_prepare(board)


def boards_reconcile(recent=None) -> list[str]:
    """Rebuild the index of recent daily boards (``recent`` days; today's and yesterday's by
    default) whose size differs from the record; a frozen day has no index."""
    ranks = index.board_index()
    today = days.today()
    rebuilt = []
    for day in recent or (today, today - timedelta(days=1)):
        board = order.daily_board(day)
        if not store.stores_to_mirror([board])[board].indexed:
            continue
        if ranks.size(board) != BoardEntry.objects.filter(board=board).count():
            board_rebuild(board)
            rebuilt.append(board)
    return rebuilt
