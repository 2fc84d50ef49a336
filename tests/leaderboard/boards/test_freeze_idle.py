"""Idle numbered boards out of Redis (leaderboard/boards/idle.py): evicted after BOARD_IDLE_DAYS
without a write, then rebuilt from PostgreSQL when read, with the same rows."""

import time

from django.core.management import call_command
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)

from leaderboard.boards import index, order
from leaderboard.boards.services import idle

from .test_freeze import NUMBER, User, get, redis_keys, result


def test_an_idle_numbered_board_leaves_redis_and_is_rebuilt_when_read(
    db, won_game, client_for, clean_redis, settings, django_capture_on_commit_callbacks
):
    settings.BOARD_IDLE_DAYS = 7
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(9):
            result(User.objects.create(username=f"n{i}"), None, won_game["actions"][:3], moves=300 + i % 3)
    board = order.deal_board(NUMBER)
    path = f"/api/leaderboards/deals/{NUMBER}/?page_size=4"
    before = [get(client_for, f"{path}&page={page}") for page in (1, 2, 3)]
    ranks = index.board_index()
    assert ranks.is_ready(board)

    assert idle.idle_boards_evict(now=time.time() + 6 * 86400) == []  # idle 6 days: kept
    assert idle.idle_boards_evict(now=time.time() + 8 * 86400) == [board]
    assert not ranks.is_ready(board) and redis_keys(clean_redis, board) == []
    assert ranks.idle(time.time() + 30 * 86400) == []  # no longer tracked

    assert [get(client_for, f"{path}&page={page}") for page in (1, 2, 3)] == before
    assert ranks.is_ready(board) and ranks.idle(time.time() + 8 * 86400) == [board]  # rebuilt, tracked again
    call_command("evict_boards")  # nothing idle by the real clock
    assert ranks.is_ready(board)
