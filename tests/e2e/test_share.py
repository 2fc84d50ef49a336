"""Sharing a daily game (issue 14, item 6), in Chromium: once the server has verified and ranked
a daily win, the result card offers Share. This browser has no Web Share API on Linux (and the
test makes sure of it), so the text goes to the clipboard, which the test reads back: the day,
the result, the time by the server's clock, the cards home by suit, the rank of N, the streak
and a link, and nothing of the game itself (no move, not the deal's code, secret until the day
is final)."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect
from worker import wait_for

from games import format_code
from leaderboard.models import Attempt, Submission

from .conftest import PASSWORD
from .driver import BoardPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def clock(ms: int) -> str:
    """As the page writes a duration: "1:23", or "1:02:03" past an hour."""
    seconds = ms // 1000
    hours, minutes = seconds // 3600, seconds % 3600 // 60
    return f"{hours}:{minutes:02}:{seconds % 60:02}" if hours else f"{minutes}:{seconds % 60:02}"


def test_a_verified_daily_win_is_shared_through_the_clipboard(
    page, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    base = live_server.url
    context = page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    # The clipboard's way on any platform: a Web Share API, where this browser has one, is taken away.
    context.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")

    page.goto(f"{base}/signup/?next=/")
    page.get_by_test_id("username").fill("sharer")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/")
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")
    player = BoardPlayer(page, deal.number)
    player.play(line[:1])
    attempt = wait_for(lambda: Attempt.objects.filter(player__username="sharer").first())
    # A browser driven by a test plays faster than a person may: its clock goes back 30 minutes.
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    player.play(line[1:])

    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=30_000)
    expect(page.get_by_test_id("rank")).to_have_text("#1", timeout=30_000)
    share = page.get_by_test_id("share")
    expect(share).to_have_text("Share")
    expect(page.get_by_test_id("share-status")).to_have_text("")
    share.click()
    expect(page.get_by_test_id("share-status")).to_have_text("Copied")
    page.screenshot(path=str(artifacts / "daily-shared.png"), full_page=True)

    text = page.evaluate("() => navigator.clipboard.readText()")
    submission = Submission.objects.get(player__username="sharer")
    assert submission.status == "verified" and submission.won and submission.moves == len(line)
    assert text.split("\n") == [
        f"Easy Harp Daily · {deal.date:%b} {deal.date.day}, {deal.date.year}",  # en-US: Dec 1, 2026
        f"Won in {submission.moves} moves, {clock(submission.duration_ms)}",
        "♠██ ♥██ ♦██ ♣██ 104/104",  # the cards home by suit (no hint used: no mark)
        "Rank #1 of 1 player",
        "Streak: 1 day played, 1 won",
        f"{base}/",
    ]
    code = format_code(deal.number, "D")
    assert code not in text and code.split("-")[-1] not in text
    assert ">" not in text  # no action of the log (they all hold a ">", but the stock's "s")
