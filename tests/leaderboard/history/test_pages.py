"""The calendar's pages (/calendar/, /calendar/YYYY-MM/), linked from the nav and the boards
page; the player's page has the place of the distribution of moves."""

import pytest
from django.test import Client
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/history/)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/calendar/", "/calendar/2026-11/"])
def test_the_calendar_pages_are_shells_for_their_module(path, make_player):
    client = Client()
    html = client.get(path).content.decode()
    assert 'src="/static/frontend/pages/calendar.js"' in html and 'data-testid="calendar"' in html
    assert 'data-testid="cal-prev"' in html and 'data-testid="cal-next"' in html
    assert 'data-testid="calendar-signed-out"' in html  # log in to see your results
    client.force_login(make_player("ada"))
    response = client.get(path)
    assert response.status_code == 200
    assert 'data-testid="calendar-signed-out"' not in response.content.decode()


def test_a_month_that_is_not_one_is_a_404_page():
    response = Client().get("/calendar/2026-13/")
    assert response.status_code == 404
    assert 'data-testid="calendar-error"' in response.content.decode()
    assert "calendar.js" not in response.content.decode()


def test_the_calendar_is_linked_from_the_nav_and_the_boards_page():
    for path in ("/", "/rules/", "/boards/"):
        assert 'href="/calendar/" data-testid="nav-calendar"' in Client().get(path).content.decode()
    assert 'data-testid="boards-calendar"' in Client().get("/boards/").content.decode()
    assert 'data-testid="daily-histogram"' in Client().get("/boards/").content.decode()


def test_the_player_page_has_the_distribution():
    assert 'data-testid="player-distribution"' in Client().get("/players/somebody/").content.decode()
