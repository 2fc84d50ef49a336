"""End to end in a real browser, by keyboard alone: a player who uses no mouse tabs onto the
table, hears what each card and pile is, picks cards up and puts them down with arrow keys and
Enter, is told why a move is refused, undoes and redoes (Ctrl+Z, Ctrl+Shift+Z, U, R), and wins
a numbered deal with every one of its actions made by keys, the focus never dropping to <body>.
The won page then passes axe-core (tests/e2e/axe.py). In Polish and German the cards' and
piles' names and the live region speak the page's language."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games import ACTIONS, Game, parse_code

from .axe import assert_no_serious_violations
from .keys import KeyboardPlayer, focus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CORPUS = Path(__file__).resolve().parents[1] / "data" / "won_games.jsonl"
RANKS = dict(zip("A23456789TJQK", "ace two three four five six seven eight nine ten jack queen king".split()))
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def words(card: str) -> str:
    """A card's name as the page says it in English: "7C" is "seven of clubs"."""
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def shortest_won_game() -> tuple[str, list[str]]:
    """The numbered deal with the fewest actions among the solver's won games."""
    games = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    best = min((g for g in games if g["deal"].startswith("EH1-N-")), key=lambda g: len(g["actions"]))
    return best["deal"], best["actions"]


def a_refused_move(game: Game) -> str:
    """A column's top card onto another column that does not take it."""
    for n, source in enumerate(game.columns, 1):
        for m, target in enumerate(game.columns, 1):
            if n != m and source and target and game.refusal(ACTIONS[f"{n}>{m}"]) is not None:
                return f"{n}>{m}"
    raise AssertionError("every column takes every other's top card")


def board(page: Page) -> dict:
    """What the table shows, without its log and move count."""
    return page.evaluate("""() => {
      const t = document.getElementById("table");
      return {
        columns: [...t.querySelectorAll("[data-column]")].map((c) => [...c.querySelectorAll("[data-col]")]
          .map((card) => card.dataset.face === "up" ? card.dataset.card : "down")),
        waste: Number(t.querySelector("[data-waste]").dataset.count),
        foundations: [...t.querySelectorAll("[data-foundation]")].map((f) => Number(f.dataset.count)),
      };
    }""")


def logged(page: Page) -> list[str]:
    return json.loads(page.get_by_test_id("move-log").input_value())["actions"]


def test_a_numbered_deal_won_by_keyboard_alone(page, live_server, artifacts):
    code, line = shortest_won_game()
    number = parse_code(code).number
    page.goto(f"{live_server.url}/play/{code}/")
    page.wait_for_selector("#table[data-ready=true]")
    game = Game.new(number)
    snap = game.snapshot()

    # What a screen reader is told: every card and pile has a role and a name.
    stock = page.locator("#table [data-stock]")
    expect(stock).to_have_attribute("role", "button")
    expect(stock).to_have_attribute("aria-label", f"stock, {len(snap['stock'])} cards: draw one")
    expect(page.locator("#table [data-waste]")).to_have_attribute("aria-label", "waste, empty")
    expect(page.locator("#table [data-foundation='3']")).to_have_attribute("aria-label", "foundation 3 (hearts), empty")
    for n, cards in enumerate(snap["columns"], 1):
        column = page.locator(f"#table [data-column='{n}']")
        expect(column).to_have_attribute(
            "aria-label", f"column {n}, {len(cards)} card{'s' * (len(cards) > 1)}, top: {words(cards[-1])}"
        )
        top = column.locator(f"[data-index='{len(cards) - 1}']")
        expect(top).to_have_attribute("role", "button")
        expect(top).to_have_attribute("aria-label", f"{words(cards[-1])}, face up")
        if len(cards) > 1:
            expect(column.locator("[data-index='0']")).to_have_attribute("aria-label", "face-down card")
    assert page.locator("#table [aria-label]:not([role])").count() == 0
    expect(page.locator("h1")).to_have_count(1)

    # Tab from the top of the page: the table is one tab stop, on the stock, and the focus shows.
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if focus(page)["inTable"]:
            break
    assert focus(page)["place"] == "stock"
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid", "the focused pile shows no ring"
    page.keyboard.press("Tab")
    assert not focus(page)["inTable"], "the table holds more than one tab stop"
    page.keyboard.press("Shift+Tab")
    assert focus(page)["place"] == "stock"

    player = KeyboardPlayer(page, number)
    announcer = page.get_by_test_id("announcer")

    # Picked up, then put back with Escape: nothing is logged.
    player.go("c1")
    page.keyboard.press("Enter")
    expect(announcer).to_have_text(f"Picked up {words(snap['columns'][0][-1])}.")
    expect(page.locator("#table .held")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(announcer).to_have_text("Put back.")
    expect(page.locator("#table .held")).to_have_count(0)

    # A move the rules refuse: the status line says why, the board stays, the focus too.
    refused = a_refused_move(game)
    before = board(page)
    player.go(f"c{refused[0]}")
    page.keyboard.press("Space")
    player.go(f"c{refused[2]}")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("rule-message")).to_contain_text("cannot go on")
    assert board(page) == before and player.check()["place"] == f"c{refused[2]}"

    # The line up to its first card move; then undo and redo it, by Ctrl+Z and Ctrl+Shift+Z,
    # then by U and R: each is an action of the log, and the board comes back each time.
    first = next(i for i, text in enumerate(line) if text != "s")
    player.play(line[: first + 1])
    expect(announcer).to_contain_text(" to ")
    moved = board(page)
    for undo_key, redo_key in (("Control+z", "Control+Shift+z"), ("u", "r")):
        page.keyboard.press(undo_key)
        player.note("u")
        player.check()
        expect(announcer).to_have_text("Undone.")
        assert board(page) != moved
        page.keyboard.press(redo_key)
        player.note(line[first])
        player.check()
        assert board(page) == moved
        assert logged(page)[-2:] == ["u", line[first]]
    page.keyboard.press("r")
    expect(page.get_by_test_id("rule-message")).to_have_text("Nothing to redo.")
    assert player.check()["log"] == first + 5

    # The rest of the line, every action by keys: the game is won.
    player.play(line[first + 1 :])
    assert player.game.won
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("You won!")
    expect(page.get_by_test_id("result-moves")).to_have_text(str(player.game.moves))  # the redos count
    expect(announcer).to_contain_text("You won!")
    assert focus(page)["id"] == "result", "the focus did not go on to the result card"
    assert player.presses > len(line), player.presses
    page.screenshot(path=str(artifacts / "keyboard-won.png"), full_page=True)
    assert_no_serious_violations(page, "the won game, by keyboard")


#: A card's name in Polish and German: the rank's and the suit's words, in each one's order.
NAMES = {
    "pl": (
        dict(
            zip(
                "A23456789TJQK",
                "as dwójka trójka czwórka piątka szóstka siódemka ósemka dziewiątka dziesiątka walet dama król".split(),
            )
        ),
        {"S": "pik", "H": "kier", "D": "karo", "C": "trefl"},
        "{rank} {suit}",
    ),
    "de": (
        dict(zip("A23456789TJQK", "Ass Zwei Drei Vier Fünf Sechs Sieben Acht Neun Zehn Bube Dame König".split())),
        {"S": "Pik", "H": "Herz", "D": "Karo", "C": "Kreuz"},
        "{suit} {rank}",
    ),
}
#: (stock label, column label, face-up card, picked up) in each language.
LABELS = {
    "pl": (
        "talia, {stock} kart: dobierz",
        "kolumna 1, {count} {cards}, na wierzchu: {top}",
        "{top}, odkryta",
        "Podniesiono: {top}.",
    ),
    "de": (
        "Talon, {stock} Karten: eine ziehen",
        "Spalte 1, {count} {cards}, oben: {top}",
        "{top}, aufgedeckt",
        "{top} aufgenommen.",
    ),
}


@pytest.mark.parametrize("language", ["pl", "de"])
def test_a_screen_reader_hears_the_cards_in_polish_and_german(browser, live_server, language):
    code, _line = shortest_won_game()
    snap = Game.new(parse_code(code).number).snapshot()
    ranks, suits, order = NAMES[language]
    top_card = snap["columns"][0][-1]
    top = order.format(rank=ranks[top_card[0]], suit=suits[top_card[1]])
    count = len(snap["columns"][0])
    cards = {
        "pl": "karta" if count == 1 else "karty" if 2 <= count % 10 <= 4 and count not in (12, 13, 14) else "kart",
        "de": "Karte" if count == 1 else "Karten",
    }[language]
    stock_label, column_label, card_label, picked_up = LABELS[language]

    context = browser.new_context(locale=language, viewport={"width": 1280, "height": 1000}, reduced_motion="reduce")
    context.add_init_script("try { localStorage.setItem('eh:how-to-seen', '1'); } catch (e) {}")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/play/{code}/")
        page.wait_for_selector("#table[data-ready=true]")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#table [data-stock]")).to_have_attribute(
            "aria-label", stock_label.format(stock=len(snap["stock"]))
        )
        column = page.locator("#table [data-column='1']")
        expect(column).to_have_attribute("aria-label", column_label.format(count=count, cards=cards, top=top))
        expect(column.locator(f"[data-index='{count - 1}']")).to_have_attribute(
            "aria-label", card_label.format(top=top)
        )
        page.locator("#table [data-stock]").focus()
        page.keyboard.press("1")
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("announcer")).to_have_text(picked_up.format(top=top))
    finally:
        context.close()


def test_a_screen_readers_own_click_picks_up_and_puts_down(page, live_server):
    """A screen reader activates what it reads with a click of its own (no pointer: detail 0):
    on a card and then on a pile, that is a pick-up and a put-down, as Enter does."""
    code, _line = shortest_won_game()
    game = Game.new(parse_code(code).number)
    move = next(a for a in game.legal_actions() if a[0].isdigit() and ":" not in a)
    source, target = move.split(">")
    page.goto(f"{live_server.url}/play/{code}/")
    page.wait_for_selector("#table[data-ready=true]")
    cards = page.locator(f"#table [data-column='{source}'] [data-col]")
    cards.nth(cards.count() - 1).dispatch_event("click")
    expect(page.locator("#table .held")).to_have_count(1)
    into = (
        page.locator("#table [data-foundation='1']")
        if target == "f"
        else page.locator(f"#table [data-column='{target}'] [data-col]").last
    )
    into.dispatch_event("click")
    page.wait_for_function("() => document.getElementById('table').dataset.logLength === '1'")
    assert logged(page) == [move]
    expect(page.get_by_test_id("announcer")).to_contain_text(" to ")
