"""Fixtures of the calendar's and the statistics' tests: the service suite's (players, clients,
verified play), and results written straight into the record for days that can no longer be
played."""

from datetime import UTC, date, datetime, time, timedelta, timezone

import pytest

from leaderboard.boards import order
from leaderboard.models import Attempt, BoardEntry, DailyDeal, Submission

# The service suite's fixtures.
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures, re-exported for this directory)
    PASSWORD,
    _fresh_redis,
    _tempo_rules_off,
    client_for,
    make_player,
    play,
    today_deal,
    verify_queued,
    won_game,
    won_games,
)


def deal_of(day: date, number: int | None = None) -> DailyDeal:
    """``day``'s deal of the day, stored as the service stores it (a number of its own)."""
    number = number or 1000 + day.toordinal() % 900_000
    return DailyDeal.objects.update_or_create(date=day, defaults={"number": number, "solution": ["s"]})[0]


def result(
    player,
    day: date,
    *,
    won: bool = True,
    moves: int = 100,
    practice: bool = False,
    numbered: bool = False,
    flagged: bool = False,
    hints: int = 0,
    seconds: int = 600,
    minutes_later: int = 0,
) -> Submission:
    """A verified result of ``player`` on ``day``'s deal, as verification leaves it: a ranked
    one with its board entry (unless flagged), a practice try of the day (``practice``), or the
    deal played later as a numbered deal (``numbered``: no daily date, off the day's board)."""
    deal = deal_of(day) if not DailyDeal.objects.filter(date=day).exists() else DailyDeal.objects.get(date=day)
    started = datetime.combine(day, time(8), tzinfo=UTC) + timedelta(minutes=minutes_later)
    if numbered:
        started = datetime.combine(day + timedelta(days=2), time(9), tzinfo=UTC)
    at = started + timedelta(seconds=seconds)
    key = order.rank_key(won, moves, 1000, seconds * 1000, foundation=104 if won else 50, hints=hints)
    daily_date = None if numbered else day
    attempt = Attempt.objects.create(
        player=player,
        deal_code=f"EH1-{'N' if numbered else 'D'}-AAAAAAF",
        deal_number=deal.number,
        daily_date=daily_date,
        started_at=started,
        ranked=not (practice or numbered),
        hints=hints,
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=deal.number,
        daily_date=daily_date,
        actions=["s"],
        submitted_at=at,
        status=Submission.Status.VERIFIED,
        won=won,
        moves=moves,
        score=1000,
        duration_ms=seconds * 1000,
        hints=hints,
        clean=not hints,
        rank_key=key,
        practice=practice,
        flagged=flagged,
    )
    if not (practice or numbered or flagged):
        board = order.daily_board(day) if not numbered else order.deal_board(deal.number)
        BoardEntry.objects.update_or_create(
            board=board, player=player, defaults={"submission": submission, "rank_key": key, "submitted_at": at}
        )
    return submission


@pytest.fixture
def months_ago():
    """``months_ago(n)``: the first day of the month n months before this one (its days all
    final for n >= 1)."""
    from leaderboard.core import days
    from leaderboard.history import selectors as calendar

    def first(n: int) -> date:
        month = calendar.month_of(days.today())
        for _ in range(n):
            month = calendar.previous_month(month)
        return month

    return first
