"""The won-games corpus (tests/data/won_games.jsonl): real games won by the solver.

Regenerate with ``python manage.py solve --write-corpus tests/data/won_games.jsonl``. Every
game replays as won with all 104 cards up; none takes a card back, so each scores exactly
1,220 plus 5 for every card that went from the waste onto a column (rules section 6), and
the score and move count stored with it are what the engine answers today.
"""

import json
from pathlib import Path

import pytest

from games import parse_code, replay

CORPUS = Path(__file__).resolve().parents[1] / "data" / "won_games.jsonl"
GAMES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("game", GAMES, ids=[game["deal"] for game in GAMES])
def test_stored_game_replays_as_won_with_its_score(game):
    result = replay(game["deal"], game["actions"])
    assert result.ok, f"{game['deal']}: action {result.index}: {result.error}"
    assert result.won and result.foundation == 104
    assert result.take_backs == 0 and result.undos == 0
    assert result.score == 1220 + 5 * result.waste_to_column
    assert (game["won"], game["foundation"]) == (True, 104)
    assert (game["score"], game["moves"]) == (result.score, result.moves)
    assert result.moves == len(game["actions"])


def test_corpus_covers_what_the_other_tests_rely_on():
    assert len(GAMES) >= 40
    numbers = [parse_code(game["deal"]).number for game in GAMES]
    assert len(set(numbers)) == len(numbers), "one game per deal"
    assert {1, 5} <= set(numbers)
    assert sum(game["deal"].startswith("EH1-D-") for game in GAMES) >= 3
    waste_to_column = [sum(text.startswith("w>") and text != "w>f" for text in game["actions"]) for game in GAMES]
    assert sum(count > 0 for count in waste_to_column) >= 3, "some games move cards from the waste to columns"
    for game in GAMES:
        assert list(game) == ["deal", "actions", "won", "score", "moves", "foundation"]
        assert "u" not in game["actions"] and not any(text.startswith("f") for text in game["actions"])
