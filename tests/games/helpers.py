"""Shared helpers of the engine suite: positions built by hand, clones, card counting.

Test modules import these with ``from tests.games.helpers import ...``: tests/games has no
``__init__.py`` (a package named ``games`` there would stand in for the engine's own).
Nothing here reads ../shared: the rules' check values are copied into the tests.

Positions are written with card names; columns bottom to top, the stock in the order
its cards will be drawn, the waste bottom to top and foundations as the rank on top of
each (0 when empty), foundation f (1-based) holding spades, spades, hearts, hearts,
diamonds, diamonds, clubs, clubs.
"""

import os
from collections import Counter, deque

import pytest
from hypothesis import HealthCheck, Phase, settings

from games import ACTIONS, MESSAGES, Game, IllegalAction, render
from games.cards import card

# -- hypothesis ------------------------------------------------------------------------

#: Property tests use these settings explicitly (no global profile: other suites share
#: the process). In CI (CI set) the examples are derandomized so a run is reproducible.
_CI = bool(os.environ.get("CI"))
PROPERTY = settings(
    deadline=None,
    derandomize=_CI,
    database=None if _CI else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def examples(n: int, shrink: bool = True) -> settings:
    """PROPERTY with ``max_examples=n``. ``shrink=False`` for long walks, whose failures
    would take minutes to shrink (the failing draws are printed in full anyway)."""
    if shrink:
        return settings(PROPERTY, max_examples=n)
    return settings(PROPERTY, max_examples=n, phases=[Phase.explicit, Phase.reuse, Phase.generate])


# -- building positions ----------------------------------------------------------------

RANKS = "A23456789TJQK"
FOUNDATION_SUITS = "SSHHDDCC"


def cards(text) -> list[int]:
    """``"KS QH"`` or ``["KS", "QH"]`` -> card ints."""
    names = text.split() if isinstance(text, str) else list(text)
    return [card(name) for name in names]


def make_game(
    columns=(), down=None, stock=(), waste=(), foundations=None, *, number: int = 1, history_limit: int | None = 100
) -> Game:
    """A Game in an arbitrary position.

    ``columns``: up to 9 entries (missing ones are empty), each a string or list of names,
    bottom to top. ``down``: face-down counts per column (default 0: all face up).
    ``stock``: names in draw order. ``waste``: bottom to top. ``foundations``: 8 ranks
    (0..13) or a dict {foundation number 1..8: rank}.
    """
    game = Game.new(number, history_limit)
    cols = [cards(col) for col in columns] + [[] for _ in range(9 - len(columns))]
    assert len(cols) == 9
    game.columns = cols
    down = [0] * 9 if down is None else list(down) + [0] * (9 - len(down))
    for col, d in zip(cols, down, strict=True):
        assert 0 <= d <= max(len(col) - 1, 0), "a non-empty column has its top card face up"
    game.down = down
    game.stock = list(reversed(cards(stock)))
    game.waste = cards(waste)
    if foundations is None:
        ranks = [0] * 8
    elif isinstance(foundations, dict):
        ranks = [foundations.get(f, 0) for f in range(1, 9)]
    else:
        ranks = list(foundations)
    assert len(ranks) == 8 and all(0 <= r <= 13 for r in ranks)
    game.foundations = ranks
    game.on_foundations = sum(ranks)
    return game


def clone(game: Game) -> Game:
    """An independent copy of a game (lists and the undo stack copied)."""
    copy = Game.__new__(Game)
    for name in Game.__slots__:
        value = getattr(game, name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        elif isinstance(value, deque):
            value = deque(value, maxlen=value.maxlen)
        setattr(copy, name, value)
    return copy


def play(game: Game, *texts: str) -> Game:
    """Play actions given in the notation; fails the test on a refusal."""
    for text in texts:
        game.play(ACTIONS[text])
    return game


def refused(game: Game, text: str) -> str:
    """Assert ``text`` is refused and changes nothing; return the reason."""
    before = game.snapshot()
    reason = game.refusal(ACTIONS[text])
    assert reason, f"{text} should be refused here"
    with pytest.raises(IllegalAction) as info:
        game.play(ACTIONS[text])
    assert str(info.value) == reason
    assert info.value.refusal == game.refusal_code(ACTIONS[text])
    assert game.snapshot() == before, f"refused {text} changed the table"
    return reason


def face_up_top(game: Game, n: int) -> str | None:
    """Name of the top card of column n (1-based), from the snapshot."""
    col = game.snapshot()["columns"][n - 1]
    return col[-1] if col else None


def foundation_cards(ranks) -> list[str]:
    """Every card on foundations whose top ranks are ``ranks`` (8 ints)."""
    return [RANKS[i] + FOUNDATION_SUITS[f] for f, r in enumerate(ranks) for i in range(r)]


def all_cards(game: Game) -> Counter:
    """Every card on the table by name: columns, stock, waste and foundations."""
    snap = game.snapshot()
    found = Counter(name for col in snap["columns"] for name in col)
    found.update(snap["stock"])
    found.update(snap["waste"])
    found.update(foundation_cards(game.foundations))
    return found


#: The 104-card pack, each card exactly twice.
FULL_PACK = Counter({r + s: 2 for s in "SHDC" for r in RANKS})


# -- checking every action at a position -----------------------------------------------


def check_every_action(game: Game, ref=None) -> list[str]:
    """Every listed legal action is accepted by play(); every other well-formed action is
    refused and changes nothing. With ``ref`` (a reference.Reference of the same table and
    history) the legal set and each resulting table must also agree with the model."""
    listed = game.legal_actions()
    assert len(listed) == len(set(listed)), "each action listed once"
    legal = set(listed)
    before = game.snapshot()
    for text, action in ACTIONS.items():
        alias = text.endswith(":1") and text[-3] != ":"  # N>M:1 means N>M
        expected = (text[:-2] in legal) if alias else (text in legal)
        if alias:
            assert text not in legal, "N>M:1 is listed as N>M"
        reason = game.refusal(action)
        why = game.refusal_code(action)
        # Every refusal has a reason code of the catalogue, and its words are that template's.
        assert (why is None and reason is None) or (why.code in MESSAGES and render(why) == reason)
        if ref is not None:
            assert ref.legal(text) == expected, f"{text}: engine {expected}, rules model {not expected}"
        if expected:
            assert reason is None, f"{text} listed but refused: {reason}"
            trial = clone(game)
            trial.play(action)
            if ref is not None:
                model = ref.clone()
                model.play(text)
                assert trial.snapshot() == model.view(), f"{text} applied differently"
        else:
            assert reason, f"{text} not listed but not refused"
            try:
                game.play(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{text} not listed but play() accepted it")
    assert game.snapshot() == before, "refusals changed the table"
    return listed
