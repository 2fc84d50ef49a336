"""Section 7: the action notation, well-formed and malformed."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import ACTIONS, Action, Game, MalformedAction, format_action, parse_action, replay
from games.actions import COL_COL, COL_F, FOUND_COL, STOCK, UNDO, WASTE_COL, WASTE_F
from tests.games.helpers import examples
from tests.games.reference import every_action_text, parse

CODE = "EH1-N-AAAAAAB"


def test_the_notation_is_exactly_the_rules_table():
    """Every text of section 7's table parses, and nothing else is in ACTIONS."""
    assert set(ACTIONS) == every_action_text()
    assert len(ACTIONS) == 3 + 9 + 9 + 72 + 72 * 13 + 72


@pytest.mark.parametrize(
    "text, parsed",
    [
        ("s", (STOCK, 0, 0, 1)),
        ("u", (UNDO, 0, 0, 1)),
        ("w>f", (WASTE_F, 0, 0, 1)),
        ("w>1", (WASTE_COL, 0, 0, 1)),
        ("w>9", (WASTE_COL, 0, 8, 1)),
        ("1>f", (COL_F, 0, 0, 1)),
        ("9>f", (COL_F, 8, 0, 1)),
        ("1>2", (COL_COL, 0, 1, 1)),
        ("9>1", (COL_COL, 8, 0, 1)),
        ("3>7:13", (COL_COL, 2, 6, 13)),
        ("3>7:2", (COL_COL, 2, 6, 2)),
        ("f1>9", (FOUND_COL, 0, 8, 1)),
        ("f8>1", (FOUND_COL, 7, 0, 1)),
    ],
)
def test_parse_well_formed(text, parsed):
    assert parse_action(text) == parsed


def test_n_to_m_colon_1_means_n_to_m():
    for n in range(1, 10):
        for m in range(1, 10):
            if n != m:
                assert parse_action(f"{n}>{m}:1") == parse_action(f"{n}>{m}")


def test_format_action_round_trip():
    for text, action in ACTIONS.items():
        alias = re.fullmatch(r"([1-9]>[1-9]):1", text)
        assert format_action(action) == (alias.group(1) if alias else text)
        assert parse_action(format_action(action)) == action


def test_an_action_is_written_as_its_notation():
    """``str`` of an action is its text (``N>M`` for ``N>M:1``), as format_action writes it,
    also for a plain tuple of the same four ints."""
    for action in ACTIONS.values():
        assert str(action) == format_action(action) == format_action(tuple(action))
        assert ACTIONS[str(action)] == action
    assert str(ACTIONS["3>7:13"]) == "3>7:13" and str(ACTIONS["3>7:1"]) == "3>7"
    assert f"{ACTIONS['f8>1']}" == "f8>1"


def test_an_action_is_still_a_tuple():
    """Named fields on top of a plain 4-tuple: equal to and hashed like the tuple, unpacked
    like it, and the engine takes either."""
    action = ACTIONS["3>7:2"]
    assert isinstance(action, tuple) and len(action) == 4
    assert (action.kind, action.source, action.target, action.cards) == (COL_COL, 2, 6, 2)
    assert action == (COL_COL, 2, 6, 2) and hash(action) == hash((COL_COL, 2, 6, 2))
    kind, source, target, cards = action
    assert (kind, source, target, cards) == tuple(action)
    assert {action: 1}[(COL_COL, 2, 6, 2)] == 1
    assert Action(STOCK) == ACTIONS["s"] and Action(WASTE_COL, target=8) == ACTIONS["w>9"]
    plain, named = Game.new(1), Game.new(1)
    for text in ("s", "s", "9>f", "u", "s"):
        plain.play(tuple(ACTIONS[text]))
        named.play(ACTIONS[text])
    assert plain.snapshot() == named.snapshot()
    assert plain.refusal((COL_COL, 0, 1, 2)) == named.refusal(ACTIONS["1>2:2"])


# The malformed forms named in the brief, and a word their reason must contain.
MALFORMED = [
    ("10>1", "expected"),
    ("0>1", "expected"),
    ("w>0", "expected"),
    ("w>10", "expected"),
    ("f9>1", "expected"),
    ("f0>1", "expected"),
    ("f1>0", "expected"),
    ("f1>f", "expected"),
    ("1>1", "own column"),
    ("9>9", "own column"),
    ("1>1:3", "own column"),
    (" s", "expected"),
    ("s ", "expected"),
    ("s\n", "expected"),
    ("S", "expected"),
    ("U", "expected"),
    ("W>f", "expected"),
    ("w>F", "expected"),
    ("1>F", "expected"),
    ("F1>2", "expected"),
    ("01>2", "expected"),
    ("1>02", "expected"),
    ("f01>2", "expected"),
    ("1>2:0", "1 to 13"),
    ("1>2:14", "1 to 13"),
    ("1>2:99", "1 to 13"),
    ("1>2:02", "leading zeros"),
    ("1>2:", "expected"),
    ("1>2:-1", "expected"),
    ("1 > 2", "expected"),
    ("1>2 ", "expected"),
    ("u2", "expected"),
    ("uu", "expected"),
    ("ss", "expected"),
    ("w", "expected"),
    ("w>", "expected"),
    ("1>", "expected"),
    (">1", "expected"),
    ("w>f:2", "expected"),
    ("1>f:2", "expected"),
    ("f1>2:2", "expected"),
    ("1-2", "expected"),
    ("", "expected"),
]


@pytest.mark.parametrize("text, word", MALFORMED)
def test_malformed_text(text, word):
    assert parse(text) is None, "the independent grammar agrees it is not an action"
    with pytest.raises(MalformedAction) as info:
        parse_action(text)
    assert word in str(info.value)
    assert repr(text) in str(info.value)


NON_STRINGS = [1, 0, 12, None, ["s"], [], {"a": "s"}, {}, True, False, 1.5, b"s", ("s",)]


@pytest.mark.parametrize("value", NON_STRINGS, ids=repr)
def test_non_string_actions_malformed(value):
    with pytest.raises(MalformedAction) as info:
        parse_action(value)
    assert "must be a string" in str(info.value)
    assert type(value).__name__ in str(info.value)


@pytest.mark.parametrize("text, word", MALFORMED)
@pytest.mark.parametrize("position", [0, 3])
def test_malformed_text_in_a_log_at_its_own_index(text, word, position):
    good = ["s", "s", "u"][:position]
    result = replay(CODE, good + [text, "s"])
    assert not result.ok
    assert result.index == position
    assert word in result.error and repr(text) in result.error


@pytest.mark.parametrize("value", NON_STRINGS, ids=repr)
@pytest.mark.parametrize("position", [0, 2])
def test_non_string_in_a_log_at_its_own_index(value, position):
    good = ["s", "1>f"][:position]
    result = replay(CODE, good + [value])
    assert not result.ok
    assert result.index == position
    assert "must be a string" in result.error


def test_malformed_after_good_actions_reports_its_index():
    # deal 1: 1>f (AS), 9>f (AH), 7>3 (9S on TH) are legal, then a malformed action.
    result = replay(CODE, ["s", "1>f", "9>f", "7>3", "u", "1>2:02", "s"])
    assert (result.ok, result.index) == (False, 5)


def test_first_malformed_wins_over_later_illegal_and_vice_versa():
    assert replay(CODE, ["s", "S", "w>9:2"]).index == 1
    illegal_first = replay(CODE, ["s", "2>f", "S"])  # 3C is not playable to a foundation
    assert illegal_first.index == 1 and "malformed" not in illegal_first.error


@given(st.text(alphabet="swuf>:0123456789 SFW-", max_size=7))
@examples(200)
def test_parser_agrees_with_an_independent_grammar(text):
    expected = parse(text)
    if expected is None:
        with pytest.raises(MalformedAction):
            parse_action(text)
    else:
        assert text in ACTIONS
        parse_action(text)
