"""The one place that picks where a board's ranks and rows come from, once per read:
``store_for(board)`` (``stores_for`` for many boards at once) answers

- ``FrozenSource``: a closed day frozen in PostgreSQL (``freeze``), read by its final ranks;
- ``IndexSource``: any other board, read from its Redis index (rows it lacks from PostgreSQL,
  stored back for the next reader). A read that finds the index not whole prepares it, then
  reads again: a lost index is rebuilt now for a small board, or queued for a big one
  (``rebuild.index_prepare``);
- ``RecordSource``: where the index is not whole or Redis is away, PostgreSQL by the board's
  order, for a small board only: a big board's readers get a 503 until its index is rebuilt.

Each source answers the same reads: ``page``, ``rank``, ``around``, ``size`` and ``players``.
Ranks are 0-based; a row is the JSON bytes ``rows`` renders (None: removed while read).

The writes (``entries``) ask the store too, without preparing any index: ``stores_to_change``
before a change to entries (the freeze lock taken), then ``entries_changed`` of each changed
board's source (a frozen board is re-ranked; an indexed one waits for the commit), and
``stores_to_mirror`` after commit: only a source that is ``indexed`` is mirrored into Redis.
"""

import logging
from collections.abc import Sequence

from django.db.models import Q
from django.utils.translation import gettext

from ..core import sql
from ..core.errors import Unavailable
from ..record.models import BoardEntry
from . import freeze, index, order, rows
from .services import rebuild

log = logging.getLogger(__name__)
#: A read's rows in rank order, as ``rows`` renders them (None: removed while read).
Rows = Sequence[bytes | None]
#: PostgreSQL's order of a board, the index's order (``order``).
BOARD_ORDER = ("rank_key", "submitted_at", "submission_id")

_NO_INDEX = object()
_NOT_READY = object()
_ENTRIES = BoardEntry._meta.db_table
# PostgreSQL: the given players' entries with their 0-based ranks, from one ranking pass over
# the board (small boards only).
_RECORD_PLAYERS = (
    f'SELECT "player_id", "place", "submission_id" FROM (SELECT "player_id", "submission_id", '
    f'row_number() OVER (ORDER BY "rank_key", "submitted_at", "submission_id") - 1 AS "place" '
    f'FROM "{_ENTRIES}" WHERE "board" = %s) ranked '
    f'WHERE "player_id" = ANY(%s::bigint[]) ORDER BY "place"'
)


def _rows_of(submission_ids: list[int]) -> list[bytes | None]:
    found = rows.of_submissions(submission_ids)
    return [found.get(sid) for sid in submission_ids]


class FrozenSource:
    """A frozen closed day: its final ranks in PostgreSQL, through the (board, rank) index. It has
    no Redis index: a write goes to PostgreSQL only."""

    indexed = False

    def __init__(self, board: str, size: int | None = None):
        self.board, self._size = board, size

    def entries_changed(self) -> None:
        """After a change to the board's entries (``stores_to_change`` took its freeze lock): its
        final ranks and size written again, in the caller's transaction."""
        freeze.boards_rerank([self.board])

    def size(self) -> int:
        if self._size is None:
            self._size = freeze.frozen_size(self.board) or 0
        return self._size

    def page(self, offset: int, limit: int) -> tuple[Rows, int]:
        return freeze.frozen_rows(self.board, offset, limit), self.size()

    def rank(self, player_id: int) -> int | None:
        return freeze.frozen_rank(self.board, player_id)

    def around(self, player_id: int, radius: int) -> tuple[int | None, int, Rows, int]:
        rank, offset, shown = freeze.frozen_around(self.board, player_id, radius)
        return rank, offset, shown, self.size()

    def players(self, player_ids: list[int]) -> list[tuple[int, int, bytes]]:
        ranked = freeze.frozen_players(self.board, player_ids)
        shown = rows.of_submissions([sid for _, _, sid in ranked])
        return [(player, rank, shown[sid]) for player, rank, sid in ranked if sid in shown]


class RecordSource:
    """PostgreSQL by the board's order: a small board while its index is not whole. Made for a
    big board, it raises ``Unavailable`` (a count or an OFFSET over a million entries takes
    seconds): its readers come back once the index is rebuilt."""

    def __init__(self, board: str):
        if rebuild.is_big(board):
            raise Unavailable(
                gettext("This board's ranking is being rebuilt: try again in a few seconds."),
                code="ranking_unavailable",
            )
        self.board = board

    def _page_ids(self, offset: int, limit: int) -> tuple[list[int], int]:
        found = BoardEntry.objects.filter(board=self.board).order_by(*BOARD_ORDER)
        return list(found.values_list("submission_id", flat=True)[offset : offset + limit]), found.count()

    def size(self) -> int:
        return BoardEntry.objects.filter(board=self.board).count()

    def page(self, offset: int, limit: int) -> tuple[Rows, int]:
        ids, total = self._page_ids(offset, limit)
        return _rows_of(ids), total

    def rank(self, player_id: int) -> int | None:
        entry = BoardEntry.objects.filter(board=self.board, player_id=player_id).first()
        if entry is None:
            return None
        key, at, sid = entry.rank_key, entry.submitted_at, entry.submission_id
        return (
            BoardEntry.objects.filter(board=self.board)
            .filter(
                Q(rank_key__lt=key)
                | Q(rank_key=key, submitted_at__lt=at)
                | Q(rank_key=key, submitted_at=at, submission_id__lt=sid)
            )
            .count()
        )

    def around(self, player_id: int, radius: int) -> tuple[int | None, int, Rows, int]:
        rank = self.rank(player_id)
        offset = max(rank - radius, 0) if rank is not None else 0
        ids, total = self._page_ids(offset, 2 * radius + 1 if rank is not None else 0)
        return rank, offset, _rows_of(ids), total

    def players(self, player_ids: list[int]) -> list[tuple[int, int, bytes]]:
        ranked = sql.run(_RECORD_PLAYERS, [self.board, sql.bigint_array(player_ids)])
        shown = rows.of_submissions([sid for _, _, sid in ranked])
        return [(player, rank, shown[sid]) for player, rank, sid in ranked if sid in shown]


class IndexSource:
    """The board's Redis index, one round trip a read. When the index is not whole
    (``index.NotReady``: lost and not rebuilt yet, or being rebuilt elsewhere) or Redis fails,
    the read turns to ``RecordSource``."""

    indexed = True

    def __init__(self, board: str):
        self.board = board

    def entries_changed(self) -> None:
        """Nothing before the commit: the change is mirrored into the index after it
        (``entries.boards_mirror``)."""

    def _read(self, read):
        """``read(ranks)`` on the index, or ``_NO_INDEX`` when it is not whole or Redis fails.
        The index is prepared only when a read finds it not whole (each script checks its ready
        mark: ``index.NotReady``), then read once more: a whole index, the usual case, costs the
        read's one round trip, not an ``EXISTS`` before it too."""
        found = self._read_once(read)
        if found is _NOT_READY:
            rebuild.index_prepare(self.board)
            found = self._read_once(read)
        return _NO_INDEX if found is _NOT_READY else found

    def _read_once(self, read):
        try:
            return read(index.board_index())
        except index.NotReady:
            return _NOT_READY
        except Exception:
            log.warning("ranking index unavailable for %s", self.board, exc_info=True)
            return _NO_INDEX

    def _filled(self, found: list[tuple[bytes, bytes | None]]) -> list[bytes | None]:
        """The rows of the index's ``(member, row)`` pairs; those it lacks are read from
        PostgreSQL (None: removed meanwhile) and stored back for the next reader."""
        missing = {order.submission_of(member): member for member, row in found if row is None}
        if not missing:
            return [row for _, row in found]
        read = rows.of_submissions(list(missing))
        try:
            index.board_index().fill_rows(self.board, {missing[sid]: row for sid, row in read.items()})
        except Exception:
            log.warning("rows not stored in the index of %s", self.board, exc_info=True)
        return [read.get(order.submission_of(member)) if row is None else row for member, row in found]

    def size(self) -> int:
        return self.page(0, 0)[1]

    def page(self, offset: int, limit: int) -> tuple[Rows, int]:
        found = self._read(lambda ranks: ranks.page_rows(self.board, offset, limit))
        if found is _NO_INDEX:
            return RecordSource(self.board).page(offset, limit)
        total, pairs = found
        return self._filled(pairs), total

    def rank(self, player_id: int) -> int | None:
        found = self._read(lambda ranks: ranks.rank_of(self.board, player_id))
        return RecordSource(self.board).rank(player_id) if found is _NO_INDEX else found

    def around(self, player_id: int, radius: int) -> tuple[int | None, int, Rows, int]:
        found = self._read(lambda ranks: ranks.around(self.board, player_id, radius))
        if found is _NO_INDEX:
            return RecordSource(self.board).around(player_id, radius)
        rank, offset, pairs, total = found
        return rank, offset, self._filled(pairs), total

    def around_held(self, player_key: str, radius: int, keys: list[str], holding: list[int]):
        """``index.BoardIndex.around_held`` with the rows it lacks filled: ``(values, player id
        or None, around or None)``; None when Redis fails. An index that is not whole is left
        to ``around`` (around None), which prepares it."""
        try:
            values, player, found = index.board_index().around_held(self.board, player_key, radius, keys, holding)
        except Exception:
            log.warning("ranking index unavailable for %s", self.board, exc_info=True)
            return None
        if found is None:
            return values, player, None
        rank, offset, pairs, total = found
        return values, player, (rank, offset, self._filled(pairs), total)

    def players(self, player_ids: list[int]) -> list[tuple[int, int, bytes]]:
        found = self._read(lambda ranks: ranks.players(self.board, player_ids))
        if found is _NO_INDEX:
            return RecordSource(self.board).players(player_ids)
        found.sort(key=lambda entry: entry[1])
        shown = self._filled([(member, row) for _, _, member, row in found])
        return [(player, rank, row) for (player, rank, _, _), row in zip(found, shown) if row is not None]


def store_for(board: str) -> FrozenSource | IndexSource:
    """The source of ``board``'s reads: frozen (no query unless it is a final day's), else its
    Redis index, prepared by the first read that finds it not whole (``IndexSource._read``)."""
    size = freeze.frozen_size(board)
    if size is not None:
        return FrozenSource(board, size)
    return IndexSource(board)


def live_index(board: str) -> IndexSource | None:
    """``store_for``'s source of a board that is not a final day's (its Redis index), known
    without a query; None for a final day's, which only ``store_for`` can tell (frozen or not)."""
    return None if freeze.is_final(board) else IndexSource(board)


def stores_for(boards: list[str]) -> dict[str, FrozenSource | IndexSource]:
    """``store_for`` of many boards: one query for the frozen ones, one round trip to find the
    lost indexes among the others (a player's history)."""
    frozen = freeze.frozen_boards(boards)
    rebuild.indexes_prepare([board for board in boards if board not in frozen])
    return {board: FrozenSource(board) if board in frozen else IndexSource(board) for board in boards}


def stores_to_change(boards: list[str]) -> dict[str, FrozenSource | IndexSource]:
    """Before a change to entries on ``boards``, inside the caller's transaction: the freeze lock
    of each final day's board taken (no freeze ranks around a change it cannot see yet), and
    each board's source, whose ``entries_changed`` follows the change. No query for a board that
    is not a final day's, no Redis: no index is prepared for a write."""
    frozen = set(freeze.boards_lock(boards))
    return {board: FrozenSource(board) if board in frozen else IndexSource(board) for board in boards}


def stores_to_mirror(boards: list[str]) -> dict[str, FrozenSource | IndexSource]:
    """The sources of ``boards`` whose committed entries are to be mirrored: only an ``indexed``
    one has a Redis index (one query only when one is a final day's; no index prepared: a lost
    one is rebuilt by its next reader)."""
    frozen = freeze.frozen_boards(boards)
    return {board: FrozenSource(board) if board in frozen else IndexSource(board) for board in boards}
