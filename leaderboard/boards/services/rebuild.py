"""A board's Redis index rebuilt from the record (``BoardEntry``) when Redis lost it: now, inside
the read that finds it missing, for a small board; by a task for a big one. The board's store
(``store.IndexSource``) prepares the index when a read finds it not whole.

The rebuild of a big board is queued by the task's name (``REBUILD_TASK``), not by importing
``leaderboard.tasks``: tasks import the services, never the other way round.
"""

import logging

from celery import current_app

from ...core import cache
from ...record.models import BoardEntry
from .. import index, rows

log = logging.getLogger(__name__)

# A board with more entries than this is "big": its lost index is rebuilt by a task, not inside
# the request that finds it missing (a million entries take about half a minute, past any
# request's time limit), and its ranks are never counted in PostgreSQL per request (a count or
# an OFFSET over a million entries takes seconds): while its index is away, reads are a 503.
BIG_BOARD_ENTRIES = 50_000

#: The Celery task that rebuilds a board's index (leaderboard.tasks.rebuild_board is registered
#: under this name).
REBUILD_TASK = "leaderboard.tasks.rebuild_board"


def board_rebuild(board: str) -> int:
    """Reload a board's Redis index from PostgreSQL (after Redis lost it)."""
    ranks = index.board_index()
    ranks.drop(board)
    found = (
        BoardEntry.objects.filter(board=board)
        .values_list("player_id", "rank_key", "submitted_at", *rows.ENTRY_FIELDS)
        .iterator(chunk_size=5000)
    )
    count = ranks.rebuild(
        board, ((player, key, at, values[0], rows.render(values)) for player, key, at, *values in found)
    )
    cache.board_changed(board)
    return count


def board_rebuild_claimed(board: str) -> int:
    """``board_rebuild`` of a board whose rebuild ``board_rebuild_queue`` claimed and queued (the
    task): the claim is released whatever happens."""
    try:
        return board_rebuild(board)
    finally:
        index.board_index().release_rebuild(board)


def index_prepare(board: str) -> None:
    """Prepare a board's Redis index for its readers (``store.IndexSource`` calls this when a
    read finds the index not whole): when it is not whole (Redis lost it), rebuild it from PostgreSQL now for a small
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
    return bool(beyond[BIG_BOARD_ENTRIES : BIG_BOARD_ENTRIES + 1])


def board_rebuild_queue(board: str) -> None:
    """Queue ``board_rebuild`` for a board whose index ``index_prepare`` claimed
    (``claim_rebuild``); the task releases the claim. If the broker is away, the claim is
    released at once so the next reader tries again."""
    try:
        current_app.send_task(REBUILD_TASK, (board,), ignore_result=True, retry=False)
    except Exception:
        log.warning("could not queue the rebuild of %s", board, exc_info=True)
        index.board_index().release_rebuild(board)
