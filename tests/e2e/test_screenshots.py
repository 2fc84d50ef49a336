"""Pictures of every page (issue 14, item 8): each page at phone (390x844, touch) and desktop
(1366x900) width, in English, Polish and German, saved under test-artifacts/screenshots/ as
<language>-<device>-<page>.png for a person to look through. One server, one browser, two
players with verified games (one of today's deal) and a group, so that every page has something
on it.

Each picture is of a page that rendered in its language: <html lang> is the language, the
page's heading or main control reads as the catalogue translates it, and (Polish and German) no
run of three English words of the catalogues is left on it."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.translation.trans_real import DjangoTranslation
from leaderboard_fixtures.people import MOVE_RULES_OFF
from leaderboard_fixtures.service import not_a_copy
from playwright.sync_api import Page, expect

from games import format_code
from leaderboard.accounts import services as accounts
from leaderboard.groups import services as groups
from leaderboard.models import Attempt
from leaderboard.play.services import intake, verification

from .conftest import ARTIFACTS, PASSWORD
from .test_languages import english_left

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEVICES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1366, "height": 900}},
}
LOCALES = {"en": "en-US", "pl": "pl-PL", "de": "de-DE"}


def words(language: str, domain: str, msgid: str) -> str:
    """``msgid`` as the catalogue of ``domain`` (django: the templates; djangojs: the modules)
    has it in ``language``."""
    if domain == "django":
        with translation.override(language):
            return translation.gettext(msgid)
    return DjangoTranslation(language, domain="djangojs").gettext(msgid)


def pages(replay_id: int, group_id: int) -> list[tuple]:
    """(name, path, what shows it is ready, what must read in the page's language: a selector,
    the catalogue's domain and msgid). Signed out first: the log-in and sign-up forms."""
    listed = [
        ("login", "/login/", "[data-testid=auth-form]", ("[data-testid=auth-submit]", "django", "Log in")),
        ("signup", "/signup/", "[data-testid=auth-form]", ("[data-testid=auth-submit]", "django", "Create account")),
        (
            "daily",
            "/",
            "[data-testid=game][data-stage=start]",
            ("[data-testid=daily-panel] h2", "djangojs", "Your ranked try"),
        ),
        ("deal", "/play/EH1-N-AAAAAAF/", "#table[data-ready=true]", ("[data-testid=same-deal]", "django", "Same deal")),
        ("boards", "/boards/", "body[data-ready=true]", ("h1", "django", "Leaderboards")),
        ("player", "/players/bob/", "body[data-ready=true]", ("main", "django", "Daily history")),
        (
            "replay",
            f"/replay/{replay_id}/",
            "#table[data-ready=true]",
            ("[data-testid=replay-title]", "djangojs", "won"),
        ),
        ("rules", "/rules/", "h1", ("h1", "django", "Easy Harp: the rules")),
        ("groups", "/groups/", "body[data-ready=true]", ("h1", "django", "Groups")),
        ("group", f"/groups/{group_id}/", "body[data-ready=true]", ("main", "django", "Standings")),
    ]
    try:  # a page added since (issue 15's calendar), when it is there
        resolve("/calendar/")
        listed.append(("calendar", "/calendar/", "h1", ("h1", "django", "Calendar")))
    except Resolver404:
        pass
    return listed


def verified_game(player, line: list[str], number: int, daily_date=None) -> int:
    """A won game of ``player`` (today's deal when ``daily_date``, else the numbered deal),
    begun 30 minutes ago, stored by intake and verified by the worker's service."""
    code = format_code(number, "D" if daily_date else "N")
    attempt = Attempt.objects.create(
        player=player,
        deal_code=code,
        deal_number=number,
        daily_date=daily_date,
        ranked=daily_date is not None,
        started_at=timezone.now() - timedelta(minutes=30),
    )
    times = [1000 * (i + 1) for i in range(len(line))]  # (a numbered deal's result needs them too)
    submission = intake.submission_create(attempt=attempt, player=player, actions=line, times=times)
    verified = verification.submission_verify(submission.pk)
    assert verified is not None and verified.status == "verified" and verified.won and verified.on_boards
    return submission.pk


def shoot(page: Page, base: str, language: str, device: str, page_spec: tuple) -> int:
    """Check and picture one page; returns how many pixels it runs past the window's width."""
    name, path, ready, (selector, domain, msgid) = page_spec
    page.goto(f"{base}{path}")
    page.wait_for_selector(ready)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(selector).first).to_contain_text(words(language, domain, msgid))
    if language != "en":
        assert not english_left(page), (name, english_left(page))
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{language}-{device}-{name}.png"), full_page=True)
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_every_page_at_phone_and_desktop_width_in_three_languages(browser, live_server, todays_deal, settings):
    deal, line = todays_deal
    # The game below is verified here, not by a worker, with the tempo rules off: its times are
    # a test's, evenly spaced, which those rules rightly flag.
    settings.TEMPO_MIN_ACTIONS = 1_000_000
    for name, value in MOVE_RULES_OFF.items():  # and the move rules: one line for two players
        setattr(settings, name, value)
    ada = accounts.user_signup(username="ada", password=PASSWORD)
    bob = accounts.user_signup(username="bob", password=PASSWORD)
    group = groups.group_create(owner=ada, name="Harpists")
    groups.group_join(player=bob, code=group.invite_code)
    verified_game(bob, line, deal.number, daily_date=deal.date)  # on today's boards, in bob's history
    # Not the same game as bob's (that would be a copy, off the boards): two moves in another order.
    replay_id = verified_game(ada, not_a_copy(ada, format_code(deal.number, "N"), line), deal.number)
    client = Client()
    client.force_login(ada)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    base = live_server.url
    specs = pages(replay_id, group.pk)

    shot = 0
    too_wide = []
    for language, locale in LOCALES.items():
        for device, options in DEVICES.items():
            context = browser.new_context(locale=locale, timezone_id="Europe/Warsaw", **options)
            context.set_default_timeout(15_000)
            context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
            errors: list[str] = []
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            try:
                for spec in specs:
                    if spec[0] == "daily":  # the first page for a signed-in player
                        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
                    if overflow := shoot(page, base, language, device, spec):
                        too_wide.append((language, device, spec[0], overflow))
                    shot += 1
            finally:
                context.close()
            assert not errors, (language, device, errors)
    assert shot == len(LOCALES) * len(DEVICES) * len(specs) >= 60
    assert not too_wide, f"pages wider than the window (language, device, page, pixels): {too_wide}"


def test_the_game_and_both_endings_light_and_dark_on_a_phone_and_a_desktop(browser, live_server, todays_deal):
    """Issue 22: the game half played, the game given up and the game won, each in the light and
    the dark theme, at phone and desktop size, saved as endings/<theme>-<device>-<stage>.png.
    Each ending's dialog fits the window without a scroll of its own."""
    from .driver import BoardPlayer
    from .test_feel import resume

    deal, line = todays_deal
    base = live_server.url
    out = ARTIFACTS / "screenshots" / "endings"
    out.mkdir(parents=True, exist_ok=True)
    half = line[: len(line) // 2]
    shots = []
    for theme in ("light", "dark"):
        for device, options in DEVICES.items():
            context = browser.new_context(locale="en-US", color_scheme=theme, **options)
            context.set_default_timeout(15_000)
            context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
            errors: list[str] = []
            page = context.new_page()
            page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
            try:
                resume(page, base, deal.number, half)
                page.screenshot(path=str(out / f"{theme}-{device}-game.png"))
                page.get_by_test_id("give-up").click()
                page.get_by_test_id("give-up-confirm").click()
                dialog = page.get_by_test_id("result-dialog")
                expect(page.get_by_test_id("result-title")).to_have_text("Not won")
                assert dialog.evaluate("(d) => d.scrollHeight <= d.clientHeight"), (theme, device, "given up")
                page.screenshot(path=str(out / f"{theme}-{device}-given-up.png"))

                resume(page, base, deal.number, line[:-1])
                BoardPlayer(page, deal.number, line[:-1]).play(line[-1:])
                expect(page.get_by_test_id("result-title")).to_have_text("You won!")
                assert dialog.evaluate("(d) => d.scrollHeight <= d.clientHeight"), (theme, device, "won")
                page.screenshot(path=str(out / f"{theme}-{device}-won.png"))
                shots.append((theme, device))
            finally:
                context.close()
            assert not errors, (theme, device, errors)
    assert len(shots) == 4


def test_the_first_screen_light_and_dark_on_a_phone_and_a_desktop(browser, live_server, todays_deal):
    """Issue 22: the first screen of a visitor without an account, its Start above the fold over
    the table face down, in the light and the dark theme at phone and desktop size, saved as
    first-screen/<theme>-<device>.png."""
    out = ARTIFACTS / "screenshots" / "first-screen"
    out.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        for device, options in DEVICES.items():
            context = browser.new_context(locale="en-US", color_scheme=theme, **options)
            context.set_default_timeout(15_000)
            context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
            errors: list[str] = []
            page = context.new_page()
            page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
            try:
                page.goto(f"{live_server.url}/")
                page.wait_for_selector("[data-testid=table-preview] .columns")
                start = page.get_by_test_id("start-daily").bounding_box()
                assert start and start["y"] + start["height"] <= options["viewport"]["height"], (theme, device)
                page.screenshot(path=str(out / f"{theme}-{device}.png"))
            finally:
                context.close()
            assert not errors, (theme, device, errors)
            assert (out / f"{theme}-{device}.png").stat().st_size > 0
