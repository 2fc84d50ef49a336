"""legal_actions() against play() and the rules model; tap destinations (section 9)."""

import random

import pytest

from games import ACTIONS, Game
from tests.games.helpers import check_every_action, make_game, play
from tests.games.reference import Reference, parse


def test_legal_actions_of_deal_1():
    # Tops AS 3C TH 9D 3S 5S 9S KH AH: two Aces up, 9S onto TH, and the stock.
    assert set(Game.new(1).legal_actions()) == {"s", "1>f", "9>f", "7>3"}


def test_legal_actions_of_deal_5():
    # Tops KC AD 7C TC 2S 6S 2D AS AD: three Aces up, red Aces onto 2S, AS onto 2D.
    assert set(Game.new(5).legal_actions()) == {"s", "2>f", "8>f", "9>f", "2>5", "9>5", "8>7"}


def test_legal_actions_list_runs_take_backs_turn_over_and_undo():
    # Column 1: 4D face down under KH QS JD; column 2 empty; 5H on foundation 3.
    game = make_game(
        ["4D KH QS JD", "", "6C", "2S", "2S", "2C", "2C", "3S", "3S"], down=[1], waste=["7H"], foundations={3: 5}
    )
    assert set(game.legal_actions()) == {"s", "f3>3", "1>2:3"}
    play(game, "1>2:3")
    # 4D turned up: the 3S of columns 8 and 9 now go onto it.
    assert set(game.legal_actions()) == {"s", "f3>3", "u", "8>1", "9>1"}


def test_legal_actions_of_a_won_game_is_empty():
    game = make_game(waste=["KC"], foundations=[13] * 7 + [12])
    play(game, "w>f")
    assert game.legal_actions() == []


@pytest.mark.parametrize("number", [1, 5, 999999])
def test_every_action_at_the_deal(number):
    check_every_action(Game.new(number), Reference.deal(number))


def choose(legal: list[str], roll: float, pick) -> str:
    """A biased choice among legal actions so walks get somewhere: foundation moves
    first, some take-backs and undos, column moves, else the stock."""
    to_foundation = [a for a in legal if a.endswith(">f")]
    take_backs = [a for a in legal if a.startswith("f")]
    runs = [a for a in legal if ":" in a]
    moves = [a for a in legal if a not in ("s", "u") and a not in to_foundation + take_backs]
    for limit, group in (
        (0.08, ["u"] if "u" in legal else []),
        (0.45, to_foundation),
        (0.5, take_backs),
        (0.6, runs),
        (0.85, moves),
        (1.0, ["s"] if "s" in legal else []),
    ):
        if roll < limit and group:
            return pick(group)
    return pick(legal)


def _walk(number: int, steps: int, seed: int):
    """A random legal walk from a deal; yields (step, game, rules model) after each action."""
    rnd = random.Random(seed)
    game, ref = Game.new(number), Reference.deal(number)
    for step in range(steps):
        legal = game.legal_actions()
        if not legal:
            return
        text = choose(legal, rnd.random(), rnd.choice)
        game.play(ACTIONS[text])
        ref.play(text)
        yield step, game, ref


@pytest.mark.parametrize("seed", range(8))
def test_every_action_at_random_positions(seed):
    number = random.Random(seed).randint(1, 999_999)
    checked = 0
    for step, game, ref in _walk(number, 400, seed):
        assert game.snapshot() == ref.view()
        if step % 50 == 49:
            check_every_action(game, ref)
            checked += 1
    assert checked >= 1


# -- tap destinations (section 9) ------------------------------------------------------


def test_tap_goes_to_a_foundation_first():
    game = make_game(["2S", "2C", "", "3C AS"], waste=["AH"])
    assert game.tap_destination("w", double=False) == "w>f"
    assert game.tap_destination("w", double=True) == "w>f"  # not onto 2S or 2C
    assert game.tap_destination("4") == "4>f"
    assert game.tap_destination("4", double=False) == "4>f"


def test_single_tap_never_goes_to_a_column():
    game = make_game(["7H", "", "7D"], waste=["6S"])
    assert game.tap_destination("w", double=False) is None
    assert game.tap_destination("w", double=True) == "w>1"
    king = make_game(["7H", ""], waste=["KS"])
    assert king.tap_destination("w", double=False) is None
    assert king.tap_destination("w") == "w>2"


def test_double_tap_longest_accepting_column():
    #          1     2         3         4            5
    columns = ["7H", "9C 8D 7D", "2C 5S 7H", "4C 4D 5D 8C", "3C 9S 7D 8S 5H 7H"]
    game = make_game(columns, waste=["6S"])
    # 5 (six cards) accepts and is the longest; 4 (four cards) refuses.
    assert game.tap_destination("w") == "w>5"
    game = make_game(columns[:4], waste=["6S"])
    # 2 and 3 both have three cards and accept: the leftmost, 2.
    assert game.tap_destination("w") == "w>2"
    game = make_game(["7H", "", "", "4C 4D 5D 8C", "9S 7D"], waste=["6C"])
    assert game.tap_destination("w") == "w>5"


def test_double_tap_counts_face_down_cards_in_the_length():
    game = make_game(["5C 7H", "4C 4D 7D"], down=[1, 2], waste=["6S"])
    assert game.tap_destination("w") == "w>2"


def test_double_tap_a_king_to_the_leftmost_empty_column():
    game = make_game(["QS", "JD", "", "5C", "", "9H"], waste=["KH"])
    assert game.tap_destination("w") == "w>3"
    full = make_game(["QS", "JD", "4C", "5C", "6C", "9H", "9H", "9H", "9H"], waste=["KH"])
    assert full.tap_destination("w") is None


def test_double_tap_non_king_never_to_an_empty_column():
    game = make_game(["", "", "9H"], waste=["QS"])
    assert game.tap_destination("w") is None


def test_double_tap_from_a_column_never_to_itself():
    game = make_game(["", "9C 8D 7D 6S", "7H"])
    assert game.tap_destination("2") == "2>3"
    game = make_game(["", "", "5C KH"], down=[0, 0, 1])
    assert game.tap_destination("3") == "3>1"


def test_tap_on_an_empty_source():
    game = make_game(["", "KS"])
    assert game.tap_destination("w") is None
    assert game.tap_destination("1") is None


def _expected_tap(ref: Reference, source: str, double: bool):
    """Section 9 written out on the rules model."""
    if ref.legal(f"{source}>f"):
        return f"{source}>f"
    if not double:
        return None
    others = [n for n in range(1, 10) if str(n) != source]
    built = sorted((n for n in others if ref.columns[n - 1]), key=lambda n: (-len(ref.columns[n - 1]), n))
    for n in built:
        if ref.legal(f"{source}>{n}"):
            return f"{source}>{n}"
    for n in others:
        if not ref.columns[n - 1] and ref.legal(f"{source}>{n}"):
            return f"{source}>{n}"
    return None


@pytest.mark.parametrize("seed", range(4))
def test_tap_destination_at_random_positions(seed):
    number = random.Random(seed + 100).randint(1, 999_999)
    for step, game, ref in _walk(number, 200, seed):
        if step % 5:
            continue
        for source in ["w"] + [str(n) for n in range(1, 10)]:
            for double in (False, True):
                got = game.tap_destination(source, double=double)
                assert got == _expected_tap(ref, source, double), (source, double)
                if got is not None:
                    assert got in game.legal_actions() and parse(got)
