"""Section 3 (dealing) and section 4 (deal codes) of the EH1 rules."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import Game, InvalidCode, deal, format_code, parse_code
from games.cards import card_name
from games.deal import DealCode
from tests.games.helpers import FULL_PACK, all_cards, examples, play
from tests.games.reference import reference_deal

# The check-value table of section 3, copied from the rules (columns bottom to top).
CHECK_VALUES = [
    (1, "EH1-N-AAAAAAB", "AS 3C TH 9D 3S 5S 9S KH AH", "2S QC 3D JC 6S 9C 6C 4H AH", "3S QD 2H 9H QD", "3C"),
    (5, "EH1-N-AAAAAAF", "KC AD 7C TC 2S 6S 2D AS AD", "TH 5H QD 6C QS TC KD 5D AD", "KH 7S 4C QD 4D", "3S"),
    (999999, "EH1-N-AACEXHN", "JC 2C JH 6C TH 3C JC 9S 4H", "3C KS 9H TD QH 5S 8H 4C 4H", "6C 7C 7D AC 6D", "3S"),
]


def names(cards) -> list[str]:
    return [card_name(c) for c in cards]


# -- the check values ------------------------------------------------------------------


@pytest.mark.parametrize("number, code, tops, column9, first5, last", CHECK_VALUES)
def test_check_values(number, code, tops, column9, first5, last):
    layout = deal(number)
    assert format_code(number) == code
    assert parse_code(code) == DealCode("N", number)
    assert [card_name(col[-1]) for col in layout.columns] == tops.split()
    assert names(layout.columns[8]) == column9.split()
    assert names(layout.stock[:5]) == first5.split()
    assert card_name(layout.stock[-1]) == last


@pytest.mark.parametrize("number, code, tops, column9, first5, last", CHECK_VALUES)
def test_check_values_through_a_game(number, code, tops, column9, first5, last):
    """A new Game shows the same table: tops face up, stock drawn in the listed order."""
    game = Game.new(parse_code(code).number)
    snap = game.snapshot()
    assert [col[-1] for col in snap["columns"]] == tops.split()
    assert snap["columns"][8] == column9.split()
    assert snap["stock"][:5] == first5.split() and snap["stock"][-1] == last
    drawn = []
    for _ in range(5):
        play(game, "s")
        drawn.append(game.snapshot()["waste"][-1])
    assert drawn == first5.split()


def test_unshuffled_deck_order_matches_rules():
    """Index 0 is AS, 12 KS, 13 AH, 51 KC, 52 AS again: checked on the reference deck."""
    deck = [r + s for _ in (1, 2) for s in "SHDC" for r in "A23456789TJQK"]
    assert (deck[0], deck[12], deck[13], deck[51], deck[52]) == ("AS", "KS", "AH", "KC", "AS")


@pytest.mark.parametrize("number", [1, 2, 3, 5, 26, 1000, 31337, 524287, 999998, 999999])
def test_deal_matches_an_independent_dealer(number):
    columns, stock = reference_deal(number)
    layout = deal(number)
    assert [names(col) for col in layout.columns] == columns
    assert names(layout.stock) == stock


@given(st.integers(1, 999_999))
@examples(40)
def test_any_deal_matches_an_independent_dealer(number):
    columns, stock = reference_deal(number)
    layout = deal(number)
    assert [names(col) for col in layout.columns] == columns
    assert names(layout.stock) == stock


# -- shape of every deal ---------------------------------------------------------------


@given(st.integers(1, 999_999))
@examples(60)
def test_every_card_exactly_twice_and_the_shape(number):
    layout = deal(number)
    assert layout.number == number
    assert len(layout.columns) == 9
    assert [len(col) for col in layout.columns] == list(range(1, 10))
    assert len(layout.stock) == 59
    every = Counter(names(c for col in layout.columns for c in col)) + Counter(names(layout.stock))
    assert every == FULL_PACK


@pytest.mark.parametrize("number", [1, 5, 999999])
def test_new_game_has_n_minus_one_face_down(number):
    game = Game.new(number)
    snap = game.snapshot()
    assert snap["down"] == list(range(9))
    assert sum(snap["down"]) == 36
    assert [len(col) for col in snap["columns"]] == list(range(1, 10))
    assert len(snap["stock"]) == 59 and snap["waste"] == []
    assert snap["foundations"] == [None] * 8
    assert (snap["score"], snap["moves"], snap["undo_depth"], snap["won"]) == (0, 0, 0, False)
    assert all_cards(game) == FULL_PACK


def test_same_number_same_layout_forever():
    assert deal(424242) == deal(424242)
    assert deal(424242) != deal(424243)


@pytest.mark.parametrize("number", [0, -1, 1_000_000, 10**9])
def test_deal_numbers_outside_range_refused(number):
    with pytest.raises(InvalidCode, match="1..999,999"):
        deal(number)
    with pytest.raises(InvalidCode):
        Game.new(number)
    with pytest.raises(InvalidCode):
        format_code(number)


@pytest.mark.parametrize("number", ["5", 5.0, None])
def test_deal_number_must_be_an_int(number):
    with pytest.raises(InvalidCode):
        deal(number)


# -- deal codes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number, letters",
    [
        (1, "AAAAAAB"),
        (5, "AAAAAAF"),
        (25, "AAAAAAZ"),
        (26, "AAAAABA"),  # 1*26 + 0
        (27, "AAAAABB"),
        (675, "AAAAAZZ"),  # 25*26 + 25
        (676, "AAAABAA"),  # 26**2
        (17576, "AAABAAA"),  # 26**3
        (456976, "AABAAAA"),  # 26**4
        (999999, "AACEXHN"),  # 2*26**4 + 4*26**3 + 23*26**2 + 7*26 + 13
    ],
)
@pytest.mark.parametrize("mode", ["N", "D"])
def test_format_and_parse_code(number, letters, mode):
    code = f"EH1-{mode}-{letters}"
    assert format_code(number, mode) == code
    parsed = parse_code(code)
    assert (parsed.mode, parsed.number) == (mode, number)
    assert str(parsed) == code


def test_format_code_default_mode_is_numbered():
    assert format_code(5) == "EH1-N-AAAAAAF"


def test_layout_depends_on_number_alone():
    n, d = parse_code("EH1-N-AAAAAAF"), parse_code("EH1-D-AAAAAAF")
    assert n.mode != d.mode and n.number == d.number == 5
    assert deal(n.number) == deal(d.number)


def _base26(number: int) -> str:
    out = ""
    for _ in range(7):
        number, digit = divmod(number, 26)
        out = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[digit] + out
    return out


@given(st.integers(1, 999_999), st.sampled_from("ND"))
@examples(100)
def test_code_round_trip(number, mode):
    code = format_code(number, mode)
    assert code == f"EH1-{mode}-{_base26(number)}"
    assert parse_code(code) == DealCode(mode, number)


# Every kind of bad code, with a word its message must contain.
BAD_CODES = [
    ("EH2-N-AAAAAAB", "version"),
    ("EH0-N-AAAAAAB", "version"),
    ("eh1-N-AAAAAAB", "version"),
    ("EH1-N-AAAAAB", "7"),  # six letters
    ("EH1-N-AAAAAAAB", "7"),  # eight letters
    ("EH1-N-", "7"),
    ("EH1-N-aaaaaab", "upper-case"),
    ("EH1-N-AAAAAAb", "upper-case"),
    ("eh1-n-aaaaaab", "version"),
    ("EH1-N-AAAAAA1", "letters"),
    ("EH1-N-1234567", "letters"),
    ("EH1-N-AAAAAAÄ", "letters"),
    ("EH1-N-AAAAAA ", "letters"),
    ("EH1-X-AAAAAAB", "mode"),
    ("EH1-n-AAAAAAB", "mode"),
    ("EH1-d-AAAAAAB", "mode"),
    ("EH1-ND-AAAAAAB", "mode"),
    ("EH1--AAAAAAB", "mode"),
    ("EH1-N-AAAAAAA", "outside"),  # number 0
    ("EH1-D-AAAAAAA", "outside"),
    ("EH1-N-AACEXHO", "outside"),  # 1,000,000
    ("EH1-N-ZZZZZZZ", "outside"),
    ("EH1-N-AAAAAAB-X", "EH1-<mode>"),
    ("EH1NAAAAAAB", "EH1-<mode>"),
    ("EH1_N_AAAAAAB", "EH1-<mode>"),
    (" EH1-N-AAAAAAB", "version"),
    ("EH1-N-AAAAAAB ", "letters"),
    ("EH1-N-AAAAAAB\n", "letters"),
    ("", "EH1-<mode>"),
]


@pytest.mark.parametrize("code, word", BAD_CODES)
def test_bad_codes_refused_with_a_clear_message(code, word):
    with pytest.raises(InvalidCode) as info:
        parse_code(code)
    message = str(info.value)
    assert word in message
    assert repr(code) in message, "the message names the code it refuses"


@pytest.mark.parametrize("code", [None, 5, 5.0, b"EH1-N-AAAAAAB", ["EH1-N-AAAAAAB"], {"code": "EH1-N-AAAAAAB"}, True])
def test_non_string_codes_refused(code):
    with pytest.raises(InvalidCode, match="string"):
        parse_code(code)


def test_invalid_code_is_a_value_error():
    assert issubclass(InvalidCode, ValueError)


@pytest.mark.parametrize("mode", ["X", "n", "", "ND", None])
def test_format_code_refuses_other_modes(mode):
    with pytest.raises(InvalidCode, match="mode"):
        format_code(5, mode)


def test_upper_casing_what_a_person_types_gives_a_valid_code():
    """Section 4: a client may upper-case the input; the engine itself does not."""
    typed = "eh1-d-aaaaaaf"
    with pytest.raises(InvalidCode):
        parse_code(typed)
    assert parse_code(typed.upper()) == DealCode("D", 5)
