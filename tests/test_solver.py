"""games/solver.py: every log it returns replays as won, its node budget makes it
deterministic, and hint() always offers a legal action."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import ACTIONS, Game, format_code, parse_code, replay
from games.replay import replay_onto
from games.solver import DEFAULT_NODE_LIMIT, Solution, hint, solve, solve_game

CORPUS = Path(__file__).resolve().parent / "data" / "won_games.jsonl"
#: A deal that the default budget does not win (its search always runs out).
HARD_DEAL = 714_339


def corpus_game(index: int = 0) -> dict:
    lines = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return json.loads(lines[index])


def game_after(code: str, actions: list[str]) -> Game:
    game = Game.new(parse_code(code).number)
    for text in actions:
        game.play(ACTIONS[text])
    return game


@pytest.mark.parametrize("number", [1, 5, 4567])
def test_a_solution_replays_as_won(number):
    solution = solve(number)
    assert isinstance(solution, Solution)
    assert solution.won and solution.reason == "won"
    assert 0 < solution.nodes <= DEFAULT_NODE_LIMIT and solution.seconds >= 0
    assert "u" not in solution.actions
    result = replay(format_code(number), solution.actions)
    assert result.ok and result.won and result.foundation == 104
    # The layout depends on the number only: the same log wins the deal of the day.
    assert replay(format_code(number, "D"), solution.actions).won


def test_the_same_number_gives_the_same_answer():
    first, second = solve(5), solve(5)
    assert (first.won, first.actions, first.nodes) == (second.won, second.actions, second.nodes)
    lost = [solve(HARD_DEAL, node_limit=1_500) for _ in range(2)]
    assert lost[0].won is lost[1].won is False
    assert lost[0].nodes == lost[1].nodes == 1_500


def test_the_answer_does_not_depend_on_the_process():
    """String hashing is randomised per process; nothing the search does may depend on it."""
    script = ("import hashlib, json; from games.solver import solve; s = solve(999_999); "
              "print(s.won, s.nodes, hashlib.sha256(json.dumps(s.actions).encode()).hexdigest())")
    root = Path(__file__).resolve().parent.parent
    answers = {
        subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert len(answers) == 1 and answers.pop().startswith("True ")


@pytest.mark.parametrize("node_limit", [0, 1, 10])
def test_a_tiny_budget_reports_no_win_cleanly(node_limit):
    solution = solve(5, node_limit=node_limit)
    assert solution.won is False and solution.actions == []
    assert solution.nodes <= node_limit and solution.reason == "node limit"


def test_the_time_limit_is_a_safety_net():
    solution = solve(HARD_DEAL, node_limit=10**9, time_limit=0.05)
    assert solution.won is False and solution.reason == "time limit"
    assert solution.seconds < 2


def test_without_take_backs_no_card_leaves_a_foundation():
    solution = solve(1, take_backs=False)
    assert solution.won
    assert not any(text.startswith("f") for text in solution.actions)
    assert replay(format_code(1), solution.actions).take_backs == 0


@pytest.mark.parametrize("played", [0, 150, 400])
def test_solve_game_from_a_game_in_progress(played):
    stored = corpus_game(1)
    prefix = stored["actions"][:played]
    game = game_after(stored["deal"], prefix)
    before = game.snapshot()
    solution = solve_game(game)
    assert game.snapshot() == before, "the game itself is left alone"
    assert solution.won
    assert replay(stored["deal"], prefix + solution.actions).won
    assert replay_onto(game_after(stored["deal"], prefix), solution.actions).won


def test_solve_game_after_random_play():
    rng = random.Random(7)
    game = Game.new(77)
    played = []
    for _ in range(150):
        text = rng.choice([text for text in game.legal_actions() if text != "u"])
        game.play(ACTIONS[text])
        played.append(text)
    solution = solve_game(game)
    assert solution.won, "this position is won within the default budget"
    assert replay(format_code(77), played + solution.actions).won


def test_hint_is_the_next_action_of_a_winning_line():
    stored = corpus_game(0)
    game = game_after(stored["deal"], stored["actions"][:200])
    action = hint(game)
    assert action in game.legal_actions() and action != "u"
    assert action == solve_game(game, node_limit=6_000).actions[0]
    game.play(ACTIONS[action])  # and the game goes on


def test_hint_falls_back_to_a_legal_action():
    game = Game.new(HARD_DEAL)
    action = hint(game, node_limit=1)
    assert action in game.legal_actions() and action != "u"


def test_no_hint_once_the_game_is_won():
    stored = corpus_game(0)
    game = game_after(stored["deal"], stored["actions"])
    assert game.won
    assert hint(game) is None
    solution = solve_game(game)
    assert solution.won and solution.actions == [] and solution.reason == "already won"


def test_manage_py_solve_prints_the_line_as_json():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("solve", "EH1-D-AAAAAAF", "--nodes", "30000", stdout=out)
    answer = json.loads(out.getvalue())
    assert list(answer) == ["code", "won", "actions", "nodes", "seconds"]
    assert answer["code"] == "EH1-D-AAAAAAF" and answer["won"] is True
    assert replay(answer["code"], answer["actions"]).won
    assert answer["actions"] == solve(5).actions and answer["nodes"] == solve(5).nodes


def test_manage_py_solve_refuses_a_bad_code():
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="mode"):
        call_command("solve", "EH1-X-AAAAAAF")


def test_manage_py_solve_writes_the_corpus(tmp_path):
    from io import StringIO

    from django.core.management import call_command

    path = tmp_path / "won.jsonl"
    call_command("solve", "--write-corpus", str(path), "--count", "2", stdout=StringIO(), stderr=StringIO())
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert [game["deal"] for game in games] == ["EH1-N-AAAAAAB", "EH1-N-AAAAAAF"]
    for game in games:
        result = replay(game["deal"], game["actions"])
        assert result.won and (game["score"], game["moves"]) == (result.score, result.moves)
