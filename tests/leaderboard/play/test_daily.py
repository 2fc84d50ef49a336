from datetime import date, timedelta

import pytest
from django.test import override_settings
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.test import APIClient

from games import format_code, replay
from leaderboard.core import days
from leaderboard.models import DailyDeal
from leaderboard.play.services import deal as daily

pytestmark = pytest.mark.django_db


def test_candidates_depend_on_the_date_and_the_secret():
    day = date(2026, 1, 1)
    first = list(zip(range(5), daily.daily_candidates(day, "s1")))
    assert first == list(zip(range(5), daily.daily_candidates(day, "s1")))
    assert first != list(zip(range(5), daily.daily_candidates(day, "s2")))
    assert first != list(zip(range(5), daily.daily_candidates(day + timedelta(days=1), "s1")))
    assert all(1 <= n <= 999_999 for _, n in first)


@pytest.mark.slow
def test_the_daily_deal_is_the_first_candidate_the_solver_wins_and_never_changes():
    day = date(2026, 3, 14)
    stored = daily.daily_deal_ensure(day)
    candidates = list(zip(range(stored.candidates_tried), daily.daily_candidates(day)))
    assert stored.number == candidates[-1][1]
    proof = replay(format_code(stored.number, "D"), stored.solution)
    assert proof.ok and proof.won
    with override_settings(DAILY_DEAL_SECRET="another secret"):
        assert daily.daily_deal_ensure(day).number == stored.number
    assert DailyDeal.objects.filter(date=day).count() == 1


def test_today_hides_the_deal_and_a_final_day_shows_it(today_deal, settings):
    today = APIClient().get("/api/daily/").json()
    assert today.pop("server_time")  # the server's clock as it answered (the page's offset)
    close = days.as_utc_datetime(today_deal.date + timedelta(days=1))
    assert today == {
        "date": today_deal.date.isoformat(),
        "proven_winnable": True,
        "players": 0,
        "closes_at": close.isoformat().replace("+00:00", "Z"),
        "accepts_until": (close + timedelta(seconds=900)).isoformat().replace("+00:00", "Z"),
        "final": False,
        "code": None,
        "number": None,
        "solution": None,
        "attempt": None,
    }
    yesterday = today_deal.date - timedelta(days=1)
    DailyDeal.objects.create(date=yesterday, number=5, solution=["s"])
    settings.DAILY_GRACE_SECONDS = 0  # yesterday is final at once, whatever the time of day
    past = APIClient().get(f"/api/daily/{yesterday.isoformat()}/").json()
    assert past["final"] is True and past["solution"] == ["s"] and past["code"] == "EH1-D-AAAAAAF"
    assert past["number"] == 5


@pytest.mark.parametrize("path", ["/api/daily/2999-01-01/", "/api/daily/not-a-date/", "/api/daily/2026-02-30/"])
def test_future_and_bad_dates_are_not_found(path):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
