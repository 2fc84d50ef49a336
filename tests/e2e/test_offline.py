"""Installable and offline (issue 14, item 7), in Chromium: the pages link the manifest, the
service worker installs from any page with the whole site as its scope, and once it has, a
numbered deal's page opens with the network gone (the one played online, and one never opened
before), deals its cards and takes moves: the engine is in the browser. The start page (the
installed app's) opens offline too, to a practice deal, and says today's needs a connection."""

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from games import Game, format_code, parse_code

from .driver import BoardPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SERVED_BY_WORKER = "() => JSON.parse(document.getElementById('page-data').textContent).shell === true"


def first_card_move(number: int) -> str:
    """A legal move of a card on the fresh deal (the stock's draw if there is none)."""
    moves = [action for action in Game.new(number).legal_actions() if action not in ("s", "u")]
    return moves[0] if moves else "s"


def wait_for_worker(page: Page) -> dict:
    """The worker's registration, once it is active and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    return page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        const names = await caches.keys();
        const kept = names.length ? (await (await caches.open(names[0])).keys()).map((r) => new URL(r.url).pathname) : [];
        return { scope: registration.scope, script: registration.active.scriptURL, names, kept };
    }""")


def assert_playable(page: Page, code: str) -> None:
    """The deal of ``code`` dealt by the worker's shell, and a move of a card taken."""
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.get_by_test_id("deal-code")).to_have_text(code)
    assert page.evaluate(SERVED_BY_WORKER), "the page came from the network, not the worker's shell"
    number = parse_code(code).number
    BoardPlayer(page, number).play([first_card_move(number)])
    expect(page.get_by_test_id("table")).to_have_attribute("data-log-length", "1")
    expect(page.get_by_test_id("moves")).to_have_text("1")


def test_a_numbered_deal_opens_and_plays_offline(page, live_server):
    base = live_server.url
    first, other = format_code(4242, "N"), format_code(31337, "N")
    page.goto(f"{base}/play/{first}/")
    page.wait_for_selector("#table[data-ready=true]")
    expect(page.locator("link[rel=manifest]")).to_have_attribute("href", "/manifest.webmanifest")
    worker = wait_for_worker(page)
    assert worker["scope"] == f"{base}/" and worker["script"] == f"{base}/sw.js"
    assert len(worker["names"]) == 1 and worker["names"][0].startswith("easy-harp-")
    for path in (
        "/static/frontend/pages/play.js",
        "/static/frontend/engine/game.js",
        "/static/frontend/app.css",
        "/play/offline/",
        "/jsi18n/",
        "/manifest.webmanifest",
    ):
        assert path in worker["kept"], path
    assert "/static/frontend/engine/vectors.json" not in worker["kept"]
    assert not page.evaluate(SERVED_BY_WORKER)  # online: the server's page

    page.context.set_offline(True)
    try:
        # The network is gone: the page's own request fails...
        assert page.evaluate("() => fetch('/api/daily/').then(() => 'answered', () => 'failed')") == "failed"
        # ...but a reload opens the deal, from the worker's shell, and it plays.
        page.reload()
        assert_playable(page, first)
        # A deal never opened online, too.
        page.goto(f"{base}/play/{other}/")
        assert_playable(page, other)
        # The start page: a practice deal, and why it is not today's.
        page.goto(f"{base}/")
        page.wait_for_selector("#table[data-ready=true]")
        assert page.evaluate(SERVED_BY_WORKER)
        expect(page.get_by_test_id("rule-message")).to_have_text(
            "Offline: today's deal needs a connection. Meanwhile, a practice deal."
        )
        expect(page.get_by_test_id("deal-code")).to_have_text(re.compile(r"^EH1-N-[A-Z]{7}$"))
        # A page that is no numbered deal is not the worker's to answer.
        with pytest.raises(PlaywrightError):
            page.goto(f"{base}/boards/")
    finally:
        page.context.set_offline(False)
