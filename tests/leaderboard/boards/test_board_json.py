"""Board pages are cached as rendered JSON (leaderboard/rendering.py) and the rows' times are
written by PostgreSQL: the answers are byte for byte what DRF's own rendering of the same data
gives, for every client (JSON, JSON with an indent, the browsable API)."""

import json
from datetime import UTC, datetime, timezone

import pytest
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from leaderboard.models import BoardEntry, Submission

pytestmark = pytest.mark.django_db
PAGE = "/api/leaderboards/daily/?page=1&page_size=10"


@pytest.fixture
def board_of_three(make_player, play, today_deal, won_game):
    code = daily_code(today_deal)
    for name, minutes in (("zoë", 20), ("bob", 30), ("carol", 40)):
        play(make_player(name), code, won_game["actions"], minutes=minutes)
    # times as they come: whole seconds (isoformat drops the fraction), a few microseconds
    stamps = [
        datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC),
        datetime(2026, 3, 1, 12, 0, 1, 5, tzinfo=UTC),
        datetime(2026, 3, 1, 23, 59, 59, 999999, tzinfo=UTC),
    ]
    for submission, stamp in zip(Submission.objects.order_by("pk"), stamps):
        Submission.objects.filter(pk=submission.pk).update(submitted_at=stamp)
    return [s.submitted_at.isoformat() for s in Submission.objects.order_by("pk")]


def test_a_page_computed_and_the_same_page_from_the_cache_are_what_drf_renders(board_of_three):
    first, cached = APIClient().get(PAGE), APIClient().get(PAGE)
    assert first.status_code == cached.status_code == 200
    assert first.content == cached.content == JSONRenderer().render(first.json())
    assert "zoë" in first.content.decode() and first["Content-Type"] == "application/json"
    shown = {row["submission"]: row["submitted_at"] for row in first.json()["results"]}
    assert sorted(shown.values()) == sorted(board_of_three)
    for pk, text in shown.items():  # the API's times: Python's isoformat of the stored value
        assert text == Submission.objects.get(pk=pk).submitted_at.isoformat()
    assert [row["rank"] for row in first.json()["results"]] == [1, 2, 3]


def test_a_cached_page_has_the_headers_of_any_answer(board_of_three):
    APIClient().get(PAGE)
    cached = APIClient().get(PAGE)
    other = APIClient().get("/api/leaderboards/players/")  # a plain DRF Response
    for header in ("Content-Type", "Vary", "Allow", "X-Frame-Options"):
        assert cached.get(header) == other.get(header), header


def test_an_indent_or_the_browsable_api_still_render_the_data(board_of_three):
    APIClient().get(PAGE)  # cached
    indented = APIClient().get(PAGE, HTTP_ACCEPT="application/json; indent=4")
    assert indented.content.decode() == json.dumps(indented.json(), indent=4, ensure_ascii=False)
    html = APIClient().get(PAGE, HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html")
    assert "carol" in html.content.decode()


def test_a_page_sees_a_change_on_the_board(board_of_three, make_player, play, today_deal, won_game):
    before = APIClient().get(PAGE).json()
    play(make_player("dave"), daily_code(today_deal), won_game["actions"], minutes=10)
    after = APIClient().get(PAGE).json()
    assert after["count"] == before["count"] + 1 == BoardEntry.objects.filter(board__startswith="daily:").count()
    assert after["results"][0]["player"] == "dave"
