"""An independent model of the EH1 rules, written from the rules text alone.

It shares no code with games/: cards are names ("TH"), the notation is parsed with its
own grammar, the deal is dealt by its own shuffle, undo restores a saved copy of the
table (the engine undoes by inverse operations) and the score is the sum of the points
of section 6. The suite compares the engine with it action by action.
"""

import re
from itertools import pairwise

RANKS = "A23456789TJQK"
SUITS = "SHDC"
FOUNDATION_SUITS = "SSHHDDCC"
HISTORY = 100

ACTION_GRAMMAR = re.compile(
    r"(?P<stock>s)|(?P<undo>u)|w>(?P<wf>f)|w>(?P<wc>[1-9])|(?P<cf>[1-9])>f"
    r"|(?P<cc_from>[1-9])>(?P<cc_to>[1-9])(?::(?P<k>[1-9]|1[0-3]))?"
    r"|f(?P<fc_from>[1-8])>(?P<fc_to>[1-9])"
)


def rank(name: str) -> int:
    return RANKS.index(name[0]) + 1


def red(name: str) -> bool:
    return name[1] in "HD"


def builds_on(name: str, below: str) -> bool:
    """Column building: opposite colour, exactly one rank lower."""
    return red(name) != red(below) and rank(name) == rank(below) - 1


def parse(text):
    """The action as a tuple, or None when ``text`` is not in the notation."""
    if not isinstance(text, str):
        return None
    m = ACTION_GRAMMAR.fullmatch(text)
    if not m:
        return None
    g = m.groupdict()
    if g["stock"]:
        return ("s",)
    if g["undo"]:
        return ("u",)
    if g["wf"]:
        return ("wf",)
    if g["wc"]:
        return ("wc", int(g["wc"]) - 1)
    if g["cf"]:
        return ("cf", int(g["cf"]) - 1)
    if g["cc_from"]:
        a, b = int(g["cc_from"]) - 1, int(g["cc_to"]) - 1
        if a == b:
            return None
        return ("cc", a, b, int(g["k"] or 1))
    return ("fc", int(g["fc_from"]) - 1, int(g["fc_to"]) - 1)


def every_action_text() -> set[str]:
    """All texts of the notation, generated from section 7's table."""
    texts = {"s", "u", "w>f"}
    for n in range(1, 10):
        texts |= {f"w>{n}", f"{n}>f"}
        for m in range(1, 10):
            if m != n:
                texts.add(f"{n}>{m}")
                texts |= {f"{n}>{m}:{k}" for k in range(1, 14)}
    texts |= {f"f{f}>{n}" for f in range(1, 9) for n in range(1, 10)}
    return texts


def reference_deal(number: int):
    """Section 3, step by step: (columns bottom..top, stock in draw order) as names."""
    deck = [r + s for _copy in (1, 2) for s in SUITS for r in RANKS]
    state = number
    for i in range(103, 0, -1):
        state = (state * 214013 + 2531011) % 2**31
        j = (state >> 16) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    columns = [[] for _ in range(9)]
    pos = 0
    for r in range(9):
        for c in range(r, 9):
            columns[c].append(deck[pos])
            pos += 1
    return columns, deck[45:]


class Reference:
    """The table as names; ``play`` raises ValueError on anything the rules refuse."""

    def __init__(self, columns, down, stock, waste, foundations):
        self.columns = [list(c) for c in columns]
        self.down = list(down)
        self.stock = list(stock)  # draw order: stock[0] is drawn next
        self.waste = list(waste)  # bottom .. top
        self.foundations = [[RANKS[i] + FOUNDATION_SUITS[f] for i in range(r)] for f, r in enumerate(foundations)]
        self.score = 0
        self.moves = 0
        self.saved = []  # tables before each standing action, last 100

    @classmethod
    def deal(cls, number: int) -> "Reference":
        columns, stock = reference_deal(number)
        return cls(columns, [len(c) - 1 for c in columns], stock, [], [0] * 8)

    @classmethod
    def from_snapshot(cls, snap: dict) -> "Reference":
        """A position given as a Game snapshot (for hand-built positions)."""
        ranks = [0 if top is None else rank(top) for top in snap["foundations"]]
        ref = cls(snap["columns"], snap["down"], snap["stock"], snap["waste"], ranks)
        ref.score, ref.moves = snap["score"], snap["moves"]
        return ref

    @property
    def won(self) -> bool:
        return sum(map(len, self.foundations)) == 104

    def view(self) -> dict:
        """The same fields as Game.snapshot()."""
        return {
            "columns": [list(c) for c in self.columns],
            "down": list(self.down),
            "stock": list(self.stock),
            "waste": list(self.waste),
            "foundations": [f[-1] if f else None for f in self.foundations],
            "score": self.score,
            "moves": self.moves,
            "undo_depth": len(self.saved),
            "won": self.won,
        }

    def _table(self):
        """A copy of everything an action may change but the move counter."""
        return (
            [list(c) for c in self.columns],
            list(self.down),
            list(self.stock),
            list(self.waste),
            [list(f) for f in self.foundations],
            self.score,
        )

    def clone(self) -> "Reference":
        """An independent copy, good for trying one action."""
        other = Reference.__new__(Reference)
        (other.columns, other.down, other.stock, other.waste, other.foundations, other.score) = self._table()
        other.moves = self.moves
        other.saved = list(self.saved)
        return other

    # -- rules ---------------------------------------------------------------------

    def _column_takes(self, name: str, col: int) -> bool:
        target = self.columns[col]
        if not target:
            return rank(name) == 13
        return builds_on(name, target[-1])

    def _foundation_for(self, name: str):
        for f in range(8):
            if FOUNDATION_SUITS[f] == name[1] and len(self.foundations[f]) == rank(name) - 1:
                return f
        return None

    def _is_king_run(self, col: int, k: int) -> bool:
        column = self.columns[col]
        face_up = column[self.down[col] :]
        if k > len(face_up):
            return False
        run = column[len(column) - k :]
        if rank(run[0]) != 13:
            return False
        return all(builds_on(upper, lower) for lower, upper in pairwise(run))

    def legal(self, text) -> bool:
        action = parse(text)
        if action is None:
            raise ValueError(f"malformed {text!r}")
        if self.won:
            return False
        kind = action[0]
        if kind == "s":
            return bool(self.stock or self.waste)
        if kind == "u":
            return bool(self.saved)
        if kind in ("wf", "wc"):
            if not self.waste:
                return False
            top = self.waste[-1]
            if kind == "wf":
                return self._foundation_for(top) is not None
            return self._column_takes(top, action[1])
        if kind == "fc":
            f, col = action[1], action[2]
            if not self.foundations[f]:
                return False
            return self._column_takes(self.foundations[f][-1], col)
        src = action[1]
        if not self.columns[src]:
            return False
        top = self.columns[src][-1]
        if kind == "cf":
            return self._foundation_for(top) is not None
        _, src, dst, k = action
        if k == 1:
            return self._column_takes(top, dst)
        return not self.columns[dst] and self._is_king_run(src, k)

    def _flip(self, col: int) -> int:
        column = self.columns[col]
        if column and self.down[col] == len(column):
            self.down[col] -= 1
            return 5
        return 0

    def play(self, text) -> None:
        if not self.legal(text):
            raise ValueError(f"illegal {text!r}")
        action = parse(text)
        kind = action[0]
        if kind == "u":
            (self.columns, self.down, self.stock, self.waste, self.foundations, self.score) = self.saved.pop()
            return
        self.saved.append(self._table())
        del self.saved[:-HISTORY]
        self.moves += 1
        if kind == "s":
            if self.stock:
                self.waste.append(self.stock.pop(0))
            else:
                self.stock, self.waste = self.waste, []
        elif kind == "wf":
            name = self.waste.pop()
            self.foundations[self._foundation_for(name)].append(name)
            self.score += 10
        elif kind == "wc":
            self.columns[action[1]].append(self.waste.pop())
            self.score += 5
        elif kind == "cf":
            name = self.columns[action[1]].pop()
            self.foundations[self._foundation_for(name)].append(name)
            self.score += 10 + self._flip(action[1])
        elif kind == "cc":
            _, src, dst, k = action
            column = self.columns[src]
            self.columns[dst].extend(column[len(column) - k :])
            del column[len(column) - k :]
            self.score += self._flip(src)
        else:
            _, f, col = action
            self.columns[col].append(self.foundations[f].pop())
