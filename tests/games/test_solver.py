"""games/solver.py: every log it returns replays as won, its node budget makes it
deterministic, hint() always offers a legal action, and each of the search's move generators
yields moves of its kind that the rules allow."""

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import ACTIONS, Game, format_code, parse_code, replay
from games.replay import replay_onto
from games.solver import (
    COL_COL,
    COL_F,
    DEFAULT_NODE_LIMIT,
    FOUND_COL,
    POOL_COL,
    POOL_F,
    STRATEGIES,
    Solution,
    _copy,
    _play_move,
    _Search,
    hint,
    solve,
    solve_game,
)

CORPUS = Path(__file__).resolve().parents[1] / "data" / "won_games.jsonl"
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
    script = (
        "import hashlib, json; from games.solver import solve; s = solve(999_999); "
        "print(s.won, s.nodes, hashlib.sha256(json.dumps(s.actions).encode()).hexdigest())"
    )
    root = Path(__file__).resolve().parents[2]
    answers = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(answers) == 1 and answers.pop().startswith("True ")


@pytest.mark.parametrize(
    "number, nodes, length, digest",
    [
        (1, 830, 403, "0abf3b7cfd9a4ceb"),
        (5, 627, 439, "1142910eec6659f7"),
    ],
)
def test_the_answer_is_pinned(number, nodes, length, digest):
    """The deal of the day is the first candidate that the solver wins, so its exact answer is
    part of the product: a change to the search that changes it must change these on purpose."""
    solution = solve(number)
    found = hashlib.sha256(json.dumps(solution.actions).encode()).hexdigest()[:16]
    assert (solution.nodes, len(solution.actions), found) == (nodes, length, digest)


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


# -- the search's move generators --------------------------------------------------------------

#: Each move generator and what each of its moves does once applied: (kind, turns a card up).
GENERATORS = {
    "_flips": ({COL_F, COL_COL}, True),
    "_columns_to_foundations": ({COL_F}, False),
    "_pool_to_foundations": ({POOL_F}, False),
    "_digs": ({COL_COL}, False),
    "_feeds": ({POOL_COL}, False),
    "_emptying_for_a_king": ({COL_COL}, False),
    "_take_backs": ({FOUND_COL}, False),
}


def positions():
    """Games in progress: along a few won lines of the corpus (columns empty, Kings move,
    cards come back from the foundations) and after random play."""
    for index in range(6):
        stored = corpus_game(index)
        game = Game.new(parse_code(stored["deal"]).number)
        for i, text in enumerate(stored["actions"]):
            if i % 15 == 0:
                yield _copy(game)
            game.play(ACTIONS[text])
    for number in (3, 77, 4567):
        rng = random.Random(number)
        game = Game.new(number)
        for i in range(160):
            if i % 40 == 0:
                yield _copy(game)
            game.play(ACTIONS[rng.choice([text for text in game.legal_actions() if text != "u"])])


def generated(search):
    """The moves of each generator, fed as ``moves`` feeds them."""
    needed, places = search._needed(), search._places()
    useful = search._useful(search._wanted(needed))
    args = {
        "_flips": (needed, places),
        "_columns_to_foundations": (needed,),
        "_pool_to_foundations": (needed,),
        "_digs": (places,),
        "_feeds": (places, useful),
        "_emptying_for_a_king": (places,),
        "_take_backs": (places, useful),
    }
    return {name: list(getattr(search, name)(*args[name])) for name in GENERATORS}


def test_each_move_generator_yields_legal_moves_of_its_kind():
    """Every generated move is one the engine plays, to the position the search reaches; each
    generator yields its own kind of move; moves() chains them in order."""
    seen = dict.fromkeys(GENERATORS, 0)
    for game in positions():
        search = _Search(game, STRATEGIES[0])
        before = search.encode()
        by_kind = generated(search)
        assert search.moves() == [move for moves in by_kind.values() for move in moves]
        for name, moves in by_kind.items():
            kinds, turns_up = GENERATORS[name]
            seen[name] += len(moves)
            for move in moves:
                engine = _copy(game)
                _play_move(engine, move, [])  # raises IllegalAction on a move the rules refuse
                _, flipped, _ = record = search.apply(move)
                assert move[0] in kinds and flipped is turns_up, (name, move)
                assert search.key() == _Search(engine, STRATEGIES[0]).key(), (name, move)
                assert search.pool == _Search(engine, STRATEGIES[0]).pool, (name, move)
                if name == "_emptying_for_a_king":
                    assert not search.cols[move[1]]
                search.undo(record)
                assert search.encode() == before
    assert all(seen.values()), f"every generator is exercised: {seen}"


def test_no_take_back_when_they_are_off():
    for game in positions():
        search = _Search(game, STRATEGIES[0], take_backs=False)
        assert all(move[0] != FOUND_COL for move in search.moves())
