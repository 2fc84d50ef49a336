"""The compact encoding of move logs and action times (games/compact.py, docs/compact-logs.md).

Round trips over random legal play, random strings of the action table and random
non-decreasing times; every action of the notation; garbage refused with a clear error; and the
code table frozen by fixed encodings, so that a reordering fails here before it corrupts
stored logs.
"""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import ACTIONS, Game, compact, replay
from games.compact import CODES, CompactError, decode_log, decode_times, encode_log, encode_times
from tests.games.helpers import examples
from tests.games.test_legal_actions import choose

WON_GAMES = Path(__file__).resolve().parents[1] / "data" / "won_games.jsonl"


# -- the code table ------------------------------------------------------------------------


def test_every_action_of_the_notation_has_one_code():
    assert len(CODES) == len(set(CODES)) == len(ACTIONS) == 1101
    assert set(CODES) == set(ACTIONS)


@pytest.mark.parametrize("text", sorted(ACTIONS))
def test_every_action_encodes_and_decodes(text):
    assert decode_log(encode_log([text])) == [text]


#: Frozen: stored logs depend on these bytes. A failure here means the table was reordered.
FIXED = [
    (["s"], "0100"),
    (["u"], "0101"),
    (["w>f"], "0102"),
    (["w>1"], "0103"),
    (["w>9"], "010b"),
    (["1>f"], "010c"),
    (["9>f"], "0114"),
    (["1>2"], "0115"),
    (["1>9"], "011c"),
    (["2>1"], "011d"),
    (["9>8"], "015c"),
    (["1>2:1"], "015d"),
    (["1>2:13"], "0169"),
    (["2>1:5"], "01c901"),
    (["9>8:13"], "018408"),
    (["f1>1"], "018508"),
    (["f8>9"], "01cc08"),
    (["s", "w>3", "3>f", "u", "5>4:2", "f2>7"], "0100050e01a5049408"),
]


@pytest.mark.parametrize(("actions", "hex_bytes"), FIXED, ids=lambda value: str(value))
def test_fixed_encodings(actions, hex_bytes):
    assert encode_log(actions).hex() == hex_bytes
    assert decode_log(bytes.fromhex(hex_bytes)) == actions


def test_the_table_follows_its_documented_formulas():
    pairs = [(n, m) for n in range(1, 10) for m in range(1, 10) if m != n]
    assert CODES[:3] == ("s", "u", "w>f")
    for n in range(1, 10):
        assert CODES[2 + n] == f"w>{n}" and CODES[11 + n] == f"{n}>f"
    for pair, (n, m) in enumerate(pairs):
        assert CODES[21 + 8 * (n - 1) + (m - 1 if m < n else m - 2)] == f"{n}>{m}"
        for k in range(1, 14):
            assert CODES[93 + 13 * pair + k - 1] == f"{n}>{m}:{k}"
    for k in range(1, 9):
        for n in range(1, 10):
            assert CODES[1029 + 9 * (k - 1) + n - 1] == f"f{k}>{n}"


def test_single_card_actions_take_one_byte_and_the_rest_two():
    one_byte = [text for text in CODES if len(encode_log([text])) == 2]
    assert one_byte[:93] == [text for text in CODES if ":" not in text and not text.startswith("f")]
    assert all(len(encode_log([text])) <= 3 for text in CODES)


# -- round trips ---------------------------------------------------------------------------


def _random_play(number: int, steps: int, seed: int) -> list[str]:
    """A legal log of up to ``steps`` actions from deal ``number`` (undos and take-backs included)."""
    rng = random.Random(seed)
    game, log = Game.new(number), []
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        text = choose(legal, rng.random(), rng.choice)
        game.play(ACTIONS[text])
        log.append(text)
    return log


@examples(40, shrink=False)
@given(number=st.integers(1, 999_999), steps=st.integers(0, 400), seed=st.integers(0, 2**32))
def test_round_trip_of_random_legal_play(number, steps, seed):
    log = _random_play(number, steps, seed)
    data = encode_log(log)
    assert decode_log(data) == log
    assert len(data) <= 1 + 2 * len(log)


@examples(300)
@given(st.lists(st.sampled_from(CODES), max_size=300))
def test_round_trip_of_random_strings_of_the_table(log):
    assert decode_log(encode_log(log)) == log
    assert decode_log(memoryview(encode_log(log))) == log


@examples(300)
@given(st.lists(st.integers(0, 2**40), max_size=300), st.integers(0, 10**7))
def test_round_trip_of_random_non_decreasing_times(gaps, first):
    times, total = [], first
    for gap in gaps:
        times.append(total)
        total += gap
    data = encode_times(times)
    assert decode_times(data) == times
    assert decode_times(bytearray(data)) == times


@examples(100)
@given(st.lists(st.integers(0, compact.MAX_VALUE), max_size=20).map(sorted))
def test_round_trip_of_times_up_to_the_largest(times):
    assert decode_times(encode_times(times)) == times


def test_won_games_round_trip_at_about_a_byte_an_action():
    games = [json.loads(line) for line in WON_GAMES.read_text().splitlines()]
    for game in games:
        data = encode_log(game["actions"])
        assert decode_log(data) == game["actions"]
        assert replay(game["deal"], decode_log(data)).won
        assert len(data) < 1.05 * len(game["actions"]) + 1


def test_times_of_a_person_take_about_two_bytes_each():
    times = [1500 * i for i in range(660)]
    data = encode_times(times)
    assert data[0] == compact.TIMES_VERSION and len(data) == 1 + 1 + 659 * 2
    assert encode_times([]) == bytes([compact.TIMES_VERSION]) and decode_times(encode_times([])) == []
    assert encode_times([0, 0, 127, 255]).hex() == "0100007f8001"  # gaps 0, 0, 127, 128


def test_equal_logs_are_equal_bytes():
    assert encode_log(["1>2:1"]) != encode_log(["1>2"])  # different texts: the log hash differs too
    assert encode_log(("s", "u")) == encode_log(["s", "u"])


# -- what cannot be encoded ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("log", "message"),
    [
        (["s", "w>0"], "action 1 has no code: 'w>0'"),
        (["s", 7], "action 1 has no code: 7"),
        (["s", ["u"]], "action 1 has no code: ['u']"),
        ("su", "a log is a list of action texts, not str"),
        (None, "not NoneType"),
    ],
)
def test_a_log_outside_the_notation_is_refused(log, message):
    with pytest.raises(CompactError, match=message.replace("[", r"\[").replace("]", r"\]")):
        encode_log(log)


@pytest.mark.parametrize(
    ("times", "message"),
    [
        ([0, 5, 3], r"time 2 \(3\) is earlier than the one before \(5\)"),
        ([-1], r"time 0 \(-1\) is negative"),
        ([1, True], "time 1 is not a whole number of milliseconds: True"),
        ([1, 2.0], "time 1 is not a whole number"),
        ([2**63], "beyond"),
        ({"0": 1}, "not dict"),
    ],
)
def test_times_that_cannot_be_written_are_refused(times, message):
    with pytest.raises(CompactError, match=message):
        encode_times(times)


# -- garbage -------------------------------------------------------------------------------


@pytest.mark.parametrize("decode", [decode_log, decode_times])
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty, not even a version byte"),
        (b"\x02\x00", "version 2, but this decoder reads version 1"),
        (b"\x00", "version 0"),
        (b"\x01\x00\x80", "truncated varint at byte 2"),
        (b"\x01\x05\x85\x80", "truncated varint at byte 2"),
        (b"\x01\x80\x00", "varint at byte 1 ends in a needless zero byte"),
        (b"\x01\x00" + b"\xff" * 9 + b"\x01", "varint at byte 2 is longer than 9 bytes"),
        ("01", "are bytes, not str"),
    ],
)
def test_garbage_is_refused(decode, data, message):
    with pytest.raises(CompactError, match=message):
        decode(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x01\xcd\x08", r"unknown action code 1101 \(action 0, byte 1\): codes end at 1100"),
        (b"\x01\x00\x00\xd0\x0f", r"unknown action code 2000 \(action 2, byte 3\)"),
    ],
)
def test_an_unknown_action_code_is_refused(data, message):
    with pytest.raises(CompactError, match=message):
        decode_log(data)


@examples(300)
@given(st.binary(max_size=40))
def test_any_bytes_decode_to_a_canonical_value_or_a_clear_error(data):
    for decode, encode in ((decode_log, encode_log), (decode_times, encode_times)):
        try:
            value = decode(data)
        except CompactError:
            continue
        assert encode(value) == data  # one encoding per value: decoding accepts only that one
