"""Reason codes and the message catalogue (games/refusals.py).

Every rule that refuses something names itself with a code; its words come from one
template per code. The table below states each code once, in a position that triggers it,
with the exact words players and the API have always read (copied from the messages the
engine wrote before the catalogue existed).
"""

import json
import pickle
import re
from string import Formatter

import pytest

from games import (
    ACTIONS,
    MESSAGES,
    Game,
    IllegalAction,
    InvalidCode,
    MalformedAction,
    Refusal,
    Refused,
    ReplayResult,
    format_code,
    malformed_refusal,
    parse_action,
    parse_code,
    render,
    replay,
)
from games.deal import _LETTERS, MAX_DEAL, MIN_DEAL, RULES_VERSION
from games.refusals import SUIT_NAMES
from tests.games.helpers import make_game, play

CODE = "EH1-N-AAAAAAB"  # deal 1: tops AS 3C TH 9D 3S 5S 9S KH AH


def _refusal_of(game: Game, text: str) -> Refusal:
    return game.refusal_code(ACTIONS[text])


def _undo_limit() -> Refusal:
    game = play(Game.new(1), *["s"] * 101, *["u"] * 100)
    return _refusal_of(game, "u")


def _error_of(call, *args) -> Refusal:
    with pytest.raises(Refused) as info:
        call(*args)
    return info.value.refusal


#: (how to get the refusal, code, args, the words).
CASES = [
    (
        lambda: _refusal_of(make_game(foundations=[13] * 8), "s"),
        "game_won",
        {},
        "The game is won: nothing may follow the winning action.",
    ),
    (
        lambda: _refusal_of(make_game(["KS"]), "s"),
        "stock_empty",
        {},
        "The stock and the waste are both empty: there is nothing to turn.",
    ),
    (lambda: _refusal_of(Game.new(1), "u"), "nothing_to_undo", {}, "Nothing to undo."),
    (_undo_limit, "undo_limit", {"limit": 100}, "Nothing left to undo: undo goes back at most 100 actions."),
    (lambda: _refusal_of(Game.new(1), "w>1"), "waste_empty", {}, "The waste is empty."),
    (lambda: _refusal_of(Game.new(1), "f3>4"), "foundation_empty", {"foundation": 3}, "Foundation 3 is empty."),
    (lambda: _refusal_of(make_game(["KS"]), "2>1"), "column_empty", {"column": 2}, "Column 2 is empty."),
    (
        lambda: _refusal_of(Game.new(1), "2>f"),
        "foundation_refuses",
        {"card": "3C", "suit": "C", "first": 7, "second": 8},
        "No foundation takes 3C: the clubs foundations (7 and 8) take only the next card of their suit, Ace first.",
    ),
    (
        lambda: _refusal_of(Game.new(1), "2>3"),
        "column_refuses",
        {"card": "3C", "target": "TH"},
        "3C cannot go on TH: a column takes a card of the opposite colour, exactly one rank lower.",
    ),
    (
        lambda: _refusal_of(make_game(["QS"]), "1>2"),
        "empty_column_king_only",
        {"card": "QS"},
        "An empty column takes only a King, not QS.",
    ),
    (
        lambda: _refusal_of(Game.new(1), "9>8:2"),
        "run_needs_empty_column",
        {},
        "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column.",
    ),
    (
        lambda: _refusal_of(make_game([["KH", "QS"]], down=[1]), "1>2:2"),
        "run_too_few_face_up",
        {"column": 1, "count": 2},
        "Column 1 has fewer than 2 face-up cards.",
    ),
    (
        lambda: _refusal_of(make_game([["KH", "QS", "JD"]]), "1>2:2"),
        "run_not_king_led",
        {"card": "QS"},
        "Only a King-led run moves as a whole: QS is not a King.",
    ),
    (
        lambda: _refusal_of(make_game([["KH", "QS", "JS"]]), "1>2:3"),
        "not_a_run",
        {"count": 3, "column": 1, "card": "JS", "below": "QS"},
        "The top 3 cards of column 1 are not a run: JS does not follow QS in alternating colour, one rank lower.",
    ),
    (
        lambda: malformed_refusal(None),
        "action_not_string",
        {"type": "NoneType"},
        "an action must be a string, not NoneType",
    ),
    (
        lambda: malformed_refusal("4>4:2"),
        "action_self_move",
        {"action": "4>4:2"},
        "malformed action '4>4:2': a card cannot move onto its own column",
    ),
    (
        lambda: malformed_refusal("1>2:014"),
        "action_bad_run",
        {"action": "1>2:014"},
        "malformed action '1>2:014': a run is 1 to 13 cards, written without leading zeros",
    ),
    (
        lambda: malformed_refusal("it's"),
        "action_malformed",
        {"action": "it's"},
        'malformed action "it\'s": expected s, u, w>f, w>N, N>f, N>M, N>M:K or fK>N '
        "(columns 1-9, foundations 1-8, no spaces)",
    ),
    (lambda: replay(CODE, {"0": "s"}).refusal, "actions_not_list", {}, "actions must be a list of action strings"),
    (
        lambda: _error_of(parse_code, 5),
        "deal_code_not_string",
        {},
        "a deal code must be a string such as EH1-N-AAAAAAF",
    ),
    (
        lambda: _error_of(parse_code, "EH1-NAAAAAAF"),
        "deal_code_shape",
        {"deal": "EH1-NAAAAAAF"},
        "'EH1-NAAAAAAF' is not a deal code: expected EH1-<mode>-<7 letters>, e.g. EH1-N-AAAAAAF",
    ),
    (
        lambda: _error_of(parse_code, "EH2-N-AAAAAAF"),
        "deal_code_version",
        {"deal": "EH2-N-AAAAAAF", "version": "EH2"},
        "'EH2-N-AAAAAAF': unknown rules version 'EH2', only EH1 is played here",
    ),
    (
        lambda: _error_of(parse_code, "EH1-n-AAAAAAF"),
        "deal_code_mode",
        {"deal": "EH1-n-AAAAAAF", "mode": "n"},
        "'EH1-n-AAAAAAF': unknown mode 'n', use N (numbered deal) or D (deal of the day)",
    ),
    (
        lambda: _error_of(parse_code, "EH1-N-AAAAAAf"),
        "deal_code_letters",
        {"deal": "EH1-N-AAAAAAf"},
        "'EH1-N-AAAAAAf': the deal part must be exactly 7 upper-case letters A-Z",
    ),
    (
        lambda: _error_of(parse_code, "EH1-N-ZZZZZZZ"),
        "deal_code_range",
        {"deal": "EH1-N-ZZZZZZZ", "number": 26**7 - 1},
        "'EH1-N-ZZZZZZZ' names deal 8,031,810,175, outside 1..999,999",
    ),
    (
        lambda: _error_of(format_code, 5, None),
        "deal_mode_unknown",
        {"mode": None},
        "unknown mode None: use N (numbered deal) or D (deal of the day)",
    ),
    (
        lambda: _error_of(format_code, "5"),
        "deal_number_range",
        {"number": "5"},
        "deal number '5' is outside 1..999,999",
    ),
]


@pytest.mark.parametrize("get, code, args, words", CASES, ids=[case[1] for case in CASES])
def test_each_rule_names_its_code_and_keeps_its_words(get, code, args, words):
    refusal = get()
    assert refusal == Refusal(code, args)
    assert str(refusal) == render(refusal) == words
    json.dumps(refusal.args)  # plain JSON, as the vectors carry them


def test_the_table_covers_every_code_of_the_catalogue():
    assert sorted(case[1] for case in CASES) == sorted(MESSAGES)


def test_codes_are_short_snake_case():
    for code in MESSAGES:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code) and len(code) <= 24, code


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_templates_use_only_the_fields_the_browser_renders(code):
    """{name}, {name!r} and {name:,} only, and no literal braces: messages.js renders these."""
    for literal, name, spec, conversion in Formatter().parse(MESSAGES[code]):
        assert "{" not in literal and "}" not in literal
        if name is not None:
            assert re.fullmatch(r"[a-z]+", name), name
            assert (spec, conversion) in (("", None), ("", "r"), (",", None)), (name, spec, conversion)


def test_the_deal_templates_state_the_rules_constants():
    assert f"{MIN_DEAL}..{MAX_DEAL:,}" in MESSAGES["deal_number_range"]
    assert f"{MIN_DEAL}..{MAX_DEAL:,}" in MESSAGES["deal_code_range"]
    assert f"exactly {_LETTERS} upper-case" in MESSAGES["deal_code_letters"]
    assert f"only {RULES_VERSION} is played" in MESSAGES["deal_code_version"]


def test_render_translates_the_template_and_the_suit_name():
    catalogue = {MESSAGES["foundation_refuses"]: "{card}: {suit} ({first}/{second})", SUIT_NAMES["H"]: "coeur"}
    refusal = Refusal("foundation_refuses", {"card": "2H", "suit": "H", "first": 3, "second": 4})
    assert render(refusal, lambda text: catalogue.get(text, text)) == "2H: coeur (3/4)"
    assert render(refusal) == (
        "No foundation takes 2H: the hearts foundations (3 and 4) take only the next card of their suit, Ace first."
    )


@pytest.mark.parametrize(
    "raise_it, kind",
    [
        (lambda: Game.new(1).play(ACTIONS["w>f"]), IllegalAction),
        (lambda: parse_action("1>1"), MalformedAction),
        (lambda: parse_code("EH1"), InvalidCode),
    ],
)
def test_errors_carry_their_refusal(raise_it, kind):
    with pytest.raises(kind) as info:
        raise_it()
    error = info.value
    assert isinstance(error, ValueError) and isinstance(error, Refused)
    assert str(error) == render(error.refusal) and error.code == error.refusal.code
    assert error.args == (str(error),)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is kind and again.refusal == error.refusal and str(again) == str(error)


def test_a_failed_replay_keeps_the_refusal_out_of_its_dicts():
    bad = replay(CODE, ["s", "w>9"])
    assert bad.refusal == Refusal("column_refuses", {"card": "3S", "target": "AH"})
    assert bad.error == "w>9: " + render(bad.refusal)
    assert "refusal" not in bad.to_dict() and "refusal" not in bad.to_wire()
    assert bad == ReplayResult(ok=False, index=1, error=bad.error)
    assert replay(CODE, ["s", "s "]).refusal == Refusal("action_malformed", {"action": "s "})
    assert replay("EH1", []).refusal.code == "deal_code_shape"
    assert replay(CODE, ["s"]).refusal is None
