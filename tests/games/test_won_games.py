"""Won games (tests/data/won_games.jsonl, written by the solver): section 6's total.

A won game with no take-backs scores 1,220 (104 x 10 + 36 x 5) plus 5 for every card that
went from the waste onto a column and was not undone. More generally every standing
take-back lands its card once more (+10). The counts come from the log itself: the
actions that stand after the undos, read from their notation.
"""

import json
from pathlib import Path

import pytest

from games import ACTIONS, Game, parse_code, replay
from tests.games.reference import Reference
from tests.games.test_properties import Walk

WON_GAMES = Path(__file__).resolve().parent.parent / "data" / "won_games.jsonl"


def _load():
    if not WON_GAMES.exists():
        return []
    return [json.loads(line) for line in WON_GAMES.read_text().splitlines() if line.strip()]


GAMES = _load()
needs_games = pytest.mark.skipif(not GAMES, reason="tests/data/won_games.jsonl is not there yet")


def standing(actions: list[str]) -> list[str]:
    stack = []
    for text in actions:
        if text == "u":
            stack.pop()
        else:
            stack.append(text)
    return stack


@needs_games
@pytest.mark.parametrize("index", range(len(GAMES)) if GAMES else [])
def test_won_game_score(index):
    game = GAMES[index]
    result = replay(game["deal"], game["actions"])
    assert result.ok, result.error
    assert result.won and result.foundation == 104
    stands = standing(game["actions"])
    waste_to_column = sum(1 for text in stands if text.startswith("w>") and text != "w>f")
    take_backs = sum(1 for text in stands if text.startswith("f"))
    assert result.score == 1220 + 5 * waste_to_column + 10 * take_backs
    if take_backs == 0:
        assert result.score == 1220 + 5 * waste_to_column
    assert result.moves == sum(1 for text in game["actions"] if text != "u")
    for key in ("won", "score", "moves", "foundation"):
        if key in game:  # the file may carry the expected answer
            assert game[key] == getattr(result, key)


@needs_games
@pytest.mark.parametrize("after", ["u", "s", "w>f", "1>2"])
def test_nothing_after_a_won_game(after):
    game = GAMES[0]
    n = len(game["actions"])
    result = replay(game["deal"], game["actions"] + [after, "s"])
    assert (result.ok, result.index) == (False, n)
    assert "won" in result.error


@needs_games
def test_a_won_game_step_by_step_against_the_rules_model():
    game = GAMES[0]
    number = parse_code(game["deal"]).number
    walk = Walk(Game.new(number), Reference.deal(number))
    for text in game["actions"]:
        assert walk.game.refusal(ACTIONS[text]) is None, text
        walk.step(text)
    assert walk.game.won and walk.ref.won
    assert walk.game.legal_actions() == []
