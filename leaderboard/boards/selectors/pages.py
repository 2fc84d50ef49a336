"""Board reads: a page, a player's own rank and the rows around it, the board's size. Ranks
and rows come from the Redis index (rows it lacks from PostgreSQL, stored back for the next
reader); while the index is not whole, from PostgreSQL for a small board, and a 503 for a big
one. A read never rebuilds an index: the view prepares it first (``entries.index_ensure``).
A closed day's frozen board has no index: its ranks and rows are read from PostgreSQL by rank
(``freeze``)."""

import logging

from django.db.models import Q
from django.utils.translation import gettext

from ...core import cache, sql
from ...core.errors import Unavailable
from ...record.models import BoardEntry
from .. import freeze, index, order, rows

log = logging.getLogger(__name__)
#: PostgreSQL's order of a board, the index's order (``order``).
BOARD_ORDER = ("rank_key", "submitted_at", "submission_id")

_NO_INDEX = object()
# A board with more entries than this is "big": its lost index is rebuilt by a task, not inside
# the request that finds it missing (a million entries take about half a minute, past any
# request's time limit), and its ranks are never counted in PostgreSQL per request (a count or
# an OFFSET over a million entries takes seconds): while its index is away, reads are a 503.
BIG_BOARD_ENTRIES = 50_000


def _from_index(board: str, read):
    """``read(ranks)`` on the board's Redis index. ``_NO_INDEX`` when the index is not whole
    (``index.NotReady``: lost, and not rebuilt yet by ``entries.index_ensure``, or being
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
    found = rows.of_submissions(list(missing))
    try:
        index.board_index().fill_rows(board, {missing[sid]: row for sid, row in found.items()})
    except Exception:
        log.warning("rows not stored in the index of %s", board, exc_info=True)
    return [found.get(order.submission_of(member)) if row is None else row for member, row in entries]


def _rows_of(submission_ids: list[int]) -> list[bytes | None]:
    found = rows.of_submissions(submission_ids)
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
    frozen = freeze.frozen_size(board)
    if frozen is not None:
        return freeze.frozen_rows(board, offset, limit), frozen
    found = _from_index(board, lambda ranks: ranks.page_rows(board, offset, limit))
    if found is not _NO_INDEX:
        total, entries = found
        return _filled(board, entries), total
    _from_record(board)
    ids, total = _record_page(board, offset, limit)
    return _rows_of(ids), total


def board_size(board: str) -> int:
    """The number of entries on the board. Raises ``Unavailable`` while a big board's index is away."""
    return _page(board, 0, 0)[1]


def rank_of(board: str, player_id: int) -> int | None:
    """The player's 0-based rank on the board, None when they are not on it."""
    if freeze.frozen_size(board) is not None:
        return freeze.frozen_rank(board, player_id)
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
    return board_page_at(board, page, page_size)[0]


def board_page_at(board: str, page: int, page_size: int) -> tuple[bytes, tuple[int, int] | None]:
    """``board_page``, and the board's (version, top version) that a cached top page shows
    (``cache.cached_at``); None for a page computed now (as new as any version read before)."""
    def compute():
        offset = (page - 1) * page_size
        found, total = _page(board, offset, page_size)
        head = {"board": board, "count": total, "page": page, "page_size": page_size}
        return rows.page_json(head, offset + 1, found)
    last_rank = page * page_size
    if last_rank > cache.TOP_RANKS:
        return compute(), None
    body, version, top = cache.cached_at(board, f"page-json:{page}:{page_size}", compute, last_rank=last_rank)
    return body, (version, top)


def board_around(board: str, player, radius: int) -> bytes:
    """The caller's own rank and the rows ``radius`` above and below it, as the API's JSON."""
    frozen = freeze.frozen_size(board)
    found = _NO_INDEX if frozen is not None else _from_index(board, lambda ranks: ranks.around(board, player.pk, radius))
    if frozen is not None:
        (rank, offset, shown), total = freeze.frozen_around(board, player.pk, radius), frozen
    elif found is not _NO_INDEX:
        rank, offset, entries, total = found
        shown = _filled(board, entries)
    else:
        _from_record(board)
        rank = _record_rank(board, player.pk)
        offset = max(rank - radius, 0) if rank is not None else 0
        ids, total = _record_page(board, offset, 2 * radius + 1 if rank is not None else 0)
        shown = _rows_of(ids)
    head = {"board": board, "count": total, "me": None if rank is None else rank + 1}
    return rows.page_json(head, offset + 1, shown if rank is not None else [])


# -- some players' entries: a group's board -----------------------------------------------

_ENTRIES = BoardEntry._meta.db_table
# PostgreSQL: the given players' entries with their 0-based ranks, from one ranking pass over
# the board (small boards only: ``_from_record``).
_RECORD_PLAYERS = (f'SELECT "player_id", "place", "submission_id" FROM (SELECT "player_id", "submission_id", '
                   f'row_number() OVER (ORDER BY "rank_key", "submitted_at", "submission_id") - 1 AS "place" '
                   f'FROM "{_ENTRIES}" WHERE "board" = %s) ranked '
                   f'WHERE "player_id" = ANY(%s::bigint[]) ORDER BY "place"')


def players_ranked(board: str, player_ids: list[int]) -> list[tuple[int, int, bytes]]:
    """``(player id, 0-based rank on the board, row)`` of the entries of the given players
    (those without one are left out), in the board's order: from the index, one round trip
    whatever the board's size (the rows it lacks from PostgreSQL); while the index is not
    whole, from PostgreSQL for a small board, and a 503 for a big one. A frozen closed day: by
    its ranks in PostgreSQL (``freeze.frozen_players``)."""
    if not player_ids:
        return []
    if freeze.frozen_size(board) is not None:
        ranked = freeze.frozen_players(board, player_ids)
    else:
        found = _from_index(board, lambda ranks: ranks.players(board, player_ids))
        if found is not _NO_INDEX:
            found.sort(key=lambda entry: entry[1])
            shown = _filled(board, [(member, row) for _, _, member, row in found])
            return [(player, rank, row) for (player, rank, _, _), row in zip(found, shown) if row is not None]
        _from_record(board)
        ranked = sql.run(_RECORD_PLAYERS, [board, "{%s}" % ",".join(str(int(pid)) for pid in player_ids)])
    shown = rows.of_submissions([sid for _, _, sid in ranked])
    return [(player, rank, shown[sid]) for player, rank, sid in ranked if sid in shown]
