"""Board rows kept in the Redis index (leaderboard/boards/rows.py): a page below the cached top
pages, and a player's own rank, are answered from Redis alone, and the rows there stay true to
the record: filled from it when missing, rewritten when a player is renamed, gone with the
entry, and expiring on a board nobody writes to. A big board's lost index is rebuilt by a task,
and meanwhile its readers are asked to come back rather than ranked by a count in PostgreSQL."""

import pytest
from leaderboard_fixtures.service import (  # noqa: F401  (autouse, as in tests/service/)
    _fresh_redis,
    _tempo_rules_off,
    board_key,
    daily_code,
)
from rest_framework.test import APIClient
from worker import queued_tasks

from leaderboard import tasks
from leaderboard.boards import index
from leaderboard.boards.selectors import pages as reads
from leaderboard.boards.services import entries, rebuild
from leaderboard.core import cache
from leaderboard.play.services import moderation

pytestmark = pytest.mark.django_db
DEEP = "/api/leaderboards/daily/?page=2&page_size=2"


@pytest.fixture
def board_of_five(make_player, play, today_deal, won_game, monkeypatch):
    monkeypatch.setattr(cache, "TOP_RANKS", 2)  # page 2 of 2 rows is a deep page: never cached
    players = [make_player(f"p{i}") for i in range(5)]
    for i, player in enumerate(players):
        play(player, daily_code(today_deal), won_game["actions"], minutes=10 + i)
    APIClient().get(DEEP)  # the first read after the test's own writes builds the index whole
    return players


def rows_key(today_deal) -> str:
    return f"{index.KEY_PREFIX}:{board_key(today_deal)}:r"


def test_a_deep_page_and_ones_own_rank_read_no_database(board_of_five, client_for, django_assert_num_queries):
    with django_assert_num_queries(0):
        page = APIClient().get(DEEP).json()
    assert [(row["rank"], row["player"]) for row in page["results"]] == [(3, "p2"), (4, "p3")]
    me = client_for(board_of_five[4])
    with django_assert_num_queries(0):
        around = me.get("/api/leaderboards/daily/?around=me&page_size=3").json()
    assert around["me"] == 5 and [row["player"] for row in around["results"]] == ["p3", "p4"]


def test_missing_rows_are_read_from_postgresql_and_stored_back(
    board_of_five, today_deal, clean_redis, django_assert_num_queries
):
    before = APIClient().get(DEEP).content
    clean_redis.delete(rows_key(today_deal))
    with django_assert_num_queries(1):  # the two rows, in one statement
        assert APIClient().get(DEEP).content == before
    assert clean_redis.hlen(rows_key(today_deal)) == 2
    with django_assert_num_queries(0):
        assert APIClient().get(DEEP).content == before


def test_every_entry_has_its_row_and_no_other(board_of_five, today_deal, clean_redis):
    redis_index = index.board_index()
    board = board_key(today_deal)
    members = set(clean_redis.zrange(f"{index.KEY_PREFIX}:{board}:z", 0, -1))
    assert set(clean_redis.hkeys(rows_key(today_deal))) == members and len(members) == 5
    submission = board_of_five[2].submissions.get()
    moderation.submission_set_hidden(submission, True)
    entries.boards_mirror([board], submission.player_id)  # as the commit would
    assert clean_redis.hlen(rows_key(today_deal)) == redis_index.size(board) == 4
    assert 0 < clean_redis.ttl(rows_key(today_deal)) <= index.ROWS_SECONDS


def test_a_renamed_player_shows_under_the_new_name(board_of_five, django_capture_on_commit_callbacks):
    renamed = board_of_five[3]
    with django_capture_on_commit_callbacks(execute=True):
        renamed.username = "renamed"
        renamed.save()
    shown = [row["player"] for row in APIClient().get(DEEP).json()["results"]]
    assert shown == ["p2", "renamed"]


def test_a_rebuilt_index_has_every_row(board_of_five, today_deal, clean_redis):
    before = APIClient().get(DEEP).content
    clean_redis.flushdb()
    assert APIClient().get(DEEP).content == before
    assert clean_redis.hlen(rows_key(today_deal)) == 5


def test_a_read_prepares_the_lost_index_of_a_small_board_itself(board_of_five, today_deal, clean_redis):
    before = APIClient().get(DEEP).content
    board = board_key(today_deal)
    clean_redis.flushdb()
    assert reads.board_page(board, 2, 2) == before  # the board's store rebuilt the index, then read it
    assert index.board_index().is_ready(board)
    assert APIClient().get(DEEP).content == before  # the view asks nothing of the index first


def test_a_big_lost_index_is_rebuilt_by_a_task_and_its_readers_come_back(
    board_of_five, today_deal, clean_redis, client_for, monkeypatch
):
    monkeypatch.setattr(rebuild, "BIG_BOARD_ENTRIES", 4)  # five entries: "big"
    before = APIClient().get(DEEP).content
    board = board_key(today_deal)
    clean_redis.flushdb()
    for answer in (APIClient().get(DEEP), client_for(board_of_five[0]).get("/api/leaderboards/daily/?around=me")):
        # never a count over a big board in PostgreSQL: come back once the index is whole
        assert answer.status_code == 503 and answer["Retry-After"] == "5"
        assert answer.json()["error"]["code"] == "ranking_unavailable"
    redis_index = index.board_index()
    assert queued_tasks(clean_redis) == [("leaderboard.tasks.rebuild_board", repr((board,)))]
    assert not redis_index.is_ready(board) and not redis_index.claim_rebuild(board)  # the task holds the claim
    assert tasks.rebuild_board(board) == 5  # as the worker runs it
    assert redis_index.is_ready(board) and clean_redis.hlen(rows_key(today_deal)) == 5
    assert APIClient().get(DEEP).content == before
    assert redis_index.claim_rebuild(board)  # released


def test_a_small_board_is_ranked_by_postgresql_while_its_index_is_rebuilt_elsewhere(
    board_of_five, today_deal, clean_redis
):
    before = APIClient().get(DEEP).content
    clean_redis.flushdb()
    assert index.board_index().claim_rebuild(board_key(today_deal))  # someone else is rebuilding it
    assert APIClient().get(DEEP).content == before
