"""The engine and the replay parser under fuzzing: arbitrary JSON values, arbitrary action
strings, arbitrary bytes, through games.lines.verify_line and games.replay. The answer is
always a verdict (rules section 8), never an exception; the number of examples run is
printed at the end of the session ("reliability: examples run").
"""

import json
import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from leaderboard_fixtures.reliability import TALLY
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/reliability/)

from games import ACTIONS, Game, ReplayResult, format_code, parse_code, replay
from games.deal import InvalidCode
from games.lines import verify_line
from tests.games.helpers import examples

pytestmark = pytest.mark.reliability

# -- strategies ---------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=10,
)

NEAR_MISSES = [
    "",
    " ",
    "s ",
    " s",
    "S",
    "U",
    "s\n",
    "s\x00",
    "\x00",
    "ｓ",
    "１>２",
    "1>２",
    "w>٣",
    "w>²",
    "1>1",
    "01>2",
    "1>02",
    "1>2:0",
    "1>2:1",
    "1>2:13",
    "1>2:14",
    "1>2:01",
    "1>2:-1",
    "1>2:",
    ":3",
    "f0>1",
    "f9>1",
    "f1>0",
    "f1>f",
    "w>0",
    "w>10",
    "10>1",
    "1>10",
    "w>w",
    "f>1",
    "w>f ",
    "1 >2",
    "1>>2",
    "1>2>3",
    "s,u",
    "null",
    "true",
]
action_texts = st.one_of(
    st.sampled_from(sorted(ACTIONS)),
    st.sampled_from(NEAR_MISSES),
    st.from_regex(r"[suwf0-9>:]{0,7}", fullmatch=True),
    st.text(max_size=8),
)
actions_lists = st.lists(st.one_of(action_texts, action_texts, json_values), max_size=40)

deal_numbers = st.integers(1, 999_999)
valid_codes = st.builds(format_code, deal_numbers, st.sampled_from("ND"))
deal_values = st.one_of(
    valid_codes,
    valid_codes.map(str.lower),
    valid_codes.map(lambda c: c + " "),
    st.sampled_from(
        [
            "EH1-N-AAAAAAA",
            "EH1-N-ZZZZZZZ",
            "EH2-N-AAAAAAF",
            "EH1-X-AAAAAAF",
            "EH1-N-AAAAAF",
            "EH1--AAAAAAF",
            "EH1-N-AAAAAAF-",
            "EH1-N-ÄAAAAAF",
            "EH1-N-AAAAAA٣",
            "",
        ]
    ),
    st.text(max_size=16),
    json_values,
)


@st.composite
def game_objects(draw) -> dict:
    game = {}
    if draw(st.integers(0, 9)):
        game["deal"] = draw(deal_values)
    if draw(st.integers(0, 9)):
        game["actions"] = draw(st.one_of(actions_lists, actions_lists, json_values))
    game.update(draw(st.dictionaries(st.text(max_size=6), json_values, max_size=2)))  # other keys are ignored
    return game


@st.composite
def deep_games(draw) -> dict:
    """A legal walk of up to 50 actions drawn from legal_actions(), then an arbitrary tail:
    reaches the states (runs, foundations, an emptied stock) where the rules have edges."""
    number = draw(deal_numbers)
    game, log = Game.new(number), []
    for _ in range(draw(st.integers(0, 50))):
        legal = game.legal_actions()
        text = legal[draw(st.integers(0, len(legal) - 1))]
        game.play(ACTIONS[text])
        log.append(text)
    return {"deal": format_code(number, draw(st.sampled_from("ND"))), "actions": log + draw(actions_lists)}


lines = st.one_of(
    game_objects().map(json.dumps),
    json_values.map(json.dumps),
    game_objects().map(json.dumps).flatmap(lambda text: st.integers(0, len(text)).map(lambda cut: text[:cut])),
    st.text(max_size=60),
    st.binary(max_size=60),
)

# -- what a verdict must look like ------------------------------------------------------------


def expected_not_a_game(line) -> bool:
    """Section 8's list of lines that are not a game (their index is null)."""
    try:
        game = json.loads(line)
    except (ValueError, RecursionError):
        return True
    if not isinstance(game, dict) or "deal" not in game or "actions" not in game:
        return True
    try:
        parse_code(game["deal"])
    except InvalidCode:
        return True
    return not isinstance(game["actions"], list)


def check_verdict(result, actions) -> None:
    assert isinstance(result, ReplayResult)
    wire = result.to_wire()
    json.dumps(wire, allow_nan=False)  # the verdict is a JSON line
    if result.ok:
        assert set(wire) == {"ok", "won", "score", "moves", "foundation"}
        assert 0 <= result.foundation <= 104 and result.won == (result.foundation == 104)
        assert 0 <= result.moves <= len(actions) and result.score >= 0
    else:
        assert set(wire) == {"ok", "index", "error"}
        assert isinstance(result.error, str) and result.error
        if result.index is not None:
            assert isinstance(actions, list) and 0 <= result.index < len(actions)


# -- the properties -----------------------------------------------------------------------------


@examples(1200)
@given(lines)
@example("[" * 100_000)
@example('{"deal": "EH1-N-AAAAAAF", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}")
@example(b"\xff\xfe{")
@example('{"deal": "EH1-N-AAAAAAF", "actions": ["s", NaN, Infinity]}')
@example('{"deal": "EH1-N-AAAAAAF", "actions": ["s"], "deal": 5}')
def test_verify_line_always_answers_a_verdict(line):
    TALLY["engine fuzz: verify_line lines"] += 1
    result = verify_line(line)
    try:
        game = json.loads(line)
        actions = game.get("actions") if isinstance(game, dict) else None
    except (ValueError, RecursionError):
        actions = None
    check_verdict(result, actions)
    assert (result.ok is False and result.index is None) == expected_not_a_game(line), (line, result)


@examples(600)
@given(deal_values, st.one_of(actions_lists, json_values))
def test_replay_of_any_values_answers_a_verdict(code, actions):
    TALLY["engine fuzz: replay(code, actions)"] += 1
    result = replay(code, actions)
    check_verdict(result, actions)


@examples(150)
@given(deep_games())
def test_a_bad_action_is_named_at_its_index_and_everything_before_it_stands(game):
    TALLY["engine fuzz: deep games"] += 1
    result = replay(game["deal"], game["actions"])
    check_verdict(result, game["actions"])
    if not result.ok:
        assert result.index is not None
        before = replay(game["deal"], game["actions"][: result.index])
        assert before.ok, (result, before)
        alone = replay(game["deal"], game["actions"][: result.index + 1])
        assert (alone.ok, alone.index, alone.error) == (False, result.index, result.error)


def test_non_finite_numbers_and_huge_logs_are_clean_verdicts():
    assert replay("EH1-N-AAAAAAF", [math.nan]).index == 0
    assert replay("EH1-N-AAAAAAF", ["s"] * 200_000).ok
    assert verify_line(json.dumps({"deal": "EH1-N-AAAAAAF", "actions": ["s", "u"] * 50_000})).ok
