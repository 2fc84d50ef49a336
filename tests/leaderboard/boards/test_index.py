"""The board index's read of ``around=me`` with the board's versions (``BoardIndex.around_held``):
one script finds the caller's account by the key that holds its id, reads the other keys, and
reads the rows only when the caller's copy is not current."""

import uuid
from datetime import UTC, datetime

import pytest
from redis.commands.core import Script

from leaderboard.boards import index, scripts

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
BOARD = "deal:88"


@pytest.fixture
def ranks(clean_redis):
    """Five players on BOARD (player p ranked p - 1, its row b"row p"), p3's id held by a key,
    and two versions beside them."""
    redis_index = index.board_index()
    redis_index.rebuild(BOARD, [(p, 10 * p, AT, p, f"row {p}".encode()) for p in range(1, 6)])
    clean_redis.set("player-of:t3", 3)
    clean_redis.set("version-a", 17)
    clean_redis.set("version-b", 5)
    return redis_index


def test_the_rows_around_the_player_of_the_key_and_the_versions(ranks):
    values, player, around = ranks.around_held(BOARD, "player-of:t3", 1, ["version-a", "version-b", "absent"], [])
    assert values == [b"17", b"5", None] and player == 3
    rank, offset, pairs, total = around
    assert (rank, offset, total) == (2, 1, 5)
    assert [row for _, row in pairs] == [b"row 2", b"row 3", b"row 4"]


def test_the_rows_are_not_read_when_the_callers_copy_is_current(ranks):
    keys = ["version-a", "version-b"]
    assert ranks.around_held(BOARD, "player-of:t3", 1, keys, [17, 5]) == ([b"17", b"5"], 3, None)
    stale = ranks.around_held(BOARD, "player-of:t3", 1, keys, [16, 5])
    assert stale[2] is not None and stale[2][0] == 2
    assert ranks.around_held(BOARD, "player-of:t3", 1, keys, [17])[2] is not None  # says too little: read


def test_no_rows_without_a_player_and_an_empty_answer_off_the_board(ranks, clean_redis):
    assert ranks.around_held(BOARD, "player-of:nobody", 1, ["version-a"], []) == ([b"17"], None, None)
    clean_redis.set("player-of:t9", 9)
    assert ranks.around_held(BOARD, "player-of:t9", 1, ["version-a"], []) == ([b"17"], 9, (None, 0, [], 5))


def test_an_index_that_is_not_whole_reads_no_rows(ranks, clean_redis):
    clean_redis.delete(f"{index.KEY_PREFIX}:{BOARD}:ready")
    assert ranks.around_held(BOARD, "player-of:t3", 1, ["version-a"], []) == ([b"17"], 3, None)


def test_a_script_not_loaded_on_the_server_is_loaded_and_answers(ranks, monkeypatch):
    """The read sends EVALSHA itself (``cache.command``); a server that does not know the script
    (restarted, flushed) gets it loaded, and the next read finds it."""
    text = scripts._AROUND_HELD_LUA + f"\n-- {uuid.uuid4().hex}"  # a script this server never saw
    monkeypatch.setattr(scripts, "AROUND_HELD", Script(ranks.client, text.encode()))
    assert not ranks.client.script_exists(scripts.AROUND_HELD.sha)[0]
    for _ in range(2):
        assert ranks.around_held(BOARD, "player-of:t3", 1, ["version-a"], [])[2][0] == 2
    assert ranks.client.script_exists(scripts.AROUND_HELD.sha)[0]
