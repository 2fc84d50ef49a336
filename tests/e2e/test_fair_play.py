"""Fair play in the browser (issue 12). Today's deal is not playable signed out: the page tells
about it and invites the visitor in. Signed in, a start panel comes before any card; Start
deals them; the won game goes to the server with the time of every action (continued across a
reload), and is verified and ranked. A game after the ranked try is practice; its hints are
counted by the server; a game whose day has closed is refused in plain words. The boards mark
results that used hints."""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from worker import wait_for

from games import format_code
from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import intake

from .conftest import PASSWORD
from .driver import BoardPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Anything on the table a player could see or touch.
CARDS = "#table [data-col], #table [data-stock], #table [data-foundation]"


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/signup/?next=/")
    page.get_by_test_id("username").fill(username)
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/")
    expect(page.get_by_test_id("nav-me")).to_have_text(username)


def is_attempt_start(request) -> bool:
    return request.method == "POST" and request.url.endswith("/api/attempts/")


def is_submission(request) -> bool:
    return request.method == "POST" and request.url.endswith("/submission")


def test_signed_out_today_is_an_invitation_without_cards(page, live_server, todays_deal):
    deal, _ = todays_deal
    code = format_code(deal.number, "D")
    base = live_server.url
    with page.expect_response(lambda r: r.url.endswith("/api/daily/")) as answered:
        page.goto(f"{base}/")
    assert answered.value.json()["code"] is None

    expect(page.locator("[data-testid=game][data-stage=invite]")).to_be_attached()
    expect(page.get_by_test_id("daily-panel")).to_be_visible()
    facts = page.get_by_test_id("daily-facts")
    expect(facts).to_contain_text(f"{deal.date:%b} {deal.date.day}, {deal.date.year}")  # en-US: Dec 1, 2026
    expect(facts).to_contain_text("proven winnable")
    expect(facts).to_contain_text("0 players so far")
    expect(facts).to_contain_text("closes")
    expect(page.get_by_test_id("invite-signup")).to_have_attribute("href", "/signup/?next=%2F")
    expect(page.get_by_test_id("invite-login")).to_have_attribute("href", "/login/?next=%2F")
    expect(page.get_by_test_id("hint")).to_have_text("Sign in to get hints")
    expect(page.get_by_test_id("hint")).to_be_disabled()
    assert page.locator(CARDS).count() == 0
    assert code not in page.content()

    # Numbered deals stay open to everyone.
    page.get_by_test_id("play-numbered").click()
    page.wait_for_url(re.compile(r".*/play/EH1-N-[A-Z]{7}/$"))
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.locator("#table [data-stock]")).to_be_visible()


def test_start_panel_then_a_timed_win_verified_and_ranked_then_practice_with_hints(
    page, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    code = format_code(deal.number, "D")
    base = live_server.url
    sign_up(page, base, "harpist")

    # Before Start: the panel, no card, no code, no attempt.
    page.wait_for_selector("[data-testid=game][data-stage=start]")
    expect(page.get_by_test_id("ranked-try")).to_contain_text("your ranked try")
    expect(page.get_by_test_id("daily-panel")).not_to_contain_text("null")
    assert page.locator(CARDS).count() == 0
    assert code not in page.content()
    assert not Attempt.objects.filter(player__username="harpist").exists()
    page.screenshot(path=str(artifacts / "daily-start.png"), full_page=True)

    with page.expect_response(lambda r: is_attempt_start(r.request)) as started:
        page.get_by_test_id("start-daily").click()
    answer = started.value.json()
    assert started.value.request.post_data_json == {"deal": "daily"}
    assert answer["deal"] == code and answer["ranked"] is True
    page.wait_for_selector("#table[data-ready=true]")
    # The code stays off the page until the day is final: not shown, not in the log box.
    expect(page.get_by_test_id("deal-code")).to_have_text("shown once the day is final")
    assert code not in page.get_by_test_id("move-log").input_value()
    expect(page.get_by_test_id("mode-note")).to_be_hidden()
    attempt = Attempt.objects.get(player__username="harpist")
    assert attempt.ranked and attempt.daily_date == deal.date
    # The old plausibility rule (actions per second by the server's clock) keeps its production
    # value: the attempt started 30 minutes earlier, as far as the server knows.
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))

    middle = len(line) // 2
    player = BoardPlayer(page, deal.number)
    player.play(line[:middle])
    saved_at = time.monotonic()
    time.sleep(1.0)
    # A reload resumes the try (GET /api/daily/ names it) and its clock goes on.
    page.reload()
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("rule-message")).to_contain_text("Welcome back")
    # A bound for a hang: half a game played by gestures, on a machine that may be loaded.
    with page.expect_request(is_submission, timeout=300_000) as sent:
        resumed_after = time.monotonic() - saved_at
        player.play(line[middle:])
    body = sent.value.post_data_json
    assert set(body) == {"actions", "times"}
    assert body["actions"] == line
    times = body["times"]
    assert len(times) == len(line) and all(isinstance(t, int) for t in times)
    assert times == sorted(times) and times[0] >= 0
    # The wall time of the reload counts: the gap across it is at least what passed.
    assert times[middle] - times[middle - 1] >= resumed_after * 1000 - 2

    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=30_000)
    # The rank follows the verification (the page polls for it): a loaded machine needs more than 5 s.
    expect(page.get_by_test_id("rank")).to_have_text("#1", timeout=30_000)
    page.screenshot(path=str(artifacts / "daily-won-timed.png"), full_page=True)
    submission = Submission.objects.get(player__username="harpist")
    assert submission.times == times and submission.hints == 0 and submission.clean
    assert not submission.practice and not submission.flagged and submission.copy_of is None

    # Another game the same day (the won one leaves the page once the player agrees): a new
    # Start, and the answer says practice. The result dialog is above everything: its own button.
    page.get_by_test_id("result-dialog").get_by_role("button", name="Same deal").click()
    page.get_by_test_id("confirm-throw").click()
    page.wait_for_selector("[data-testid=game][data-stage=again]")
    assert page.locator(CARDS).count() == 0
    with page.expect_response(lambda r: is_attempt_start(r.request)) as started:
        page.get_by_test_id("start-attempt").click()
    assert started.value.json()["ranked"] is False
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("mode-note")).to_have_text("Practice: this game will not be ranked.")
    expect(page.get_by_test_id("rule-message")).to_have_text("Practice: this game will not be ranked.")
    practice = Attempt.objects.filter(player__username="harpist").exclude(pk=attempt.pk).get()
    assert not practice.ranked and practice.practice

    # Hints: asked on the attempt, counted by the server, the count shown is the server's.
    player = BoardPlayer(page, deal.number)
    player.play(line[:5])
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/hints/")) as asked:
        page.get_by_test_id("hint").click()
    assert asked.value.post_data_json == {"attempt": str(practice.pk), "actions": line[:5]}
    expect(page.get_by_test_id("hints")).to_have_text("1")
    expect(page.get_by_test_id("rule-message")).to_contain_text("Hint:")
    assert wait_for(lambda: Attempt.objects.get(pk=practice.pk).hints == 1)

    # The reload of a practice game says so again.
    page.reload()
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("mode-note")).to_be_visible()
    expect(page.get_by_test_id("hints")).to_have_text("1")


def test_a_game_whose_day_has_closed_is_refused_in_plain_words(page, live_server, todays_deal, human_tempo_worker):
    deal, line = todays_deal
    base = live_server.url
    sign_up(page, base, "owl")
    page.wait_for_selector("[data-testid=game][data-stage=start]")
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")
    # The player's try began two days ago, as far as the server knows: its day is long closed.
    attempt = Attempt.objects.get(player__username="owl")
    Attempt.objects.filter(pk=attempt.pk).update(
        daily_date=deal.date - timedelta(days=2), started_at=attempt.started_at - timedelta(days=2)
    )

    # The game is sent once it is over: the wait is for the last move's answer, however long
    # the browser took to play the moves before it.
    player = BoardPlayer(page, deal.number)
    player.play(line[:-1])
    with page.expect_response(lambda r: is_submission(r.request), timeout=60_000) as refused:
        player.play(line[-1:])
    assert refused.value.status == 409 and refused.value.json()["error"]["code"] == "day_closed"
    expect(page.get_by_test_id("day-closed")).to_contain_text("The day closed at")
    expect(page.get_by_test_id("day-closed")).to_contain_text("this game can no longer be ranked")
    assert not Submission.objects.exists()


def test_boards_mark_results_that_used_hints(page, live_server, todays_deal, human_tempo_worker):
    deal, line = todays_deal
    code = format_code(deal.number, "D")
    for name, hints, actions in (("ada", 0, line[:-3]), ("bob", 2, line)):
        who = accounts.user_signup(username=name, password=PASSWORD)
        attempt = Attempt.objects.create(
            player=who,
            deal_code=code,
            deal_number=deal.number,
            daily_date=deal.date,
            ranked=True,
            hints=hints,
            started_at=timezone.now() - timedelta(minutes=30),
        )
        intake.submission_create(
            attempt=attempt, player=who, actions=actions, times=[1000 * i for i in range(len(actions))]
        )
    wait_for(lambda: Submission.objects.filter(status="verified").count() == 2)

    page.goto(f"{live_server.url}/boards/")
    rows = page.locator("#daily-board tbody tr")
    expect(rows).to_have_count(2)
    # bob won, with hints: after ada's clean loss, and marked in words.
    expect(rows.nth(0)).to_have_attribute("data-player", "ada")
    expect(rows.nth(1)).to_have_attribute("data-player", "bob")
    expect(rows.nth(1).get_by_test_id("row-hints")).to_have_text("2 hints")
    expect(rows.nth(0).get_by_test_id("row-hints")).to_have_count(0)
