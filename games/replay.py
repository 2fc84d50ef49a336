"""Verifying a move log (rules sections 7 and 8): replay it from the deal and report."""

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .actions import ACTIONS, ActionTuple, malformed_refusal
from .deal import InvalidCode, parse_code
from .game import HISTORY_LIMIT, Game, IllegalAction
from .refusals import Refusal, refuse


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What a replay proves. ``ok`` False: ``index`` is the 0-based index of the first
    bad action (None when the input is not a game at all) and ``error`` says why;
    ``refusal`` is the reason code and arguments ``error`` was written from (None for a
    reason outside the engine's catalogue). It is left out of equality and of both dicts."""

    ok: bool
    won: bool = False
    score: int = 0
    moves: int = 0
    foundation: int = 0
    undos: int = 0
    take_backs: int = 0
    stock_passes: int = 0
    waste_to_column: int = 0
    index: int | None = None
    error: str = ""
    refusal: Refusal | None = field(default=None, compare=False, repr=False)

    def to_wire(self) -> dict[str, Any]:
        """The JSON line of ``manage.py replay`` (section 8)."""
        if self.ok:
            return {
                "ok": True,
                "won": self.won,
                "score": self.score,
                "moves": self.moves,
                "foundation": self.foundation,
            }
        return {"ok": False, "index": self.index, "error": self.error}

    def to_dict(self) -> dict[str, Any]:
        """Every field but ``refusal``, as plain data."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "refusal"}


def invalid(index: int | None, error: Refusal | str, prefix: str = "") -> ReplayResult:
    """A failed replay: ``error`` a Refusal (written out after ``prefix``) or plain words."""
    if isinstance(error, Refusal):
        return ReplayResult(ok=False, index=index, error=prefix + str(error), refusal=error)
    return ReplayResult(ok=False, index=index, error=prefix + error)


def replay(code: object, actions: object, history_limit: int | None = HISTORY_LIMIT) -> ReplayResult:
    """Replay ``actions`` (a list of action strings) on the deal named by ``code``."""
    try:
        number = parse_code(code).number
    except InvalidCode as exc:
        return invalid(None, exc.refusal)
    if not isinstance(actions, list):
        return invalid(None, refuse("actions_not_list"))
    game = Game.new(number, history_limit)
    return replay_onto(game, actions)


#: ACTIONS as exact tuples, for the loop below: CPython unpacks an exact tuple on its fast
#: path and an Action (a tuple subclass) through an iterator, twice an action (in
#: ``refusal_code`` and ``play``): over a tenth of replay's time. Keyed by whatever a log
#: holds: anything not in it is malformed.
_PLAIN_ACTIONS: dict[object, ActionTuple] = {text: (*action,) for text, action in ACTIONS.items()}


def replay_onto(game: Game, actions: Sequence[object]) -> ReplayResult:
    """Apply ``actions`` to ``game`` in order, stopping at the first bad one."""
    play = game.play
    for index, text in enumerate(actions):
        try:
            action = _PLAIN_ACTIONS[text]
        except (KeyError, TypeError):
            return invalid(index, malformed_refusal(text))
        try:
            play(action)
        except IllegalAction as exc:  # the action's text first, then why it is refused
            return invalid(index, exc.refusal, f"{text}: ")
    return ReplayResult(
        ok=True,
        won=game.won,
        score=game.score,
        moves=game.moves,
        foundation=game.on_foundations,
        undos=game.undos,
        take_backs=game.take_backs,
        stock_passes=game.stock_passes,
        waste_to_column=game.waste_to_column,
    )
