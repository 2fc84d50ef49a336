"""How the game page and the replay feel, in Chromium: a question before "Same deal" or "New
deal" throws a game away; refusals in suit symbols that fade, at once when no double tap can
follow; cards that glide and a win that cascades, neither under reduced motion; the tallest
column inside a desktop window, the bar above it not covering the foundations; the replay's
speed and keys.

Times that matter here (the double tap's wait, a refusal's fading, the replay's pace) run on
Playwright's clock, moved by hand: nothing waits for real time to pass.
"""

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.utils import timezone as django_timezone
from playwright.sync_api import Page, expect

from games import ACTIONS, Game, format_code, parse_code
from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, Submission

from .conftest import PASSWORD
from .driver import BoardPlayer, drag, geometry, wait_for_log

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RANKS = "A23456789TJQK"
#: Deal 1: column 1 is a lone A♠, column 3's top is 10♥, column 7's top 9♠ goes onto it.
DEAL_1 = format_code(1)
FADED = re.compile(r"\bfaded\b")
#: Records every animation a page starts (its id), passing each call on unchanged.
RECORD_ANIMATIONS = """
window.__animations = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  window.__animations.push((options && options.id) || "");
  return animate.call(this, keyframes, options);
};
"""


@pytest.fixture(autouse=True)
def _motion(request):
    """The feel of motion is what this module checks: ``page``'s reduced motion (conftest's
    GAME_CONTEXT) is lifted on its tests' pages."""
    if "page" in request.fixturenames:
        request.getfixturevalue("page").emulate_media(reduced_motion="no-preference")


def open_board(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#table[data-ready=true]")


def resume(page: Page, base: str, number: int, actions: list[str]) -> None:
    """Open numbered deal ``number`` with ``actions`` already played, as a saved game in this
    browser (localStorage) resumes."""
    code = format_code(number)
    page.goto(f"{base}/rules/")
    page.evaluate(
        """([key, record]) => {
      const now = Date.now();
      localStorage.setItem(key, JSON.stringify({ ...record, startedAt: now - 60000, savedAt: now }));
    }""",
        [f"eh:game:{code}", {"code": code, "actions": actions, "times": [0] * len(actions)}],
    )
    open_board(page, f"{base}/play/{code}/")
    wait_for_log(page, len(actions))


def click(page: Page, place: str) -> None:
    page.mouse.click(*geometry(page, place, None)["from"])


def message(page: Page):
    return page.get_by_test_id("rule-message")


def test_refusals_in_symbols_fade_and_a_tap_no_double_tap_can_follow_answers_at_once(page, live_server):
    page.clock.install(time=datetime(2026, 12, 1, 12, tzinfo=UTC))
    open_board(page, f"{live_server.url}/play/{DEAL_1}/")
    # From here the page's timers run only when the test moves the clock.
    page.clock.pause_at(datetime(2026, 12, 1, 12, 1, tzinfo=UTC))

    # A♠ dragged onto 10♥: refused in symbols, as a hint would say it.
    found = geometry(page, "run:1:1", "onto:3")
    drag(page, found["from"], found["to"])
    refusal = "A♠ cannot go on 10♥: a column takes a card of the opposite colour, exactly one rank lower."
    expect(message(page)).to_have_text(refusal)

    # It stays while it can be read, then fades, then is gone.
    linger = min(10_000, max(2500, len(refusal) * 65))
    page.clock.run_for(linger - 1)
    expect(message(page)).not_to_have_class(FADED)
    page.clock.run_for(1)
    expect(message(page)).to_have_class(FADED)
    page.clock.run_for(600)
    expect(message(page)).to_have_text("")

    # A tap on 9♠, which no foundation takes, with double tap on: a second tap would send it
    # onto 10♥, so the page waits for one before it says no.
    click(page, "run:7:1")
    expect(message(page)).to_have_text("")
    page.clock.run_for(400)
    expect(message(page)).to_contain_text("No foundation takes 9♠: the spades foundations (1 and 2)")

    # The board moves on (9♠ onto 10♥): the refusal goes with it.
    found = geometry(page, "run:7:1", "onto:3")
    drag(page, found["from"], found["to"])
    wait_for_log(page, 1)
    expect(message(page)).to_have_text("")

    # With double tap off, the same kind of tap is answered at once: the clock has not moved.
    page.locator("#settings summary").click()
    page.get_by_test_id("opt-double").uncheck()
    click(page, "run:3:1")
    expect(message(page)).to_contain_text("No foundation takes 9♠")

    # Back at the deal's start, double tap on: a tap on a card that a double tap could send
    # nowhere either is answered at once too.
    page.get_by_test_id("opt-double").check()
    page.get_by_test_id("undo").click()
    wait_for_log(page, 2)
    page.clock.run_for(20_000)
    expect(message(page)).to_have_text("")
    game = Game.new(1)
    stuck = next(
        str(n) for n in range(1, 10) if game.columns[n - 1] and game.tap_destination(str(n), double=True) is None
    )
    click(page, f"run:{stuck}:1")
    expect(message(page)).to_contain_text("No foundation takes")


def test_a_game_is_thrown_away_only_when_the_player_says_so(page, live_server, todays_deal):
    deal, line = todays_deal
    base = live_server.url
    open_board(page, f"{base}/play/{DEAL_1}/")
    dialog = page.get_by_test_id("confirm")

    # Nothing played yet: nothing to lose, no question.
    page.get_by_test_id("same-deal").click()
    expect(dialog).to_be_hidden()
    expect(message(page)).to_contain_text("Dealt again")

    # One move: "Same deal" asks; Cancel keeps the game as it was.
    click(page, "stock")
    wait_for_log(page, 1)
    page.get_by_test_id("same-deal").click()
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("confirm-title")).to_have_text("Deal the same cards again?")
    expect(page.get_by_test_id("confirm-text")).to_have_text(
        "The game on the table, 1 move so far, will be thrown away."
    )
    page.get_by_test_id("confirm-cancel").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("moves")).to_have_text("1")
    # Escape is a Cancel too.
    page.get_by_test_id("same-deal").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("moves")).to_have_text("1")
    # Throw away: the same cards, from the start.
    page.get_by_test_id("same-deal").click()
    page.get_by_test_id("confirm-throw").click()
    expect(page.get_by_test_id("moves")).to_have_text("0")
    wait_for_log(page, 0)

    # "New deal" asks the same; Cancel stays on this deal.
    click(page, "stock")
    wait_for_log(page, 1)
    page.get_by_test_id("new-deal").click()
    expect(page.get_by_test_id("confirm-title")).to_have_text("Deal new cards?")
    page.get_by_test_id("confirm-cancel").click()
    assert page.url == f"{base}/play/{DEAL_1}/"
    expect(page.get_by_test_id("moves")).to_have_text("1")

    # The win card's "Same deal" asks too: the won game and its result would go.
    resume(page, base, deal.number, line[:-1])
    BoardPlayer(page, deal.number, line[:-1]).play(line[-1:])
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    result.get_by_role("button", name="Same deal").click()
    expect(page.get_by_test_id("confirm-text")).to_have_text(
        "Your won game and what the server said of it will no longer be shown here."
    )
    page.get_by_test_id("confirm-cancel").click()
    expect(result).to_be_visible()
    expect(page.get_by_test_id("moves")).to_have_text(str(len(line)))
    result.get_by_role("button", name="Same deal").click()
    page.get_by_test_id("confirm-throw").click()
    expect(result).to_be_hidden()
    expect(page.get_by_test_id("moves")).to_have_text("0")

    # "New deal" on a fresh table: no question, another deal.
    page.get_by_test_id("new-deal").click()
    page.wait_for_url(lambda url: url.startswith(f"{base}/play/EH1-N-") and format_code(deal.number) not in url)


def _finish(page: Page, base: str, deal, line: list[str]) -> None:
    """The last two actions of the winning line, by hand, on the saved rest of it."""
    resume(page, base, deal.number, line[:-2])
    player = BoardPlayer(page, deal.number, line[:-2])
    player.play(line[-2:-1])


def test_cards_glide_and_a_win_cascades(page, live_server, todays_deal):
    deal, line = todays_deal
    page.add_init_script(RECORD_ANIMATIONS)
    _finish(page, live_server.url, deal, line)
    # The card that just moved glided there.
    assert page.locator("#table .card.flown").count() >= 1
    assert "card-move" in page.evaluate("window.__animations")
    # The winning move: the cards leap off the foundations, over the board, then go.
    BoardPlayer(page, deal.number, line[:-1]).play(line[-1:])
    expect(page.get_by_test_id("result")).to_be_visible()
    celebration = page.get_by_test_id("celebration")
    expect(celebration).to_be_attached()
    assert celebration.get_attribute("aria-hidden") == "true"
    assert "celebrate" in page.evaluate("window.__animations")
    expect(celebration).not_to_be_attached()


def test_reduced_motion_moves_and_wins_without_animation(browser, live_server, todays_deal):
    deal, line = todays_deal
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    context.add_init_script(RECORD_ANIMATIONS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _finish(page, live_server.url, deal, line)
        BoardPlayer(page, deal.number, line[:-1]).play(line[-1:])
        expect(page.get_by_test_id("result")).to_be_visible()
        assert page.evaluate("window.__animations") == []
        assert page.locator(".card.flown, .card.moving, [data-testid=celebration]").count() == 0
        # Nor a CSS animation or transition (the landing bounce, the status line's pulse).
        assert page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()
    assert not errors, errors


def tall_column_game(min_cards: int = 17) -> tuple[int, list[str], int]:
    """A numbered deal and actions that leave one column at least ``min_cards`` long: on a
    column whose face-down cards and top rank leave room for the most, every card that can
    go there goes there, drawing from the stock in between."""
    for number in range(1, 400):
        game = Game.new(number)
        tops = [column[-1] for column in game.snapshot()["columns"]]
        room = [game.down[c] + RANKS.index(top[0]) + 1 for c, top in enumerate(tops)]
        target = max(range(len(room)), key=room.__getitem__)
        if room[target] < max(min_cards, 19):
            continue
        onto = [f"w>{target + 1}"] + [f"{n}>{target + 1}" for n in range(1, 10) if n != target + 1]
        actions: list[str] = []
        while len(game.columns[target]) < room[target] and len(actions) < 3000:
            text = next((t for t in onto if game.refusal_code(ACTIONS[t]) is None), "s")
            if game.refusal_code(ACTIONS[text]) is not None:
                break
            game.play(ACTIONS[text])
            actions.append(text)
        if len(game.columns[target]) >= min_cards:
            return number, actions, target + 1
    raise AssertionError("no deal builds a long enough column")


def test_the_tallest_column_fits_a_desktop_window_and_the_bar_covers_no_foundation(page, live_server):
    number, actions, column = tall_column_game()
    page.set_viewport_size({"width": 1366, "height": 900})
    resume(page, live_server.url, number, actions)
    cards = page.locator(f"#table [data-column='{column}'] [data-col]")
    assert cards.count() >= 17
    bottom = page.evaluate(f"""() => Math.max(...[...document.querySelectorAll("#table [data-column='{column}'] .card")]
      .map((card) => card.getBoundingClientRect().bottom))""")
    assert bottom <= 900, f"the column's bottom card ends at {bottom}px, below the window"

    # Scrolled until the foundations are just under the window's top: nothing covers them.
    page.locator("#settings summary").click()
    found = page.evaluate("""() => {
      const slot = document.querySelector("#table [data-foundation='1']");
      window.scrollTo(0, slot.getBoundingClientRect().top + window.scrollY - 10);
      const r = slot.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + 6);
      return { top: r.top, onFoundation: Boolean(hit && hit.closest("[data-foundation]")) };
    }""")
    assert abs(found["top"] - 10) < 1, found  # the page did scroll that far
    assert found["onFoundation"], found


def _own_game(name: str, code: str, actions: list[str]) -> int:
    """``name``'s game of numbered deal ``code`` as intake stores it (its owner sees its moves)."""
    player = accounts.user_signup(username=name, password=PASSWORD)
    number = parse_code(code).number
    started = django_timezone.now() - timedelta(minutes=30)
    attempt = Attempt.objects.create(player=player, deal_code=code, deal_number=number, started_at=started)
    return Submission.objects.create(
        attempt=attempt, player=player, deal_number=number, actions=actions, submitted_at=django_timezone.now()
    ).pk


def test_the_replay_plays_at_the_chosen_speed_and_steps_by_keys(page, live_server, todays_deal):
    deal, line = todays_deal
    assert len(line) > 80
    submission = _own_game("ada", format_code(deal.number), line)
    base = live_server.url
    page.goto(f"{base}/login/?next=/replay/{submission}/")
    page.get_by_test_id("username").fill("ada")
    page.get_by_test_id("password").fill(PASSWORD)
    page.clock.install(time=datetime(2026, 12, 1, 12, tzinfo=UTC))
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/replay/{submission}/")
    page.wait_for_selector("#table[data-ready=true]")
    page.clock.pause_at(datetime(2026, 12, 1, 12, 1, tzinfo=UTC))
    step = page.get_by_test_id("step")
    total = len(line)

    # Keys: the arrows step one action, Home and End go to either end.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"2 / {total}")
    expect(page.get_by_test_id("replay-action")).to_have_text(line[1])
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"1 / {total}")
    page.keyboard.press("End")
    expect(step).to_have_text(f"{total} / {total}")
    page.keyboard.press("Home")
    expect(step).to_have_text(f"0 / {total}")

    # Space plays: 1x is 4 actions a second; Space again pauses.
    speed = page.get_by_test_id("replay-speed")
    expect(speed).to_have_value("1")
    page.keyboard.press(" ")
    page.clock.run_for(1000)
    page.keyboard.press(" ")
    expect(step).to_have_text(f"4 / {total}")
    page.clock.run_for(1000)
    expect(step).to_have_text(f"4 / {total}")

    # At 16x a second plays 64 actions; the speed is remembered.
    speed.select_option("16")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press(" ")
    page.clock.run_for(1000)
    page.keyboard.press(" ")
    played = int(step.text_content().split(" / ")[0]) - 4
    assert 60 <= played <= 64, played
    page.reload()
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("replay-speed")).to_have_value("16")
    expect(page.get_by_test_id("replay-keys")).to_contain_text("Space plays or pauses")
