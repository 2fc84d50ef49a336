"""The canonical line (games.canonical): aliases written one way, undone actions taken out with
their undos; over random play it replays to the same table and result as the log."""

import random

from hypothesis import given
from hypothesis import strategies as st

from games import Game, format_code, parse_action, replay
from games.canonical import canonical_line, card_moves, jaccard, line_hash, shared_moves, shingles
from tests.games.helpers import examples
from tests.games.test_properties import draw_action

#: What a replay result says of the table: equal for a log and its canonical line.
STANDING = ("ok", "won", "score", "foundation", "take_backs", "stock_passes", "waste_to_column")


def standing(result) -> tuple:
    return tuple(getattr(result, name) for name in STANDING)


def test_a_one_card_run_is_written_as_a_move():
    assert canonical_line(["s", "3>4:1", "w>2", "5>1:2"]) == ["s", "3>4", "w>2", "5>1:2"]


def test_an_undo_takes_out_the_action_it_undoes():
    assert canonical_line(["s", "w>3", "u", "s", "1>f", "u", "u", "2>f"]) == ["s", "2>f"]


def test_an_undo_with_nothing_to_take_back_is_dropped_and_other_text_is_kept():
    assert canonical_line(["u", "s", "zz", 7]) == ["s", "zz", "7"]


def test_two_logs_of_one_game_hash_the_same_and_another_game_does_not():
    assert line_hash(["s", "3>4:1", "w>1", "u"]) == line_hash(["s", "3>4"]) != line_hash(["s", "4>3"])


@given(st.data(), st.integers(1, 999_999), st.sampled_from("ND"))
@examples(40, shrink=False)
def test_the_canonical_line_of_random_play_replays_to_the_same_table(data, number, mode):
    game, log = Game.new(number), []
    aliases = random.Random(number)
    for _ in range(data.draw(st.integers(1, 200), label="steps")):
        legal = game.legal_actions()
        if not legal:
            break
        text = draw_action(data, legal)
        game.play(game_action(text))
        log.append(alias(text) if aliases.random() < 0.3 else text)  # now and then its other form
    code = format_code(number, mode)
    played, line = replay(code, log), canonical_line(log)
    again = replay(code, line)
    assert played.ok and standing(again) == standing(played)
    assert again.undos == 0 and again.moves == len(line) <= played.moves
    replayed = Game.new(number)
    for text in line:
        replayed.play(game_action(text))
    assert without_history(replayed.snapshot()) == without_history(game.snapshot())
    assert canonical_line(line) == line  # canonical already: written one way, no undo


def alias(text: str) -> str:
    """A column-to-column move of one card in its other accepted form, ``N>M:1``."""
    return f"{text}:1" if text[0].isdigit() and text[-1] != "f" and ":" not in text else text


def game_action(text: str):
    return parse_action(text)


def without_history(snapshot: dict) -> dict:
    return {key: value for key, value in snapshot.items() if key not in ("moves", "undo_depth")}


def test_shingles_and_their_jaccard_index():
    line = ["s", "1>f", "s", "w>2", "3>4"]
    assert shingles(line, 3) == {"s 1>f s", "1>f s w>2", "s w>2 3>4"}
    assert shingles(line[:2], 3) == {"s 1>f"}
    assert jaccard({"a", "b"}, {"b", "c"}) == 1 / 3 and jaccard(set(), set()) == 0.0


def test_shared_moves_ignores_stock_taps_and_reads_order():
    reference = ["1>f", "s", "2>3", "s", "s", "w>4", "5>f"]
    assert card_moves(reference) == ["1>f", "2>3", "w>4", "5>f"]
    assert shared_moves(["s", "1>f", "2>3", "s", "s", "s", "w>4", "5>f"], reference) == 1.0
    assert shared_moves(["5>f", "w>4", "2>3", "1>f"], reference) == 0.0
    assert shared_moves(["1>f", "2>3", "w>4", "9>f"], reference) == 0.5
    assert shared_moves(["1>f"], ["s"]) == 0.0
