"""End to end in a real browser: a player opens the calendar, sees the day they won marked,
steps to the month before and back in place, and follows the day to its board, where their
row and the day's histogram with "you are here" are shown; their page has their statistics."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from leaderboard_fixtures.history import deal_of, result
from playwright.sync_api import Page, expect

from leaderboard.boards.services.stats import stats_refresh
from leaderboard.core import days

from .conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_up(page: Page, base: str, username: str, next_path: str) -> None:
    page.goto(f"{base}/signup/?next={next_path}")
    page.get_by_test_id("username").fill(username)
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("nav-me")).to_have_text(username)


def test_the_calendar_marks_a_won_day_and_leads_to_its_board(page, live_server, artifacts):
    base = live_server.url
    won_day = days.today() - timedelta(days=2)  # final: its code public, its games replayable
    month = won_day.strftime("%Y-%m")
    earlier = won_day - timedelta(days=40)
    deal_of(earlier)  # the service started long before: the month before has days too
    # A day of the same month with a deal she did not play (after the won day on the 1st).
    unplayed = won_day - timedelta(days=1) if won_day.day > 1 else won_day + timedelta(days=1)
    deal_of(unplayed)
    sign_up(page, base, "carol", f"/calendar/{month}/")
    page.wait_for_url(f"{base}/calendar/{month}/")
    carol = get_user_model().objects.get(username="carol")
    result(carol, won_day, won=True, moves=123)
    stats_refresh(carol.pk)  # as the verification of a daily result does
    page.reload()
    page.wait_for_selector("body[data-ready=true]")

    cell = page.locator(f'td[data-date="{won_day.isoformat()}"]')
    expect(cell).to_have_attribute("data-result", "won")
    day_link = page.get_by_test_id(f"cal-day-{won_day.isoformat()}")
    expect(day_link).to_have_attribute("aria-label", re.compile(r"won in 123 moves"))
    expect(page.locator(f'td[data-date="{unplayed.isoformat()}"]')).to_have_attribute("data-result", "none")
    expect(page.get_by_test_id(f"cal-play-{won_day.isoformat()}")).to_have_attribute(
        "href", re.compile(r"^/play/EH1-N-")
    )
    title = page.get_by_test_id("cal-title").inner_text()
    page.screenshot(path=artifacts / "calendar.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the month fits its width
    page.screenshot(path=artifacts / "calendar-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1280, "height": 1000})

    # The month before loads in place, and Back returns to this one.
    page.get_by_test_id("cal-prev").click()
    expect(page.get_by_test_id("cal-title")).not_to_have_text(title)
    before = (won_day.replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
    expect(page).to_have_url(f"{base}/calendar/{before}/")
    page.go_back()
    expect(page.get_by_test_id("cal-title")).to_have_text(title)

    # By keyboard: the day's link takes focus, and Enter follows it to the day's board.
    page.get_by_test_id(f"cal-day-{won_day.isoformat()}").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/boards/?date={won_day.isoformat()}")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator('#daily-board tr[data-player="carol"]')).to_be_visible()
    expect(page.get_by_test_id("you-are-here")).to_be_visible()
    expect(page.get_by_test_id("histogram-mine")).to_contain_text("123")
    page.screenshot(path=artifacts / "calendar-day-board.png", full_page=True)

    # Her page: days played and won, the win rate, and her won games' moves as a chart.
    page.goto(f"{base}/players/carol/")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("played")).to_have_text("1")
    expect(page.get_by_test_id("daily-wins")).to_have_text("1")
    expect(page.get_by_test_id("win-rate")).to_have_text("100%")
    expect(page.locator('[data-testid="moves-distribution"] rect.bar')).to_have_count(1)
    page.screenshot(path=artifacts / "calendar-player.png", full_page=True)


POLISH_MONTHS = (
    "styczeń",
    "luty",
    "marzec",
    "kwiecień",
    "maj",
    "czerwiec",
    "lipiec",
    "sierpień",
    "wrzesień",
    "październik",
    "listopad",
    "grudzień",
)


def test_the_calendar_speaks_the_pages_language(page, live_server):
    """Polish: the month's and the weekdays' names from Intl, Monday first, the words translated."""
    today = days.today()
    deal_of(today - timedelta(days=1))
    page.context.set_extra_http_headers({"Accept-Language": "pl"})
    page.goto(f"{live_server.url}/calendar/")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("cal-title")).to_have_text(f"{POLISH_MONTHS[today.month - 1]} {today.year}")
    first = page.locator("table.cal-month thead th").first
    expect(first).to_have_attribute("abbr", "poniedziałek")
    expect(page.locator(".cal-legend")).to_contain_text("tylko trening")
    today_link = page.get_by_test_id(f"cal-day-{today.isoformat()}")
    expect(today_link).to_have_attribute("aria-label", re.compile(r"dziś, tablica$"))
    expect(page.get_by_test_id(f"cal-play-{today.isoformat()}")).to_have_attribute(
        "title", "zagraj dzisiejsze rozdanie"
    )
