"""Caching of what is read often (board pages), invalidated by a version per board.

A change bumps the board's version, so every cached page of it is stale at once. The
cache backend answers "miss" when Redis is away (config.cache), so reads then go to the
source.
"""

from django.core.cache import cache

PAGE_SECONDS = 300


def _version_key(board: str) -> str:
    return f"board-version:{board}"


def board_changed(board: str) -> None:
    if not cache.add(_version_key(board), 1, None):
        cache.incr(_version_key(board))


def cached(board: str, part: str, compute):
    """``compute()`` for ``part`` of ``board``, cached until the board changes."""
    version = cache.get_or_set(_version_key(board), 1, None)
    key = f"board:{board}:{version}:{part}"
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, PAGE_SECONDS)
    return value
