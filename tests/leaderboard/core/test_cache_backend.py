"""The cache (django-redis) and the raw Redis calls beside it: one connection pool for the
cache, the throttle windows, the board versions and the ranking index, and a "miss" (or a
permissive answer) when Redis is unreachable."""

import logging

import pytest
from django.core.cache import cache
from django_redis import get_redis_connection
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)

from leaderboard.api.throttling import incr_window
from leaderboard.boards import index
from leaderboard.core import cache as page_cache

pytestmark = pytest.mark.django_db
UNREACHABLE = "redis://127.0.0.1:9/0"  # the discard port: nothing listens


def test_the_cache_and_the_ranking_index_share_one_client(clean_redis):
    client = get_redis_connection("default")
    assert index.board_index().client is client and get_redis_connection("default") is client
    cache.set("k", {"v": 1})
    assert cache.get("k") == {"v": 1}
    assert client.exists(cache.make_key("k")) == 1  # the cache's key prefix and version


def test_incr_window_counts_and_expires(clean_redis):
    assert incr_window("w", 30) == (1, 30)
    count, left = incr_window("w", 30)
    assert count == 2 and 0 < left <= 30
    assert 0 < clean_redis.ttl(cache.make_key("w")) <= 30


def test_board_versions_count_in_the_cache_s_keys(clean_redis):
    page_cache.boards_changed({"deal:1": 5, "deal:2": page_cache.TOP_RANKS})
    first = cache.get("board-version:deal:1")  # a new version starts from the clock (ms)
    page_cache.board_changed("deal:1")
    found = cache.get_many(
        ["board-version:deal:1", "board-top-version:deal:1", "board-version:deal:2", "board-top-version:deal:2"]
    )
    assert found.keys() == {"board-version:deal:1", "board-top-version:deal:1", "board-version:deal:2"}
    assert found["board-version:deal:1"] == found["board-top-version:deal:1"] == first + 1
    assert abs(found["board-version:deal:2"] - first) < 60_000


def test_an_unreachable_redis_is_a_miss_and_a_first_hit_logged(settings, caplog):
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": UNREACHABLE}}
    with caplog.at_level(logging.WARNING):
        assert cache.get("k", "default") == "default" and cache.get_many(["k"]) == {}
        cache.set("k", 1)
        assert incr_window("w", 30) == (1, None)
        page_cache.boards_changed({"deal:1": None})  # nothing to bump: no error
        assert page_cache.cached("deal:1", "top", lambda: "computed") == "computed"
    logged = {record.name for record in caplog.records}
    assert {"django_redis.cache", "leaderboard.core.cache"} <= logged


def test_read_many_reads_as_the_cache_does_and_after_the_server_drops_it(clean_redis):
    cache.set_many({"a": 7, "b": {"x": 1}})
    assert page_cache.read_many(["a", "b", "c"]) == cache.get_many(["a", "b", "c"]) == {"a": 7, "b": {"x": 1}}
    own = get_redis_connection("default").client_id()  # the pool's connection the next read takes (LIFO)
    assert clean_redis.client_kill_filter(_id=own) == 1  # dropped by the server
    assert page_cache.read_many(["a", "b"]) == {"a": 7, "b": {"x": 1}}
