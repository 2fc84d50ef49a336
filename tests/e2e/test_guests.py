"""Guests and the first screen (issue 22, item 2), in Chromium against the live server and a real
worker: a visitor starts today's deal from the first screen (its Start above the fold, over the
table's layout face down), plays as a guest, gives up, sees the loss with the rank it would have
in the result dialog, is on no public board, keeps the account and then is on the board; the
page saves the ranked log as it stands meanwhile. On a phone in Polish and a desktop in German.
axe finds nothing serious on the first screen, light or dark."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect
from rest_framework.test import APIClient
from worker import wait_for

from leaderboard.models import Attempt, AttemptDraft, Submission
from leaderboard.record.models import GUEST_PREFIX

from .axe import assert_no_serious_violations
from .conftest import PASSWORD
from .driver import BoardPlayer
from .test_screenshots import words

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


def open_page(browser, options: dict, locale: str, theme: str = "light"):
    context = browser.new_context(locale=locale, color_scheme=theme, reduced_motion="reduce", **options)
    context.set_default_timeout(15_000)
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def above_the_fold(page, test_id: str) -> bool:
    box = page.get_by_test_id(test_id).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize(
    "device, options, language, locale, name",
    [("phone", PHONE, "pl", "pl-PL", "harfiarka"), ("desktop", DESKTOP, "de", "de-DE", "harfner")],
)
def test_a_guest_starts_from_the_first_screen_gives_up_keeps_the_account_and_is_on_the_board(
    browser, live_server, todays_deal, human_tempo_worker, device, options, language, locale, name
):
    deal, line = todays_deal
    base = live_server.url
    context, page, errors = open_page(browser, options, locale)
    try:
        page.goto(f"{base}/")
        expect(page.locator("[data-testid=game][data-stage=invite]")).to_be_attached()
        expect(page.locator("html")).to_have_attribute("lang", language)
        start = page.get_by_test_id("start-daily")
        expect(start).to_have_text(words(language, "djangojs", "Start"))
        assert above_the_fold(page, "start-daily"), (device, start.bounding_box())
        # Today's table, face down: no card of it is in the page before Start.
        expect(page.get_by_test_id("table-preview")).to_be_visible()
        assert page.locator("[data-testid=table-preview] [data-card]").count() == 0
        assert page.locator("[data-testid=table-preview] [data-face=down]").count() > 40

        start.click()
        page.wait_for_selector("#table[data-ready=true]")
        assert page.evaluate("document.getElementById('table').contains(document.activeElement)")
        guest = wait_for(lambda: Attempt.objects.filter(player__username__startswith=GUEST_PREFIX).first())
        assert guest.ranked and guest.daily_date == deal.date
        # A browser driven by a test plays faster than a person may: its clock goes back 30 minutes.
        Attempt.objects.filter(pk=guest.pk).update(started_at=guest.started_at - timedelta(minutes=30))
        played = line[:12]
        BoardPlayer(page, deal.number).play(played)
        # The ranked log as it stands reaches the server while the game is played (drafts.js).
        wait_for(lambda: AttemptDraft.objects.filter(attempt_id=guest.pk, actions=played).exists())

        page.get_by_test_id("give-up").click()
        page.get_by_test_id("give-up-confirm").click()
        dialog = page.get_by_test_id("result-dialog")
        expect(dialog).to_be_visible()
        expect(page.get_by_test_id("result-title")).to_have_attribute("data-won", "false")
        expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=30_000)
        # The rank it would have, in the dialog; on no public board.
        expect(page.get_by_test_id("guest-rank")).to_be_visible()
        expect(page.get_by_test_id("rank")).to_have_text("#1")
        submission = Submission.objects.get(attempt_id=guest.pk)
        assert submission.guest and not submission.won and submission.actions == played
        assert APIClient().get("/api/leaderboards/daily/").json()["count"] == 0
        if device == "phone":
            assert dialog.evaluate("(d) => d.scrollHeight <= d.clientHeight"), "the dialog scrolls"

        page.get_by_test_id("keep-result").click()
        page.get_by_test_id("keep-username").fill(name)
        page.get_by_test_id("keep-password").fill(PASSWORD)
        page.get_by_test_id("keep-submit").click()
        expect(page.get_by_test_id("board-link")).to_be_visible()
        expect(page.get_by_test_id("guest-rank")).to_have_count(0)
        expect(page.get_by_test_id("rank")).to_have_text("#1")
        expect(page.get_by_test_id("nav-me")).to_have_text(name)  # the header knows the name at once
        expect(page.get_by_test_id("nav-guest")).to_have_count(0)
        submission.refresh_from_db()
        assert submission.player.username == name and not submission.guest and submission.on_boards

        page.goto(f"{base}/boards/")
        expect(page.locator("main")).to_contain_text(name)
        expect(page.get_by_test_id("nav-me")).to_have_text(name)
    finally:
        context.close()
    assert not errors, errors


def test_a_guest_that_keeps_nothing_stays_off_the_public_board(browser, live_server, todays_deal, human_tempo_worker):
    deal, line = todays_deal
    base = live_server.url
    context, page, errors = open_page(browser, DESKTOP, "en-US")
    watcher, board_page, board_errors = open_page(browser, DESKTOP, "en-US")
    try:
        page.goto(f"{base}/")
        page.get_by_test_id("start-daily").click()
        page.wait_for_selector("#table[data-ready=true]")
        attempt = wait_for(lambda: Attempt.objects.filter(player__username__startswith=GUEST_PREFIX).first())
        Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
        BoardPlayer(page, deal.number).play(line[:8])
        page.get_by_test_id("give-up").click()
        page.get_by_test_id("give-up-confirm").click()
        expect(page.get_by_test_id("guest-rank")).to_contain_text("once you keep this result", timeout=30_000)
        expect(page.get_by_test_id("keep-result")).to_be_visible()

        board_page.goto(f"{base}/boards/")
        board_page.wait_for_selector("body[data-ready=true]")
        expect(board_page.locator("main")).not_to_contain_text(GUEST_PREFIX)
        assert APIClient().get("/api/leaderboards/daily/").json()["count"] == 0
        guest_name = Attempt.objects.get(pk=attempt.pk).player.username
        assert APIClient().get(f"/api/players/{guest_name}/").status_code == 404
        # The same browser comes back: still the same guest, its game resumed as it ended.
        page.reload()
        page.wait_for_selector("#table[data-ready=true]")
        expect(page.get_by_test_id("guest-rank")).to_be_visible()
        expect(page.get_by_test_id("nav-guest")).to_have_text("Guest")  # a guest has no name to show
    finally:
        context.close()
        watcher.close()
    assert not errors and not board_errors, (errors, board_errors)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_first_screen_has_no_serious_accessibility_problem(browser, live_server, todays_deal, theme):
    for options in (PHONE, DESKTOP):
        context, page, errors = open_page(browser, options, "en-US", theme)
        try:
            page.goto(f"{live_server.url}/")
            expect(page.locator("[data-testid=game][data-stage=invite]")).to_be_attached()
            assert above_the_fold(page, "start-daily")
            page.wait_for_selector("[data-testid=table-preview] .columns")
            assert_no_serious_violations(page, f"the first screen ({theme}, {options['viewport']['width']})")
        finally:
            context.close()
        assert not errors, errors
