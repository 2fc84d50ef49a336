"""A Redis cache that degrades to "miss" when Redis is unreachable.

The cache (board pages, throttling counters) is an optimisation: a player must still be
able to submit while Redis is down, so a failed cache call answers like an empty cache
instead of raising.
"""

import functools
import logging

from django.core.cache.backends.redis import RedisCache
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


class ResilientRedisCache(RedisCache):
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
