"""Section 5: every rule, with the moves it allows and the moves it refuses.

Positions are built by hand (see helpers.make_game); expected tables are written out.
"""

import pytest

from games import ACTIONS, Game
from games.replay import replay_onto
from tests.games.helpers import make_game, play, refused

KING_RUN = "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS".split()
RANK_OF = {r: i + 1 for i, r in enumerate("A23456789TJQK")}


def snap(game, *fields):
    s = game.snapshot()
    return tuple(s[f] for f in fields) if len(fields) > 1 else s[fields[0]]


# -- column building -------------------------------------------------------------------

COLUMN_BUILDING = [
    ("7H", "8S", True),
    ("7H", "8C", True),
    ("7D", "8S", True),
    ("7D", "8C", True),
    ("7S", "8H", True),
    ("7C", "8D", True),
    ("AS", "2H", True),
    ("AD", "2C", True),
    ("QS", "KH", True),
    ("QH", "KC", True),
    ("7H", "8H", False),
    ("7H", "8D", False),
    ("7S", "8S", False),
    ("7S", "8C", False),
    ("7C", "8S", False),
    ("7D", "8H", False),
    ("7H", "9S", False),
    ("7H", "7S", False),
    ("7H", "6S", False),
    ("8S", "7H", False),
    ("KH", "AS", False),
    ("AS", "KH", False),
    ("QS", "KS", False),
    ("2H", "AS", False),
]


def _foundation_holding(name: str) -> dict:
    """Foundations with ``name`` on top of the first foundation of its suit."""
    first = {"S": 1, "H": 3, "D": 5, "C": 7}[name[1]]
    return {first: RANK_OF[name[0]]}


@pytest.mark.parametrize("moving, target, ok", COLUMN_BUILDING)
@pytest.mark.parametrize("source", ["waste", "column", "foundation"])
def test_column_building(moving, target, ok, source):
    if source == "waste":
        game, text = make_game(["", target], waste=[moving]), "w>2"
    elif source == "column":
        game, text = make_game([moving, target]), "1>2"
    else:
        found = _foundation_holding(moving)
        ((f, _),) = found.items()
        game, text = make_game(["", target], foundations=found), f"f{f}>2"
    if ok:
        play(game, text)
        assert snap(game, "columns")[1] == [target, moving]
    else:
        reason = refused(game, text)
        assert "opposite colour" in reason and moving in reason and target in reason


def test_a_black_six_has_four_homes():
    columns = ["7H", "7D", "7H", "7D", "7S", "7C", "8H", "6H", "5D"]
    for six in ("6S", "6C"):
        game = make_game(columns, waste=[six])
        waste_moves = {a for a in game.legal_actions() if a.startswith("w>")}
        assert waste_moves == {"w>1", "w>2", "w>3", "w>4"}
    red_six = make_game(columns, waste=["6H"])
    assert {a for a in red_six.legal_actions() if a.startswith("w>")} == {"w>5", "w>6"}


# -- one card at a time ----------------------------------------------------------------


def test_only_the_top_card_moves_between_columns():
    game = make_game(["9D 8S 7H", "9H", "8C"])
    reason = refused(game, "1>2:2")  # 8S-7H would fit on 9H as a run: refused
    assert "run cannot move as a whole" in reason
    refused(game, "1>2")  # 7H alone does not fit on 9H
    play(game, "1>3")  # 7H onto 8C: only the top card moves
    assert snap(game, "columns")[:3] == [["9D", "8S"], ["9H"], ["8C", "7H"]]
    play(game, "1>2")  # then 8S onto 9H
    assert snap(game, "columns")[:3] == [["9D"], ["9H", "8S"], ["8C", "7H"]]


@pytest.mark.parametrize("k", range(2, 14))
def test_no_run_moves_onto_a_non_empty_column(k):
    game = make_game([["4D"] + KING_RUN[:k], "AS", "2H"], down=[1])
    assert "run cannot move as a whole" in refused(game, f"1>2:{k}")
    assert "run cannot move as a whole" in refused(game, f"1>3:{k}")


# -- empty columns and King-led runs ---------------------------------------------------


@pytest.mark.parametrize("name", ["AS", "5H", "QS", "QD", "JC", "2D"])
def test_empty_column_refuses_anything_but_a_king(name):
    from_waste = make_game(["3C"], waste=[name])
    assert "only a King" in refused(from_waste, "w>2")
    from_column = make_game(["3C", "", name])
    assert "only a King" in refused(from_column, "3>2")
    found = _foundation_holding(name)
    ((f, _),) = found.items()
    from_foundation = make_game(["3C"], foundations=found)
    assert "only a King" in refused(from_foundation, f"f{f}>2")


@pytest.mark.parametrize("king", ["KS", "KH", "KD", "KC"])
def test_empty_column_takes_a_king(king):
    game = make_game(["3C"], waste=[king])
    play(game, "w>5")
    assert snap(game, "columns")[4] == [king]
    game = make_game(["5C " + king], down=[1])
    play(game, "1>9")
    assert snap(game, "columns", "down") == ([["5C"]] + [[]] * 7 + [[king]], [0] * 9)
    found = _foundation_holding(king)
    ((f, _),) = found.items()
    game = make_game(foundations=found)
    play(game, f"f{f}>1")
    assert snap(game, "columns")[0] == [king]


@pytest.mark.parametrize("k", range(2, 14))
def test_king_led_run_moves_whole_onto_an_empty_column(k):
    run = KING_RUN[:k]
    game = make_game([["4D", "9C"] + run], down=[2])
    play(game, f"1>2:{k}")
    columns, down, score = snap(game, "columns", "down", "score")
    assert columns[1] == run
    assert columns[0] == ["4D", "9C"]
    assert down[0] == 1 and score == 5  # 9C turned up as part of the move


@pytest.mark.parametrize("k", range(2, 13))
def test_king_led_run_must_be_all_face_up(k):
    run = KING_RUN[:k]
    game = make_game([["4D"] + run], down=[2])  # the King itself is face down
    assert "face-up" in refused(game, f"1>2:{k}")
    game = make_game([["4D"] + run], down=[1])
    assert "face-up" in refused(game, f"1>2:{k + 1}")  # one card too many


def test_a_whole_column_that_is_a_king_run_may_move_to_another_empty_column():
    game = make_game(["KS QH JC"])
    play(game, "1>2:3")
    assert snap(game, "columns")[:2] == [[], ["KS", "QH", "JC"]]
    assert snap(game, "score") == 0


@pytest.mark.parametrize(
    "column, k, word",
    [
        ("KS QH JC", 2, "not a King"),  # QH-JC is alternating but not King-led
        ("QH JC TD", 3, "not a King"),
        ("KS QC", 2, "not a run"),  # same colour
        ("KS QS JH", 3, "not a run"),
        ("KS JH", 2, "not a run"),  # skips a rank
        ("KS KH", 2, "not a run"),
        ("KS QH JC TC", 4, "not a run"),  # breaks at the top
        ("KS QH JC TD", 5, "face-up"),  # more cards than the column has
        ("KS", 2, "face-up"),
    ],
)
def test_runs_that_may_not_move(column, k, word):
    game = make_game([column])
    assert word in refused(game, f"1>2:{k}")


def test_run_from_an_empty_column_refused():
    game = make_game(["", "KS QH"])
    assert "empty" in refused(game, "1>3:2")


@pytest.mark.parametrize(
    "position, text",
    [
        (dict(columns=["5C KH", ""], down=[1]), "1>2"),  # King onto an empty column
        (dict(columns=["5C 7H", "8S"], down=[1]), "1>2"),  # card onto a card
        (dict(columns=["KS", "", "KD"]), "1>2"),  # a lone King
    ],
)
def test_n_to_m_colon_1_equals_n_to_m(position, text):
    a, b = make_game(**position), make_game(**position)
    play(a, text)
    play(b, text + ":1")
    assert a.snapshot() == b.snapshot()
    assert a.legal_actions() == b.legal_actions()


def test_n_to_m_colon_1_refused_like_n_to_m():
    game = make_game(["KS QH JC", "", "9D"])
    assert refused(game, "1>3:1") == refused(game, "1>3")
    assert refused(game, "1>2:1") == refused(game, "1>2")


# -- waste -----------------------------------------------------------------------------


def test_waste_top_only_plays_in_order():
    game = make_game(["3C", "KS"], waste=["AS", "2H", "QH"])
    refused(game, "w>f")  # QH on top: no foundation takes it
    refused(game, "w>1")  # QH onto 3C: no
    play(game, "w>2")  # QH onto KS
    play(game, "w>1")  # now 2H is on top: onto 3C
    play(game, "w>f")  # now AS: to foundation 1
    assert snap(game, "columns")[:2] == [["3C", "2H"], ["KS", "QH"]]
    assert snap(game, "waste") == []
    assert snap(game, "foundations")[0] == "AS"


def test_empty_waste_plays_nothing():
    game = make_game(["KS", ""], stock=["AS"])
    for text in ["w>f"] + [f"w>{n}" for n in range(1, 10)]:
        assert "waste is empty" in refused(game, text)


# -- foundations -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "ace, first, second",
    [
        ("AS", 0, 1),
        ("AH", 2, 3),
        ("AD", 4, 5),
        ("AC", 6, 7),
    ],
)
def test_duplicate_aces_fill_their_suits_foundations_in_order(ace, first, second):
    game = make_game([ace], waste=[ace])
    play(game, "w>f")
    tops = [None] * 8
    tops[first] = ace
    assert snap(game, "foundations") == tops
    play(game, "1>f")
    tops[second] = ace
    assert snap(game, "foundations") == tops


def test_foundation_first_accepting_in_order():
    # Both spade foundations on 3: 4S goes to foundation 1.
    game = make_game(waste=["4S"], foundations={1: 3, 2: 3})
    play(game, "w>f")
    assert game.foundations[:2] == [4, 3]
    # Foundation 1 on 5, foundation 2 on 3: 4S goes to 2, 6S to 1.
    game = make_game(["6S"], waste=["4S"], foundations={1: 5, 2: 3})
    play(game, "w>f", "1>f")
    assert game.foundations[:2] == [6, 4]
    # Foundation 3 emptied by a take-back, 4 holds AH: an AH goes to 3, a 2H to 4.
    game = make_game(["2H", "AH"], foundations={4: 1})
    play(game, "2>f")
    assert game.foundations[2:4] == [1, 1]
    game = make_game(["2H"], foundations={4: 1})
    play(game, "1>f")
    assert game.foundations[2:4] == [0, 2]


@pytest.mark.parametrize(
    "name, foundations",
    [
        ("2S", {}),  # no Ace yet
        ("3S", {1: 1, 2: 1}),  # needs a 2
        ("2S", {3: 1, 4: 1}),  # hearts do not take spades
        ("AS", {1: 1, 2: 1}),  # both spade foundations started
        ("KH", {3: 11, 4: 13}),
        ("5D", {1: 4, 2: 4, 3: 4, 4: 4, 7: 4, 8: 4}),
    ],
)
def test_foundation_refuses(name, foundations):
    game = make_game([name], waste=[name], foundations=foundations)
    assert "No foundation takes" in refused(game, "w>f")
    assert "No foundation takes" in refused(game, "1>f")


def test_column_to_foundation_from_an_empty_column_refused():
    game = make_game(["", "AS"])
    assert "empty" in refused(game, "1>f")


# -- take back -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target, ok",
    [
        ("6S", True),
        ("6C", True),
        ("6H", False),
        ("6D", False),
        ("7C", False),
        ("4S", False),
        ("", False),
    ],
)
def test_take_back_by_column_rules(target, ok):
    game = make_game([target], foundations={3: 5, 4: 5})
    if ok:
        play(game, "f4>1")
        assert snap(game, "columns")[0] == [target, "5H"]
        assert game.foundations[2:4] == [5, 4]  # from foundation 4, as named
        assert snap(game, "score") == 0 and game.take_backs == 1
    else:
        refused(game, "f4>1")


def test_take_back_a_king_to_an_empty_column_and_return_it():
    game = make_game(["5C"], foundations={7: 13, 8: 13})
    play(game, "f8>2")
    assert snap(game, "columns")[1] == ["KC"] and game.foundations[6:] == [13, 12]
    play(game, "2>f")  # returns to the first that accepts: 8
    assert game.foundations[6:] == [13, 13]
    assert snap(game, "score") == 10  # +10 again; the take-back cost nothing


def test_take_back_from_an_empty_foundation_refused():
    game = make_game(["6S", ""], foundations={4: 5})
    assert "Foundation 3 is empty" in refused(game, "f3>1")
    play(game, "f4>1")


def test_take_back_does_not_flip():
    game = make_game(["9D 6S"], down=[1], foundations={3: 5})
    play(game, "f3>1")
    assert snap(game, "down")[0] == 1


# -- stock -----------------------------------------------------------------------------

DEAL1_STOCK_FIRST5 = "3S QD 2H 9H QD".split()


def test_a_tap_draws_one():
    game = Game.new(1)
    play(game, "s")
    assert snap(game, "waste") == ["3S"]
    assert len(snap(game, "stock")) == 58
    play(game, "s")
    assert snap(game, "waste") == ["3S", "QD"]


def test_tap_on_empty_stock_turns_the_waste_over_same_order_unlimited_passes():
    game = Game.new(1)
    order = game.snapshot()["stock"]
    assert order[:5] == DEAL1_STOCK_FIRST5 and order[-1] == "3C"
    for passes in range(1, 4):
        for _ in range(59):
            play(game, "s")
        assert snap(game, "waste") == order and snap(game, "stock") == []
        assert snap(game, "waste")[-1] == "3C"
        play(game, "s")  # turn the waste over
        assert snap(game, "stock") == order and snap(game, "waste") == []
        assert game.stock_passes == passes
        play(game, "s")
        assert snap(game, "waste") == ["3S"]  # drawn again in the same order
        play(game, "u")
    assert snap(game, "score") == 0
    assert snap(game, "moves") == 3 * 61


def test_tap_with_one_waste_card_and_empty_stock_recycles_it():
    game = make_game(waste=["9H"])
    play(game, "s")
    assert snap(game, "stock", "waste") == (["9H"], [])
    play(game, "s")
    assert snap(game, "stock", "waste") == ([], ["9H"])


def test_tap_with_stock_and_waste_both_empty_illegal():
    game = make_game(["KS"])
    assert "both empty" in refused(game, "s")


# -- flip ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position, text",
    [
        (dict(columns=["9D AS"], down=[1]), "1>f"),
        (dict(columns=["9D 7H", "8C"], down=[1]), "1>2"),
        (dict(columns=["9D KH", ""], down=[1]), "1>2"),
        (dict(columns=["9D KH QS", ""], down=[1]), "1>2:2"),
    ],
)
def test_a_move_that_exposes_a_face_down_card_turns_it_up(position, text):
    game = make_game(**position)
    play(game, text)
    assert snap(game, "down")[0] == 0
    assert snap(game, "columns")[0] == ["9D"]


def test_flip_only_the_card_left_on_top():
    # 4C and 9D face down, 8S and 7H face up.
    g = make_game(["4C 9D 8S 7H", "8C", "9H"], down=[2])
    play(g, "1>2")
    assert snap(g, "down")[0] == 2  # 8S is face up already: no flip
    play(g, "1>3")
    assert snap(g, "down")[0] == 1  # 9D turned up, 4C stays down
    assert snap(g, "score") == 5


def test_emptying_a_column_flips_nothing():
    game = make_game(["AS", "9D 5C"], down=[0, 1])
    play(game, "1>f")
    assert snap(game, "down") == [0, 1] + [0] * 7
    assert snap(game, "score") == 10


# -- winning ---------------------------------------------------------------------------


def _one_card_from_winning(where: str):
    """Every card on the foundations except the second KC, which is on ``where``."""
    ranks = [13] * 7 + [12]
    if where == "waste":
        return make_game(waste=["KC"], foundations=ranks)
    return make_game(["", "", "KC"], foundations=ranks)


@pytest.mark.parametrize("where, text", [("waste", "w>f"), ("column", "3>f")])
def test_win_and_nothing_after_it(where, text):
    game = _one_card_from_winning(where)
    assert not game.won and not snap(game, "won")
    play(game, text)
    assert game.won and snap(game, "won")
    assert game.foundations == [13] * 8
    assert game.legal_actions() == []
    for action in ACTIONS:
        assert "won" in refused(game, action)
    assert "won" in refused(game, "u")  # not even undo


def test_the_kings_go_to_the_first_accepting_foundation_at_the_end():
    game = make_game(waste=["KC"], foundations=[13] * 6 + [12, 13])
    play(game, "w>f")
    assert game.won and game.foundations[6] == 13


@pytest.mark.parametrize("after", ["u", "s", "w>f", "f1>1", "1>2"])
def test_an_action_after_the_win_is_invalid_at_its_index(after):
    game = _one_card_from_winning("waste")
    result = replay_onto(game, ["w>f", after, "s"])
    assert (result.ok, result.index) == (False, 1)
    assert "won" in result.error


def test_the_win_itself_is_valid():
    game = _one_card_from_winning("column")
    result = replay_onto(game, ["3>f"])
    assert result.ok and result.won and result.foundation == 104


def test_not_won_with_103_cards_on_foundations():
    game = make_game(["KC"], foundations=[13] * 7 + [12])
    assert game.on_foundations == 103 and not game.won
    assert game.legal_actions()  # the game goes on
