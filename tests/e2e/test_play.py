"""End to end in a real browser: sign up, win the deal of the day by clicks and drags on the
board, see the server verify and rank it; rules refusals, undo, hints and resuming after a
reload; the boards, a player's page and a replay."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from worker import wait_for

from games import ACTIONS, Game, format_code
from leaderboard.accounts import services as accounts
from leaderboard.core import days
from leaderboard.models import Attempt, DailyDeal, Submission
from leaderboard.play.services import intake

from .conftest import PASSWORD
from .driver import BoardPlayer, drag, geometry, wait_for_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

_TABLE_STATE = """
() => {
  const t = document.getElementById("table");
  const text = (id) => document.querySelector(`[data-testid="${id}"]`).textContent;
  return {
    log: Number(t.dataset.logLength),
    moves: Number(text("moves")),
    score: Number(text("score")),
    columns: [...t.querySelectorAll("[data-column]")].map((c) =>
      [...c.querySelectorAll("[data-col]")].map((card) => card.dataset.face === "up" ? card.dataset.card : "down")),
    stock: Number(t.querySelector("[data-stock]").dataset.count),
    waste: Number(t.querySelector("[data-waste]").dataset.count),
    wasteTop: t.querySelector("[data-waste-top]")?.dataset.card ?? null,
    foundations: [...t.querySelectorAll("[data-foundation]")].map((f) => Number(f.dataset.count)),
  };
}
"""


def table_state(page: Page) -> dict:
    return page.evaluate(_TABLE_STATE)


def first_built_run(number: int, line: list[str]) -> int:
    """How many actions of ``line`` lead to a column with a built run (and another non-empty one)."""
    game = Game.new(number)
    for index, text in enumerate(line):
        if any(len(c) - d >= 2 for c, d in zip(game.columns, game.down)) and sum(map(bool, game.columns)) >= 2:
            return index
        game.play(ACTIONS[text])
    raise AssertionError("the line never builds a run")


def first_take_back(number: int, line: list[str], start: int) -> tuple[int, str]:
    """The first index from ``start`` where the line's position allows a take-back, and one."""
    game = Game.new(number)
    for index, text in enumerate(line):
        if index >= start:
            takes = [a for a in game.legal_actions() if a.startswith("f")]
            if takes:
                return index, takes[0]
        game.play(ACTIONS[text])
    raise AssertionError("no take-back is ever legal along the line")


def open_board(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#table[data-ready=true]")


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/signup/?next=/")
    page.get_by_test_id("username").fill(username)
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/")
    expect(page.get_by_test_id("nav-me")).to_have_text(username)
    # Today's deal is dealt only once the player starts their try (tests/e2e/test_fair_play.py).
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")


def test_sign_up_win_the_daily_deal_by_hand_and_see_it_verified_and_ranked(
    page, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    base = live_server.url
    sign_up(page, base, "harpist")
    expect(page.get_by_test_id("deal-code")).to_have_text("shown once the day is final")
    expect(page.get_by_test_id("moves")).to_have_text("0")

    player = BoardPlayer(page, deal.number)
    player.play(line[:1])
    # Start started the attempt: the server's clock. Plausibility: this test plays
    # far faster than 10 actions a second, so it sets the attempt's started_at back 30 minutes
    # in the database before submitting (MAX_ACTIONS_PER_SECOND keeps its production value).
    attempt = wait_for(lambda: Attempt.objects.filter(player__username="harpist").first())
    assert attempt.deal_code == format_code(deal.number, "D") and attempt.daily_date == deal.date
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))

    middle = len(line) // 2
    player.play(line[1:middle])
    page.screenshot(path=str(artifacts / "board.png"))
    before = table_state(page)
    assert before["log"] == middle and before["moves"] == middle

    # A reload resumes the game in progress, attempt included.
    open_board(page, f"{base}/")
    assert table_state(page) == before
    expect(page.get_by_test_id("rule-message")).to_contain_text("Welcome back")

    player.play(line[middle:])
    won = table_state(page)
    assert won["foundations"] == [13] * 8 and won["moves"] == len(line)
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=20_000)
    expect(page.get_by_test_id("rank")).to_have_text("#1")
    page.screenshot(path=str(artifacts / "board-won.png"), full_page=True)

    submission = Submission.objects.get(player__username="harpist")
    assert submission.actions == line
    assert submission.won and submission.moves == len(line) and submission.clean and submission.hints == 0
    assert not submission.flagged and submission.daily_date == deal.date
    # Every kind of gesture played a part in the win.
    assert {"click stock", "click to foundation", "drag"} <= set(player.gestures), player.gestures

    page.get_by_test_id("board-link").click()
    page.wait_for_url(f"{base}/boards/?date={deal.date.isoformat()}")
    row = page.locator("#daily-board tr[data-player='harpist']")
    expect(row.get_by_test_id("row-rank")).to_have_text("1")
    expect(row.get_by_test_id("row-moves")).to_have_text(str(len(line)))
    expect(page.get_by_test_id("my-rank")).to_contain_text("#1")
    expect(page.get_by_test_id("proven")).to_contain_text("proven winnable")
    expect(page.locator("#players-board tr[data-player='harpist']")).to_be_visible()
    page.screenshot(path=str(artifacts / "leaderboard.png"), full_page=True)


def test_refused_run_undo_hint_and_reload_on_a_numbered_deal(page, live_server, todays_deal, artifacts):
    deal, line = todays_deal
    base = live_server.url
    code = format_code(deal.number)
    # A code typed in lower case in the address goes to its upper-case page.
    open_board(page, f"{base}/play/{code.lower()}/")
    assert page.url == f"{base}/play/{code}/"
    expect(page.get_by_test_id("deal-code")).to_have_text(code)

    # Play the winning line until some column holds a built run of face-up cards.
    done = first_built_run(deal.number, line)
    player = BoardPlayer(page, deal.number)
    player.play(line[:done])
    column, run, onto = player.built_run()

    # Moving the built run onto a non-empty column: the engine refuses it and says why.
    before = table_state(page)
    found = geometry(page, f"run:{column}:{run}", f"onto:{onto}")
    drag(page, found["from"], found["to"])
    expect(page.get_by_test_id("rule-message")).to_have_text(
        "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column."
    )
    assert table_state(page) == before

    # With "Interactive rules" off the move is still refused, silently; the setting persists.
    page.locator("#settings summary").click()
    page.get_by_test_id("opt-rules").uncheck()
    drag(page, found["from"], found["to"])
    expect(page.get_by_test_id("rule-message")).to_have_text("")
    assert table_state(page) == before
    open_board(page, page.url)
    page.locator("#settings summary").click()
    expect(page.get_by_test_id("opt-rules")).not_to_be_checked()
    expect(page.get_by_test_id("opt-double")).to_be_checked()
    page.get_by_test_id("opt-rules").check()

    # The next card move of the line, then Undo: the card is back, the move counter is not.
    card_move = next(i for i in range(done, len(line)) if line[i] != "s")
    player.play(line[done:card_move])
    done = card_move
    before = table_state(page)
    player.play([line[done]])
    moved = table_state(page)
    assert moved != before and moved["moves"] == before["moves"] + 1
    page.get_by_test_id("undo").click()
    wait_for_log(page, moved["log"] + 1)
    player.note("u")
    undone = table_state(page)
    assert undone["moves"] == moved["moves"]
    assert {k: v for k, v in undone.items() if k not in ("log", "moves")} == {
        k: v for k, v in before.items() if k not in ("log", "moves")
    }

    # Hints are counted by the server on an attempt: signed out, the button asks to sign in.
    expect(page.get_by_test_id("hint")).to_have_text("Sign in to get hints")

    # A reload resumes exactly where the game was.
    open_board(page, page.url)
    assert table_state(page) == undone
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_selector("#table[data-laid-out-for='390']")
    page.screenshot(path=str(artifacts / "board-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 1000})
    # The table lays itself out again shortly after a resize: act only on the new layout.
    page.wait_for_selector("#table[data-laid-out-for='1280']")

    # Back on the line until a take-back is legal: drag a foundation's top card onto a
    # column, then Ctrl+Z takes it back again.
    before_take, take = first_take_back(deal.number, line, done)
    player.play(line[done:before_take])
    before = table_state(page)
    player.perform(take)
    wait_for_log(page, before["log"] + 1)
    taken = table_state(page)
    foundation, column = int(take[1]), int(take[3])
    assert taken["foundations"][foundation - 1] == before["foundations"][foundation - 1] - 1
    assert len(taken["columns"][column - 1]) == len(before["columns"][column - 1]) + 1
    assert taken["score"] == before["score"] and taken["moves"] == before["moves"] + 1
    page.keyboard.press("Control+z")
    wait_for_log(page, taken["log"] + 1)
    player.note("u")
    restored = table_state(page)
    assert restored["columns"] == before["columns"] and restored["foundations"] == before["foundations"]

    # Signing up with a game in progress: the server's clock for it starts then.
    page.get_by_test_id("nav-signup").click()
    page.get_by_test_id("username").fill("latecomer")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/play/{code}/")
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("rule-message")).to_contain_text("the server's clock for this game starts now")
    attempt = wait_for(lambda: Attempt.objects.filter(player__username="latecomer").first())
    assert attempt.deal_code == code and attempt.daily_date is None
    assert table_state(page) == restored

    # Signed in, a hint lights up a move and the server counts it on the attempt (once the player
    # has read its price: a result with hints ranks after every result without).
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-dialog")).to_contain_text("ranks after every result without hints")
    page.get_by_test_id("hint-confirm").click()
    expect(page.get_by_test_id("hints")).to_have_text("1")
    expect(page.locator("#table .hinted").first).to_be_visible()
    expect(page.get_by_test_id("rule-message")).to_contain_text("Hint:")
    assert wait_for(lambda: Attempt.objects.get(pk=attempt.pk).hints == 1)

    # "Same deal" starts again (once the player agrees to throw the game away); the code box
    # upper-cases what is typed; "New deal" deals another (no question: nothing to lose).
    page.get_by_test_id("same-deal").click()
    page.get_by_test_id("confirm-throw").click()
    expect(page.get_by_test_id("moves")).to_have_text("0")
    assert table_state(page)["log"] == 0 and table_state(page)["stock"] == 59
    page.get_by_test_id("code-input").fill("eh1-x-aaaaaab")
    page.get_by_test_id("code-go").click()
    expect(page.get_by_test_id("rule-message")).to_contain_text("unknown mode")
    page.get_by_test_id("code-input").fill("eh1-n-aaaaaaf")
    page.get_by_test_id("code-go").click()
    page.wait_for_url(f"{base}/play/EH1-N-AAAAAAF/")
    page.wait_for_selector("#table[data-ready=true]")
    # Deal 5 (rules section 3): the top cards of columns 1..9.
    tops = [column[-1] for column in table_state(page)["columns"]]
    assert tops == "KC AD 7C TC 2S 6S 2D AS AD".split()
    page.get_by_test_id("new-deal").click()
    page.wait_for_url(re.compile(r".*/play/EH1-N-[A-Z]{7}/$"))
    page.wait_for_selector("#table[data-ready=true]")

    # A code that names no deal: a 404 page that says why.
    response = page.goto(f"{base}/play/EH1-N-ZZZZZZZ/")
    assert response.status == 404
    expect(page.get_by_test_id("rule-message")).to_contain_text("outside 1..999,999")


def test_boards_player_page_and_replay_of_a_closed_day(page, live_server, todays_deal, human_tempo_worker, artifacts):
    deal, line = todays_deal
    yesterday = DailyDeal.objects.create(date=deal.date - timedelta(days=1), number=deal.number, solution=line)
    code = format_code(deal.number, "D")
    submissions = {}
    for name, actions in (("ada", line), ("bob", line[:60])):
        who = accounts.user_signup(username=name, password=PASSWORD)
        started = days.as_utc_datetime(yesterday.date) + timedelta(hours=9)
        attempt = Attempt.objects.create(
            player=who,
            deal_code=code,
            deal_number=deal.number,
            daily_date=yesterday.date,
            ranked=True,
            started_at=started,
        )
        # As intake stored it that day (it refuses it now that the day is final), then verified.
        submission = Submission.objects.create(
            attempt=attempt,
            player=who,
            deal_number=deal.number,
            daily_date=yesterday.date,
            actions=actions,
            submitted_at=started + timedelta(minutes=30),
        )
        intake.enqueue_verification(submission.pk)
        submissions[name] = submission.pk
    wait_for(lambda: Submission.objects.filter(status="verified").count() == 2)

    base = live_server.url
    # Log in (a wrong password first): back on the day's board, with ada's own rank.
    page.goto(f"{base}/login/?next=/boards/%3Fdate%3D{yesterday.date.isoformat()}")
    page.get_by_test_id("username").fill("ada")
    page.get_by_test_id("password").fill("not her password")
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("auth-error")).to_have_text("Wrong username or password.")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/boards/?date={yesterday.date.isoformat()}")
    expect(page.get_by_test_id("my-rank")).to_contain_text("#1")
    rows = page.locator("#daily-board tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-player", "ada")
    expect(rows.nth(1)).to_have_attribute("data-player", "bob")
    expect(page.locator("#players-board tr[data-player='ada']")).to_be_visible()
    page.get_by_test_id("deal-input").fill(str(deal.number))
    page.get_by_test_id("deal-go").click()
    expect(page.get_by_test_id("deal-meta")).to_contain_text(f"Deal #{deal.number}")

    page.goto(f"{base}/players/ada/")
    expect(page.get_by_test_id("daily-wins")).to_have_text("1")
    for streak in ("played-streak", "best-played-streak", "current-streak", "best-streak"):  # won yesterday
        expect(page.get_by_test_id(streak)).to_have_text("1")
    expect(page.locator("[data-testid='moves-chart'] circle")).to_have_count(1)
    expect(page.locator("#player-history tr[data-date]")).to_have_count(1)
    page.screenshot(path=str(artifacts / "player.png"), full_page=True)

    # The day has closed: anyone may replay ada's game, step by step.
    page.get_by_role("link", name="replay").click()
    page.wait_for_url(f"{base}/replay/{submissions['ada']}/")
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("step")).to_have_text(f"0 / {len(line)}")
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("step")).to_have_text(f"1 / {len(line)}")
    expect(page.get_by_test_id("replay-action")).to_have_text(line[0])
    page.get_by_test_id("replay-prev").click()
    expect(page.get_by_test_id("step")).to_have_text(f"0 / {len(line)}")
    page.get_by_test_id("replay-play").click()
    page.wait_for_function("() => Number(document.getElementById('table').dataset.step) >= 3")
    page.get_by_test_id("replay-play").click()
    # The scrubber, by keyboard: the end, then back some way into the game.
    page.get_by_test_id("replay-scrub").focus()
    page.keyboard.press("End")
    for _ in range(6):
        page.keyboard.press("PageDown")
    middle = int(page.get_by_test_id("replay-scrub").input_value())
    assert 0 < middle < len(line)
    expect(page.get_by_test_id("step")).to_have_text(f"{middle} / {len(line)}")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("step")).to_have_text(f"{len(line)} / {len(line)}")
    assert table_state_foundations(page) == [13] * 8
    expect(page.get_by_test_id("replay-message")).to_contain_text("won")

    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()


def table_state_foundations(page: Page) -> list[int]:
    return page.evaluate(
        "[...document.querySelectorAll('#table [data-foundation]')].map((f) => Number(f.dataset.count))"
    )
