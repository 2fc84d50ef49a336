"""Closed days frozen in PostgreSQL. Once a day is final (its close plus the grace,
``days.day_final``), its board changes no more but for staff's rare corrections: its final
ranks are written once into its entries (``BoardEntry.rank``, one statement), the board is
recorded as frozen (``FrozenBoard``) and its Redis index is dropped. Its pages and a player's
own rank are read from PostgreSQL from then on, through the partial index on (board, rank): a
page is a range of ranks, not an OFFSET, so it costs the same on page 1 and page 40,000.

The freeze runs once per board: under a transaction-scoped advisory lock on the board, a second
run finds the lock taken or the board frozen, and does nothing. A change to a frozen
board's entries (staff hide, flag or show a result, a late verification) takes the same lock
before it writes, and re-ranks the board in its own transaction (``boards_rerank``): the
frozen ranks are right at every commit. A numbered deal's board never closes: never frozen.
"""

import logging
from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from ..core import cache, days, sql
from ..record.models import BoardEntry, DailyDeal
from . import index, order, rows
from .models import FrozenBoard

log = logging.getLogger(__name__)

_ENTRIES, _FROZEN = BoardEntry._meta.db_table, FrozenBoard._meta.db_table

# The final ranks in one statement, in the index's order (``order.member``: equal keys by
# submission time, then id), writing only the entries whose rank changed (a re-rank after a
# late change moves the entries below it only).
_RANK = (
    f'UPDATE "{_ENTRIES}" e SET "rank" = r.n FROM ('
    f'SELECT "id", row_number() OVER (ORDER BY "rank_key", "submitted_at", "submission_id") AS n '
    f'FROM "{_ENTRIES}" WHERE "board" = %s) r '
    f'WHERE e."id" = r."id" AND e."rank" IS DISTINCT FROM r.n'
)

# Reads in plain SQL, as the hot reads of the index's misses (``rows``): compiling the ORM's
# query cost as much as running it.
_ROWS = f'{rows.SQL_JOIN} ON s."id" = e."submission_id"'
_RANGE = (
    f'SELECT {rows.SQL_COLUMNS} FROM "{_ENTRIES}" e INNER JOIN {_ROWS} '
    f'WHERE e."board" = %s AND e."rank" BETWEEN %s AND %s ORDER BY e."rank"'
)
# A player's rank by (board, player): then the range, its bounds known (one statement joining
# both is planned for thousands of rows and scans the users).
_RANK_OF = f'SELECT "rank" FROM "{_ENTRIES}" WHERE "board" = %s AND "player_id" = %s'
_SIZE = f'SELECT "entries" FROM "{_FROZEN}" WHERE "board" = %s'


def is_final(board: str, now: datetime | None = None) -> bool:
    """A daily board whose day is final (only such a board can be frozen); ``now``: as for
    ``days.day_final``."""
    day = order.board_day(board)
    return day is not None and days.day_final(day, now)


def _lock(board: str) -> None:
    """The board's freeze lock, until the end of the transaction."""
    sql.run("SELECT pg_advisory_xact_lock(hashtext('freeze'), hashtext(%s))", [board])


def _try_lock(board: str) -> bool:
    """The board's freeze lock if nobody holds it (then until the end of the transaction)."""
    return sql.run("SELECT pg_try_advisory_xact_lock(hashtext('freeze'), hashtext(%s))", [board])[0][0]


def _rank(board: str) -> int:
    """Write the board's final ranks (one statement); its number of entries."""
    sql.run(_RANK, [board])
    return BoardEntry.objects.filter(board=board).count()


def board_freeze(board: str, now: datetime | None = None) -> FrozenBoard | None:
    """Freeze a final daily board: its ranks written, then (after commit) its Redis index
    dropped. None when the board is not a final day's, is frozen already, or is being frozen
    (or changed) by another process right now: a million entries take minutes, which a second
    run (beat's next, the command) does not spend waiting on a worker. ``now``: the clock, as
    for ``days.day_final``."""
    if not is_final(board, now):
        return None
    with transaction.atomic():
        if not _try_lock(board) or FrozenBoard.objects.filter(board=board).exists():
            return None
        frozen = FrozenBoard.objects.create(board=board, frozen_at=now or timezone.now(), entries=_rank(board))
        transaction.on_commit(lambda: _index_drop(board))
    log.info("froze %s: %d entries", board, frozen.entries)
    return frozen


def _index_drop(board: str) -> None:
    """After a freeze: the Redis index goes, and the cached pages are staled (the next page is
    read from PostgreSQL). Redis away: ``days_freeze`` drops it again on its next runs."""
    try:
        index.board_index().drop(board)
        cache.board_changed(board)
    except Exception:
        log.warning("index of frozen %s not dropped", board, exc_info=True)


def days_freeze(day: date | None = None, now: datetime | None = None) -> list[str]:
    """Freeze ``day``'s board, or every final day's board not frozen yet (beat: the days that
    had a deal, from the oldest). The boards frozen now. Also drops again the indexes of the
    boards frozen in the last two days, in case Redis was away or a rebuild that was under way
    during the freeze left one behind (UNLINK of missing keys costs nothing). A day without
    a deal has no board. ``now``: the clock, the server's by default (a simulation of many
    days moves its own: benchmarks/bench_year.py)."""
    if day is not None:
        boards = [order.daily_board(day)]
    else:  # the days that had a deal (one small row a day), not a scan of the entries
        done = set(FrozenBoard.objects.values_list("board", flat=True))
        boards = [
            board
            for board in map(order.daily_board, DailyDeal.objects.order_by("date").values_list("date", flat=True))
            if board not in done
        ]
    frozen = [board for board in boards if is_final(board, now) and board_freeze(board, now) is not None]
    recent = FrozenBoard.objects.filter(frozen_at__gte=(now or timezone.now()) - timedelta(days=2))
    for board in recent.values_list("board", flat=True):
        if board not in frozen:
            _index_drop(board)
    return frozen


# -- the frozen boards' changes and reads -----------------------------------------------------


def frozen_boards(boards: list[str]) -> set[str]:
    """The frozen boards among ``boards`` (no query unless one is a final day's)."""
    finals = [board for board in boards if is_final(board)]
    if not finals:
        return set()
    return set(FrozenBoard.objects.filter(board__in=finals).values_list("board", flat=True))


def is_frozen(board: str) -> bool:
    return frozen_size(board) is not None


def boards_lock(boards: list[str]) -> list[str]:
    """Before a change to entries on ``boards``, inside the caller's transaction: take the
    freeze lock of each final day's board among them (so a freeze never ranks around a change
    it cannot see yet) and answer those frozen, to re-rank after the change."""
    finals = sorted(board for board in boards if is_final(board))
    for board in finals:
        _lock(board)
    return sorted(frozen_boards(finals))


def boards_rerank(boards: list[str]) -> None:
    """After a change to entries on frozen ``boards`` (``boards_lock`` held): their ranks and
    sizes written again, in the caller's transaction."""
    for board in boards:
        FrozenBoard.objects.filter(board=board).update(entries=_rank(board))
        log.info("re-ranked frozen %s", board)


def frozen_size(board: str) -> int | None:
    """The number of entries of a frozen board; None when the board is not frozen."""
    if not is_final(board):
        return None
    found = sql.run(_SIZE, [board])
    return found[0][0] if found else None


def frozen_rows(board: str, offset: int, limit: int) -> list[bytes]:
    """The rows ranked ``offset`` .. ``offset + limit - 1`` (0-based) of a frozen board, as
    ``rows`` renders them: one range of the (board, rank) index."""
    if limit <= 0:
        return []
    return [rows.render(values) for values in sql.run(_RANGE, [board, offset + 1, offset + limit])]


def frozen_rank(board: str, player_id: int) -> int | None:
    """The player's 0-based rank on a frozen board (None: not on it), by (board, player)."""
    found = sql.run(_RANK_OF, [board, player_id])
    return found[0][0] - 1 if found and found[0][0] is not None else None


def frozen_around(board: str, player_id: int, radius: int) -> tuple[int | None, int, list[bytes]]:
    """``(rank, offset, rows)`` on a frozen board: the player's 0-based rank (None when not on
    it) and ``2 * radius + 1`` rows from ``offset = rank - radius``, never below 0 (as the
    index answers): their entry by (board, player), then a range of ranks."""
    rank = frozen_rank(board, player_id)
    if rank is None:
        return None, 0, []
    offset = max(rank - radius, 0)
    return rank, offset, frozen_rows(board, offset, 2 * radius + 1)


_PLAYERS = (
    f'SELECT "player_id", "rank" - 1, "submission_id" FROM "{_ENTRIES}" '
    f'WHERE "board" = %s AND "player_id" = ANY(%s::bigint[]) AND "rank" IS NOT NULL ORDER BY "rank"'
)


def frozen_players(board: str, player_ids: list[int]) -> list[tuple[int, int, int]]:
    """``(player id, 0-based rank, submission id)`` of the given players' entries on a frozen
    board, in rank order (a group's board of a closed day): by (board, player), no ranking pass."""
    return [tuple(row) for row in sql.run(_PLAYERS, [board, sql.bigint_array(player_ids)])]
