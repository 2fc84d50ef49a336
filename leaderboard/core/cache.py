"""Caching of what is read often (board pages), invalidated by versions per board.

A change bumps the board's version, so every cached page of it is stale at once. Each page
is stored once, with the versions it was computed at, and read together with the board's
versions in one round trip (MGET): a page whose version is not the board's current one is a
miss. The cache backend answers "miss" when Redis is away (django-redis's IGNORE_EXCEPTIONS,
config/settings.py), so reads then go to the source; the raw Redis calls here and in
``throttling`` degrade the same way through ``unless_unreachable``.

Pages at the top of a board stay cached on a live board: a board also has a "top" version,
bumped only by a change that touches one of its first TOP_RANKS ranks (or whose rank is not
known). A page that shows no rank below TOP_RANKS is still served after changes further down,
for COUNT_LAG_SECONDS after it was computed: its rows are unchanged, only the board's size
("count") shown with it may lag behind by that long. With a million players nearly every new
result lands far below the top, so the top pages are computed about once a COUNT_LAG_SECONDS
instead of at every result.
"""

import functools
import logging
import time

import redis
from django.conf import settings
from django.core.cache import cache
from django_redis import get_redis_connection

log = logging.getLogger(__name__)

PAGE_SECONDS = 300
TOP_RANKS = 1000
COUNT_LAG_SECONDS = 1.0


def _version_key(board: str) -> str:
    return f"board-version:{board}"


def _top_version_key(board: str) -> str:
    return f"board-top-version:{board}"


def board_changed(board: str, rank: int | None = None) -> None:
    """``board`` changed at ``rank`` (0-based, the best rank the change touched; None: not known)."""
    boards_changed({board: rank})


def boards_changed(changes: dict[str, int | None]) -> None:
    """Mark boards changed, ``{board: rank as for board_changed}``, in one round trip. A rank
    of -1 (nothing changed in the index, but the record did) stales the board's pages except
    the top ones."""
    keys = []
    for board, rank in changes.items():
        keys.append(_version_key(board))
        if rank is None or 0 <= rank < TOP_RANKS:
            keys.append(_top_version_key(board))
    _incr(keys)


def version_keys(board: str) -> tuple[str, str]:
    """The cache keys of the board's version and top version, for readers that compare them
    (``boards.live``: the board endpoints' ETags)."""
    return _version_key(board), _top_version_key(board)


def key_changed(key: str) -> None:
    """Bump a version kept beside the boards' (a group's members: ``group_changed``)."""
    _incr([key])


def group_key(group_id: int) -> str:
    """The version of a group's members, read into its boards' tags (``api.live``)."""
    return f"group-version:{group_id}"


def group_changed(group_id: int) -> None:
    """A group's members changed: the tags of its boards stop matching."""
    key_changed(group_key(group_id))


def unless_unreachable(answer):
    """Decorate a function that calls Redis directly (a pipeline, a script) to answer ``answer``
    when Redis is unreachable, logged, as the cache's own calls answer a miss: the cache is an
    optimisation, and a player must still be able to submit while Redis is down."""

    def wrap(function):
        @functools.wraps(function)
        def safe(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            except (redis.ConnectionError, redis.TimeoutError):
                log.warning("Redis unreachable: %s answered %r", function.__qualname__, answer, exc_info=True)
                return answer

        return safe

    return wrap


def _version_seconds() -> int:
    """How long a version outlives its board's last change: a day past the idle eviction, so
    Redis keeps versions only for the boards in use (closed days' and idle deals' go)."""
    return (settings.BOARD_IDLE_DAYS + 1) * 86_400


@unless_unreachable(None)
def _incr(keys: list[str]) -> None:
    """Bump each version in one round trip. A missing version starts from the clock in
    milliseconds, not 0: a version that expired and came back never repeats an old number, so
    a page or an ETag of its earlier life never matches (a board changes far less than 1,000
    times a second)."""
    if keys:
        pipe = get_redis_connection("default").pipeline(transaction=False)
        start, ttl = int(time.time() * 1000), _version_seconds()
        for key in keys:
            key = cache.make_key(key)
            pipe.set(key, start, nx=True)
            pipe.incr(key)
            pipe.expire(key, ttl)
        pipe.execute()


def read_many(keys: list[str]) -> dict:
    """``cache.get_many(keys)`` in one MGET, each key made once a process: the board reads
    ask for the same few keys at every poll, and the cache's key making and wrappers were a
    tenth of a cached top page's time in the process (``make_key`` alone 4 µs a key). A key
    that is missing is left out; a Redis error answers {} (all missing), as the cache does."""
    try:
        values = command("MGET", *raw_keys(keys))
    except redis.RedisError:
        log.warning("Redis unavailable: read as missing", exc_info=True)
        return {}
    return decoded(keys, values)


def command(*args, client: redis.Redis | None = None):
    """One command on a pooled connection of the project's client (or ``client``), its reply
    as the connection parses it, without the client's command wrapper: its retries, locks and
    metrics cost a third of a call (callgrind: 168k -> 114k instructions an MGET), and the hot
    reads that use this answer a miss on failure anyway, never retried. A connection that
    failed mid-reply is dropped, as the client drops it."""
    pool = (client or get_redis_connection("default")).connection_pool
    connection = pool.get_connection()
    try:
        connection.send_command(*args)
        return connection.read_response()
    except (redis.ConnectionError, redis.TimeoutError):
        connection.disconnect()
        raise
    finally:
        pool.release(connection)


def raw_keys(keys: list[str]) -> list[str]:
    """Redis's names of these cache keys (made once a process), for a script that reads them
    with keys of its own (``boards.index``)."""
    return [_made_key(key) for key in keys]


def decoded(keys: list[str], values: list) -> dict:
    """``read_many``'s answer from the raw values of ``keys`` (None: missing), read elsewhere."""
    decode = cache.client.decode  # django-redis's, as get_many decodes
    return {key: decode(value) for key, value in zip(keys, values) if value is not None}


@functools.lru_cache(maxsize=4096)
def _made_key(key: str) -> str:
    return cache.make_key(key)


def cached(board: str, part: str, compute, *, last_rank: int | None = None):
    """``compute()`` for ``part`` of ``board``, cached until the board changes. A part that
    shows no rank below ``last_rank`` (1-based) <= TOP_RANKS is a top page (see above)."""
    return cached_at(board, part, compute, last_rank=last_rank)[0]


def part_keys(board: str, part: str) -> list[str]:
    """The keys that ``cached_at`` reads for ``part`` of ``board``, in one round trip: a reader
    that reads them beforehand with keys of its own (``api.live``) passes them as ``held``."""
    return [_version_key(board), _top_version_key(board), f"board:{board}:{part}"]


def cached_at(board: str, part: str, compute, *, last_rank: int | None = None, held: dict | None = None) -> tuple:
    """``cached``, as ``(value, version, top version)``: the board's versions the value shows
    (a top page served after changes below it shows older ones than the board's; its ETag says
    so, ``boards.live``). ``held``: the values of ``part_keys`` already read (a missing key's
    None), so that a page whose tag the view read costs no second round trip."""
    keys = part_keys(board, part)
    if held is None or not all(name in held for name in keys):
        held = read_many(keys)
    found = current_at(board, part, held, last_rank=last_rank)
    if found is not None:
        return found
    version, top_version = held.get(keys[0]) or 0, held.get(keys[1]) or 0
    value = compute()
    cache.set(keys[2], (version, top_version, time.time(), value), PAGE_SECONDS)
    return value, version, top_version


def current_at(board: str, part: str, held: dict, *, last_rank: int | None = None) -> tuple | None:
    """``cached_at``'s answer from ``held`` (the values of ``part_keys``, read already; a key
    left out or None: missing) when the value stored there is still current; None when it
    would be computed."""
    version_key, top_key, key = part_keys(board, part)
    version, top_version = held.get(version_key) or 0, held.get(top_key) or 0
    stored = held.get(key)
    if isinstance(stored, tuple) and len(stored) == 4:
        stored_version, stored_top, computed_at, value = stored
        top = last_rank is not None and last_rank <= TOP_RANKS
        if stored_version == version or (
            top and stored_top == top_version and 0 <= time.time() - computed_at < COUNT_LAG_SECONDS
        ):
            return value, stored_version, stored_top
    return None
