"""A closed month of games to archive (tests/leaderboard/history/: the archive and the
erasure of a deleted player from it)."""

from datetime import timedelta

import pytest

from games import format_code, parse_code, replay
from leaderboard.boards import freeze, order
from leaderboard.boards.services import entries
from leaderboard.core import days
from leaderboard.history.services import partitions
from leaderboard.models import Attempt, DailyDeal, Submission
from leaderboard.play.services import intake


@pytest.fixture
def month():
    """A closed month: three months before this one."""
    return partitions.month_after(partitions.month_of(days.today()), -3)


def played(player, deal: str, actions: list, started_at, *, daily_date=None, practice=False) -> Submission:
    """A game as the worker leaves it: verified with the engine's result (or rejected), and on
    the boards when it belongs there."""
    number = parse_code(deal).number
    attempt = Attempt.objects.create(
        player=player,
        deal_code=deal,
        deal_number=number,
        daily_date=daily_date,
        ranked=daily_date is not None and not practice,
        started_at=started_at,
    )
    result = replay(deal, actions)
    if result.ok:
        duration_ms = 1_800_000
        fields = {
            "status": "verified",
            "won": result.won,
            "score": result.score,
            "moves": result.moves,
            "foundation": result.foundation,
            "undos": result.undos,
            "take_backs": result.take_backs,
            "stock_passes": result.stock_passes,
            "waste_to_column": result.waste_to_column,
            "duration_ms": duration_ms,
            "clean": result.undos == 0,
            "rank_key": order.rank_key(
                result.won, result.moves, result.score, duration_ms, foundation=result.foundation
            ),
        }
    else:
        fields = {"status": "rejected", "error_index": result.index, "error": result.error}
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=number,
        daily_date=daily_date,
        actions=actions,
        times=list(range(0, 1000 * len(actions), 1000)),
        submitted_at=started_at + timedelta(minutes=30),
        practice=practice,
        log_hash=intake.log_hash(actions),
        verified_at=started_at + timedelta(minutes=31),
        **fields,
    )
    entries.boards_refresh(submission)
    return submission


@pytest.fixture
def month_played(month, make_player, won_games):
    """In ``month``: alice's and bob's daily games (alice wins, bob's log is refused at its first
    action: the waste is empty), alice's practice game, carol's numbered deal, dave's attempt never submitted; the
    day frozen. Another month's game of alice, to stay."""
    day = month + timedelta(days=4)
    daily, numbered = won_games[0], won_games[1]
    number = parse_code(daily["deal"]).number
    DailyDeal.objects.create(date=day, number=number, solution=daily["actions"])
    code = format_code(number, "D")
    at = days.as_utc_datetime(day) + timedelta(hours=9)
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    played(alice, code, daily["actions"], at, daily_date=day)
    played(bob, code, ["w>f", *daily["actions"]], at + timedelta(minutes=1), daily_date=day)
    played(alice, code, list(reversed(daily["actions"][:3])), at + timedelta(hours=1), daily_date=day, practice=True)
    played(carol, numbered["deal"], numbered["actions"], at + timedelta(hours=2))
    Attempt.objects.create(
        player=dave,
        deal_code=numbered["deal"],
        deal_number=parse_code(numbered["deal"]).number,
        started_at=at + timedelta(hours=3),
    )
    later = days.as_utc_datetime(partitions.month_after(month)) + timedelta(days=2)
    played(alice, won_games[2]["deal"], won_games[2]["actions"], later)
    assert freeze.days_freeze(day) == [order.daily_board(day)]
    return day
