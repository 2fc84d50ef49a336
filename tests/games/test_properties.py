"""Property tests: random legal play, from deals and from arbitrary positions.

The walks draw every action from legal_actions() of the current state (undo included)
and check, after each action:
- the 104 cards are all there, each exactly twice (columns, stock, waste, foundations);
- the score is the sum of the section 6 points of the actions that stand, kept in an
  independent model: each action's points come from the visible change of the table
  (cards onto foundations, cards from the waste onto columns, cards turned up), never
  from the engine's history records; an undo pops the undone action's points;
- the move counter counts every action but undo and never drops;
- after an undo the table is exactly the snapshot taken before the undone action;
- the table equals the independent rules model's (tests/games/reference.py);
and at the end that replay() of the log agrees with the game played step by step.
"""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games import ACTIONS, Game, format_code, replay
from tests.games.helpers import (
    FULL_PACK,
    all_cards,
    check_every_action,
    clone,
    examples,
    foundation_cards,
    make_game,
    play,
)
from tests.games.reference import Reference, builds_on, rank
from tests.games.test_legal_actions import choose


def on_foundations(snap: dict) -> int:
    return sum(0 if top is None else rank(top) for top in snap["foundations"])


def visible_points(before: dict, after: dict) -> int:
    """Section 6 from what a player sees change."""
    points = 0
    landed = on_foundations(after) - on_foundations(before)
    if landed > 0:
        points += 10 * landed
    turned_up = sum(max(0, b - a) for b, a in zip(before["down"], after["down"], strict=True))
    points += 5 * turned_up
    column_cards = sum(map(len, after["columns"])) - sum(map(len, before["columns"]))
    if len(after["waste"]) == len(before["waste"]) - 1 and column_cards == 1 and landed == 0:
        points += 5
    return points


class Walk:
    """A game, the rules model and the independent bookkeeping of the checks above."""

    def __init__(self, game: Game, ref: Reference, full_pack: bool = True):
        self.game, self.ref, self.full_pack = game, ref, full_pack
        self.log: list[str] = []
        self.points: list[int] = []  # points of the standing actions
        self.before: list[dict] = []  # snapshot before each standing action
        self.base_score = game.score
        self.counted = game.moves

    def step(self, text: str) -> None:
        """Play ``text``, drawn by the caller from legal_actions()."""
        game = self.game
        before = game.snapshot()
        game.play(ACTIONS[text])
        self.ref.play(text)
        self.log.append(text)
        after = game.snapshot()
        if text == "u":
            undone = self.before.pop()
            self.points.pop()
            assert after == dict(undone, moves=before["moves"], undo_depth=before["undo_depth"] - 1)
        else:
            self.counted += 1
            self.before.append(before)
            self.points.append(visible_points(before, after))
        assert after["moves"] == self.counted >= before["moves"]
        assert after["score"] == self.base_score + sum(self.points) >= 0
        assert after == self.ref.view()
        if self.full_pack:
            assert all_cards(game) == FULL_PACK


def draw_action(data, legal: list[str]) -> str:
    roll = data.draw(st.integers(0, 99)) / 100
    return choose(legal, roll, lambda group: data.draw(st.sampled_from(group)))


# -- from a deal -----------------------------------------------------------------------


@given(st.data(), st.integers(1, 999_999), st.sampled_from("ND"))
@examples(40, shrink=False)
def test_random_play_from_a_deal(data, number, mode):
    walk = Walk(Game.new(number), Reference.deal(number))
    for _ in range(data.draw(st.integers(1, 120), label="steps")):
        legal = walk.game.legal_actions()
        if not legal:
            break
        walk.step(draw_action(data, legal))
    game = walk.game
    result = replay(format_code(number, mode), walk.log)
    assert result.ok, result.error
    assert (result.score, result.moves, result.foundation, result.won) == (
        game.score,
        game.moves,
        game.on_foundations,
        game.won,
    )
    assert result.moves == sum(1 for text in walk.log if text != "u")
    assert result.undos == walk.log.count("u")
    assert result.foundation == on_foundations(game.snapshot())
    assert result.take_backs == game.take_backs and result.stock_passes == game.stock_passes
    assert result.waste_to_column == game.waste_to_column


@given(st.data(), st.integers(1, 999_999), st.integers(90, 140))
@examples(10, shrink=False)
def test_undo_reaches_back_100_actions_of_random_play(data, number, played):
    walk = Walk(Game.new(number), Reference.deal(number))
    snaps = [walk.game.snapshot()]
    for _ in range(played):
        legal = [a for a in walk.game.legal_actions() if a != "u"]
        walk.step(draw_action(data, legal))
        snaps.append(walk.game.snapshot())
    undone = 0
    while walk.game.refusal(ACTIONS["u"]) is None:
        walk.step("u")
        undone += 1
    assert undone == min(played, 100)
    back = snaps[played - undone]
    assert walk.game.snapshot() == dict(back, moves=played, undo_depth=0)
    assert walk.game.refusal(ACTIONS["u"])


# -- from arbitrary positions ----------------------------------------------------------


@st.composite
def positions(draw):
    """A table holding the whole pack: foundations, columns with face-down cards under a
    built face-up run (often King-led), empty columns, a stock and a waste."""
    rnd = draw(st.randoms(use_true_random=False))
    ranks = [draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 6, 9, 12, 13])) for _ in range(8)]
    pool = sorted((Counter(FULL_PACK) - Counter(foundation_cards(ranks))).elements())
    rnd.shuffle(pool)
    columns, down = [], []
    for _ in range(9):
        if not pool or rnd.random() < 0.2:
            columns.append([])
            down.append(0)
            continue
        hidden = [pool.pop() for _ in range(min(rnd.randint(0, 5), len(pool) - 1))]
        kings = [i for i, name in enumerate(pool) if name[0] == "K"]
        run = [pool.pop(rnd.choice(kings) if kings and rnd.random() < 0.4 else -1)]
        while rnd.random() < 0.75:
            fits = [i for i, name in enumerate(pool) if builds_on(name, run[-1])]
            if not fits:
                break
            run.append(pool.pop(rnd.choice(fits)))
        columns.append(hidden + run)
        down.append(len(hidden))
    cut = rnd.randint(0, len(pool))
    stock, waste = pool[:cut], pool[cut:]
    return dict(columns=columns, down=down, stock=stock, waste=waste, foundations=ranks)


def position_pair(position: dict):
    game = make_game(**position)
    return game, Reference.from_snapshot(game.snapshot())


@given(positions())
@examples(40)
def test_every_action_at_arbitrary_positions(position):
    game, ref = position_pair(position)
    assert all_cards(game) == FULL_PACK
    assert game.snapshot() == ref.view()
    check_every_action(game, ref)


@given(positions())
@examples(40)
def test_play_then_undo_restores_the_snapshot(position):
    game = make_game(**position)
    before = game.snapshot()
    for text in game.legal_actions():
        trial = clone(game)
        play(trial, text)
        assert trial.snapshot()["moves"] == 1
        if trial.won:  # nothing may follow the winning action, undo included
            assert trial.refusal(ACTIONS["u"]) is not None
            continue
        play(trial, "u")
        assert trial.snapshot() == dict(before, moves=1)
        assert trial.on_foundations == game.on_foundations
        assert (trial.take_backs, trial.stock_passes, trial.waste_to_column) == (0, 0, 0)


@given(positions(), st.data())
@examples(40)
def test_random_play_from_arbitrary_positions(position, data):
    game, ref = position_pair(position)
    walk = Walk(game, ref)
    for _ in range(data.draw(st.integers(1, 60), label="steps")):
        legal = game.legal_actions()
        if not legal:
            assert game.won
            break
        walk.step(draw_action(data, legal))


@given(st.data())
@examples(20)
def test_endgames_win_and_stop(data):
    """Nearly finished tables: every card but a few on the foundations."""
    ranks = [data.draw(st.integers(10, 13)) for _ in range(8)]
    rest = sorted((Counter(FULL_PACK) - Counter(foundation_cards(ranks))).elements())
    rnd = data.draw(st.randoms(use_true_random=False))
    rnd.shuffle(rest)
    cut = rnd.randint(0, len(rest))
    # Leftover cards go to the stock/waste and one column each (face up), so the game
    # can always be finished by drawing and sending cards up.
    position = dict(columns=[[name] for name in rest[:cut][:9]], stock=rest[:cut][9:] + rest[cut:], foundations=ranks)
    game, ref = position_pair(position)
    walk = Walk(game, ref)
    for _ in range(2000):
        legal = game.legal_actions()
        if not legal:
            break
        up = [a for a in legal if a.endswith(">f")]
        walk.step(up[0] if up else ("s" if "s" in legal else legal[0]))
    assert game.won and game.legal_actions() == []
    assert game.refusal(ACTIONS["u"]) and game.refusal(ACTIONS["s"])
    assert all(game.refusal(action) for action in ACTIONS.values())
    # No take-backs here: the score is 10 for every card sent up (no flips, no waste plays
    # to columns in this greedy line).
    sent_up = 104 - sum(ranks)
    assert game.score == 10 * sent_up
