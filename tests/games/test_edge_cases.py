"""Edge cases found in review: hand-built tables and the undo refusal's wording."""

from games import ACTIONS, Game, Layout, replay
from games.cards import card


def test_an_empty_starting_column_has_no_face_down_cards():
    columns = ((), ()) + tuple((card("2S"),) for _ in range(6)) + ((card("QH"), card("KS")),)
    game = Game(Layout(1, columns, ()))
    assert game.down[:2] == [0, 0]
    game.play(ACTIONS["9>1"])  # the King alone onto an empty column
    assert game.refusal(ACTIONS["1>2:2"]) == "Column 1 has fewer than 2 face-up cards."
    assert game.refusal(ACTIONS["1>2"]) is None


def test_undo_with_nothing_played_back_says_nothing_to_undo():
    assert replay("EH1-N-AAAAAAF", ["s", "u", "u"]).error == "u: Nothing to undo."


def test_undo_past_the_limit_names_the_limit():
    result = replay("EH1-N-AAAAAAF", ["s"] * 101 + ["u"] * 101)
    assert (result.index, result.error) == (201, "u: Nothing left to undo: undo goes back at most 100 actions.")
