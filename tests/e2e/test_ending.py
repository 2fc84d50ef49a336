"""Every player finishes the daily (issue 22), the browser's part, in Chromium: a game given up
is sent as it stands and its loss shows with its rank in the result dialog, and is shared; a
hint says its price before it is spent; a message never moves the cards; the phone's chrome
above the cards stays under a fifth of its height; the dark theme applies, by the system's
choice or the header's switch, and is remembered; the skip link and Start put the focus on
the table, and a card held by keyboard is outlined and named in view."""

from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from worker import wait_for

from games import ACTIONS, Game, format_code
from leaderboard.models import Attempt, Submission

from .conftest import PASSWORD
from .driver import BoardPlayer, drag, geometry, wait_for_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: Deal 1's first column is a lone A♠ (tests/e2e/test_feel.py).
DEAL_1 = format_code(1)


def sign_up_and_start(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/signup/?next=/")
    page.get_by_test_id("username").fill(username)
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/")
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")


def foundations(page: Page) -> list[int]:
    return page.evaluate(
        "[...document.querySelectorAll('#table [data-foundation]')].map((f) => Number(f.dataset.count))"
    )


def test_give_up_the_daily_and_see_the_loss_with_its_rank_in_the_result_dialog(
    page, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    base = live_server.url
    context = page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    context.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    sign_up_and_start(page, base, "quitter")
    # After Start the cards have the focus: the next key plays.
    assert page.evaluate("document.getElementById('table').contains(document.activeElement)")
    expect(page.get_by_test_id("give-up")).to_be_disabled()  # nothing played: nothing to give up

    player = BoardPlayer(page, deal.number)
    player.play(line[:1])
    attempt = wait_for(lambda: Attempt.objects.filter(player__username="quitter").first())
    # A browser driven by a test plays faster than a person may: its clock goes back 30 minutes.
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    played = line[: len(line) // 3]
    player.play(played[1:])
    home = sum(foundations(page))
    assert 0 < home < 104

    # Asked first; "Play on" keeps the game.
    page.get_by_test_id("give-up").click()
    expect(page.get_by_test_id("give-up-dialog")).to_be_visible()
    page.get_by_test_id("give-up-cancel").click()
    expect(page.get_by_test_id("result-dialog")).to_be_hidden()
    page.get_by_test_id("give-up").click()
    page.get_by_test_id("give-up-confirm").click()

    dialog = page.get_by_test_id("result-dialog")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("result-title")).to_have_text("Not won")
    expect(page.get_by_test_id("cards-home")).to_have_text(f"{home} cards home")
    expect(page.get_by_test_id("result-moves")).to_have_text(str(len(played)))
    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=30_000)
    expect(page.get_by_test_id("rank")).to_have_text("#1", timeout=30_000)
    expect(dialog).to_contain_text("Rank #1 of 1")
    expect(page.get_by_test_id("result-histogram")).to_contain_text("Your result of the day is not a win.")
    expect(page.get_by_test_id("result-streak")).to_have_text("Streak: 1 day played, 0 won")
    page.screenshot(path=str(artifacts / "daily-given-up.png"))

    submission = Submission.objects.get(player__username="quitter")
    assert submission.actions == played and not submission.won and submission.daily_date == deal.date

    # Shared: not won, the picture of the cards home, the rank, no spoiler.
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("share-status")).to_have_text("Copied")
    text = page.evaluate("() => navigator.clipboard.readText()")
    lines = text.split("\n")
    assert lines[1].startswith(f"Not won: {len(played)} moves, ")
    assert lines[2].endswith(f" {home}/104") and lines[2].startswith("♠")
    assert "Rank #1 of 1 player" in lines
    assert format_code(deal.number, "D") not in text and ">" not in text

    # The table stays as it was given up: no card moves any more.
    page.get_by_test_id("result-close").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("show-result")).to_be_visible()
    assert page.locator("#table [data-card][role=button]").count() == 0
    page.get_by_test_id("show-result").click()
    expect(dialog).to_be_visible()


def test_a_hint_says_its_price_before_the_first_is_spent(page, live_server, todays_deal):
    base = live_server.url
    page.goto(f"{base}/signup/?next=/play/{DEAL_1}/")
    page.get_by_test_id("username").fill("curious")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/play/{DEAL_1}/")
    page.wait_for_selector("#table[data-ready=true]")
    hint = page.get_by_test_id("hint")
    price = "A result with hints ranks after every result without hints."
    expect(hint).to_have_attribute("title", price)
    expect(hint).to_have_attribute("aria-description", price)

    hint.click()
    expect(page.get_by_test_id("hint-dialog")).to_be_visible()
    expect(page.get_by_test_id("hint-dialog")).to_contain_text("ranks after every result without hints")
    page.get_by_test_id("hint-cancel").click()
    expect(page.get_by_test_id("hints")).to_have_text("0")

    hint.click()
    page.get_by_test_id("hint-confirm").click()
    expect(page.get_by_test_id("rule-message")).to_contain_text("Hint:")
    expect(page.get_by_test_id("hints")).to_have_text("1")
    # The price is told once: the second hint comes at once.
    hint.click()
    expect(page.get_by_test_id("hint-dialog")).to_be_hidden()
    expect(page.get_by_test_id("hints")).to_have_text("2")


def test_a_message_does_not_move_the_table_and_the_phone_keeps_the_cards_high(browser, live_server):
    context = browser.new_context(**PHONE, reduced_motion="reduce")
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/play/{DEAL_1}/")
        page.wait_for_selector("#table[data-ready=true]")
        page.evaluate("document.fonts.ready")
        first_column = page.locator("#table [data-column='1']")
        before = first_column.bounding_box()
        # At most a fifth of the phone's height above the first card (rarely used actions in "More").
        table_top = page.evaluate("document.getElementById('table').getBoundingClientRect().top")
        assert table_top <= 844 * 0.2, f"the chrome above the cards is {table_top} px of 844"
        expect(page.get_by_test_id("same-deal")).to_be_hidden()
        page.get_by_test_id("more-toggle").click()
        expect(page.get_by_test_id("same-deal")).to_be_visible()
        page.get_by_test_id("more-toggle").click()

        # A refused move (nothing to undo): the message shows, the cards stay where they were.
        page.get_by_test_id("undo").click()
        expect(page.get_by_test_id("rule-message")).to_have_text("Nothing to undo.")
        assert first_column.bounding_box() == before
        # And a longer one, A♠ dragged onto 10♥: still not a pixel.
        found = geometry(page, "run:1:1", "onto:3")
        drag(page, found["from"], found["to"])
        expect(page.get_by_test_id("rule-message")).to_contain_text("A♠ cannot go on 10♥")
        assert first_column.bounding_box() == before
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_dark_theme_follows_the_system_and_the_switch_and_is_remembered(browser, live_server):
    base = live_server.url
    background = "() => getComputedStyle(document.body).backgroundColor"
    dark = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    try:
        page = dark.new_page()
        page.goto(f"{base}/rules/")
        assert page.evaluate(background) == "rgb(17, 22, 20)"
        expect(page.get_by_test_id("theme")).to_have_attribute("aria-pressed", "true")
        page.get_by_test_id("theme").click()
        assert page.evaluate(background) == "rgb(238, 241, 236)"
        page.goto(f"{base}/boards/")  # the choice is kept, and applied before the page is drawn
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert page.evaluate(background) == "rgb(238, 241, 236)"
    finally:
        dark.close()
    light = browser.new_context(color_scheme="light", viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    try:
        page = light.new_page()
        page.goto(f"{base}/rules/")
        assert page.evaluate(background) == "rgb(238, 241, 236)"
        page.get_by_test_id("theme").click()
        assert page.evaluate(background) == "rgb(17, 22, 20)"
        expect(page.get_by_test_id("theme")).to_have_attribute("aria-pressed", "true")
    finally:
        light.close()


def test_the_skip_link_leads_to_the_cards_and_a_held_card_shows(page, live_server):
    page.goto(f"{live_server.url}/play/{DEAL_1}/")
    page.wait_for_selector("#table[data-ready=true]")
    page.locator("body").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("skip-link")).to_be_focused()
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('table').contains(document.activeElement)")
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    held = page.locator("#table .held")
    expect(held).to_have_count(1)
    assert held.evaluate("(card) => getComputedStyle(card).outlineStyle") == "solid"
    expect(page.get_by_test_id("held-note")).to_have_text("holding A♠")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("held-note")).to_be_hidden()


def test_card_ranks_in_messages_are_the_readers(browser, live_server):
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    page = context.new_page()
    try:
        # Deal 2: column 2's top is Q♣, column 1's 6♦, which does not take it.
        page.goto(f"{live_server.url}/play/{format_code(2)}/")
        page.wait_for_selector("#table[data-ready=true]")
        game = Game.new(2)
        assert game.snapshot()["columns"][1][-1] == "QC" and game.refusal(ACTIONS["2>1"]) is not None
        found = geometry(page, "run:2:1", "onto:1")
        drag(page, found["from"], found["to"])
        expect(page.get_by_test_id("rule-message")).to_contain_text("D♣ kann nicht auf 6♦")
        # A mouse's words: "klicken", not "tippen".
        expect(page.locator(".settings .for-mouse")).to_contain_text("Klicke")
        expect(page.locator(".settings .for-touch")).to_be_hidden()
        wait_for_log(page, 0)
    finally:
        context.close()


def test_the_cards_grow_to_use_a_big_window(browser, live_server):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, reduced_motion="reduce")
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/play/{DEAL_1}/")
        page.wait_for_selector("#table[data-ready=true]")
        table = page.locator("#table").bounding_box()
        card = page.locator("#table [data-column='1'] [data-card]").last.bounding_box()
        assert table["width"] >= 1600, table
        assert card["width"] >= 120, card  # 96 px before: half the window stayed empty
        # The whole table still fits the window's height.
        bottom = page.evaluate(
            "Math.max(...[...document.querySelectorAll('#table .card')].map((c) => c.getBoundingClientRect().bottom))"
        )
        assert bottom <= 1080, bottom
    finally:
        context.close()
