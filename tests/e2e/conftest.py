"""Browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's
live_server. `playwright install` is never run: the browser is /usr/bin/chromium.

A test that needs a submission verified takes the ``worker`` fixture (tests/conftest.py): a
real Celery worker process on the test database, which sees what the live server committed.
"""

import os
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from leaderboard_fixtures.people import MOVE_RULES_OFF
from playwright.sync_api import expect

# Bounds for a hang, not speed checks: a condition is met as soon as it holds. Playwright's 5 s
# for an expectation was missed on a loaded 2-core machine (three workers' browsers at once).
expect.set_options(timeout=20_000)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The pages of a test that plays a game: cards land at once, as under the reader's "reduce
# motion". A glide (180 ms a move, play/motion.js) is a wait the driver sits out before each
# gesture (about 25 s of a 460-action game), and frames to draw. tests/e2e/test_feel.py checks
# the motion itself on pages that allow it.
GAME_CONTEXT = {"viewport": {"width": 1280, "height": 1000}, "reduced_motion": "reduce"}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "silver-harp-strings-42"


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, for the tests of one module. Playwright's sync API keeps an event
    loop running in this thread while the browser is open, so Django's guard against ORM
    calls from async code is lifted meanwhile (the calls stay synchronous), and restored after."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium (never `playwright install`).")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _player_page(browser):
    """A fresh browser context (own cookies and localStorage) at desktop size, motion reduced
    (GAME_CONTEXT). Script errors
    on the page fail the test."""
    context = browser.new_context(**GAME_CONTEXT)
    context.set_default_timeout(30_000)
    # A returning player: the first visit's how to play (play/how-to.js) was dismissed, so it
    # does not push the board down (tests/e2e/test_languages.py sees it on a first visit).
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


@pytest.fixture
def page(browser):
    yield from _player_page(browser)


@pytest.fixture
def second_page(browser):
    """Another person's browser beside ``page``: its own cookies and storage."""
    yield from _player_page(browser)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _fresh_redis(clean_redis):
    """Each test starts with an empty Redis database."""
    yield clean_redis


@pytest.fixture
def human_tempo_worker(monkeypatch, request):
    """The real worker (tests/conftest.py's ``worker``) with the tempo rules switched off: a
    browser driven by a test plays faster than any person, which those rules rightly flag; and
    the move rules (near-copies, engine match) too: it plays the solver's line, which the engine
    match rightly flags. Everything else (times checked at intake, replay, ranking) is as in
    production."""
    monkeypatch.setenv("TEMPO_MIN_ACTIONS", "1000000")
    for name, value in MOVE_RULES_OFF.items():  # and the move rules: it plays the solver's line
        monkeypatch.setenv(name, str(value))
    return request.getfixturevalue("worker")


_DAILY: dict = {}


@pytest.fixture
def todays_deal(transactional_db):
    """Today's deal of the day, picked and proven by the service itself, and the solver's
    winning line for its number (the same search the service ran). The pick is remembered
    across tests (each test's database starts empty) so the search runs once."""
    from games import solver
    from leaderboard.core import days
    from leaderboard.models import DailyDeal
    from leaderboard.play.services import deal as daily

    today = days.today()
    if today in _DAILY:
        number, actions = _DAILY[today]
        # The row may be there already (seen once in CI): any request for today's deal stores
        # the service's pick, which is this one, and a late request of an earlier test can
        # reach the live server after that test's database was emptied.
        deal, _ = DailyDeal.objects.update_or_create(date=today, defaults={"number": number, "solution": actions})
        return deal, list(actions)
    deal = daily.daily_deal_ensure(today)
    line = solver.solve(deal.number, node_limit=django_settings.DAILY_SOLVER_NODES)
    assert line.won, f"the solver no longer wins deal {deal.number}"
    _DAILY[today] = (deal.number, tuple(line.actions))
    return deal, list(line.actions)
