"""Board pages cached on a live board: a change stales every page it can affect, and the top
pages stay cached while changes land below them (their board size may lag, boundedly)."""

import time
from datetime import UTC, datetime, timezone

import pytest
from django.core.cache import cache as django_cache
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.test import APIClient

from leaderboard.boards import index, order
from leaderboard.core import cache

pytestmark = pytest.mark.django_db
AT = datetime(2026, 1, 1, 12, tzinfo=UTC)


def test_setting_entries_answers_the_best_rank_the_change_touched(clean_redis):
    redis_index, board = index.board_index(), "deal:77"
    redis_index.rebuild(board, [(player, 10 * player, AT, player, b"") for player in range(1, 6)])  # ranks 0..4

    def member(key, submission):
        return key, order.member(AT, submission), b""

    assert redis_index.set_entries(9, {board: member(35, 9)}) == {board: 3}  # a newcomer at rank 3
    assert redis_index.set_entries(1, {board: member(45, 11)}) == {board: 0}  # the leader falls from rank 0
    assert redis_index.set_entries(3, {board: None}) == {board: 1}  # removed from rank 1 (after the move above)
    assert redis_index.set_entries(9, {board: member(35, 9)}) == {board: -1}  # the same entry again: nothing
    assert redis_index.set_entries(8, {board: None}) == {board: -1}  # nobody to remove
    assert redis_index.set_entries(1, {"deal:78": member(5, 12)}) == {"deal:78": None}  # not ready: ranks unknown
    assert redis_index.page(board, 0, 10) == [2, 9, 4, 11, 5]
    both = redis_index.set_entries(4, {"deal:78": member(1, 13), board: member(1, 13)})  # one round trip
    assert both == {"deal:78": None, board: 0} and redis_index.page(board, 0, 2) == [13, 2]


@pytest.fixture
def counted():
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    return compute


def test_a_top_page_stays_cached_while_changes_land_below_it(counted, monkeypatch):
    monkeypatch.setattr(cache, "TOP_RANKS", 10)
    monkeypatch.setattr(cache, "COUNT_LAG_SECONDS", 60)
    board = "deal:5"

    def top():
        return cache.cached(board, "top", counted, last_rank=10)

    def deep():
        return cache.cached(board, "deep", counted, last_rank=20)

    assert (top(), deep()) == (1, 2)
    cache.board_changed(board, 10)  # below the first 10 ranks
    assert (top(), deep()) == (1, 3)
    cache.board_changed(board, -1)  # the record changed, the index did not
    assert (top(), deep()) == (1, 4)
    cache.board_changed(board, 9)  # within them
    assert top() == 5
    cache.board_changed(board)  # rank not known
    assert top() == 6
    cache.board_changed(board, 10)
    assert cache.cached(board, "top", counted) == 7  # no rank given: not a top page


def test_the_size_a_top_page_shows_lags_at_most_count_lag_seconds(counted, monkeypatch):
    monkeypatch.setattr(cache, "COUNT_LAG_SECONDS", 0.3)
    board = "deal:5"
    assert cache.cached(board, "top", counted, last_rank=1) == 1
    cache.board_changed(board, cache.TOP_RANKS)
    assert cache.cached(board, "top", counted, last_rank=1) == 1
    time.sleep(0.35)
    assert cache.cached(board, "top", counted, last_rank=1) == 2
    assert cache.cached(board, "top", counted, last_rank=1) == 2  # no change since: cached again


def test_through_the_api_a_result_below_the_top_leaves_the_top_page_cached(
    make_player, play, today_deal, won_game, monkeypatch
):
    monkeypatch.setattr(cache, "TOP_RANKS", 1)
    monkeypatch.setattr(cache, "COUNT_LAG_SECONDS", 0.5)
    code, client = daily_code(today_deal), APIClient()
    play(make_player("fast"), code, won_game["actions"], minutes=10)
    client.get("/api/leaderboards/daily/")  # the first read loads the index (a change of the board)
    first = client.get("/api/leaderboards/daily/?page_size=1").json()
    assert first["count"] == 1 and first["results"][0]["player"] == "fast"
    play(make_player("slow"), code, won_game["actions"], minutes=20)  # ranked 2nd: below the top rank
    assert client.get("/api/leaderboards/daily/?page_size=1").json() == first  # its count lags
    assert client.get("/api/leaderboards/daily/?page=2&page_size=1").json()["results"][0]["player"] == "slow"
    time.sleep(0.55)
    assert client.get("/api/leaderboards/daily/?page_size=1").json()["count"] == 2
    play(make_player("fastest"), code, won_game["actions"], minutes=5)  # a new leader: at once
    assert client.get("/api/leaderboards/daily/?page_size=1").json()["results"][0]["player"] == "fastest"


def test_a_version_expires_with_its_board_and_never_repeats_an_old_number(clean_redis, settings):
    """Versions leave Redis a day after the idle eviction; one that comes back starts from the
    clock, so no page or ETag of its earlier life can match it."""
    settings.BOARD_IDLE_DAYS = 2
    board = "deal:78"
    version_key, top_key = cache.version_keys(board)
    cache.board_changed(board, rank=0)
    cache.board_changed(board, rank=0)
    redis_key = django_cache.make_key(version_key)
    first = django_cache.get(version_key)
    assert django_cache.get(top_key) == first >= int(time.time() * 1000) - 60_000
    assert 2 * 86_400 < clean_redis.ttl(redis_key) <= 3 * 86_400
    clean_redis.delete(redis_key, django_cache.make_key(top_key))  # as if it expired
    time.sleep(0.002)
    cache.board_changed(board, rank=None)
    assert django_cache.get(version_key) > first
