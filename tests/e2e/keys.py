"""Plays action texts on the board by keyboard alone, the way a person without a mouse does.

Nothing here clicks, calls the page's scripts or writes its log: each action is key presses
on the focused table (play/keyboard.js), which turns them into the action (or refuses it).

- ``s``: ``D`` (or, every few actions, the arrow keys to the stock and Enter).
- ``u``: ``U``.
- A card move: go to the card, Enter (or Space) picks it up, go to where it goes, Enter puts it
  down. "Go to" is a jump key (``1``-``9`` a column, ``W`` the waste, ``F`` then right arrows a
  foundation, up arrows into a column's face-up cards) or, every few actions, arrow keys only,
  chosen by where the focused pile and the goal lie on the screen.

After each action one page.evaluate reads the table's log length and where the focus is: the
board must have logged the action, and the focus must be on the table, never on <body>.
"""

import re

from playwright.sync_api import Page

from games import ACTIONS, Game

#: The focused place ("stock", "waste", "f3", "c7"), its depth in a column, the log, and (for
#: arrow keys) each place's card-sized head on the screen.
_FOCUS = """
(withBoxes) => {
  const table = document.getElementById("table");
  const el = document.activeElement;
  const found = { log: Number(table.dataset.logLength), place: null, depth: 0, onBody: !el || el === document.body,
                  inTable: Boolean(el && table.contains(el)), id: el ? el.id : null, boxes: {} };
  const pile = el && el.closest && el.closest("[data-stock], [data-waste], [data-foundation], [data-col], [data-column]");
  if (pile && table.contains(pile)) {
    if (pile.hasAttribute("data-stock")) found.place = "stock";
    else if (pile.hasAttribute("data-waste")) found.place = "waste";
    else if (pile.hasAttribute("data-foundation")) found.place = "f" + pile.dataset.foundation;
    else if (pile.hasAttribute("data-col")) {
      found.place = "c" + pile.dataset.col;
      found.depth = pile.parentElement.querySelectorAll("[data-col]").length - 1 - Number(pile.dataset.index);
    } else found.place = "c" + pile.dataset.column;
  }
  if (withBoxes) {
    const put = (place, node) => { const r = node.getBoundingClientRect(); found.boxes[place] = [r.left, r.top, r.width, r.height]; };
    put("stock", table.querySelector("[data-stock]"));
    put("waste", table.querySelector("[data-waste]"));
    table.querySelectorAll("[data-foundation]").forEach((n) => put("f" + n.dataset.foundation, n));
    table.querySelectorAll("[data-column]").forEach((n) => put("c" + n.dataset.column, n.querySelector(".slot")));
  }
  return found;
}
"""

_MOVE = re.compile(r"(w|f[1-8]|[1-9])>(f|[1-9])(?::(\d+))?")


def focus(page: Page, boxes: bool = False) -> dict:
    return page.evaluate(_FOCUS, boxes)


def _places(action: str) -> tuple[str, int, str]:
    """Where a card move picks up (place, depth) and where it puts down."""
    m = _MOVE.fullmatch(action)
    if not m:
        raise ValueError(f"no key presses for {action!r}")
    source, target, run = m[1], m[2], m[3]
    place = "waste" if source == "w" else source if source.startswith("f") else f"c{source}"
    return place, int(run or 1) - 1, "f1" if target == "f" else f"c{target}"


class KeyboardPlayer:
    """Performs actions on the board of deal ``number`` by keys alone; every ``arrows_every``-th
    action finds its way with the arrow keys only."""

    def __init__(self, page: Page, number: int, arrows_every: int = 5):
        self.page = page
        self.game = Game.new(number)
        self.logged = 0
        self.turn = 0
        self.arrows_every = arrows_every
        self.presses = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.presses += 1

    def check(self) -> dict:
        """The board logged every action so far, and the focus is on the table."""
        found = focus(self.page)
        if found["log"] != self.logged:
            self.page.wait_for_function(
                "n => Number(document.getElementById('table').dataset.logLength) === n", arg=self.logged
            )
            found = focus(self.page)
        assert not found["onBody"], f"after {self.logged} actions the focus dropped to <body>"
        return found

    def go(self, place: str, depth: int = 0, arrows: bool = False) -> None:
        """Put the focus on ``place`` (``depth`` face-up cards into a column)."""
        if arrows:
            self._walk(place)
        elif place.startswith("c"):
            self.press(place[1])
        elif place == "waste":
            self.press("w")
        elif place == "stock":
            self.press("w")
            self.press("ArrowLeft")
        else:
            self.press("f")
            for _ in range(int(place[1:]) - 1):
                self.press("ArrowRight")
        for _ in range(depth):
            self.press("ArrowUp")
        found = focus(self.page)
        assert (found["place"], found["depth"]) == (place, depth), f"wanted {place} at {depth}, the focus is {found}"

    def _walk(self, place: str) -> None:
        """Arrow keys only: up or down towards the goal's row, then along it."""
        for _ in range(40):
            found = focus(self.page, boxes=True)
            here, there = found["place"], place
            if here == there:
                if found["depth"]:
                    for _ in range(found["depth"]):
                        self.press("ArrowDown")
                return
            a, b = found["boxes"][here], found["boxes"][there]
            if abs(b[1] - a[1]) >= a[3] / 2:
                self.press("ArrowDown" if b[1] > a[1] else "ArrowUp")
            else:
                self.press("ArrowRight" if b[0] > a[0] else "ArrowLeft")
        raise AssertionError(f"the arrow keys did not lead to {place}: {found}")

    def perform(self, action: str) -> None:
        """One action by keys; the board must log it (checked before the next)."""
        self.check()
        self.turn += 1
        arrows = self.turn % self.arrows_every == 0
        drop = "Space" if self.turn % 2 else "Enter"
        if action == "s":
            if arrows:
                self.go("stock", arrows=True)
                self.press(drop)
            else:
                self.press("d")
        elif action == "u":
            self.press("u")
        else:
            source, depth, target = _places(action)
            self.go(source, depth, arrows)
            self.press(drop)
            self.go(target, 0, arrows)
            self.press("Enter")
        self.game.play(ACTIONS[action])
        self.logged += 1

    def note(self, action: str) -> None:
        """An action the test made by other keys (Ctrl+Z, Ctrl+Shift+Z, R): follow it."""
        self.game.play(ACTIONS[action])
        self.logged += 1

    def play(self, actions: list[str]) -> None:
        for action in actions:
            self.perform(action)
        self.page.wait_for_function(
            "n => Number(document.getElementById('table').dataset.logLength) === n", arg=self.logged
        )
