"""Sections 7 and 8: replaying a log, its result, and line-level verification."""

import json

import pytest

from games import ReplayResult, replay
from games.lines import verify_line

CODE1 = "EH1-N-AAAAAAB"
# Deal 1 opening (see test_scoring_and_undo): 1>f +10, 9>f +15, 7>3 +5, s, u, s.
OPENING = ["1>f", "9>f", "7>3", "s", "u", "s"]


def test_replay_result_fields_of_a_valid_log():
    result = replay(CODE1, OPENING)
    assert result == ReplayResult(
        ok=True,
        won=False,
        score=30,
        moves=5,
        foundation=2,
        undos=1,
        take_backs=0,
        stock_passes=0,
        waste_to_column=0,
        index=None,
        error="",
    )


def test_replay_counts_passes():
    log = ["1>f"] + ["s"] * 59 + ["s", "s"]  # a whole pass, the turn-over, a draw
    result = replay(CODE1, log)
    assert result.ok and result.stock_passes == 1 and result.moves == 62
    assert result.score == 10 and result.foundation == 1


def test_replay_counts_take_backs_and_waste_to_column():
    # Deal 5: tops KC AD 7C TC 2S 6S 2D AS AD, stock KH 7S 4C QD 4D.
    log = [
        "9>f",  # AD to foundation 5, 5D turns up: +15
        "2>f",  # AD to foundation 6, a card turns up: +15
        "f6>5",  # AD back onto 2S: 0
        "s",
        "s",
        "s",
        "s",
        "w>1",
    ]  # QD onto KC: +5
    result = replay("EH1-N-AAAAAAF", log)
    assert result == ReplayResult(
        ok=True,
        won=False,
        score=35,
        moves=8,
        foundation=1,
        undos=0,
        take_backs=1,
        stock_passes=0,
        waste_to_column=1,
    )
    undone = replay("EH1-N-AAAAAAF", log + ["u", "u"])
    assert (undone.score, undone.moves, undone.undos) == (30, 8, 2)
    assert undone.waste_to_column == 0 and undone.take_backs == 1


def test_empty_log_is_valid():
    result = replay(CODE1, [])
    assert result.to_wire() == {"ok": True, "won": False, "score": 0, "moves": 0, "foundation": 0}


def test_deal_of_the_day_code_replays_the_same_layout():
    assert replay("EH1-D-AAAAAAB", OPENING).to_wire() == replay(CODE1, OPENING).to_wire()


def test_to_wire_of_a_valid_log():
    wire = replay(CODE1, OPENING).to_wire()
    assert wire == {"ok": True, "won": False, "score": 30, "moves": 5, "foundation": 2}
    assert list(wire) == ["ok", "won", "score", "moves", "foundation"]
    assert json.loads(json.dumps(wire)) == wire


def test_to_wire_of_an_invalid_log():
    wire = replay(CODE1, ["1>f", "1>f"]).to_wire()
    assert set(wire) == {"ok", "index", "error"}
    assert wire["ok"] is False and wire["index"] == 1
    assert wire["error"].startswith("1>f: ") and "empty" in wire["error"]
    assert json.loads(json.dumps(wire)) == wire


@pytest.mark.parametrize(
    "log, index",
    [
        (["2>f"], 0),  # 3C: no foundation
        (["u"], 0),  # nothing to undo
        (["w>f"], 0),  # empty waste
        (["1>f", "1>f"], 1),  # column 1 now empty
        (["s", "u", "u"], 2),
        (["1>f", "9>f", "7>3", "s", "2>1"], 4),  # 3C onto the empty column 1
        (["1>f", "9>f", "7>3", "s", "8>1", "8>1"], 5),
    ],
)
def test_illegal_action_reports_its_index_and_rule(log, index):
    result = replay(CODE1, log + ["s"])
    assert not result.ok and result.index == index
    assert result.error.startswith(f"{log[index]}: ")
    assert (result.score, result.moves, result.foundation) == (0, 0, 0)


def test_error_names_the_rule():
    assert "only a King" in replay(CODE1, ["1>f", "2>1"]).error
    assert "Nothing to undo" in replay(CODE1, ["u"]).error
    assert "opposite colour" in replay(CODE1, ["2>3"]).error


@pytest.mark.parametrize("code", [None, 1, "EH2-N-AAAAAAB", "EH1-N-AAAAAAA", "eh1-n-aaaaaab", ""])
def test_invalid_code_is_not_a_game(code):
    result = replay(code, ["s"])
    assert not result.ok and result.index is None and result.error


@pytest.mark.parametrize("actions", ["s", None, {"0": "s"}, ("s",), 5, "[]"])
def test_actions_not_a_list_is_not_a_game(actions):
    result = replay(CODE1, actions)
    assert not result.ok and result.index is None
    assert "list" in result.error


# -- verify_line -----------------------------------------------------------------------


def line(obj) -> str:
    return json.dumps(obj)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "{",
        "nonsense",
        "[1, 2",
        "{'deal': 'EH1-N-AAAAAAB', 'actions': []}",
        '{"deal": "EH1-N-AAAAAAB", "actions": []} x',
        b"\xff\xfe\x00",
        "[" * 100_000,
    ],
)
def test_line_not_json(text):
    result = verify_line(text)
    assert result.to_wire() == {"ok": False, "index": None, "error": "the line is not JSON"}


@pytest.mark.parametrize("text", ["[]", "1", '"s"', "null", "true", '[{"deal": "EH1-N-AAAAAAB", "actions": []}]'])
def test_line_not_an_object(text):
    result = verify_line(text)
    assert result.ok is False and result.index is None and "object" in result.error


@pytest.mark.parametrize(
    "obj, key",
    [
        ({"actions": []}, "deal"),
        ({"deal": CODE1}, "actions"),
        ({}, "deal"),
        ({"Deal": CODE1, "Actions": []}, "deal"),
    ],
)
def test_line_missing_deal_or_actions(obj, key):
    result = verify_line(line(obj))
    assert result.ok is False and result.index is None and repr(key) in result.error


@pytest.mark.parametrize("deal", [None, 5, "EH2-N-AAAAAAB", "EH1-N-AAAAAAA", "EH1-X-AAAAAAB", [CODE1]])
def test_line_invalid_code(deal):
    result = verify_line(line({"deal": deal, "actions": []}))
    assert result.ok is False and result.index is None and result.error


@pytest.mark.parametrize("actions", ["s", None, {}, 5, True])
def test_line_actions_not_a_list(actions):
    result = verify_line(line({"deal": CODE1, "actions": actions}))
    assert result.ok is False and result.index is None and "list" in result.error


def test_line_extra_keys_ignored():
    plain = verify_line(line({"deal": CODE1, "actions": OPENING}))
    extra = verify_line(
        line({"score": 99999, "deal": CODE1, "won": True, "actions": OPENING, "player": "ann", "moves": 1})
    )
    assert extra == plain
    assert extra.to_wire() == {"ok": True, "won": False, "score": 30, "moves": 5, "foundation": 2}


def test_line_as_bytes_with_newline():
    raw = (line({"deal": CODE1, "actions": OPENING}) + "\r\n").encode()
    assert verify_line(raw).to_wire()["score"] == 30


@pytest.mark.parametrize("bad, index", [(5, 2), (None, 0), (["s"], 1), ({"a": 1}, 3), (True, 2)])
def test_line_non_string_action_at_its_index(bad, index):
    actions = ["s", "s", "s", "s"]
    actions.insert(index, bad)
    result = verify_line(line({"deal": CODE1, "actions": actions}))
    assert result.ok is False and result.index == index and "string" in result.error


def test_line_illegal_action_at_its_index():
    result = verify_line(line({"deal": CODE1, "actions": ["1>f", "9>f", "u", "u", "u"]}))
    assert (result.ok, result.index) == (False, 4)
