"""Section 8: ``manage.py deal`` and ``manage.py replay``.

These commands need no database: the in-process tests carry no ``django_db`` mark, so
pytest-django would fail them on any query, and the subprocess tests run manage.py with
the local, service-free settings (empty DATABASE_URL and REDIS_URL).
"""

import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import replay

ROOT = Path(__file__).resolve().parents[2]
WON_GAMES = ROOT / "tests" / "data" / "won_games.jsonl"

DEAL1_COLUMNS = [
    ["AS"],
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    ["2S", "QC", "3D", "JC", "6S", "9C", "6C", "4H", "AH"],
]
DEAL1_TOPS = "AS 3C TH 9D 3S 5S 9S KH AH".split()


def deal_json(code: str) -> dict:
    out = io.StringIO()
    call_command("deal", code, stdout=out)
    text = out.getvalue()
    assert text.count("\n") <= 1, "one line of JSON"
    return json.loads(text)


def test_deal_command_shape():
    layout = deal_json("EH1-N-AAAAAAB")
    assert list(layout) == ["code", "number", "columns", "stock"]
    assert layout["code"] == "EH1-N-AAAAAAB" and layout["number"] == 1
    assert [len(col) for col in layout["columns"]] == list(range(1, 10))
    assert [col[-1] for col in layout["columns"]] == DEAL1_TOPS
    assert layout["columns"][0] == ["AS"]
    assert layout["columns"][8] == DEAL1_COLUMNS[8]
    assert len(layout["stock"]) == 59
    assert layout["stock"][:5] == "3S QD 2H 9H QD".split() and layout["stock"][-1] == "3C"


@pytest.mark.parametrize(
    "code, number, tops, column9, first5, last",
    [
        ("EH1-D-AAAAAAF", 5, "KC AD 7C TC 2S 6S 2D AS AD", "TH 5H QD 6C QS TC KD 5D AD", "KH 7S 4C QD 4D", "3S"),
        ("EH1-N-AACEXHN", 999999, "JC 2C JH 6C TH 3C JC 9S 4H", "3C KS 9H TD QH 5S 8H 4C 4H", "6C 7C 7D AC 6D", "3S"),
    ],
)
def test_deal_command_check_values(code, number, tops, column9, first5, last):
    layout = deal_json(code)
    assert layout["code"] == code and layout["number"] == number
    assert [col[-1] for col in layout["columns"]] == tops.split()
    assert layout["columns"][8] == column9.split()
    assert layout["stock"][:5] == first5.split() and layout["stock"][-1] == last


@pytest.mark.parametrize("code", ["EH2-N-AAAAAAB", "EH1-N-AAAAAAA", "eh1-n-aaaaaab", "5"])
def test_deal_command_refuses_invalid_codes(code):
    with pytest.raises(CommandError) as info:
        call_command("deal", code, stdout=io.StringIO())
    assert code in str(info.value)


# -- replay ----------------------------------------------------------------------------

OPENING = ["1>f", "9>f", "7>3", "s", "u", "s"]
LINES = [
    (
        json.dumps({"deal": "EH1-N-AAAAAAB", "actions": OPENING}),
        {"ok": True, "won": False, "score": 30, "moves": 5, "foundation": 2},
    ),
    ("not json", {"ok": False, "index": None, "error": "the line is not JSON"}),
    (json.dumps({"deal": "EH1-N-AAAAAAB", "actions": ["1>f", "1>f"]}), {"ok": False, "index": 1}),
    (json.dumps([1, 2]), {"ok": False, "index": None}),
    (json.dumps({"deal": "EH2-N-AAAAAAB", "actions": []}), {"ok": False, "index": None}),
    (
        json.dumps(
            {"deal": "EH1-D-AAAAAAF", "actions": ["9>f", "2>f", "f6>5", "s", "s", "s", "s", "w>1"], "extra": "ignored"}
        ),
        {"ok": True, "won": False, "score": 35, "moves": 8, "foundation": 1},
    ),
    (json.dumps({"deal": "EH1-N-AAAAAAB", "actions": ["s", 7]}), {"ok": False, "index": 1}),
    (json.dumps({"deal": "EH1-N-AAAAAAB", "actions": "s"}), {"ok": False, "index": None}),
    (json.dumps({"actions": []}), {"ok": False, "index": None}),
]


def check_answers(output: str, expected: list[dict]):
    answers = [json.loads(text) for text in output.splitlines()]
    assert len(answers) == len(expected)
    for answer, want in zip(answers, expected, strict=True):
        if want["ok"]:
            assert answer == want
        else:
            assert set(answer) == {"ok", "index", "error"}
            assert {k: answer[k] for k in want} == want
            assert isinstance(answer["error"], str) and answer["error"]


@pytest.fixture
def log_file(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(text + "\n" for text, _ in LINES))
    return path


def test_replay_command_answers_every_line_in_order(log_file, capsys):
    call_command("replay", str(log_file))
    out = capsys.readouterr().out
    check_answers(out, [want for _, want in LINES])


def test_replay_command_last_line_without_newline(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(LINES[0][0] + "\n" + LINES[2][0])
    call_command("replay", str(path))
    check_answers(capsys.readouterr().out, [LINES[0][1], LINES[2][1]])


def test_replay_command_answers_blank_lines_as_not_a_game(tmp_path, capsys):
    """Every line gets its answer, so answers pair with lines by position; a blank line is not JSON."""
    path = tmp_path / "games.jsonl"
    path.write_text("\n" + LINES[0][0] + "\n   \n" + LINES[1][0] + "\n")
    call_command("replay", str(path))
    not_a_game = {"ok": False, "index": None, "error": "the line is not JSON"}
    check_answers(capsys.readouterr().out, [not_a_game, LINES[0][1], not_a_game, LINES[1][1]])


def test_replay_command_reads_standard_input(monkeypatch, capsys):
    data = "".join(text + "\n" for text, _ in LINES).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    call_command("replay", "-")
    check_answers(capsys.readouterr().out, [want for _, want in LINES])


def test_replay_command_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(tmp_path / "nope.jsonl"))


# -- replay --archive: a month's archive (manage.py archive_month) checked offline ------------


def archive(tmp_path, lines: list[dict]) -> Path:
    path = tmp_path / "easyharp-2026-09.jsonl.gz"
    with gzip.open(path, "wt") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)
    return path


def archived_lines() -> list[dict]:
    """A won game, a refused log and an attempt never submitted, with their recorded results."""
    won = json.loads(WON_GAMES.read_text().splitlines()[0])
    result = replay(won["deal"], won["actions"]).to_dict()
    recorded = {
        name: result[name]
        for name in (
            "ok",
            "won",
            "score",
            "moves",
            "foundation",
            "undos",
            "take_backs",
            "stock_passes",
            "waste_to_column",
        )
    }
    return [
        {"deal": won["deal"], "actions": won["actions"], "result": recorded, "submission": {"id": 1}},
        {"deal": won["deal"], "actions": ["w>f"], "result": {"ok": False, "index": 0}, "submission": {"id": 2}},
        {"deal": won["deal"], "submission": None},
    ]


def test_replay_archive_checks_every_game_against_its_result(tmp_path, capsys):
    call_command("replay", "--archive", str(archive(tmp_path, archived_lines())))
    assert "3 lines, 2 games replayed, 0 mismatches" in capsys.readouterr().out


def test_replay_archive_fails_on_a_result_the_log_does_not_give(tmp_path, capsys):
    lines = archived_lines()
    lines[0]["result"]["score"] += 5
    lines[1]["result"]["index"] = 1
    with pytest.raises(CommandError, match="2 games differ"):
        call_command("replay", "--archive", str(archive(tmp_path, lines)))
    out = capsys.readouterr().out
    assert "line 1 (submission 1): score" in out and "line 2 (submission 2): index" in out


def test_replay_archive_refuses_a_file_that_is_not_gzip(tmp_path):
    path = tmp_path / "broken.jsonl.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", "--archive", str(path))


# -- the real command line -------------------------------------------------------------


def manage(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL="", REDIS_URL="")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, input=stdin, capture_output=True, env=env, timeout=60
    )


def test_manage_py_replay_from_stdin_exits_0():
    """The real command line (reading a file is the same code path, tested in process)."""
    data = "".join(text + "\n" for text, _ in LINES).encode()
    proc = manage("replay", "-", stdin=data)
    assert proc.returncode == 0, proc.stderr.decode()
    check_answers(proc.stdout.decode(), [want for _, want in LINES])
