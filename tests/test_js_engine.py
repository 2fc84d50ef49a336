"""The browser engine (frontend/static/frontend/engine.js) agrees with the Python engine.

games/vectors.py records what the Python engine answers in many situations;
frontend/static/frontend/vectors.json is that record, committed so that the JavaScript
tests need no Python. These tests fail when the record is stale and run the Node tests
that check engine.js against every vector. CI needs Node.js (apt-get install nodejs).
"""

import shutil
import subprocess

import pytest

from games.vectors import REGENERATE, ROOT, VECTORS_PATH, vectors_text

NODE_TIMEOUT = 300


def test_vectors_json_is_current():
    assert VECTORS_PATH.exists(), f"{VECTORS_PATH} is missing: run `{REGENERATE}` and commit it"
    current = VECTORS_PATH.read_text(encoding="utf-8")
    assert current == vectors_text(), (
        f"{VECTORS_PATH.relative_to(ROOT)} is stale (the Python engine, games/vectors.py or "
        f"tests/data/won_games.jsonl changed): run `{REGENERATE}` and commit it"
    )


def test_javascript_engine_agrees_with_every_vector():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the JavaScript engine tests need Node.js 20+ (apt-get install nodejs)")
    proc = subprocess.run(
        [node, "--test", "frontend/tests/"],
        cwd=ROOT, capture_output=True, text=True, timeout=NODE_TIMEOUT,
    )
    summary = "\n".join(line for line in proc.stdout.splitlines() if line.startswith("# "))
    assert proc.returncode == 0, (
        f"node --test frontend/tests/ failed (exit {proc.returncode}):\n"
        f"{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"
    )
    assert "# fail 0" in summary, summary
