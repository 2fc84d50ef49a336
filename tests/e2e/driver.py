"""Plays action texts on the board the way a person does: clicks, double clicks and drags.

Nothing here calls the page's scripts or writes its log: each action is a real pointer
gesture on the board, so the board's own handlers turn it into the action (or refuse it).

- ``s``: a click on the stock.
- ``w>f`` / ``N>f``: a click on the top card (a tap goes to a foundation), or every other
  time a drag of it onto the foundations area.
- ``w>M`` / ``N>M``: a double click when the board's double-tap rule sends the card exactly
  there (checked with the Python engine), else a drag onto column M (and every other time a
  drag anyway, so both gestures get exercised).
- ``N>M:K``: a drag of the K-th card from the top of column N onto column M.
- ``fK>N``: a drag of foundation K's top card onto column N.

A Python ``Game`` follows along to choose gestures; before each gesture one page.evaluate
reads where things are and checks that the board has logged every earlier action.
"""

import re

from playwright.sync_api import Page

from games import ACTIONS, Game

_GEOMETRY = """
async ([source, target]) => {
  const table = document.getElementById("table");
  // A card still gliding to where it landed (play/motion.js) is measured once it is there.
  const settled = async (node) => {
    if (node) await Promise.all(node.getAnimations().map((a) => a.finished.catch(() => null)));
    return node;
  };
  const box = async (node) => (await settled(node))?.getBoundingClientRect();
  const centre = async (node) => { const r = await box(node); return r && [r.left + r.width / 2, r.top + r.height / 2]; };
  // A point on the visible strip of an overlapped card (its corner), not under the next card.
  const grip = async (node) => { const r = await box(node); return r && [r.left + r.width / 2, r.top + Math.min(r.height / 2, 10)]; };
  const column = (n) => table.querySelector(`[data-column="${n}"]`);
  const cardsOf = (n) => [...column(n).querySelectorAll("[data-col]")];
  const find = (what) => {
    if (what === null) return null;
    if (what === "stock") return centre(table.querySelector("[data-stock]"));
    if (what === "waste") return centre(table.querySelector("[data-waste] [data-waste-top]"));
    if (what === "foundations") return centre(table.querySelector("[data-foundation='4']"));
    if (what.startsWith("f")) return centre(table.querySelector(`[data-foundation="${what.slice(1)}"] .card`));
    if (what.startsWith("run:")) {
      const [, n, k] = what.split(":").map(Number);
      const cards = cardsOf(n);
      const card = cards[cards.length - k];
      return k === 1 ? centre(card) : grip(card);
    }
    if (what.startsWith("onto:")) {
      const n = Number(what.slice(5));
      const cards = cardsOf(n);
      return cards.length ? centre(cards[cards.length - 1]) : centre(column(n).querySelector(".slot"));
    }
    throw new Error("unknown place " + what);
  };
  return { log: Number(table.dataset.logLength), from: await find(source), to: await find(target) };
}
"""

_COL_COL = re.compile(r"([1-9])>([1-9])(?::(\d+))?")


def _gesture_places(action: str) -> tuple[str, str | None]:
    """Where the gesture starts and where a drag of it ends."""
    if action == "s":
        return "stock", None
    if action == "w>f":
        return "waste", "foundations"
    if m := re.fullmatch(r"([1-9])>f", action):
        return f"run:{m[1]}:1", "foundations"
    if m := re.fullmatch(r"w>([1-9])", action):
        return "waste", f"onto:{m[1]}"
    if m := re.fullmatch(r"f([1-8])>([1-9])", action):
        return f"f{m[1]}", f"onto:{m[2]}"
    if m := _COL_COL.fullmatch(action):
        return f"run:{m[1]}:{m[3] or 1}", f"onto:{m[2]}"
    raise ValueError(f"no gesture for {action!r}")


def geometry(page: Page, source: str, target: str | None) -> dict:
    return page.evaluate(_GEOMETRY, [source, target])


def drag(page: Page, start, end) -> None:
    """Press, move past the drag threshold, glide to ``end`` and let go."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 10, start[1] + 10)
    page.mouse.move(*end, steps=3)
    page.mouse.up()


def wait_for_log(page: Page, length: int, timeout: float = 5000) -> None:
    page.wait_for_function(
        "n => Number(document.getElementById('table').dataset.logLength) === n", arg=length, timeout=timeout
    )


class BoardPlayer:
    """Performs actions on the board of deal ``number``, starting after ``done`` actions."""

    def __init__(self, page: Page, number: int, done: list[str] = ()):
        self.page = page
        self.game = Game.new(number)
        for text in done:
            self.game.play(ACTIONS[text])
        self.logged = len(done)
        self.turn = 0
        self.gestures: dict[str, int] = {}

    def _count(self, gesture: str) -> None:
        self.gestures[gesture] = self.gestures.get(gesture, 0) + 1

    def perform(self, action: str) -> None:
        """One action as a person does it; the board must log it (checked before the next)."""
        source, target = _gesture_places(action)
        found = geometry(self.page, source, target)
        if found["log"] != self.logged:
            raise AssertionError(f"before {action!r}: the board logged {found['log']} actions, expected {self.logged}")
        if found["from"] is None or (target and found["to"] is None):
            raise AssertionError(f"{action!r}: nothing to pick up or drop on ({found})")
        self.turn += 1
        alternate = self.turn % 2 == 0
        tap_source = "w" if source == "waste" else source.split(":")[1] if source.startswith("run:") else None
        if action == "s":
            self.page.mouse.click(*found["from"])
            self._count("click stock")
        elif action.endswith(">f") and not alternate:
            self.page.mouse.click(*found["from"])
            self._count("click to foundation")
        elif (
            tap_source
            and ":" not in action
            and not action.endswith(">f")
            and not alternate
            and self.game.tap_destination(tap_source, double=True) == action
        ):
            self.page.mouse.dblclick(*found["from"])
            self._count("double click to column")
        else:
            drag(self.page, found["from"], found["to"])
            self._count("drag")
        self.game.play(ACTIONS[action])
        self.logged += 1

    def note(self, action: str) -> None:
        """An action the page took from elsewhere (the Undo button, Ctrl+Z): follow it."""
        self.game.play(ACTIONS[action])
        self.logged += 1

    def play(self, actions: list[str]) -> None:
        """Perform the actions in order; a run of stock taps is clicked in place."""
        index = 0
        while index < len(actions):
            if actions[index] != "s":
                self.perform(actions[index])
                index += 1
                continue
            run = index
            while run < len(actions) and actions[run] == "s":
                run += 1
            found = geometry(self.page, "stock", None)
            if found["log"] != self.logged:
                raise AssertionError(f"before a stock tap: the board logged {found['log']}, expected {self.logged}")
            for _ in range(run - index):
                self.page.mouse.click(*found["from"])  # one call to the driver, not two
                self.game.play(ACTIONS["s"])
                self.logged += 1
            self._count("click stock")
            index = run
        wait_for_log(self.page, self.logged)

    def built_run(self) -> tuple[int, int, int] | None:
        """(column, run length, a non-empty other column) when some column has a built run."""
        for n, column in enumerate(self.game.columns):
            up = len(column) - self.game.down[n]
            if up >= 2:
                for m, other in enumerate(self.game.columns):
                    if m != n and other:
                        return n + 1, up, m + 1
        return None
