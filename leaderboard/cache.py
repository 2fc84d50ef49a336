"""Caching of what is read often (board pages), invalidated by a version per board.

A change bumps the board's version, so every cached page of it is stale at once. Each page
is stored once, with the version it was computed at, and read together with the board's
version in one round trip (MGET): a page whose version is not the board's current one is a
miss. The cache backend answers "miss" when Redis is away (config.cache), so reads then go
to the source.
"""

from django.core.cache import cache

PAGE_SECONDS = 300


def _version_key(board: str) -> str:
    return f"board-version:{board}"


def board_changed(board: str) -> None:
    key = _version_key(board)
    try:
        cache.incr(key)  # the usual case: the board has a version already
    except ValueError:  # none yet: start at 1 (unless someone just did, then count this change)
        if not cache.add(key, 1, None):
            cache.incr(key)


def cached(board: str, part: str, compute):
    """``compute()`` for ``part`` of ``board``, cached until the board changes."""
    version_key, key = _version_key(board), f"board:{board}:{part}"
    found = cache.get_many([version_key, key])
    version = found.get(version_key)
    if version is None:
        version = cache.get_or_set(version_key, 1, None)
    stored = found.get(key)
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == version:
        return stored[1]
    value = compute()
    cache.set(key, (version, value), PAGE_SECONDS)
    return value
