"""The move-log notation (rules section 7), parsed once into small tuples.

An action is a tuple ``(kind, a, b, k)`` with 0-based indexes:

=========  ==============  =================================================
kind       notation        a, b, k
=========  ==============  =================================================
STOCK      ``s``           -
UNDO       ``u``           -
WASTE_F    ``w>f``         -
WASTE_COL  ``w>N``         b = column
COL_F      ``N>f``         a = column
COL_COL    ``N>M[:K]``     a = from column, b = to column, k = cards (1..13)
FOUND_COL  ``fK>N``        a = foundation, b = column
=========  ==============  =================================================
"""

import re

from .refusals import Refusal, Refused, refuse

STOCK, UNDO, WASTE_F, WASTE_COL, COL_F, COL_COL, FOUND_COL = range(7)

Action = tuple[int, int, int, int]


class MalformedAction(Refused):
    """Text that is not an action of the notation; ``.refusal`` says which rule of it."""


_FORMS = {
    STOCK: "s",
    UNDO: "u",
    WASTE_F: "w>f",
    WASTE_COL: "w>{b}",
    COL_F: "{a}>f",
    COL_COL: "{a}>{b}",
    FOUND_COL: "f{a}>{b}",
}


def format_action(action: Action) -> str:
    """The notation of a parsed action (1-based, ``:K`` only for runs)."""
    kind, a, b, k = action
    text = _FORMS[kind].format(a=a + 1, b=b + 1)
    return f"{text}:{k}" if kind == COL_COL and k > 1 else text


def _all_actions() -> dict[str, Action]:
    table: dict[str, Action] = {"s": (STOCK, 0, 0, 1), "u": (UNDO, 0, 0, 1), "w>f": (WASTE_F, 0, 0, 1)}
    for n in range(9):
        table[f"w>{n + 1}"] = (WASTE_COL, 0, n, 1)
        table[f"{n + 1}>f"] = (COL_F, n, 0, 1)
        for m in range(9):
            if m != n:
                table[f"{n + 1}>{m + 1}"] = (COL_COL, n, m, 1)
                for k in range(1, 14):
                    table[f"{n + 1}>{m + 1}:{k}"] = (COL_COL, n, m, k)
    for f in range(8):
        for n in range(9):
            table[f"f{f + 1}>{n + 1}"] = (FOUND_COL, f, n, 1)
    return table


#: Every well-formed action text, parsed. A dict lookup is the whole parser.
ACTIONS: dict[str, Action] = _all_actions()

_SELF_MOVE = re.compile(r"([1-9])>\1(:([1-9]|1[0-3]))?")
_RUN = re.compile(r"[1-9]>[1-9]:\d+")


def parse_action(text: object) -> Action:
    """Parse one action of the notation; anything else raises MalformedAction saying why."""
    try:
        return ACTIONS[text]  # type: ignore[index]
    except (KeyError, TypeError):
        raise MalformedAction(malformed_refusal(text)) from None


def malformed_refusal(text: object) -> Refusal:
    """Why ``text`` is not an action of the notation (for any ``text`` not in ACTIONS)."""
    if not isinstance(text, str):
        return refuse("action_not_string", type=type(text).__name__)
    if _SELF_MOVE.fullmatch(text):
        return refuse("action_self_move", action=text)
    if _RUN.fullmatch(text):
        return refuse("action_bad_run", action=text)
    return refuse("action_malformed", action=text)
