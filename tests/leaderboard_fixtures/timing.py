"""Action times for tests of the tempo rules: machines at a steady pace, and a model of a person.

Every generator is deterministic (a seeded ``random.Random``) and returns what a browser
would send as ``times``: whole milliseconds since the attempt started, one per action,
non-decreasing.

The person (``human_times``) is a think-time model driven by the real game: the log is
replayed with the engine, and each action's think time is drawn from what the player faces
just before it. Why this model:

- Human response and decision times are right-skewed with a long tail; the standard fits are
  the log-normal and the ex-Gaussian (a Gaussian motor part plus an exponential decision
  part: Ratcliff 1979, Luce 1986 "Response Times"; log-normal: Ulrich & Miller 1993). So a
  think time here is a motor part (log-normal, narrow) plus a decision part (exponential or
  log-normal, wide).
- Drawing the stock again right after a draw is a repeated click on the same spot: the motor
  part is short (about 230 ms; people repeat a tap at 5 to 7 per second at best) and the
  decision is a glance at the drawn card (exponential, mean 150 ms), which is an ex-Gaussian.
- Any other action is aimed (a drag or a tap elsewhere on the table: about 450 ms by Fitts's
  law for a mouse across a card table) after a decision whose median grows with the log of
  the number of card moves on offer (the Hick-Hyman law: about 300 ms per doubling here).
- Hard moves get a planning pause (log-normal, median 2.5 s, heavy tail): a column-to-column
  move or a take-back (the player plans a build), or any move after which the number of legal
  card moves changes by 4 or more (it opens or closes the position, and people see that coming).
- Lapses: 1 action in 100 comes after the player looked away (log-normal, median 6 s).
- The first action comes after reading the deal (median 4 s).

``pace`` scales every decision part (0.6: a quick player, 1.6: a slow one), never the motor
floor: a quick player decides faster, they do not click faster than a hand can.
"""

import functools
import json
import math
import random
from pathlib import Path

from games import ACTIONS, Game, parse_code
from games.actions import COL_COL, FOUND_COL, STOCK, Action

WON_GAMES = Path(__file__).resolve().parent.parent / "data" / "won_games.jsonl"


def won_games() -> list[dict]:
    """The real won logs of tests/data (deal code and actions)."""
    with WON_GAMES.open() as lines:
        return [json.loads(line) for line in lines]


def even_times(count: int, per_second: float) -> list[int]:
    """A machine at exactly ``per_second`` actions a second."""
    return [round((i + 1) * 1000 / per_second) for i in range(count)]


def jittered_times(count: int, low_ms: int, high_ms: int, seed: int) -> list[int]:
    """A machine whose think times are uniform in [low_ms, high_ms] (e.g. 150-350 ms: 4/s)."""
    rng = random.Random(seed)
    return _running_sum(rng.uniform(low_ms, high_ms) for _ in range(count))


def human_times(code: str, actions: list[str], seed: int, pace: float = 1.0) -> list[int]:
    """A person playing ``actions`` on deal ``code`` (see the module docstring for the model)."""
    rng = random.Random(seed)
    gaps = []
    previous = None
    for index, (action, choices, choices_after) in enumerate(_faced(code, tuple(actions))):
        if index == 0:
            gap = _lognormal(rng, 4000 * pace, 0.4)
        elif action[0] == STOCK and previous == STOCK:
            gap = _lognormal(rng, 230, 0.2) + rng.expovariate(1 / (150 * pace))
        else:
            gap = _lognormal(rng, 450, 0.25) + _lognormal(rng, 300 * pace * math.log2(1 + choices), 0.6)
            hard = action[0] in (COL_COL, FOUND_COL) or abs(choices_after - choices) >= 4
            if hard:
                gap += _lognormal(rng, 2500 * pace, 0.7)
        if rng.random() < 0.01:
            gap += _lognormal(rng, 6000, 0.8)
        gaps.append(gap)
        previous = action[0]
    return _running_sum(gaps)


@functools.lru_cache(maxsize=256)
def _faced(code: str, actions: tuple[str, ...]) -> tuple[tuple[Action, int, int], ...]:
    """Each action of the replayed log with the card moves on offer before and after it. It
    depends on the log alone, not on the seed or the pace: kept, since counting the legal
    actions is most of the model's cost and tests time the same log many ways."""
    game = Game.new(parse_code(code).number, history_limit=None)
    faced = []
    choices = _card_moves(game)
    for text in actions:
        action = ACTIONS[text]
        game.play(action)
        choices_after = _card_moves(game)
        faced.append((action, choices, choices_after))
        choices = choices_after
    return tuple(faced)


def _card_moves(game: Game) -> int:
    """Legal actions that move a card (not a stock draw, not an undo)."""
    return sum(1 for text in game.legal_actions() if text not in ("s", "u"))


def _lognormal(rng: random.Random, median_ms: float, sigma: float) -> float:
    return rng.lognormvariate(math.log(max(median_ms, 1)), sigma)


def _running_sum(gaps) -> list[int]:
    times, now = [], 0.0
    for gap in gaps:
        now += gap
        times.append(round(now))
    return times
