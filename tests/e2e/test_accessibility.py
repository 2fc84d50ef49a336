"""axe-core (tests/e2e/axe.py) on every page of the site, in a real browser, signed out and
signed in, at desktop and phone width, in the light and the dark theme: no critical or serious
violation anywhere. Each page also has exactly one main heading (h1) and one main landmark.

The pages are every route of frontend/urls.py but the files that are not pages (the service
worker, the manifest): a route added without a page here fails the test that checks the list.
The site has something on each page: ada's verified win of yesterday's deal (its replay is
public), her group, today's deal. A first visit (the how-to shown) is what is scanned, and the
game page once more with a card picked up by keyboard and the focus ring on it.
"""

import json
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import URLPattern, URLResolver, reverse
from leaderboard_fixtures.people import MOVE_RULES_OFF
from playwright.sync_api import Page

from frontend import urls as frontend_urls
from games import format_code, parse_code
from leaderboard.accounts import services as accounts
from leaderboard.core import days
from leaderboard.groups.services import group_create
from leaderboard.models import Attempt, DailyDeal, Submission
from leaderboard.play.services.verification import submission_verify

from .axe import axe_version, describe, serious_violations
from .conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CORPUS = Path(__file__).resolve().parents[1] / "data" / "won_games.jsonl"
WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
THEMES = ("light", "dark")
#: Routes of frontend/urls.py that answer no page a person reads.
NOT_PAGES = {"service-worker", "manifest"}
#: What shows a page is drawn, by route (else its h1 is enough: the page is static).
READY = {
    "play-daily": "#daily-panel:not([hidden]), #table[data-ready=true]",
    "play-code": "#table[data-ready=true]",
    "play-offline": "#rule-message:not(:empty), #table[data-ready=true]",
    "replay": "#table[data-ready=true]",
    "boards": "body[data-ready=true]",
    "calendar": "body[data-ready=true]",
    "calendar-month": "body[data-ready=true]",
    "player": "body[data-ready=true]",
    "groups": "body[data-ready=true]",
    "group": "body[data-ready=true]",
    "group-join": "body[data-ready=true]",
    "account": "body[data-ready=true]",
    "email-confirm": "body[data-ready=true]",
    "password-forgot": "body[data-ready=true]",
    "password-reset": "body[data-ready=true]",
}
#: Pages drawn by the server alone: their h1 shows they are there.
STATIC = {"rules", "login", "signup", "privacy"}


@pytest.fixture
def site(transactional_db, settings) -> dict:
    """ada won yesterday's deal (verified by the verification service, as the worker does),
    owns a group; today's deal is set (no search for one). The day's proof is her line, which
    the engine match rightly holds: the move rules are off."""
    for name, value in MOVE_RULES_OFF.items():
        setattr(settings, name, value)
    game = min(
        (json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()),
        key=lambda g: len(g["actions"]),
    )
    number, line = parse_code(game["deal"]).number, game["actions"]
    today = days.today()
    yesterday = today - timedelta(days=1)
    for day in (today, yesterday):
        DailyDeal.objects.create(date=day, number=number, solution=line)
    ada = accounts.user_signup(username="ada", password=PASSWORD)
    started = days.as_utc_datetime(yesterday) + timedelta(hours=9)
    attempt = Attempt.objects.create(
        player=ada,
        deal_code=format_code(number, "D"),
        deal_number=number,
        daily_date=yesterday,
        ranked=True,
        started_at=started,
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=ada,
        deal_number=number,
        daily_date=yesterday,
        actions=line,
        submitted_at=started + timedelta(minutes=30),
    )
    assert submission_verify(submission.pk).status == "verified"
    group = group_create(owner=ada, name="Harpists")
    return {"number": number, "yesterday": yesterday, "submission": submission.pk, "group": group}


def routes() -> list[str]:
    """The names of frontend/urls.py's routes."""
    names = []
    for pattern in frontend_urls.urlpatterns:
        assert isinstance(pattern, URLPattern) and not isinstance(pattern, URLResolver), pattern
        names.append(pattern.name)
    return names


def pages(site: dict) -> dict[str, str]:
    """Each page's address, by route name (some routes twice: with and without a query)."""
    group = site["group"]
    args = {
        "play-code": [format_code(site["number"])],
        "player": ["ada"],
        "replay": [site["submission"]],
        "group": [group.pk],
        "group-join": [group.invite_code],
        "calendar-month": [f"{site['yesterday']:%Y-%m}"],
        "email-confirm": ["not-a-token"],
        "password-reset": ["MQ", "not-a-token"],
    }
    found = {}
    for name in routes():
        if name in NOT_PAGES:
            continue
        found[name] = reverse(f"frontend:{name}", args=args.get(name, []))
    found["boards?date"] = f"{reverse('frontend:boards')}?date={site['yesterday'].isoformat()}"
    return found


def test_every_route_is_a_page_scanned_or_named_as_no_page(site):
    """A new route must come with its address here (args) and what shows it is drawn (READY)."""
    missing = [name for name in routes() if name not in NOT_PAGES | STATIC and name not in READY]
    assert not missing, f"routes the scan does not know how to wait for: {missing}"
    assert set(pages(site)) >= set(routes()) - NOT_PAGES


def sign_in(page: Page, base: str) -> None:
    page.goto(f"{base}/login/?next=/rules/")
    page.get_by_test_id("username").fill("ada")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/rules/")


def open_page(page: Page, url: str, name: str) -> None:
    """Open ``url`` and wait until its page is drawn (a players' page signed out: the log-in page)."""
    page.goto(url)
    ready = "main h1" if "/login/" in page.url else READY.get(name.split("?")[0], "main h1")
    page.wait_for_selector(ready, state="attached")


def scan(page: Page, where: str, found: list[str]) -> None:
    """axe, one h1 and one main on the page as it is now; what fails goes into ``found``."""
    violations = serious_violations(page)
    if violations:
        found.append(describe(violations, f"{where}: "))
    headings = page.locator("h1").count()
    if headings != 1:
        found.append(f"{where}: {headings} h1 elements, not 1")
    if page.locator("main").count() != 1:
        found.append(f"{where}: no single <main> landmark")


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_axe_finds_no_critical_or_serious_violation_on_any_page(browser, live_server, site, signed_in):
    base = live_server.url
    found: list[str] = []
    scanned = 0
    version = None
    for (width, viewport), theme in [(size, theme) for theme in THEMES for size in WIDTHS.items()]:
        # A first visit: no how-to dismissed yet, so it is on the game pages too. Each page in the
        # light theme and in the dark one (the system's choice, prefers-color-scheme: app.css).
        context = browser.new_context(viewport=viewport, color_scheme=theme)
        context.set_default_timeout(10_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        try:
            if signed_in:
                sign_in(page, base)
            seen: set[str] = set()
            for name, path in pages(site).items():
                open_page(page, f"{base}{path}", name)
                landed = urlsplit(page.url).path
                if landed != urlsplit(path).path and landed in seen:
                    continue  # sent on to a page scanned already (signed out: the log-in page)
                seen.add(landed)
                scan(page, f"{path} ({width}, {theme})", found)
                scanned += 1
                if name == "play-code":
                    # A card picked up by keyboard, the focus ring on it.
                    page.locator("#table [data-stock]").focus()
                    page.keyboard.press("1")
                    page.keyboard.press("Enter")
                    page.wait_for_selector("#table .held")
                    scan(page, f"{path}, a card picked up ({width}, {theme})", found)
            version = axe_version(page)
        finally:
            context.close()
        assert not errors, f"errors in the page's scripts: {errors}"
    assert scanned >= 2 * 2 * 12, scanned
    assert not found, f"axe-core {version}, {scanned} pages:\n" + "\n".join(found)
