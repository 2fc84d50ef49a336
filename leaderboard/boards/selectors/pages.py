"""Board reads: a page, a player's own rank and the rows around it, the board's size, some
players' entries (a group's board). Each asks the board's store (``store.store_for``) once,
which picks the source: the frozen ranks of a closed day, the Redis index (prepared first: a
lost one rebuilt), or PostgreSQL while the index is not whole (a 503 for a big board)."""

from collections.abc import Sequence

from ...core import cache, days, sql
from ...record.models import ON_BOARDS, BoardEntry
from .. import order, rows
from ..store import live_index, store_for

_ENTRIES = BoardEntry._meta.db_table
# The entries ranked before a result (the board's order: rank key, then submission time and
# id, ``order.member``) and all of them: from the record, as a guest's result is in no index.
_BEFORE = (
    f'SELECT count(*) FILTER (WHERE ("rank_key", "submitted_at", "submission_id") < (%s, %s, %s)), count(*) '
    f'FROM "{_ENTRIES}" WHERE "board" = %s AND "player_id" <> %s'
)


def board_size(board: str) -> int:
    """The number of entries on the board. Raises ``Unavailable`` while a big board's index is away."""
    return store_for(board).size()


def rank_of(board: str, player_id: int) -> int | None:
    """The player's 0-based rank on the board, None when they are not on it."""
    return store_for(board).rank(player_id)


def board_page(board: str, page: int, page_size: int) -> bytes:
    """One page of a board, ranks 1-based, as the API's JSON. A top page (within the first
    ``cache.TOP_RANKS``) is cached, rendered: a cached page is sent as stored
    (``rendering.JSONBytesResponse``). Deeper pages are computed each time, from the index
    alone: on a live board every result stales them, and one is rarely asked twice, so caching
    them cost a read and a write per request for few hits."""
    return board_page_at(board, page, page_size)[0]


def top_page_keys(board: str, page: int, page_size: int) -> list[str]:
    """The cache keys that reading a top page looks up (none for a deeper page): a view that
    reads them with its tag's versions (``api.live``) passes their values to ``board_page_at``."""
    return cache.part_keys(board, _part(page, page_size)) if page * page_size <= cache.TOP_RANKS else []


def _part(page: int, page_size: int) -> str:
    return f"page-json:{page}:{page_size}"


def board_page_at(
    board: str, page: int, page_size: int, held: dict | None = None
) -> tuple[bytes, tuple[int, int] | None]:
    """``board_page``, and the board's (version, top version) that a cached top page shows
    (``cache.cached_at``); None for a page computed now (as new as any version read before).
    ``held``: the values of ``top_page_keys`` read already. The store is asked only for a page
    that is computed: a cached top page is one round trip, or none with ``held``."""

    def compute():
        offset = (page - 1) * page_size
        found, total = store_for(board).page(offset, page_size)
        head = {"board": board, "count": total, "page": page, "page_size": page_size}
        return rows.page_json(head, offset + 1, found)

    last_rank = page * page_size
    if last_rank > cache.TOP_RANKS:
        return compute(), None
    body, version, top = cache.cached_at(board, _part(page, page_size), compute, last_rank=last_rank, held=held)
    return body, (version, top)


def top_page_held(board: str, page: int, page_size: int, held: dict) -> tuple[bytes, tuple[int, int]] | None:
    """``board_page_at`` of a top page from ``held`` (the values of ``top_page_keys``, read
    already) when its cached copy is current; None when it would be computed (or is no top
    page)."""
    if page * page_size > cache.TOP_RANKS:
        return None
    found = cache.current_at(board, _part(page, page_size), held, last_rank=page * page_size)
    return None if found is None else (found[0], found[1:])


def board_around(board: str, player, radius: int) -> bytes:
    """The caller's own rank and the rows ``radius`` above and below it, as the API's JSON."""
    return board_around_of(board, player.pk, radius)


def board_around_of(board: str, player_id: int, radius: int) -> bytes:
    """``board_around`` of the player of id ``player_id``."""
    return _around_json(board, *store_for(board).around(player_id, radius))


def board_around_held(
    board: str, player_key: str, radius: int, keys: list[str], holding: list[int]
) -> tuple[dict, int | None, bytes | None] | None:
    """``board_around_of`` of the player whose id the cache key ``player_key`` holds (a cached
    token's), and the values of the cache keys ``keys`` (the board's versions), in one round
    trip: ``(values as cache.read_many gives them, player id or None, answer or None)``. No
    answer when there is no such player, when the index is not whole, or when ``holding`` are
    the values now (the caller's copy is current). None when the board is not read from its
    index, or may not be (a final day), or Redis fails: ``board_around_of`` then."""
    store = live_index(board)
    if store is None:
        return None
    found = store.around_held(cache.raw_keys([player_key])[0], radius, cache.raw_keys(keys), holding)
    if found is None:
        return None
    values, player, around = found
    return cache.decoded(keys, values), player, None if around is None else _around_json(board, *around)


def _around_json(board: str, rank: int | None, offset: int, shown: Sequence, total: int) -> bytes:
    head = {"board": board, "count": total, "me": None if rank is None else rank + 1}
    return rows.page_json(head, offset + 1, shown if rank is not None else [])


def players_ranked(board: str, player_ids: list[int]) -> list[tuple[int, int, bytes]]:
    """``(player id, 0-based rank on the board, row)`` of the entries of the given players
    (those without one are left out), in the board's order: from the index, one round trip
    whatever the board's size (the rows it lacks from PostgreSQL); while the index is not
    whole, from PostgreSQL for a small board, and a 503 for a big one. A frozen closed day: by
    its ranks in PostgreSQL."""
    return store_for(board).players(player_ids) if player_ids else []


def rank_if_kept(submission) -> dict | None:
    """A guest's verified result: ``{"rank", "count"}``, the rank of N it would have on its
    board if the guest kept it now. None when it would not rank anyway (``ON_BOARDS`` but for
    the guest's mark) or its day is final (kept now, it would stay off the board)."""
    if any(getattr(submission, name) != value for name, value in ON_BOARDS.items() if name != "guest"):
        return None
    if submission.daily_date is not None and days.day_final(submission.daily_date):
        return None
    if submission.daily_date is not None:
        board = order.daily_board(submission.daily_date)
    else:
        board = order.deal_board(submission.deal_number)
    [(before, count)] = sql.run(
        _BEFORE, [submission.rank_key, submission.submitted_at, submission.pk, board, submission.player_id]
    )
    return {"rank": before + 1, "count": count + 1}
