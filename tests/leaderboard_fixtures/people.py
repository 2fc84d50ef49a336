"""Whole games of a modelled person on one deal, for the copy and engine-match tests: many
different human-length lines of the same deal, as a day's players send them.

A person does not search: they play what they see. Each turn the model (seeded, so every line
is reproducible) plays, when the table offers one:

- a card to a foundation (what every player does first);
- a move that turns a face-down card up, or empties a column for a king;
- a card from the waste onto a column, now and then (a person sometimes builds for later);

and otherwise taps the stock. Now and then it tries a move on a whim and undoes it (a detour:
people explore), and after a whole pass of the stock without a card move it takes a random
build from one column to another to unblock itself; after a few passes without progress it
gives up (a lost game, as people lose). That plays the stock through many times, which is why
people need 800 to 950 actions where the solver needs under 400.
"""

import random

from games import Game, format_code, replay, solver
from games.actions import ACTIONS

#: The settings that switch off the rules reading the moves (near-copies, engine match), for
#: tests that send one known log for several players (today's deal's proof being that same log).
MOVE_RULES_OFF = {
    "NEAR_COPY_MIN_ACTIONS": 10**9,
    "ENGINE_MATCH_SHARE": 2.0,
    "ENGINE_MOVES_FACTOR": 0.0,
    "ENGINE_DAY_MIN_WINS": 10**9,
    "ENGINE_STREAK_WINS": 10**9,
}

#: The tries of the model's stuck player at seeing a way through (the solver's node budget).
INSIGHT_NODES = 30000


def person_line(number: int, seed: int, limit: int = 3000) -> list[str]:
    """One person's log of deal ``number`` (won or given up), at most ``limit`` actions."""
    rng = random.Random(seed)
    game = Game.new(number, history_limit=100)
    log: list[str] = []
    idle = 0  # stock taps since the last card move
    columns_seen = False  # the columns' moves were looked at since they last changed
    while not game.won and len(log) < limit:
        pile = len(game.stock) + len(game.waste)
        if idle > 2 * pile + 1:  # two passes with nothing to do: think it through
            plan = solver.solve_game(game, node_limit=INSIGHT_NODES)
            if not plan.won:
                break
            insight = _until_card_moves(plan.actions, rng.randint(1, 4))
            for text in insight:
                game.play(ACTIONS[text])
            log += insight
            idle, columns_seen = 0, False
            continue
        pick = _choose(game, rng, columns_seen)
        columns_seen = True
        if pick is None:
            break
        if pick != "s" and rng.random() < 0.03:  # a detour: try a move and take it back
            detour = _legal(game, [f"w>{n}" for n in range(1, 10)])
            if detour:
                log += [rng.choice(detour), "u"]
                game.play(ACTIONS[log[-2]])
                game.play(ACTIONS["u"])
        game.play(ACTIONS[pick])
        log.append(pick)
        if pick == "s":
            idle += 1
        else:
            idle, columns_seen = 0, False
    assert replay(format_code(number), log).ok
    return log


def _until_card_moves(actions: list[str], moves: int) -> list[str]:
    """The first actions of ``actions`` up to and with its ``moves``-th card move."""
    for end, text in enumerate(actions):
        if text != "s":
            moves -= 1
            if moves == 0:
                return actions[: end + 1]
    return actions


def _legal(game: Game, texts: list[str]) -> list[str]:
    return [text for text in texts if game.refusal_code(ACTIONS[text]) is None]


_FOUNDATION = ["w>f", *(f"{n}>f" for n in range(1, 10))]
_WASTE = [f"w>{n}" for n in range(1, 10)]
_BUILDS = [f"{n}>{m}" for n in range(1, 10) for m in range(1, 10) if m != n]


def _choose(game: Game, rng: random.Random, columns_seen: bool) -> str | None:
    """The model's next action (the module docstring), None when it sees nothing to do. After
    a stock tap only the waste changed: the columns' moves are not looked at again."""
    found = _legal(game, _FOUNDATION if not columns_seen else ["w>f"])
    if found:
        return rng.choice(found)
    if not columns_seen:
        opening = [text for text in _legal(game, _BUILDS) if _opens(game, ACTIONS[text])]
        if opening:
            return rng.choice(opening)
    from_waste = _legal(game, _WASTE)
    if from_waste and rng.random() < 0.35:
        return rng.choice(from_waste)
    return "s" if game.stock or game.waste else None


def _opens(game: Game, action) -> bool:
    """The move uncovers a face-down card (its column's only face-up card leaves)."""
    return game.down[action.source] > 0 and len(game.columns[action.source]) - game.down[action.source] == 1
