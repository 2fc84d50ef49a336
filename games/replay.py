"""Verifying a move log (rules sections 7 and 8): replay it from the deal and report."""

from dataclasses import asdict, dataclass

from .actions import ACTIONS, _why_malformed
from .deal import InvalidCode, parse_code
from .game import HISTORY_LIMIT, Game, IllegalAction


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What a replay proves. ``ok`` False: ``index`` is the 0-based index of the first
    bad action (None when the input is not a game at all) and ``error`` says why."""

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

    def to_wire(self) -> dict:
        """The JSON line of ``manage.py replay`` (section 8)."""
        if self.ok:
            return {"ok": True, "won": self.won, "score": self.score, "moves": self.moves,
                    "foundation": self.foundation}
        return {"ok": False, "index": self.index, "error": self.error}

    def to_dict(self) -> dict:
        return asdict(self)


def invalid(index: int | None, error: str) -> ReplayResult:
    return ReplayResult(ok=False, index=index, error=error)


def replay(code: object, actions: object, history_limit: int | None = HISTORY_LIMIT) -> ReplayResult:
    """Replay ``actions`` (a list of action strings) on the deal named by ``code``."""
    try:
        number = parse_code(code).number
    except InvalidCode as exc:
        return invalid(None, str(exc))
    if not isinstance(actions, list):
        return invalid(None, "actions must be a list of action strings")
    game = Game.new(number, history_limit)
    return replay_onto(game, actions)


def replay_onto(game: Game, actions: list) -> ReplayResult:
    """Apply ``actions`` to ``game`` in order, stopping at the first bad one."""
    play = game.play
    for index, text in enumerate(actions):
        try:
            action = ACTIONS[text]
        except (KeyError, TypeError):
            return invalid(index, _why_malformed(text))
        try:
            play(action)
        except IllegalAction as exc:
            return invalid(index, f"{text}: {exc}")
    return ReplayResult(
        ok=True, won=game.won, score=game.score, moves=game.moves,
        foundation=game.on_foundations, undos=game.undos, take_backs=game.take_backs,
        stock_passes=game.stock_passes, waste_to_column=game.waste_to_column,
    )
