"""End to end in Polish and German, in a real browser.

A Polish reader (Accept-Language pl, a Warsaw clock) meets the how-to on a first visit, signs
up, plays today's deal to a win by hand, sees the server verify and rank it, and reads the game
page, the result card and the boards in Polish: no run of three English words from the
catalogues' msgids is left on them. A German reader reads the rules from the game page, then
switches to English with the header's switch, which the next visit remembers.
"""

import functools
import re
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from worker import wait_for

from games import format_code
from leaderboard.models import Attempt, Submission
from tools import catalogues

from .conftest import PASSWORD
from .driver import BoardPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

_PLACES = re.compile(r"%\(\w+\)[sd]|\{[a-z]+(?:!r)?(?::,)?\}|<[^>]*>")


@functools.cache
def english_runs() -> frozenset[str]:
    """Every run of three or more words of an English msgid (pages and modules alike). Read
    once a session: parsing the catalogues costs a second, and every translated page asks."""
    runs = set()
    for msgid in catalogues.msgids("django") + catalogues.msgids("djangojs"):
        for run in _PLACES.split(msgid):
            run = re.sub(r"\s+", " ", run).strip(" .,:;()·")
            if len(run.split()) >= 3:
                runs.add(run)
    return frozenset(runs)


def english_left(page: Page) -> list[str]:
    text = re.sub(r"\s+", " ", page.evaluate("() => document.body.innerText"))
    return sorted(run for run in english_runs() if run in text)


@pytest.fixture
def reader(browser):
    """A first-time reader's browser (no how-to dismissed yet) in a language and a zone."""
    contexts = []

    def open_in(locale: str, timezone_id: str) -> Page:
        context = browser.new_context(
            viewport={"width": 1280, "height": 1000}, locale=locale, timezone_id=timezone_id, reduced_motion="reduce"
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        return page

    yield open_in
    for context in contexts:
        errors = context.pages[0].errors if context.pages else []
        context.close()
        assert not errors, f"errors in the page's scripts: {errors}"


def test_a_polish_player_signs_up_wins_and_reads_everything_in_polish(
    reader, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    base = live_server.url
    page = reader("pl-PL", "Europe/Warsaw")

    # A first visit: the how-to, in Polish, until dismissed.
    page.goto(f"{base}/")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    how_to = page.get_by_test_id("how-to")
    expect(how_to).to_be_visible()
    expect(how_to).to_contain_text("Jak grać")
    expect(how_to).to_contain_text("z kontem lub bez")
    expect(page.get_by_test_id("daily-facts")).to_contain_text("na razie 0 graczy")
    expect(page.get_by_test_id("daily-facts")).to_contain_text("CET")  # the close on a Warsaw clock
    expect(page.get_by_test_id("next-deal")).to_contain_text(re.compile(r"następne rozdanie za \d+:\d\d:\d\d"))
    page.screenshot(path=str(artifacts / "pl-first-visit.png"), full_page=True)
    page.get_by_test_id("how-to-close").click()
    expect(how_to).to_be_hidden()

    page.goto(f"{base}/signup/?next=/")
    expect(page.get_by_test_id("auth-submit")).to_have_text("Utwórz konto")
    page.get_by_test_id("username").fill("harfistka")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/")
    expect(page.get_by_test_id("how-to")).to_be_hidden()  # remembered
    expect(page.get_by_test_id("ranked-try")).to_contain_text("To twoja dzisiejsza próba rankingowa")
    expect(page.get_by_test_id("hint")).to_have_text("Podpowiedź")
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("deal-code")).to_have_text("widoczny po zamknięciu dnia")  # until final
    expect(page.get_by_test_id("rule-message")).to_have_text("Twoja próba rankingowa się zaczęła: powodzenia.")

    # The engine's refusals come in Polish too.
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("rule-message")).to_have_text("Nie ma czego cofnąć.")

    player = BoardPlayer(page, deal.number)
    player.play(line[:1])
    attempt = wait_for(lambda: Attempt.objects.filter(player__username="harfistka").first())
    # This test plays faster than a person may (MAX_ACTIONS_PER_SECOND): its clock goes back.
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    player.play(line[1:])

    result = page.get_by_test_id("result")
    expect(result).to_contain_text("Wygrana!")
    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=20_000)
    expect(page.get_by_test_id("submission-status")).to_have_text("Sprawdzone przez serwer.")
    expect(page.get_by_test_id("rank")).to_have_text("#1")
    expect(result).to_contain_text("Miejsce #1 z 1 w rankingu")
    expect(result).to_contain_text(f"w {len(line)} ruchach")
    expect(result.get_by_test_id("next-deal")).to_contain_text("następne rozdanie za")
    assert Submission.objects.get(player__username="harfistka").status == "verified"
    page.screenshot(path=str(artifacts / "pl-won.png"), full_page=True)
    assert not english_left(page), english_left(page)

    page.get_by_test_id("board-link").click()
    page.wait_for_url(re.compile(r"/boards/\?date="))
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("h1")).to_have_text("Rankingi")
    expect(page.get_by_test_id("daily-meta")).to_contain_text("1 gracz")
    expect(page.get_by_test_id("daily-meta")).not_to_contain_text(": ·")  # no code before the day is final
    expect(page.get_by_test_id("my-rank")).to_contain_text("twoje miejsce: #1")
    expect(page.locator("#daily-board thead")).to_contain_text("Gracz")
    expect(page.locator("#daily-board tr[data-player='harfistka']")).to_contain_text("wygrana")
    page.screenshot(path=str(artifacts / "pl-boards.png"), full_page=True)
    assert not english_left(page), english_left(page)


def test_a_german_reader_reads_the_rules_and_switches_to_english(reader, live_server, todays_deal, artifacts):
    base = live_server.url
    page = reader("de-DE", "Europe/Berlin")
    page.goto(f"{base}/play/EH1-N-AAAAAAF/")
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("how-to")).to_contain_text("So wird gespielt")
    expect(page.get_by_test_id("same-deal")).to_have_text("Gleiches Blatt")
    assert not english_left(page), english_left(page)

    page.get_by_test_id("how-to-rules").click()
    page.wait_for_url(f"{base}/rules/")
    expect(page.locator("h1")).to_have_text("Easy Harp: die Regeln")
    rules = page.get_by_test_id("rules")
    for heading in (
        "Ziel und Karten",
        "Züge",
        "Punkte und Züge",
        "Das Blatt des Tages",
        "Wie die Ranglisten werten",
        "Fairplay",
    ):
        expect(rules.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(rules).to_contain_text("genau 1.220 Punkte")
    expect(rules).to_contain_text("Nur Spiele Angemeldeter werden gewertet.")
    page.screenshot(path=str(artifacts / "de-rules.png"), full_page=True)
    assert not english_left(page), english_left(page)

    # The switch in the header: English now, and on the next visit (its cookie).
    expect(page.get_by_test_id("lang-de")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("lang-en").click()
    page.wait_for_url(f"{base}/rules/")
    expect(page.locator("h1")).to_have_text("Easy Harp: the rules")
    page.goto(f"{base}/boards/")
    expect(page.locator("h1")).to_have_text("Leaderboards")
    expect(page.get_by_test_id("lang-en")).to_have_attribute("aria-pressed", "true")
