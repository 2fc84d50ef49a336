"""The calendar: a month of deals of the day with the viewer's result on each (won, lost,
practice only, not played), the days that are not available (before the service's first deal,
after today, a day without a deal), the deal's code only once the day is final, and one
statement per month. Nobody sees another player's results; anonymous visitors see none."""

from datetime import timedelta

import pytest
from leaderboard_fixtures.history import deal_of, result
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/history/)
from rest_framework.test import APIClient

from games import format_code
from leaderboard.core import days
from leaderboard.history import selectors as calendar

pytestmark = pytest.mark.django_db


def month_text(month) -> str:
    return month.strftime("%Y-%m")


def calendar_of(client: APIClient, month) -> dict:
    answer = client.get(f"/api/calendar/{month_text(month)}/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def by_day(answer: dict) -> dict[str, dict]:
    return {day["date"]: day for day in answer["days"]}


@pytest.fixture
def month(months_ago, make_player):
    """Two months ago (every day final): the service's first deal on its 3rd; alice won the
    3rd and the 9th, lost the 4th, practised only the 5th (a later try) and the 6th (its deal
    as a numbered deal), played the 7th but her result was flagged, and did nothing on the 8th
    (bob won it). The 10th had no deal stored; every later day of the month had one."""
    first = months_ago(2)
    alice, bob = make_player("alice"), make_player("bob")
    day = lambda n: first + timedelta(days=n - 1)  # noqa: E731
    for n in range(3, 32):
        if day(n).month == first.month and n != 10:
            deal_of(day(n))
    result(alice, day(3), won=True, moves=120)
    result(alice, day(4), won=False, moves=80)
    result(alice, day(5), won=True, moves=150, practice=True)
    result(alice, day(6), won=True, moves=140, numbered=True)
    result(alice, day(7), won=True, moves=90, flagged=True)
    result(bob, day(8), won=True, moves=110)
    result(alice, day(9), won=False, moves=70)
    result(alice, day(9), won=True, moves=130, hints=1, minutes_later=1)  # a hinted win ranks after a loss
    return {"first": first, "day": day, "alice": alice, "bob": bob}


def test_each_day_shows_the_players_result_by_kind(month, client_for):
    day, alice = month["day"], month["alice"]
    answer = calendar_of(client_for(alice), month["first"])
    shown = by_day(answer)
    assert len(answer["days"]) == (calendar.next_month(month["first"]) - month["first"]).days
    expected = {3: "won", 4: "lost", 5: "practice", 6: "practice", 7: "none", 8: "none", 9: "won", 11: "none"}
    assert {n: shown[day(n).isoformat()]["result"] for n in expected} == expected
    won = shown[day(3).isoformat()]
    assert (won["moves"], won["available"], won["final"]) == (120, True, True)
    assert won["code"] == format_code(deal_of(day(3)).number, "D")
    assert won["submission"] == alice.submissions.get(daily_date=day(3)).pk
    # The 9th: won (a hinted win), and the result on the board is the loss, ranked first.
    assert shown[day(9).isoformat()]["moves"] == 70
    # Practice: the latest practice game is the one to replay.
    assert shown[day(6).isoformat()]["submission"] == alice.submissions.get(daily_date=None).pk
    assert shown[day(5).isoformat()]["moves"] is None


def test_days_without_a_deal_are_unavailable(month, client_for):
    day = month["day"]
    shown = by_day(calendar_of(client_for(month["alice"]), month["first"]))
    for n in (1, 2, 10):  # before the first deal; a day without one
        assert shown[day(n).isoformat()] == {
            "date": day(n).isoformat(),
            "available": False,
            "final": False,
            "code": None,
            "result": None,
            "submission": None,
            "moves": None,
        }
    assert shown[day(11).isoformat()]["available"] is True


def test_anonymous_visitors_see_the_days_without_results(month):
    answer = calendar_of(APIClient(), month["first"])
    available = [day for day in answer["days"] if day["available"]]
    assert available and all(
        day["result"] is None and day["submission"] is None and day["moves"] is None for day in answer["days"]
    )
    assert available[0]["code"] is not None  # the codes of final days are public


def test_no_other_players_results_leak(month, client_for):
    day, bob = month["day"], month["bob"]
    shown = by_day(calendar_of(client_for(bob), month["first"]))
    assert shown[day(8).isoformat()]["result"] == "won"
    others = [d for d in shown.values() if d["available"] and d["date"] != day(8).isoformat()]
    assert others and all(d["result"] == "none" and d["submission"] is None for d in others)


def test_the_months_around_have_links_only_where_there_is_something_to_show(month, client_for, months_ago):
    client = client_for(month["alice"])
    first = calendar_of(client, month["first"])
    assert first["previous"] is None and first["next"] == month_text(months_ago(1))
    assert first["first_day"] == month["day"](3).isoformat()
    this = calendar_of(client, months_ago(0))
    assert this["previous"] == month_text(months_ago(1)) and this["next"] is None
    before = calendar_of(client, months_ago(3))
    assert not any(day["available"] for day in before["days"]) and before["previous"] is None


def test_this_month_today_is_open_and_later_days_are_not(month, client_for):
    today = days.today()
    deal_of(today)
    answer = client_for(month["alice"]).get("/api/calendar/").json()
    assert answer["month"] == month_text(today) and answer["today"] == today.isoformat()
    shown = by_day(answer)
    assert shown[today.isoformat()]["available"] and not shown[today.isoformat()]["final"]
    assert shown[today.isoformat()]["code"] is None  # secret until the day is final
    assert shown[today.isoformat()]["result"] == "none"
    later = [d for d in answer["days"] if d["date"] > today.isoformat()]
    assert all(not d["available"] and d["result"] is None for d in later)


def test_yesterday_keeps_its_code_during_the_grace(month, client_for, settings):
    settings.DAILY_GRACE_SECONDS = 36 * 3600  # yesterday's deal still takes results
    yesterday = days.today() - timedelta(days=1)
    deal_of(yesterday)
    shown = by_day(calendar_of(client_for(month["alice"]), calendar.month_of(yesterday)))
    assert shown[yesterday.isoformat()]["available"] and not shown[yesterday.isoformat()]["final"]
    assert shown[yesterday.isoformat()]["code"] is None


def test_a_month_is_one_statement_whatever_its_days_and_games(month, django_assert_num_queries, make_player):
    alice = month["alice"]
    for n in range(11, 29):
        result(alice, month["day"](n), won=n % 2 == 0, moves=100 + n)
        result(alice, month["day"](n), won=True, moves=200 + n, practice=True)
    with django_assert_num_queries(1):
        answer = calendar.month_calendar(month["first"], alice)
    assert sum(day["result"] == "won" for day in answer["days"]) == 2 + 9
    carl = make_player("carl")
    with django_assert_num_queries(1):
        calendar.month_calendar(month["first"], carl)


def test_the_api_reads_a_month_in_one_statement(month, client_for, django_assert_max_num_queries):
    client = client_for(month["alice"])
    with django_assert_max_num_queries(1):
        assert client.get(f"/api/calendar/{month_text(month['first'])}/").status_code == 200


@pytest.mark.parametrize("text", ["2026-13", "2026-00", "abcd-ef", "2026-1", "1999-12", "2026-001", "２０２６-01"])
def test_a_month_that_is_not_one_is_not_found(text):
    answer = APIClient().get(f"/api/calendar/{text}/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
