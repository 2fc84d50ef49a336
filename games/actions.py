"""The move-log notation (rules section 7), parsed once into small tuples.

An action is an ``Action(kind, source, target, cards)``, a named tuple of 0-based indexes
whose ``str`` is its notation:

=========  ==============  =========================================================
kind       notation        source, target, cards
=========  ==============  =========================================================
STOCK      ``s``           -
UNDO       ``u``           -
WASTE_F    ``w>f``         -
WASTE_COL  ``w>N``         target = column
COL_F      ``N>f``         source = column
COL_COL    ``N>M[:K]``     source = from column, target = to column, cards = 1..13
FOUND_COL  ``fK>N``        source = foundation, target = column
=========  ==============  =========================================================

An unused index is 0, and ``cards`` is 1 but for runs. An Action is still a tuple, hashed,
compared and unpacked as one: ``Action(COL_COL, 0, 1) == (COL_COL, 0, 1, 1)``.
"""

import re
from typing import NamedTuple

from .refusals import Refusal, Refused, refuse

STOCK, UNDO, WASTE_F, WASTE_COL, COL_F, COL_COL, FOUND_COL = range(7)

_FORMS = {
    STOCK: "s",
    UNDO: "u",
    WASTE_F: "w>f",
    WASTE_COL: "w>{target}",
    COL_F: "{source}>f",
    COL_COL: "{source}>{target}",
    FOUND_COL: "f{source}>{target}",
}


class Action(NamedTuple):
    """One action of the notation; the module's table says what each index holds."""

    kind: int
    source: int = 0
    target: int = 0
    cards: int = 1

    def __str__(self) -> str:
        """The notation: 1-based, with ``:K`` only for a run of two cards or more."""
        text = _FORMS[self.kind].format(source=self.source + 1, target=self.target + 1)
        return f"{text}:{self.cards}" if self.kind == COL_COL and self.cards > 1 else text


#: What the rules take: an Action, or the same four ints as a plain tuple (replay's loop
#: passes those: CPython unpacks an exact tuple on its fast path, a tuple subclass not).
ActionTuple = tuple[int, int, int, int]


class MalformedAction(Refused):
    """Text that is not an action of the notation; ``.refusal`` says which rule of it."""


def format_action(action: ActionTuple) -> str:
    """The notation of a parsed action: an Action, or the same four ints as a plain tuple."""
    return str(Action(*action))


def _all_actions() -> dict[str, Action]:
    """Section 7's table: 9 columns and 8 foundations, no column onto itself, a run of 1 to 13
    cards (``N>M:1`` is ``N>M``); nothing else is an action."""
    table = {"s": Action(STOCK), "u": Action(UNDO), "w>f": Action(WASTE_F)}
    for n in range(9):
        table[f"w>{n + 1}"] = Action(WASTE_COL, target=n)
        table[f"{n + 1}>f"] = Action(COL_F, source=n)
        for m in range(9):
            if m != n:
                table[f"{n + 1}>{m + 1}"] = Action(COL_COL, n, m)
                for k in range(1, 14):
                    table[f"{n + 1}>{m + 1}:{k}"] = Action(COL_COL, n, m, k)
    for f in range(8):
        for n in range(9):
            table[f"f{f + 1}>{n + 1}"] = Action(FOUND_COL, f, n)
    return table


#: Every well-formed action text, parsed. A dict lookup is the whole parser.
ACTIONS: dict[str, Action] = _all_actions()

_SELF_MOVE = re.compile(r"([1-9])>\1(:([1-9]|1[0-3]))?")
_RUN = re.compile(r"[1-9]>[1-9]:\d+")


def parse_action(text: object) -> Action:
    """Parse one action of the notation; anything else raises MalformedAction saying why."""
    action = ACTIONS.get(text) if isinstance(text, str) else None
    if action is None:
        raise MalformedAction(malformed_refusal(text))
    return action


def malformed_refusal(text: object) -> Refusal:
    """Why ``text`` is not an action of the notation (for any ``text`` not in ACTIONS)."""
    if not isinstance(text, str):
        return refuse("action_not_string", type=type(text).__name__)
    if _SELF_MOVE.fullmatch(text):
        return refuse("action_self_move", action=text)
    if _RUN.fullmatch(text):
        return refuse("action_bad_run", action=text)
    return refuse("action_malformed", action=text)
