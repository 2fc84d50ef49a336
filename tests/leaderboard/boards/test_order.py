"""The ranking order alone (leaderboard/boards/order.py): the key packs and unpacks, the members
sort as PostgreSQL does, the board names. Pure: no database, no Redis."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboard.boards import order

results = st.builds(
    dict,
    won=st.booleans(),
    moves=st.integers(0, 10**7),
    score=st.integers(0, 10**7),
    duration_ms=st.integers(0, 10**13),
    foundation=st.integers(-5, 110),
    hints=st.integers(0, 10**4),
)


@given(results)
def test_a_key_unpacks_to_the_capped_values_it_packed(result):
    parts = order.rank_parts(order.rank_key(**result))
    won = result["won"]
    cap = order.WON_SECONDS_CAP if won else order.LOST_SECONDS_CAP
    assert parts == order.RankParts(
        won=won,
        hinted=result["hints"] > 0,
        moves=min(result["moves"], order.MOVES_CAP),
        score=min(result["score"], order.SCORE_CAP),
        seconds=min(result["duration_ms"] // 1000, cap),
        foundation=order.DECK if won else min(max(result["foundation"], 0), order.DECK),
    )


@given(results)
def test_a_key_packs_again_to_itself(result):
    key = order.rank_key(**result)
    parts = order.rank_parts(key)
    assert (
        order.rank_key(
            parts.won,
            parts.moves,
            parts.score,
            parts.seconds * 1000,
            foundation=parts.foundation,
            hints=int(parts.hinted),
        )
        == key
    )


def test_the_tiers_come_first():
    """Won, lost, won with hints, lost with hints: the worst of a tier before the best of the next."""
    worst = dict(moves=10**9, score=0, duration_ms=10**15, foundation=0)
    best = dict(moves=0, score=10**9, duration_ms=0, foundation=104)
    tiers = [(True, 0), (False, 0), (True, 1), (False, 1)]
    for (won, hints), (next_won, next_hints) in zip(tiers, tiers[1:]):
        assert order.rank_key(won, hints=hints, **worst) < order.rank_key(next_won, hints=next_hints, **best)
    assert [order.rank_parts(order.rank_key(won, hints=hints, **best))[:2] for won, hints in tiers] == [
        (True, False),
        (False, False),
        (True, True),
        (False, True),
    ]


@given(st.lists(st.tuples(st.integers(0, 10**10), st.integers(1, 10**11)), min_size=2, max_size=20))
def test_members_sort_by_time_then_submission_as_postgresql_does(stamps):
    start = datetime(2026, 1, 1, tzinfo=UTC)
    entries = [(start + timedelta(microseconds=micros), sid) for micros, sid in stamps]
    members = [order.member(at, sid) for at, sid in entries]
    assert sorted(members) == [order.member(at, sid) for at, sid in sorted(entries)]
    assert [order.submission_of(m) for m in members] == [sid for _, sid in entries]
    assert [order.submission_of(m.encode()) for m in members] == [sid for _, sid in entries]


def test_board_names():
    assert order.daily_board(date(2026, 11, 30)) == "daily:2026-11-30"
    assert order.deal_board(42) == "deal:42"
    assert order.is_daily(order.daily_board(date(2026, 11, 30))) and not order.is_daily(order.deal_board(42))


def test_a_board_name_is_parsed_back_into_the_board_it_names():
    day, deal = order.Board(order.DAILY, day=date(2026, 11, 29)), order.Board(order.DEAL, number=12345)
    assert (str(day), str(deal)) == ("daily:2026-11-29", "deal:12345")
    assert order.Board.parse("daily:2026-11-29") == day and order.Board.parse(b"deal:12345") == deal
    assert order.board_day(str(day)) == date(2026, 11, 29) and order.board_day(str(deal)) is None
    for name in ("players", "daily:", "deal:12a", "daily:2026-13-01"):
        with pytest.raises(ValueError):
            order.Board.parse(name)
