"""Section 6 (score and move counter) and the undo rule of section 5."""

import pytest

from games import HISTORY_LIMIT, Game
from tests.games.helpers import make_game, play, refused

# One case per scoring row (and the zero rows): position, action, points, the counters
# that must change.
SCORING = [
    pytest.param(dict(columns=["AS"]), "1>f", 10, id="column to foundation"),
    pytest.param(dict(waste=["AH"]), "w>f", 10, id="waste to foundation"),
    pytest.param(dict(columns=["8C"], waste=["7H"]), "w>1", 5, id="waste to column"),
    pytest.param(dict(columns=["3C"], waste=["KD"]), "w>5", 5, id="waste King to empty column"),
    pytest.param(dict(columns=["9D AS"], down=[1]), "1>f", 15, id="column to foundation + flip"),
    pytest.param(dict(columns=["9D 7H", "8C"], down=[1]), "1>2", 5, id="column to column + flip"),
    pytest.param(dict(columns=["9D KH QS"], down=[1]), "1>2:2", 5, id="King run + flip"),
    pytest.param(dict(columns=["7H", "8C"]), "1>2", 0, id="column to column"),
    pytest.param(dict(columns=["9D 8S 7H", "8C"], down=[1]), "1>2", 0, id="column to column, top already up"),
    pytest.param(dict(columns=["KH QS"]), "1>2:2", 0, id="King run"),
    pytest.param(dict(columns=["6S"], foundations={3: 5}), "f3>1", 0, id="take back"),
    pytest.param(
        dict(columns=["", "9D 6S"], down=[0, 1], foundations={3: 5}),
        "f3>2",
        0,
        id="take back onto a column with face-down cards",
    ),
    pytest.param(dict(waste=["9H", "3C"]), "s", 0, id="waste turned over"),
    pytest.param(dict(stock=["9H", "3C"]), "s", 0, id="draw"),
]


@pytest.mark.parametrize("position, text, points", SCORING)
def test_scoring_row(position, text, points):
    game = make_game(**position)
    game.score = 40  # points add to whatever stands
    play(game, text)
    assert game.snapshot()["score"] == 40 + points
    assert game.snapshot()["moves"] == 1


@pytest.mark.parametrize("position, text, points", SCORING)
def test_undo_removes_the_points_and_keeps_the_move(position, text, points):
    game = make_game(**position)
    before = game.snapshot()
    play(game, text)
    play(game, "u")
    after = game.snapshot()
    assert after["moves"] == 1
    assert after == dict(before, moves=1)


def test_score_starts_at_zero():
    for number in (1, 5, 999999):
        assert Game.new(number).snapshot()["score"] == 0


def test_a_real_opening_scores_by_the_rows():
    game = Game.new(1)
    play(game, "1>f")  # AS to foundation 1, column 1 empties: +10
    assert game.snapshot()["score"] == 10
    play(game, "9>f")  # AH to foundation 3, 4H turns up: +10 +5
    assert game.snapshot()["score"] == 25
    play(game, "7>3")  # 9S onto TH, a face-down card turns up: +5
    assert game.snapshot()["score"] == 30
    play(game, "s")  # 3S drawn
    play(game, "u", "u")
    assert game.snapshot()["score"] == 25
    assert game.snapshot()["moves"] == 4


def test_take_back_and_return_forever():
    game = make_game(["6S"], foundations={3: 5})
    for cycle in range(1, 31):
        play(game, "f3>1", "1>f")
        assert game.snapshot()["score"] == 10 * cycle
    assert game.snapshot()["moves"] == 60
    assert game.take_backs == 30


def test_waste_to_column_then_column_to_foundation():
    game = make_game(["2C"], waste=["AH"])
    play(game, "w>1")  # +5
    play(game, "1>f")  # +10: a card earns at each landing
    assert game.snapshot()["score"] == 15
    assert game.waste_to_column == 1


# -- move counter ----------------------------------------------------------------------


def test_move_counter_counts_every_action_but_undo():
    game = Game.new(1)
    counted = 0
    for text in ["s", "s", "u", "1>f", "u", "u", "9>f", "7>3", "u", "s"]:
        play(game, text)
        if text != "u":
            counted += 1
        assert game.snapshot()["moves"] == counted
    assert counted == 6


def test_refused_actions_do_not_count():
    game = Game.new(1)
    refused(game, "u")
    refused(game, "2>f")
    refused(game, "w>f")
    assert game.snapshot()["moves"] == 0


# -- undo ------------------------------------------------------------------------------


def test_history_limit_is_100():
    assert HISTORY_LIMIT == 100


def test_undo_on_a_new_game_is_illegal():
    assert "Nothing to undo" in refused(Game.new(1), "u")


def test_undo_goes_back_exactly_100_actions():
    game = Game.new(1)
    snapshots = [game.snapshot()]
    for _ in range(101):  # 59 draws, a turn-over, 41 draws
        play(game, "s")
        snapshots.append(game.snapshot())
    assert game.snapshot()["undo_depth"] == 100
    for depth in range(100):
        play(game, "u")
        expected = dict(snapshots[100 - depth], moves=101, undo_depth=99 - depth)
        assert game.snapshot() == expected
    reason = refused(game, "u")  # the 101st consecutive undo
    assert "100" in reason
    assert game.snapshot()["waste"] == ["3S"]  # the first tap still stands
    assert game.snapshot()["moves"] == 101
    play(game, "s")  # new actions can be undone again
    play(game, "u")
    refused(game, "u")


def test_pushing_past_100_drops_the_oldest():
    game = Game.new(1)
    for _ in range(150):
        play(game, "s")
    for _ in range(100):
        play(game, "u")
    refused(game, "u")
    # 150 taps = 59 draws, a turn-over, 90 draws; the first 50 stand: 50 cards drawn.
    assert len(game.snapshot()["waste"]) == 50


def test_undo_pops_one_action_at_a_time_in_reverse_order():
    game = Game.new(1)
    seen = [game.snapshot()]
    for text in ["1>f", "9>f", "7>3", "s", "s"]:
        play(game, text)
        seen.append(game.snapshot())
    for back in range(5):
        play(game, "u")
        assert game.snapshot() == dict(seen[4 - back], moves=5)
    refused(game, "u")


def _undo_restores(position, texts, check=None):
    game = make_game(**position)
    before = game.snapshot()
    counters = (game.undos, game.take_backs, game.stock_passes, game.waste_to_column)
    play(game, *texts)
    if check:
        check(game)
    for _ in texts:
        play(game, "u")
    assert game.snapshot() == dict(before, moves=len(texts))
    assert (game.take_backs, game.stock_passes, game.waste_to_column) == counters[1:]
    assert game.undos == counters[0] + len(texts)
    assert game.foundations == make_game(**position).foundations
    assert game.on_foundations == make_game(**position).on_foundations


def test_undo_of_a_flip():
    def check(game):
        assert game.snapshot()["down"][0] == 1 and game.snapshot()["score"] == 15

    _undo_restores(dict(columns=["4D 9D AS"], down=[2]), ["1>f"], check)


def test_undo_of_a_turn_over():
    def check(game):
        assert game.snapshot()["stock"] == ["9H", "3C", "QS"] and game.stock_passes == 1

    _undo_restores(dict(waste=["9H", "3C", "QS"]), ["s"], check)


def test_undo_of_a_turn_over_then_draws():
    _undo_restores(dict(waste=["9H", "3C", "QS"]), ["s", "s", "s"])


def test_undo_of_a_take_back():
    def check(game):
        assert game.take_backs == 1 and game.foundations[2:4] == [5, 4]

    _undo_restores(dict(columns=["6S"], foundations={3: 5, 4: 5}), ["f4>1"], check)


def test_undo_of_a_king_run():
    def check(game):
        snap = game.snapshot()
        assert snap["columns"][:2] == [["4D"], ["KH", "QS", "JD"]] and snap["down"][0] == 0

    _undo_restores(dict(columns=["4D KH QS JD"], down=[1]), ["1>2:3"], check)


def test_undo_of_waste_to_column():
    def check(game):
        assert game.waste_to_column == 1 and game.snapshot()["score"] == 5

    _undo_restores(dict(columns=["8C"], waste=["2D", "7H"]), ["w>1"], check)


def test_undo_of_waste_to_foundation_restores_the_right_foundation():
    _undo_restores(dict(columns=["AS"], waste=["2S"], foundations={2: 1}), ["1>f", "w>f"])


def test_undo_of_column_to_column_with_flip():
    _undo_restores(dict(columns=["4D 9D 7H", "8C"], down=[2]), ["1>2"])


def test_undo_of_a_long_mixed_sequence():
    position = dict(
        columns=["5C KH", "", "9D 8S", "QC"], down=[1, 0, 1], stock=["JH", "AD", "9C"], waste=["7H"], foundations={3: 4}
    )
    texts = ["1>2", "4>2", "w>3", "s", "w>2", "s", "w>f", "f3>1", "1>f", "s"]

    def check(game):
        snap = game.snapshot()
        assert snap["columns"][:4] == [["5C"], ["KH", "QC", "JH"], ["9D", "8S", "7H"], []]
        assert snap["waste"] == ["9C"] and snap["stock"] == []
        assert snap["score"] == 5 + 5 + 5 + 10 + 10
        assert game.foundations[2] == 4 and game.foundations[4] == 1

    _undo_restores(position, texts, check)


def test_undo_of_the_101st_action_drops_only_one():
    """After 100 undos of 110 actions the first 10 stand."""
    game = Game.new(1)
    for _ in range(110):
        play(game, "s")
    for _ in range(100):
        play(game, "u")
    assert len(game.snapshot()["waste"]) == 10
    assert game.snapshot()["moves"] == 110
