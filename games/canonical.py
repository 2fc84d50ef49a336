"""The canonical line of a move log: what was played, written one way (rules section 7).

Two logs that play the same game have the same canonical line, and the line replays to the same
table as the log. It is made by two rules, applied in one pass over the log:

1. **Every action written one way.** An accepted alias is written in its shortest form: ``N>M:1``
   is ``N>M`` (the Interpretations of ``N>M:K``); every other action has one form already.
2. **Every undone action taken out with its undo.** An undo takes back the last action that
   stands (section 5: the history is a stack); the canonical line drops both. EH1 has no redo,
   so nothing comes back. What stands at the end is exactly what the table shows: an undo
   restores everything the action changed, so the line without the pair reaches the same
   position, won or not, with the same score, cards on the foundations, take-backs, passes and
   plays from the waste (the counts of a replay result count standing actions only). Only the
   move counter differs: it counted the undone actions, the canonical line has none.

A log the engine rejects has a canonical line too (each text that is not an action is kept as
it is, an undo with nothing to take back is dropped): the copy check reads it, the verifier
rejects the log anyway.

Public API::

    canonical_line(actions) -> list[str]     # the rules above
    line_hash(actions) -> str                # sha256 hex of the canonical line: equal lines, equal hashes
    shingles(line, size=SHINGLE) -> set[str] # the line's n-grams of actions, for near-copies
    card_moves(line) -> list[str]            # the line without its stock taps
    shared_moves(line, reference, size=MOVE_GRAM) -> float  # share of the reference's move n-grams in line
"""

import hashlib
import json
from collections.abc import Sequence

from .actions import ACTIONS

#: The size of a near-copy shingle: five actions in a row.
SHINGLE = 5
#: The size of a run of card moves compared with the solver's line.
MOVE_GRAM = 3
_UNDO = "u"
_STOCK = "s"

#: Each action's one written form: ``str`` of its parse (``N>M:1`` -> ``N>M``).
_WRITTEN: dict[str, str] = {text: str(action) for text, action in ACTIONS.items()}


def canonical_line(actions: Sequence[object]) -> list[str]:
    """The log's canonical line: aliases written one way, each undo taken out with the action it
    undoes (the module's rules)."""
    line: list[str] = []
    for text in actions:
        if text == _UNDO:
            if line:
                line.pop()
            continue
        written = _WRITTEN.get(text) if isinstance(text, str) else None
        line.append(written if written is not None else str(text))
    return line


def line_hash(actions: Sequence[object]) -> str:
    """sha256 (hex) of the canonical line's compact JSON: two logs of one game hash the same."""
    line = canonical_line(actions)
    return hashlib.sha256(json.dumps(line, separators=(",", ":")).encode()).hexdigest()


def shingles(line: Sequence[str], size: int = SHINGLE) -> set[str]:
    """The set of runs of ``size`` actions in a row of a canonical line (the whole line, once, when
    it is shorter): the near-copy similarity is the Jaccard index of two such sets."""
    if len(line) <= size:
        return {" ".join(line)}
    return {" ".join(line[i : i + size]) for i in range(len(line) - size + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    """|a and b| / |a or b|: 1 for equal sets, 0 for disjoint ones (and for two empty ones)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def card_moves(line: Sequence[str]) -> list[str]:
    """The line without its stock taps: the moves of cards, in order. Tapping the stock more or
    less often between two moves does not change it."""
    return [action for action in line if action != _STOCK]


def shared_moves(line: Sequence[str], reference: Sequence[str], size: int = MOVE_GRAM) -> float:
    """The share of the reference line's runs of ``size`` card moves in a row (stock taps left
    out) that the line plays too: 1 when the line plays every move of the reference in the same
    order, whatever taps of the stock it adds; 0 when the reference has no card moves."""
    theirs = _grams(card_moves(reference), size)
    if not theirs:
        return 0.0
    return len(theirs & _grams(card_moves(line), size)) / len(theirs)


def _grams(moves: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(moves[i : i + size]) for i in range(len(moves) - size + 1)}
