"""A day's histogram of the winners' moves, and the bucketing it shares with a player's
distribution of moves (``stats``). Reads only: nothing here writes the record.

The histogram is one aggregate query over the day's board entries: a win's moves are packed
in its rank key (``order.rank_key``), so the query reads two ranges of the (board, rank key)
index (wins without hints, then wins with hints) and no submission. It is cached per board,
under the board's version as its pages are (``cache``): the version, bumped by every change to
the board (``entries.boards_mirror``, a freeze, staff's corrections), stales it, and a busy day
still serves it for up to LAG_SECONDS after it was computed, so a day of a million results is
counted at most once per LAG_SECONDS, not per request (while one process counts again, the
others serve the stale one). A final day changes no more but by staff's rare corrections: its
histogram is kept for FINAL_SECONDS.

What it shows is public as the board is: every winner's moves are on the day's board from the
moment the result is verified (docs/fair-play.md: only the deal and the logs wait for the
day to be final).
"""

import time
from datetime import date

from django.core.cache import cache as django_cache

from ...core import cache, days, sql
from ...record.models import BoardEntry
from .. import order

#: How stale a day's histogram may be after a change (its own new result shows within this).
LAG_SECONDS = 10.0
#: How long a final day's histogram stays cached (a correction stales it at once anyway).
FINAL_SECONDS = 24 * 3600
#: At most this many bars: the width of a bucket is the smallest of 1, 2, 5, 10, 20, 50, ...
#: moves that keeps the bars within it.
MAX_BUCKETS = 12

_ENTRIES = BoardEntry._meta.db_table
_MOVES_SHIFT = order.SCORE_BITS + order.WON_SECONDS_BITS  # a win's body: moves, points, seconds
_TIER = 1 << order.BODY_BITS
# The winners' moves counted by value: tier 0 (won) and tier 2 (won with hints) are two ranges
# of rank keys, so the losers' entries are never read.
_WINNERS = (
    f'SELECT ("rank_key" >> {_MOVES_SHIFT}) & {order.MOVES_CAP}, count(*) FROM "{_ENTRIES}" '
    f'WHERE "board" = %s AND ("rank_key" < {_TIER} OR ("rank_key" >= {2 * _TIER} '
    f'AND "rank_key" < {3 * _TIER})) GROUP BY 1'
)


def bucket_width(low: int, high: int, max_buckets: int = MAX_BUCKETS) -> int:
    """The smallest width of 1, 2, 5, 10, 20, 50, ... whose buckets (aligned on multiples of
    it) cover ``low`` .. ``high`` in at most ``max_buckets``."""
    scale = 1
    while True:
        for step in (1, 2, 5):
            width = step * scale
            if high // width - low // width + 1 <= max_buckets:
                return width
        scale *= 10


def buckets(counts: dict[int, int], max_buckets: int = MAX_BUCKETS) -> list[dict]:
    """``{moves: how many}`` as consecutive buckets ``{"low", "high", "count"}`` (both ends
    included), empty ones between included, so the bars stand on an even scale."""
    counts = {moves: n for moves, n in counts.items() if n}
    if not counts:
        return []
    low, high = min(counts), max(counts)
    width = bucket_width(low, high, max_buckets)
    first = low // width
    found = [0] * (high // width - first + 1)
    for moves, n in counts.items():
        found[moves // width - first] += n
    return [
        {"low": (first + i) * width, "high": (first + i) * width + width - 1, "count": n} for i, n in enumerate(found)
    ]


def bucket_of(shown: list[dict], moves: int) -> int | None:
    """The index of the bucket holding ``moves``; None when no bucket does."""
    for i, bucket in enumerate(shown):
        if bucket["low"] <= moves <= bucket["high"]:
            return i
    return None


def _winners(board: str) -> dict:
    counts = dict(sql.run(_WINNERS, [board]))
    return {"winners": sum(counts.values()), "buckets": buckets(counts)}


def _cached(board: str, compute, seconds: int):
    """``compute()`` for the board, cached until the board changes (its version, as the pages'
    cache keeps it: ``cache``), and after a change still served for up to LAG_SECONDS from when
    it was computed."""
    version_key, key = cache.version_keys(board)[0], f"board:{board}:histogram"
    found = django_cache.get_many([version_key, key])
    version, stored = found.get(version_key, 0), found.get(key)
    now = time.time()
    if isinstance(stored, tuple) and len(stored) == 3:
        stored_version, computed_at, value = stored
        if stored_version == version or 0 <= now - computed_at < LAG_SECONDS:
            return value
        if not django_cache.add(f"{key}:computing", 1, max(int(LAG_SECONDS), 1)):
            return value  # another process is counting it again
    value = compute()
    django_cache.set(key, (version, now, value), seconds)
    django_cache.delete(f"{key}:computing")
    return value


def day_histogram(day: date, viewer) -> dict:
    """The winners' moves on ``day``'s board, bucketed, and where the viewer's own result is
    ("you are here": their entry's moves, whether it won, and its bucket when it did)."""
    board = order.daily_board(day)
    final = days.day_final(day)
    found = _cached(board, lambda: _winners(board), FINAL_SECONDS if final else cache.PAGE_SECONDS)
    return {
        "date": day,
        "board": board,
        "final": final,
        **found,
        "me": _mine(board, viewer, found["buckets"]) if viewer.is_authenticated else None,
    }


def _mine(board: str, viewer, shown: list[dict]) -> dict | None:
    """The viewer's entry on the board, as the histogram places it (one probe of the
    (board, player) index); None when they have none."""
    key = BoardEntry.objects.filter(board=board, player=viewer).values_list("rank_key", flat=True).first()
    if key is None:
        return None
    parts = order.rank_parts(key)
    return {"won": parts.won, "moves": parts.moves, "bucket": bucket_of(shown, parts.moves) if parts.won else None}
