"""The Easy Harp game state and its rules (sections 5 and 6 of the EH1 rules).

``Game`` is a small mutable state with a push/pop undo stack. Every rule lives in
``Game.refusal_code``, which names the rule that refuses an action (a ``Refusal``: reason
code and arguments, words in ``games.refusals``); ``Game.refusal`` is its words.
``Game.play`` applies an action only after it, and records what ``undo`` needs to restore
the table, the score and the counters exactly.
"""

from collections import deque
from itertools import pairwise
from typing import Any

from .actions import ACTIONS, COL_COL, COL_F, FOUND_COL, STOCK, UNDO, WASTE_COL, WASTE_F, ActionTuple
from .cards import DECK_SIZE, KING, NAME, RANK, STACKS_ON, SUITS, make_card
from .deal import COLUMNS, Layout, deal
from .refusals import Refusal, Refused, refuse

FOUNDATIONS = 8
HISTORY_LIMIT = 100
#: Points of section 6.
TO_FOUNDATION, WASTE_TO_COLUMN, FLIP = 10, 5, 5

#: An undo record: the action, the card it moved (-1 none; for the stock, 0 marks a
#: recycle), the foundation it went to (-1 none), whether a card turned up, the points.
UndoRecord = tuple[ActionTuple, int, int, bool, int]


class IllegalAction(Refused):
    """An action that the rules refuse where it stands; the message names the rule and
    ``.refusal`` holds its reason code and arguments."""


class Game:
    """One game of Easy Harp.

    Columns list cards bottom to top; ``down[n]`` of column n's bottom cards are face
    down (a non-empty column always has its top card face up). ``stock`` is drawn from
    its end; ``waste`` has its top card at its end. ``foundations[f]`` is the rank on
    top of foundation f (0 when empty); foundation f holds suit ``f // 2``.
    """

    __slots__ = (
        "number",
        "columns",
        "down",
        "stock",
        "waste",
        "foundations",
        "on_foundations",
        "score",
        "moves",
        "undos",
        "take_backs",
        "stock_passes",
        "waste_to_column",
        "history",
    )

    def __init__(self, layout: Layout, history_limit: int | None = HISTORY_LIMIT) -> None:
        """The table as dealt (section 3): only each column's top card face up, the stock
        in draw order, the waste and the foundations empty, no points, no moves."""
        self.number = layout.number
        self.columns = [list(col) for col in layout.columns]
        self.down = [max(len(col) - 1, 0) for col in layout.columns]
        self.stock = list(reversed(layout.stock))
        self.waste: list[int] = []
        self.foundations = [0] * FOUNDATIONS
        self.on_foundations = 0
        self.score = self.moves = 0
        self.undos = self.take_backs = self.stock_passes = self.waste_to_column = 0
        #: Undo records ``(action, card, foundation, flipped, points)``; the oldest
        #: drops off when a push would exceed the limit (None: unbounded, for search).
        self.history: deque[UndoRecord] = deque(maxlen=history_limit)

    @classmethod
    def new(cls, number: int, history_limit: int | None = HISTORY_LIMIT) -> "Game":
        """A new game of deal ``number``; undo reaches back ``history_limit`` actions."""
        return cls(deal(number), history_limit)

    @property
    def won(self) -> bool:
        """All 104 cards are on the foundations."""
        return self.on_foundations == DECK_SIZE

    # -- legality: every rule, in one place -------------------------------------------

    def refusal(self, action: ActionTuple) -> str | None:
        """Why ``action`` is illegal here, in words a player can read; None if legal."""
        reason = self.refusal_code(action)
        return None if reason is None else str(reason)

    def refusal_code(self, action: ActionTuple) -> Refusal | None:
        """The rule that refuses ``action`` here, with its arguments; None if it is legal.

        Nothing follows the winning action. The stock turns while it or the waste holds a
        card. Undo needs an action to undo, at most the history limit back. The top card of
        the waste, of a column or of a foundation goes where a foundation or a column takes
        it (below); several cards move together only as a run (``_run_refusal``)."""
        if self.on_foundations == DECK_SIZE:
            return refuse("game_won")
        kind, source, target, cards = action
        if kind == STOCK:
            if not self.stock and not self.waste:
                return refuse("stock_empty")
            return None
        if kind == UNDO:
            if self.history:
                return None
            if self.history.maxlen and self.moves >= self.history.maxlen:
                return refuse("undo_limit", limit=self.history.maxlen)
            return refuse("nothing_to_undo")
        if kind == WASTE_F or kind == WASTE_COL:
            if not self.waste:
                return refuse("waste_empty")
            card = self.waste[-1]
            if kind == WASTE_F:
                return self._foundation_refusal(card)
            return self._column_refusal(card, target)
        if kind == FOUND_COL:
            rank = self.foundations[source]
            if not rank:
                return refuse("foundation_empty", foundation=source + 1)
            return self._column_refusal(make_card(rank, source // 2), target)
        column = self.columns[source]
        if not column:
            return refuse("column_empty", column=source + 1)
        if kind == COL_F:
            return self._foundation_refusal(column[-1])
        if cards == 1:
            return self._column_refusal(column[-1], target)
        return self._run_refusal(source, target, cards)

    def _foundation_refusal(self, card: int) -> Refusal | None:
        """A foundation takes the next card of its suit, from the Ace up."""
        if self._foundation_for(card) is not None:
            return None
        suit = card // 13
        return refuse("foundation_refuses", card=NAME[card], suit=SUITS[suit], first=2 * suit + 1, second=2 * suit + 2)

    def _foundation_for(self, card: int) -> int | None:
        """The first foundation, in order 1..8, that accepts ``card``."""
        first = 2 * (card // 13)
        below = RANK[card] - 1
        if self.foundations[first] == below:
            return first
        if self.foundations[first + 1] == below:
            return first + 1
        return None

    def _column_refusal(self, card: int, to: int) -> Refusal | None:
        """A column takes a card of opposite colour one rank lower; an empty one only a King."""
        column = self.columns[to]
        if not column:
            if RANK[card] == KING:
                return None
            return refuse("empty_column_king_only", card=NAME[card])
        top = column[-1]
        if card in STACKS_ON[top]:
            return None
        return refuse("column_refuses", card=NAME[card], target=NAME[top])

    def _run_refusal(self, source: int, target: int, cards: int) -> Refusal | None:
        """Only a King-led run of face-up cards, alternating in colour and descending
        by one, moves whole, and only onto an empty column."""
        if self.columns[target]:
            return refuse("run_needs_empty_column")
        column = self.columns[source]
        if len(column) - self.down[source] < cards:
            return refuse("run_too_few_face_up", column=source + 1, count=cards)
        run = column[-cards:]
        if RANK[run[0]] != KING:
            return refuse("run_not_king_led", card=NAME[run[0]])
        for below, above in pairwise(run):
            if above not in STACKS_ON[below]:
                return refuse("not_a_run", count=cards, column=source + 1, card=NAME[above], below=NAME[below])
        return None

    # -- applying and undoing -----------------------------------------------------------

    def play(self, action: ActionTuple) -> None:
        """Apply a legal action; an illegal one raises IllegalAction and changes nothing."""
        reason = self.refusal_code(action)
        if reason is not None:
            raise IllegalAction(reason)
        kind, source, target, cards = action
        if kind == UNDO:
            self._undo()
            return
        self.moves += 1
        card = foundation = -1
        flipped = False
        points = 0
        if kind == STOCK:
            if self.stock:
                self.waste.append(self.stock.pop())
            else:  # turn the waste over: drawn again in the same order
                self.waste.reverse()
                self.stock, self.waste = self.waste, self.stock
                self.stock_passes += 1
                card = 0  # marks a recycle for undo
        elif kind == WASTE_F or kind == COL_F:
            card = self.waste.pop() if kind == WASTE_F else self.columns[source].pop()
            found = self._foundation_for(card)
            assert found is not None  # refusal_code saw a foundation take it
            foundation = found
            self.foundations[foundation] += 1
            self.on_foundations += 1
            points = TO_FOUNDATION
            if kind == COL_F:
                flipped = self._flip(source)
        elif kind == WASTE_COL:
            self.columns[target].append(self.waste.pop())
            self.waste_to_column += 1
            points = WASTE_TO_COLUMN
        elif kind == COL_COL:
            column = self.columns[source]
            if cards == 1:
                self.columns[target].append(column.pop())
            else:
                self.columns[target].extend(column[-cards:])
                del column[-cards:]
            flipped = self._flip(source)
        else:  # FOUND_COL
            rank = self.foundations[source]
            self.foundations[source] = rank - 1
            self.on_foundations -= 1
            self.columns[target].append(make_card(rank, source // 2))
            self.take_backs += 1
        if flipped:
            points += FLIP
        self.score += points
        self.history.append((action, card, foundation, flipped, points))

    def _flip(self, column: int) -> bool:
        """A face-down card left on top of a column turns face up as part of the move."""
        if self.down[column] and self.down[column] == len(self.columns[column]):
            self.down[column] -= 1
            return True
        return False

    def _undo(self) -> None:
        """Restore everything the last recorded action changed; the move counter stays."""
        action, card, foundation, flipped, points = self.history.pop()
        kind, source, target, cards = action
        self.undos += 1
        self.score -= points
        if flipped:
            self.down[source] += 1
        if kind == STOCK:
            if card == -1:
                self.stock.append(self.waste.pop())
            else:
                self.stock.reverse()
                self.stock, self.waste = self.waste, self.stock
                self.stock_passes -= 1
        elif kind == WASTE_F or kind == COL_F:
            self.foundations[foundation] -= 1
            self.on_foundations -= 1
            (self.waste if kind == WASTE_F else self.columns[source]).append(card)
        elif kind == WASTE_COL:
            self.waste.append(self.columns[target].pop())
            self.waste_to_column -= 1
        elif kind == COL_COL:
            column = self.columns[target]
            self.columns[source].extend(column[-cards:])
            del column[-cards:]
        else:  # FOUND_COL
            self.columns[target].pop()
            self.foundations[source] += 1
            self.on_foundations += 1
            self.take_backs -= 1

    # -- reading the table ----------------------------------------------------------------

    def legal_actions(self) -> list[str]:
        """Every legal action here, in the notation, each written once (``N>M`` not ``N>M:1``)."""
        candidates = ["s", "u", "w>f"]
        candidates += [f"w>{n}" for n in range(1, COLUMNS + 1)]
        for n, column in enumerate(self.columns, 1):
            candidates.append(f"{n}>f")
            candidates += [f"{n}>{m}" for m in range(1, COLUMNS + 1) if m != n]
            for k in range(2, len(column) - self.down[n - 1] + 1):
                candidates += [f"{n}>{m}:{k}" for m in range(1, COLUMNS + 1) if m != n]
        candidates += [f"f{f}>{n}" for f in range(1, FOUNDATIONS + 1) for n in range(1, COLUMNS + 1)]
        return [text for text in candidates if self.refusal_code(ACTIONS[text]) is None]

    def tap_destination(self, source: str, double: bool = True) -> str | None:
        """Where a tap on the top card of ``source`` ("w" or "1".."9") sends it (section 9).

        A tap sends the card to a foundation that accepts it. A double tap (``double``)
        then tries the board: the longest column that accepts the card, leftmost on a
        tie, then the leftmost empty column if the card is a King. None: nowhere.
        """
        for text in self._tap_candidates(source, double):
            if self.refusal_code(ACTIONS[text]) is None:
                return text
        return None

    def _tap_candidates(self, source: str, double: bool) -> list[str]:
        """What a tap tries, in order (section 9): the foundations; on a double tap then the
        other columns that hold cards, longest first (leftmost on a tie), then the empty ones."""
        candidates = [f"{source}>f"]
        if double:
            others = [n for n in range(COLUMNS) if str(n + 1) != source]
            built = sorted((n for n in others if self.columns[n]), key=lambda n: -len(self.columns[n]))
            empty = [n for n in others if not self.columns[n]]
            candidates += [f"{source}>{n + 1}" for n in built + empty]
        return candidates

    def snapshot(self) -> dict[str, Any]:
        """The whole visible state as plain JSON-able data (cards by name)."""
        return {
            "columns": [[NAME[c] for c in col] for col in self.columns],
            "down": list(self.down),
            "stock": [NAME[c] for c in reversed(self.stock)],
            "waste": [NAME[c] for c in self.waste],
            "foundations": [NAME[make_card(rank, f // 2)] if rank else None for f, rank in enumerate(self.foundations)],
            "score": self.score,
            "moves": self.moves,
            "undo_depth": len(self.history),
            "won": self.won,
        }
