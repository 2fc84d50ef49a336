"""The browser engine (frontend/static/frontend/engine/) agrees with the Python engine.

tools/vectors.py records what the Python engine answers in many situations;
frontend/static/frontend/engine/vectors.json is that record, committed so that the JavaScript
tests need no Python. Refusals are recorded as reason codes and arguments: these tests
check that the Python engine's words are the catalogue's template for each of them and that
every code of the catalogue is met, fail when the record is stale, and run the Node tests
that check the engine's modules against every vector. CI needs Node.js (apt-get install nodejs).
"""

import json
import shutil
import subprocess

import pytest

from games import (
    ACTIONS,
    MESSAGES,
    InvalidCode,
    MalformedAction,
    Refusal,
    format_code,
    parse_action,
    parse_code,
    render,
    replay,
)
from tools.vectors import REGENERATE, ROOT, VECTORS_PATH, fresh_game, vectors_text

NODE_TIMEOUT = 300


@pytest.fixture(scope="module")
def vectors() -> dict:
    return json.loads(VECTORS_PATH.read_text(encoding="utf-8"))


def refusal(vector: dict) -> Refusal:
    return Refusal(vector["code"], vector["args"])


def test_vectors_json_is_current():
    assert VECTORS_PATH.exists(), f"{VECTORS_PATH} is missing: run `{REGENERATE}` and commit it"
    current = VECTORS_PATH.read_text(encoding="utf-8")
    assert current == vectors_text(), (
        f"{VECTORS_PATH.relative_to(ROOT)} is stale (the Python engine, tools/vectors.py or "
        f"tests/data/won_games.jsonl changed): run `{REGENERATE}` and commit it"
    )


def test_the_vectors_carry_the_catalogue(vectors):
    assert vectors["messages"] == MESSAGES


def test_every_code_of_the_catalogue_is_met_by_some_vector(vectors):
    met = {r["code"] for v in vectors["positions"] for _text, r in v["refusals"]}
    met |= {v["refusal"]["code"] for v in vectors["malformed"]}
    met |= {v["refusal"]["code"] for v in vectors["codes"] + vectors["format_code"] if "refusal" in v}
    met |= {v["refusal"]["code"] for v in vectors["replays"] if v["refusal"]}
    assert met == set(MESSAGES), f"never met: {sorted(set(MESSAGES) - met)}"


def _words_of(call, *args) -> str:
    with pytest.raises((MalformedAction, InvalidCode)) as info:
        call(*args)
    return str(info.value)


def test_python_words_are_the_template_of_every_vector(vectors):
    """The engine's own words for each recorded refusal are its code's template, filled in
    with the recorded arguments (so the words follow from code and args alone)."""
    for v in vectors["malformed"]:
        assert _words_of(parse_action, v["text"]) == render(refusal(v["refusal"]))
    for v in vectors["codes"]:
        if "refusal" in v:
            assert _words_of(parse_code, v["code"]) == render(refusal(v["refusal"]))
    for v in vectors["format_code"]:
        assert _words_of(format_code, v["number"], v["mode"]) == render(refusal(v["refusal"]))
    for v in vectors["positions"]:
        game = fresh_game(v)
        for text in v["actions"]:
            game.play(ACTIONS[text])
        for text, r in v["refusals"]:
            assert game.refusal(ACTIONS[text]) == render(refusal(r)), text
    for v in vectors["replays"]:
        result = replay(v["deal"], v["actions"], v["history_limit"])
        if v["refusal"] is None:
            assert result.error == ""
            continue
        words = render(refusal(v["refusal"]))
        text = None if result.index is None else v["actions"][result.index]
        illegal = isinstance(text, str) and text in ACTIONS
        assert result.error == (f"{text}: {words}" if illegal else words)


def test_javascript_engine_agrees_with_every_vector():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the JavaScript engine tests need Node.js 20+ (apt-get install nodejs)")
    proc = subprocess.run(
        [node, "--test", "tests/frontend/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT,
    )
    summary = "\n".join(line for line in proc.stdout.splitlines() if line.startswith("# "))
    assert proc.returncode == 0, (
        f"node --test tests/frontend/ failed (exit {proc.returncode}):\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"
    )
    assert "# fail 0" in summary, summary
