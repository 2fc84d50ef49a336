"""A Redis cache that degrades to "miss" when Redis is unreachable.

The cache (board pages, throttling counters) is an optimisation: a player must still be
able to submit while Redis is down, so a failed cache call answers like an empty cache
instead of raising.
"""

import functools
import logging

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError, TimeoutError

log = logging.getLogger(__name__)
_UNREACHABLE = (ConnectionError, TimeoutError)


def _degrade(default):
    def wrap(method):
        @functools.wraps(method)
        def safe(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except _UNREACHABLE:
                log.warning("cache unreachable: %s answered as a miss", method.__name__)
                return default(*args, **kwargs) if callable(default) else default
        return safe
    return wrap


def _default_arg(key, default=None, *args, **kwargs):
    return kwargs.get("default", default)


def _computed(key, default, *args, **kwargs):
    return default() if callable(default) else default


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client with one ``redis.Redis`` per connection pool, kept: Django's own builds
    a new one for every cache call (about 150 us of CPU: its response callbacks are copied),
    though the object holds no state of its own beyond the pool it wraps."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    get = _degrade(_default_arg)(RedisCache.get)
    get_many = _degrade({})(RedisCache.get_many)
    get_or_set = _degrade(_computed)(RedisCache.get_or_set)
    set = _degrade(None)(RedisCache.set)
    set_many = _degrade([])(RedisCache.set_many)
    add = _degrade(False)(RedisCache.add)
    touch = _degrade(False)(RedisCache.touch)
    delete = _degrade(False)(RedisCache.delete)
    delete_many = _degrade(None)(RedisCache.delete_many)
    incr = _degrade(0)(RedisCache.incr)
    has_key = _degrade(False)(RedisCache.has_key)

    @_degrade(None)
    def incr_many(self, keys) -> None:
        """INCR each key (a missing one becomes 1) in one round trip. Unreachable: nothing."""
        names = [self.make_and_validate_key(key) for key in keys]
        if names:
            pipe = self._cache.get_client(names[0], write=True).pipeline(transaction=False)
            for name in names:
                pipe.incr(name)
            pipe.execute()

    @_degrade((1, None))
    def incr_window(self, key: str, seconds: int) -> tuple[int, int | None]:
        """Count one more hit on ``key`` in a window of ``seconds`` that starts at the first
        hit: (hits so far, seconds left). One round trip (SET NX with the expiry, INCR, TTL),
        and a key found without an expiry gets one, so none outlives its window. Unreachable:
        (1, None)."""
        key = self.make_and_validate_key(key)
        client = self._cache.get_client(key, write=True)
        pipe = client.pipeline(transaction=False)
        _, count, ttl = pipe.set(key, 0, ex=seconds, nx=True).incr(key).ttl(key).execute()
        if ttl < 0:  # expired between the SET and the INCR (or an EXPIRE lost): a new window
            client.expire(key, seconds)
            ttl = seconds
        return count, ttl
