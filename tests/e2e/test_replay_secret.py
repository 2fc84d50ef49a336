"""The replay page of another player's game before its log is public, in Chromium: a game of the
day whose day is not final has no deal in its answer (``deal: null``), so the page shows no cards
and says when the deal becomes public; a numbered game of today shows its deal, not its moves."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from worker import wait_for

from games import format_code, parse_code
from leaderboard.accounts import services as accounts
from leaderboard.core import days
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import intake

from .conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def verified_game(name: str, code: str, actions: list[str], daily_date=None) -> int:
    """A game ``name`` played from 30 minutes ago, as intake stores it, verified by the worker."""
    player = accounts.user_signup(username=name, password=PASSWORD)
    started = timezone.now() - timedelta(minutes=30)
    number = parse_code(code).number
    attempt = Attempt.objects.create(
        player=player,
        deal_code=code,
        deal_number=number,
        daily_date=daily_date,
        ranked=daily_date is not None,
        started_at=started,
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=number,
        daily_date=daily_date,
        actions=actions,
        times=[0] * len(actions),  # (the tempo rules are off: a numbered result needs times to rank)
        submitted_at=timezone.now(),
    )
    intake.enqueue_verification(submission.pk)
    wait_for(lambda: Submission.objects.filter(pk=submission.pk, status="verified", won=True).exists())
    return submission.pk


def test_a_game_of_a_day_not_final_shows_no_cards_and_says_when(page, live_server, todays_deal, human_tempo_worker):
    deal, line = todays_deal
    submission = verified_game("ada", format_code(deal.number, "D"), line, daily_date=deal.date)

    page.goto(f"{live_server.url}/replay/{submission}/")
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("replay-title")).to_contain_text(
        f"ada · deal of {deal.date:%b} {deal.date.day}, {deal.date.year} · won"
    )
    expect(page.get_by_test_id("replay-message")).to_contain_text("This game's deal is secret until the day is final")
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    final_at = days.day_accepts_until(deal.date).astimezone(ZoneInfo(zone))  # close plus grace, the reader's time
    shown = page.get_by_test_id("replay-message").text_content()
    assert re.search(rf"\b({final_at:%H}|0?{final_at.hour % 12 or 12}):{final_at:%M}\b", shown), shown  # 24 h or 12 h
    assert page.locator("#table > *").count() == 0  # no cards
    expect(page.get_by_test_id("deal-code")).to_have_text("")
    for control in ("replay-first", "replay-prev", "replay-play", "replay-next", "replay-last", "replay-scrub"):
        expect(page.get_by_test_id(control)).to_be_disabled()


def test_a_numbered_game_of_today_shows_its_deal_and_not_its_moves(page, live_server, todays_deal, human_tempo_worker):
    deal, line = todays_deal
    code = format_code(deal.number, "N")
    submission = verified_game("bob", code, line)

    page.goto(f"{live_server.url}/replay/{submission}/")
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("deal-code")).to_have_text(code)
    expect(page.get_by_test_id("replay-message")).to_contain_text("once the UTC day it was played on has closed")
    assert page.locator("#table [data-column]").count() > 0  # the deal, dealt
    expect(page.get_by_test_id("replay-play")).to_be_disabled()
