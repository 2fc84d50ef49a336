"""A player's statistics on their page (GET /api/players/<name>/): days played and won, the win
rate, current and best streaks over gaps, and the distribution of their moves in won games;
the bucketing shared with a day's histogram."""

from datetime import timedelta

import pytest
from leaderboard_fixtures.history import result
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/history/)

from leaderboard.boards.selectors import histogram, stats
from leaderboard.boards.services.stats import runs, stats_refresh
from leaderboard.core import days

pytestmark = pytest.mark.django_db


def profile(client, name: str) -> dict:
    answer = client.get(f"/api/players/{name}/")
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.fixture
def record(make_player):
    """alice, over the last ten days: won, won, lost, (nothing), won, won with a hint, won; her
    practice games, a flagged win and a numbered play of a day's deal do not count."""
    alice = make_player("alice")
    today = days.today()
    ago = lambda n: today - timedelta(days=n)  # noqa: E731
    result(alice, ago(9), moves=120)
    result(alice, ago(8), moves=135)
    result(alice, ago(7), won=False, moves=60)
    result(alice, ago(7), moves=100, practice=True)  # a practice win does not make the day won
    result(alice, ago(5), moves=128)
    result(alice, ago(4), moves=300, hints=1)
    result(alice, ago(3), moves=310)
    result(alice, ago(2), moves=90, flagged=True)
    result(alice, ago(1), moves=95, numbered=True)
    stats_refresh(alice.pk)  # as verification does, after each daily result
    return alice


def test_played_won_win_rate_and_streaks(record, client_for):
    shown = profile(client_for(), "alice")
    assert (shown["played"], shown["won"], shown["daily_wins"]) == (6, 5, 5)
    assert shown["win_rate"] == pytest.approx(5 / 6, abs=1e-4)
    # ago(5), ago(4), ago(3): the best run; it ended three days ago, so no current streak.
    assert (shown["best_streak"], shown["current_streak"]) == (3, 0)


def test_the_current_streak_runs_to_yesterday_over_a_gap_before(record, client_for):
    result(record, days.today() - timedelta(days=2), moves=140)
    result(record, days.today() - timedelta(days=1), moves=150)
    stats_refresh(record.pk)
    shown = profile(client_for(), "alice")
    # ago(5) .. ago(1) with the flagged ago(2) now won by another result: five days in a row.
    assert (shown["best_streak"], shown["current_streak"]) == (5, 5)
    assert (shown["played"], shown["won"]) == (8, 7)


def test_the_distribution_of_moves_in_won_games(record, client_for):
    shown = profile(client_for(), "alice")
    # Wins: 120, 135, 128, 300, 310 -> buckets of 20 moves from 120 to 319, empty ones between.
    assert shown["moves_distribution"][0] == {"low": 120, "high": 139, "count": 3}
    assert shown["moves_distribution"][-1] == {"low": 300, "high": 319, "count": 2}
    assert len(shown["moves_distribution"]) == 10
    assert sum(b["count"] for b in shown["moves_distribution"]) == shown["won"]


def test_a_new_player_has_no_rate_and_no_distribution(make_player, client_for):
    make_player("newbie")
    shown = profile(client_for(), "newbie")
    assert (shown["played"], shown["won"], shown["win_rate"], shown["moves_distribution"]) == (0, 0, None, [])


def test_the_record_is_one_statement(record, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert stats.daily_record(record.pk)["played"] == 6


@pytest.mark.parametrize(
    ("low", "high", "width"),
    [
        (100, 100, 1),
        (100, 111, 1),
        (100, 112, 2),
        (100, 159, 5),
        (120, 310, 20),
        (7, 65535, 10_000),
        (0, 11, 1),
    ],
)
def test_bucket_widths_are_round_and_keep_the_bars_few(low, high, width):
    assert histogram.bucket_width(low, high) == width
    assert high // width - low // width + 1 <= histogram.MAX_BUCKETS


def test_buckets_cover_every_value_once_with_the_empty_ones_between():
    counts = {101: 2, 104: 1, 118: 3, 130: 1}
    shown = histogram.buckets(counts)
    assert [(b["low"], b["high"]) for b in shown] == [
        (100, 104),
        (105, 109),
        (110, 114),
        (115, 119),
        (120, 124),
        (125, 129),
        (130, 134),
    ]
    assert [b["count"] for b in shown] == [3, 0, 0, 3, 0, 0, 1]
    assert histogram.bucket_of(shown, 118) == 3 and histogram.bucket_of(shown, 99) is None
    assert histogram.buckets({}) == [] and histogram.buckets({5: 0}) == []


def test_both_streaks_days_played_count_a_loss_and_days_won_do_not(record, client_for):
    # ago(9), ago(8), ago(7) lost: three days played in a row, two won; then ago(5) .. ago(3).
    result(record, days.today(), won=False, moves=70)
    stats_refresh(record.pk)
    shown = profile(client_for(), "alice")
    assert (shown["best_played_streak"], shown["played_streak"]) == (3, 1)
    assert (shown["best_streak"], shown["current_streak"]) == (3, 0)


def test_a_loss_yesterday_keeps_the_played_streak_running(record, client_for):
    for back, won in ((2, True), (1, False)):
        result(record, days.today() - timedelta(days=back), won=won, moves=80)
    stats_refresh(record.pk)
    shown = profile(client_for(), "alice")
    # ago(5) .. ago(1): five days played in a row (ago(2)'s flagged win now has a clean one).
    assert (shown["played_streak"], shown["best_played_streak"]) == (5, 5)
    assert (shown["current_streak"], shown["best_streak"]) == (0, 4)


def test_the_runs_of_consecutive_days():
    today = days.today()
    ago = lambda n: today - timedelta(days=n)  # noqa: E731
    assert runs([]) == (0, 0, None)
    assert runs([ago(6), ago(5), ago(3)]) == (2, 1, ago(3))
    assert runs([ago(3), ago(2), ago(1), ago(0)]) == (4, 4, today)
