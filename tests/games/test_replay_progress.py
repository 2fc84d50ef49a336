"""`manage.py replay` draws a progress bar on a terminal for large files, and none when piped."""

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "DATABASE_URL": "", "REDIS_URL": ""}


@pytest.fixture(scope="module")
def big_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "games.jsonl"
    line = json.dumps({"deal": "EH1-N-AAAAAAF", "actions": ["s"] * 59 + ["s", "8>7"]})
    path.write_text("\n".join([line] * 4000) + "\n")  # about 1.5 MB
    assert path.stat().st_size >= 256 * 1024
    return path


def run_with_terminal_stderr(args: list[str], stdout) -> str:
    """Run with standard error on a pseudo-terminal; return what the terminal showed."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "replay", *args], cwd=ROOT, env=ENV, stdout=stdout, stderr=terminal
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    assert process.wait(60) == 0
    os.close(controller)
    return shown.decode(errors="replace")


def test_a_large_file_to_a_file_shows_a_bar_on_the_terminal(big_file, tmp_path):
    with (tmp_path / "out.jsonl").open("wb") as out:
        shown = run_with_terminal_stderr([str(big_file)], out)
    assert "100%" in shown and "[####" in shown
    answers = (tmp_path / "out.jsonl").read_text().splitlines()
    assert len(answers) == 4000 and json.loads(answers[0]) == {
        "ok": True,
        "won": False,
        "score": 5,
        "moves": 61,
        "foundation": 0,
    }  # 8>7 turns a card up


def test_no_bar_when_the_output_is_piped(big_file):
    reader = subprocess.Popen(["wc", "-l"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    shown = run_with_terminal_stderr([str(big_file)], reader.stdin)
    reader.stdin.close()
    assert reader.stdout.read().strip() == b"4000"
    assert "%" not in shown


def test_no_bar_for_a_small_file(tmp_path):
    small = tmp_path / "one.jsonl"
    small.write_text('{"deal": "EH1-N-AAAAAAF", "actions": ["s"]}\n')
    with (tmp_path / "out.jsonl").open("wb") as out:
        assert "%" not in run_with_terminal_stderr([str(small)], out)
