"""One clock (issue 22, item 3), in Chromium on a device whose clock is 7 minutes slow: during a
ranked try the page shows the server's clock (the attempt's started_at, corrected for the offset
between the two clocks); "Same deal" deals the same cards again, says so, and keeps the ranked
time; and the time on the game, in the result dialog, on the board and in the share text is one
number, the verified submission's, to the second."""

import re
import time as time_module
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect
from worker import wait_for

from leaderboard.models import Attempt, Submission

from .conftest import PASSWORD
from .driver import BoardPlayer
from .test_share import clock

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: The device's clock against the server's.
SKEW = timedelta(minutes=-7)


def test_same_deal_keeps_the_ranked_time_and_result_board_and_share_agree(
    page, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    base = live_server.url
    context = page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    context.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    page.clock.install(time=datetime.now(UTC) + SKEW)  # flows on from there, 7 minutes behind

    page.goto(f"{base}/signup/?next=/")
    page.get_by_test_id("username").fill("timer")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/")
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")
    device_behind = datetime.now(UTC).timestamp() * 1000 - page.evaluate("Date.now()")
    assert abs(device_behind - 7 * 60_000) < 60_000, device_behind  # the skew is on
    player = BoardPlayer(page, deal.number)
    player.play(line[:3])
    attempt = wait_for(lambda: Attempt.objects.filter(player__username="timer").first())
    # A person's pace: the try started 30 minutes ago by the server's clock; the page learns it
    # from the server when it opens the try again.
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    backdated = time_module.monotonic()
    page.reload()
    page.wait_for_selector("#table[data-ready=true]")
    # The server's clock: neither the device's (7 minutes off) nor the page's count since its first move.
    time = page.get_by_test_id("time")
    expect(time).to_have_text(re.compile(r"^30:\d\d$"))

    # Same deal: asked, said, the log starts again, the ranked time does not.
    page.get_by_test_id("same-deal").click()
    expect(page.get_by_test_id("confirm-text")).to_contain_text("keeps running")
    page.get_by_test_id("confirm-throw").click()
    expect(page.locator("#table")).to_have_attribute("data-log-length", "0")
    expect(page.get_by_test_id("rule-message")).to_contain_text("keeps running")
    expect(time).to_have_text(re.compile(r"^30:\d\d$"))

    player = BoardPlayer(page, deal.number)
    player.play(line)
    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=30_000)
    expect(page.get_by_test_id("rank")).to_have_text("#1", timeout=30_000)
    submission = Submission.objects.get(player__username="timer")
    assert submission.won and submission.actions == line
    shown = clock(submission.duration_ms)
    # The ranked time ran on from 30 minutes before the back-dating, however long the browser
    # took to play (a minute or more on a loaded machine): not from "Same deal", not reset.
    played_since = time_module.monotonic() - backdated
    assert 30 * 60_000 <= submission.duration_ms <= (30 * 60 + played_since + 60) * 1000, shown
    # One number: the game, the result dialog, the share text and the board.
    expect(page.get_by_test_id("result-time")).to_have_text(shown)
    expect(time).to_have_text(shown)
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("share-status")).to_have_text("Copied")
    shared = page.evaluate("() => navigator.clipboard.readText()").split("\n")
    assert shared[1] == f"Won in {len(line)} moves, {shown}"
    page.screenshot(path=str(artifacts / "one-clock-result.png"))

    page.goto(f"{base}/boards/")
    row = page.locator("#daily-board tbody tr[data-player='timer']")
    expect(row.get_by_test_id("row-time")).to_have_text(shown)
