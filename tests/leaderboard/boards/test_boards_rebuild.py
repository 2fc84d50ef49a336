"""Redis lost the leaderboard data: beat's reconcile (entries.boards_reconcile) rebuilds the
recent daily boards from PostgreSQL, and they rank exactly as PostgreSQL does.

(tests/service/test_boards.py covers the lazy rebuild when a reader finds a board gone.)
"""

import json
from datetime import timedelta

import pytest
from leaderboard_fixtures.service import (  # noqa: F401  (autouse, as in tests/reliability/)
    _fresh_redis,
    _tempo_rules_off,
    not_a_copy,
    times_within,
    unreachable_index,
)

from games import format_code, parse_code
from leaderboard import tasks
from leaderboard.boards import index, order
from leaderboard.boards.selectors import pages as reads
from leaderboard.boards.services import entries
from leaderboard.core import days
from leaderboard.models import Attempt, BoardEntry, DailyDeal
from leaderboard.play.services import intake, verification

pytestmark = [pytest.mark.django_db, pytest.mark.reliability]


def ranks(board: str) -> dict[int, int]:
    """Each player's 0-based rank on ``board`` as a reader gets it: the index prepared first, as
    a view does (``entries.index_ensure``), then read."""
    entries.index_ensure(board)
    return {e.player_id: reads.rank_of(board, e.player_id) for e in BoardEntry.objects.filter(board=board)}


def ranks_in_postgresql(board: str, monkeypatch) -> dict[int, int]:
    with monkeypatch.context() as patched:
        patched.setattr(index, "board_index", unreachable_index)
        return ranks(board)


@pytest.fixture
def two_days(make_player, won_game, django_capture_on_commit_callbacks, settings):
    """Eight players with results of different quality on today's and yesterday's boards."""
    settings.DAILY_GRACE_SECONDS = 2 * 24 * 3600  # yesterday's games are still taken
    today = days.today()
    number = parse_code(won_game["deal"]).number
    boards = []
    for day in (today, today - timedelta(days=1)):
        DailyDeal.objects.get_or_create(date=day, defaults={"number": number, "solution": won_game["actions"]})
        boards.append(order.daily_board(day))
    players = [make_player(f"p{i}") for i in range(8)]
    with django_capture_on_commit_callbacks(execute=True):
        for i, player in enumerate(players):
            for back, day in enumerate((today, today - timedelta(days=1))):
                started = days.as_utc_datetime(day) + timedelta(minutes=i)
                attempt = Attempt.objects.create(
                    player=player,
                    deal_code=format_code(number, "D"),
                    deal_number=number,
                    daily_date=day,
                    ranked=True,
                    started_at=started,
                )
                cut = (i + back) % 4  # some win, some stop short
                actions = not_a_copy(player, won_game["deal"], won_game["actions"][: len(won_game["actions"]) - cut])
                submission = intake.submission_create(
                    attempt=attempt, player=player, actions=actions, times=times_within(len(actions), 1000)
                )
                submission.__class__.objects.filter(pk=submission.pk).update(
                    submitted_at=started + timedelta(minutes=10 + (i * 7) % 5)
                )
                assert verification.submission_verify(submission.pk).status == "verified"
    return boards


def test_a_flushed_index_is_rebuilt_by_reconcile_with_the_same_ranks(two_days, clean_redis, monkeypatch):
    expected = {board: ranks_in_postgresql(board, monkeypatch) for board in two_days}
    assert all(sorted(r.values()) == list(range(8)) for r in expected.values())
    assert {board: ranks(board) for board in two_days} == expected  # index and record agree

    clean_redis.flushdb()  # Redis lost everything
    assert sorted(tasks.reconcile_boards()) == sorted(two_days)  # beat's task
    redis_index = index.board_index()
    for board in two_days:
        assert redis_index.is_ready(board) and redis_index.size(board) == 8
        assert ranks(board) == expected[board]
        page = json.loads(reads.board_page(board, 1, 8))
        assert [row["rank"] for row in page["results"]] == list(range(1, 9))
    assert entries.boards_reconcile() == []  # nothing left to do


def test_a_partly_lost_index_still_marked_ready_is_repaired_by_reconcile(two_days, clean_redis, monkeypatch):
    board = two_days[0]
    expected = ranks_in_postgresql(board, monkeypatch)
    assert ranks(board) == expected  # readers loaded the board into the index
    redis_index = index.board_index()
    top = min(expected, key=expected.get)
    # An eviction or a half-applied write: the best player's member is gone, "ready" is still set.
    clean_redis.zrem(f"{index.KEY_PREFIX}:{board}:z", clean_redis.hget(f"{index.KEY_PREFIX}:{board}:h", top))
    assert redis_index.is_ready(board) and redis_index.size(board) == 7
    assert ranks(board)[top] is None  # the board as served has lost its leader

    assert entries.boards_reconcile() == [board]
    assert redis_index.size(board) == 8 and ranks(board) == expected
