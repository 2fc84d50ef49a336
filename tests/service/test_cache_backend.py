"""config.cache: the Redis cache keeps its client objects, counts windows in one round trip,
and still answers "miss" when Redis is unreachable."""

import pytest
from django.core.cache import caches

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(settings):
    if not settings.REDIS_URL:
        pytest.skip("needs the Redis cache backend")
    return caches["default"]


def test_one_client_object_per_pool_is_kept(redis_cache):
    client = redis_cache._cache.get_client("a")
    assert redis_cache._cache.get_client("b") is client and redis_cache._cache.get_client(write=True) is client
    redis_cache.set("k", {"v": 1})
    assert redis_cache.get("k") == {"v": 1}


def test_incr_window_counts_and_expires(redis_cache, clean_redis):
    assert redis_cache.incr_window("w", 30) == (1, 30)
    count, left = redis_cache.incr_window("w", 30)
    assert count == 2 and 0 < left <= 30
    assert 0 < clean_redis.ttl(redis_cache.make_key("w")) <= 30


def test_an_unreachable_redis_is_a_miss_and_a_first_hit(settings):
    if not settings.REDIS_URL:
        pytest.skip("needs the Redis cache backend")
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"}}
    cache = caches["default"]
    assert cache.get("k", "default") == "default" and cache.get_many(["k"]) == {}
    cache.set("k", 1)
    assert cache.incr_window("w", 30) == (1, None)
