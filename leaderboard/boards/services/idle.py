"""Idle numbered boards leave Redis. A numbered deal's board never closes, but most are played
for a while and then left: an index with no write for ``BOARD_IDLE_DAYS`` days is dropped
(beat, ``manage.py evict_boards``), and rebuilt from PostgreSQL when next asked for, as a lost
index is (``store.store_for``). The index keeps each board's last write in one sorted set
(``BoardIndex.touched``), written by the same script as the write.
"""

import logging
import time

from django.conf import settings

from .. import index, order

log = logging.getLogger(__name__)


def idle_boards_evict(now: float | None = None) -> list[str]:
    """Drop the index of every numbered deal's board with no write for ``BOARD_IDLE_DAYS``
    days (``now``: unix time, the clock by default). A board being rebuilt is left for the
    next run (its rebuild claim is taken, so no rebuild marks a half-dropped index ready)."""
    ranks = index.board_index()
    before = (time.time() if now is None else now) - settings.BOARD_IDLE_DAYS * 86400
    evicted = []
    for board in ranks.idle(before):
        if order.is_deal(board) and ranks.evict(board):
            evicted.append(board)
    if evicted:
        log.info("evicted %d idle boards from Redis", len(evicted))
    return evicted
