"""Test vectors that tie the browser engine (frontend/static/frontend/engine/) to the Python engine.

Plain Python, no Django: it uses only the public names of ``games``. A developer tool: it
writes the vectors next to the browser engine, so that ``games/`` reads and writes nothing but
its own code, and the product never runs it.

``build_vectors()`` plays the Python engine, the reference, through deterministic
situations (fixed seeds, fixed deal numbers) and records what it answers: layouts, deal
codes and their errors, the action table, malformed actions, positions with their
snapshot, legal actions, tap destinations and refusals, and replays of whole logs.

Refusals and errors are recorded as reason codes and arguments (``{"code", "args"}``), never
as words: the words are the catalogue's, which the file also carries (``messages``,
``suit_names``) so the JavaScript test can check that engine/refusals.js holds the same one.
``python -m tools.vectors`` writes them to ``frontend/static/frontend/engine/vectors.json``
(``--check``: only says whether that file is current); ``tests/frontend/engine.test.mjs``
checks the engine's modules against every one of them and ``tests/frontend/test_js_engine.py``
fails when the committed file is stale.

Nothing here may depend on the clock, the environment or dict/set iteration of
unordered data: the same engine and the same ``tests/data/won_games.jsonl`` give the
same file, byte for byte.
"""

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from games import (
    ACTIONS,
    HISTORY_LIMIT,
    MESSAGES,
    Game,
    InvalidCode,
    Layout,
    Refusal,
    ReplayResult,
    card,
    deal,
    format_action,
    format_code,
    malformed_refusal,
    parse_code,
    replay,
    replay_onto,
)
from games.actions import COL_COL, COL_F, FOUND_COL, STOCK, WASTE_COL, WASTE_F
from games.cards import NAME
from games.refusals import SUIT_NAMES

ROOT = Path(__file__).resolve().parent.parent
VECTORS_PATH = ROOT / "frontend" / "static" / "frontend" / "engine" / "vectors.json"
WON_GAMES_PATH = ROOT / "tests" / "data" / "won_games.jsonl"
REGENERATE = "python -m tools.vectors"

#: Won games taken from WON_GAMES_PATH (the first ones), and how many of them also give
#: positions; both keep the JSON file well under 2 MB.
MAX_WON_GAMES = 100
WON_GAME_POSITIONS = 3
#: Refusals sampled per position (the digest covers every action anyway).
REFUSAL_SAMPLES = 30

TAP_SOURCES = ("w",) + tuple(str(n) for n in range(1, 10))


def build_vectors() -> dict:
    """Every vector, as plain JSON-able data. Deterministic."""
    won_games = _won_games()
    vectors: dict[str, Any] = {
        "meta": {
            "rules": "EH1",
            "generator": "tools/vectors.py",
            "regenerate": REGENERATE,
            "history_limit": HISTORY_LIMIT,
            "refusal_digest": "sha256 of the lines '<action>\\t<refusal or empty>' joined by '\\n', "
            "for every action of the table in its order; a refusal is its JSON "
            '{"args": ..., "code": ...}, keys sorted, no spaces',
            "refusals": "{code, args}: the reason code and its arguments, never words; "
            "results and wires leave out error, the words of their refusal",
        },
        "messages": dict(MESSAGES),
        "suit_names": dict(SUIT_NAMES),
        "deals": _deals(),
        "codes": _codes(),
        "format_code": _format_code_errors(),
        "actions": [[text, list(action), format_action(action)] for text, action in ACTIONS.items()],
        "malformed": [{"text": text, "refusal": _refusal(malformed_refusal(text))} for text in MALFORMED],
        "positions": _positions(won_games),
        "replays": _replays(won_games),
        "won_games": [
            {"deal": game["deal"], "actions": game["actions"], "result": _result(replay(game["deal"], game["actions"]))}
            for game in won_games
        ],
    }
    vectors["meta"]["counts"] = {key: len(value) for key, value in vectors.items() if isinstance(value, list)}
    return vectors


def dump_vectors(vectors: dict) -> str:
    """Stable text: sorted keys, ASCII only, each vector compact on its own line."""

    def compact(value) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    def block(value) -> str:
        if isinstance(value, list):
            return "[\n" + ",\n".join("  " + compact(item) for item in value) + "\n ]"
        if isinstance(value, dict):
            return "{\n" + ",\n".join(f"  {compact(key)}: {compact(value[key])}" for key in sorted(value)) + "\n }"
        return compact(value)

    return "{\n" + ",\n".join(f" {compact(key)}: {block(vectors[key])}" for key in sorted(vectors)) + "\n}\n"


def vectors_text() -> str:
    return dump_vectors(build_vectors())


def _refusal(refusal: Refusal | None) -> dict | None:
    """A refusal as the vectors hold it: ``{"code", "args"}`` (None: nothing refused)."""
    return None if refusal is None else {"code": refusal.code, "args": dict(refusal.args)}


def _result(result: ReplayResult) -> dict:
    """A replay's ``to_dict()`` without ``error``, the words of its ``refusal``."""
    return {key: value for key, value in result.to_dict().items() if key != "error"}


def _wire(result: ReplayResult) -> dict:
    return {key: value for key, value in result.to_wire().items() if key != "error"}


# -- deals and codes --------------------------------------------------------------------------

DEAL_NUMBERS = (1, 2, 3, 5, 25, 26, 27, 676, 17576, 100000, 123456, 500000, 654321, 999998, 999999)


def _deal_numbers() -> list[int]:
    rng = random.Random(20240601)
    extra: list[int] = []
    while len(extra) < 17:
        number = rng.randint(1, 999_999)
        if number not in DEAL_NUMBERS and number not in extra:
            extra.append(number)
    return list(DEAL_NUMBERS) + extra


def _deals() -> list[dict]:
    out = []
    for number in _deal_numbers():
        layout = deal(number)
        out.append(
            {
                "number": number,
                "codes": {mode: format_code(number, mode) for mode in ("N", "D")},
                "columns": [[NAME[c] for c in col] for col in layout.columns],
                "stock": [NAME[c] for c in layout.stock],
            }
        )
    return out


INVALID_CODES: tuple[object, ...] = (  # not all strings: JSON of any type
    "EH1-N-AAAAAAA",
    "EH1-D-AAAAAAA",
    "EH1-N-AACEXHO",
    "EH1-N-ZZZZZZZ",
    "EH1-D-BAAAAAA",
    "eh1-n-aaaaaaf",
    "EH1-n-AAAAAAF",
    "EH1-N-aaaaaaf",
    "EH1-N-AAAAAAf",
    "eh1-N-AAAAAAF",
    "EH2-N-AAAAAAF",
    "EH0-N-AAAAAAF",
    "EH1-X-AAAAAAF",
    "EH1-ND-AAAAAAF",
    "EH1--AAAAAAF",
    "EH1-N-AAAAAF",
    "EH1-N-AAAAAAAF",
    "EH1-N-",
    "EH1-N-AAAAAA1",
    "EH1-N-AAAAA-F",
    "EH1-N-AAAAAAF ",
    " EH1-N-AAAAAAF",
    "EH1N-AAAAAAF",
    "EH1-NAAAAAAF",
    "EH1-N-AAAAAAF-",
    "",
    "-",
    "--",
    "---",
    "EH1",
    "AAAAAAF",
    "5",
    "EH1-N-AAAAAA\u00c9",
    "EH1-N-AAAAAA\u00e9",
    "EH1-N-AAAAAAE\u0301",
    "EH1-N-AAAAAA\U0001f600",
    "EH1-N-AAAAAA\u0410",
    "EH1-N-\uff21\uff21\uff21\uff21\uff21\uff21\uff26",
    "EH1\u2011N\u2011AAAAAAF",
    "EH1-N-AAAAAA\t",
    "EH1-N-AAA\nAAAF",
    "EH1-N-AAAAAA\x00",
    "EH1-N-AAAAAA\x7f",
    "EH1-N-AAAAAA\u00a0",
    "EH1-N-AAAAAA\u200b",
    "EH1-N-AAAAAA\u2028",
    "EH1-N-AAAAAA\ue000",
    "EH1-N-AAAAAA\ud800",
    "it's",
    'say "hi"',
    'it\'s "quoted"',
    "back\\slash",
    "EH1-N-AAAAAA'",
    'EH1-N-AAAAAA"',
    5,
    0,
    -1,
    1.5,
    True,
    False,
    None,
    [],
    ["EH1-N-AAAAAAF"],
    {},
    {"deal": "EH1-N-AAAAAAF"},
)

VALID_CODES = (
    "EH1-N-AAAAAAB",
    "EH1-D-AAAAAAB",
    "EH1-N-AAAAAAF",
    "EH1-N-AAAAAAZ",
    "EH1-N-AAAAABA",
    "EH1-D-AAAAABB",
    "EH1-N-AABAAAA",
    "EH1-N-AACEXHN",
    "EH1-D-AACEXHN",
    "EH1-N-AACEXHM",
    "EH1-N-AAAFVPB",
    "EH1-D-AAABCDE",
)


def _codes() -> list[dict]:
    out = []
    for code in VALID_CODES + INVALID_CODES:
        try:
            parsed = parse_code(code)
        except InvalidCode as exc:
            out.append({"code": code, "refusal": _refusal(exc.refusal)})
        else:
            out.append({"code": code, "mode": parsed.mode, "number": parsed.number, "formatted": str(parsed)})
    return out


def _format_code_errors() -> list[dict]:
    cases: list[tuple[Any, Any]] = [  # wrong types on purpose
        (0, "N"),
        (1_000_000, "N"),
        (-1, "D"),
        (10**12, "D"),
        (5, "X"),
        (5, "n"),
        (5, ""),
        (5, "ND"),
        (5, None),
        (0, "X"),
        ("5", "N"),
        (None, "N"),
        (1.5, "N"),
    ]
    out = []
    for number, mode in cases:
        try:
            format_code(number, mode)
        except InvalidCode as exc:
            out.append({"number": number, "mode": mode, "refusal": _refusal(exc.refusal)})
        else:  # pragma: no cover - every case above is an error
            raise AssertionError((number, mode))
    return out


# -- malformed actions ------------------------------------------------------------------------

MALFORMED: tuple[object, ...] = (
    "10>1",
    "0>1",
    "w>0",
    "f9>1",
    "1>1",
    " s",
    "S",
    "01>2",
    "1>2:14",
    "",
    "s ",
    "s\n",
    "ss",
    "U",
    "W>f",
    "w>F",
    "w>10",
    "w",
    "w>",
    ">f",
    "f",
    "1>F",
    "1>f ",
    "1 >2",
    "1>",
    ">1",
    "1>0",
    "9>10",
    "f0>1",
    "f1>0",
    "f1>f",
    "f1>w",
    "f1>10",
    "f10>1",
    "F1>2",
    "f>1",
    "w>w",
    "1>w",
    "s>1",
    "u>1",
    "1-2",
    "1<2",
    "1=>2",
    "1>>2",
    "1>2>3",
    "w>f:2",
    "1>1:1",
    "1>1:5",
    "1>1:13",
    "1>1:14",
    "2>2:0",
    "9>9:99",
    "5>5:01",
    "1>1:",
    "1>2:0",
    "1>2:00",
    "1>2:01",
    "1>2:013",
    "1>2:1 ",
    "1>2:",
    "1>2: 3",
    "1>2:+3",
    "1>2:-1",
    "1>2:3.0",
    "1>2:1e1",
    "1>2:99999999999999999999",
    "1>2:\u0663",
    "1>2:\uff11",
    "1>2:\u00b2",
    "\uff11>2",
    "1>\u0662",
    "\u0661>\u0661",
    "1>2:K",
    "1>2:k",
    "f1>1:2",
    "w>1:1",
    "1>f:1",
    "it's",
    'say "hi"',
    'it\'s "both"',
    "back\\slash",
    "tab\t",
    "\r",
    "\x00",
    "\x1b",
    "\x7f",
    "\x80",
    "\u00a0",
    "\u00e9",
    "\u200b",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\ue000",
    "\U0010ffff",
    "\U0001f600",
    "\u0378",
    "\ud800",
    "\udfff",
    "e\u0301",
    "\u00ad",
    "\u3000",
    "\u0085",
    # Not strings. No float with an integral value (1.0, 1e300): JSON cannot carry the
    # difference between 1.0 and 1 to JavaScript, which names both int (engine/actions.js pyTypeName).
    3,
    0,
    -1,
    1.5,
    True,
    False,
    None,
    [],
    ["s"],
    {},
    {"s": 1},
    [[]],
)


# -- positions --------------------------------------------------------------------------------

#: (deal number, seed, log lengths at which a position is recorded)
POSITION_GAMES = (
    (1, 11, (0, 25, 90, 200, 320)),
    (5, 12, (12, 60, 150, 280)),
    (999999, 13, (40, 120, 260)),
    (2, 14, (30, 110, 240)),
    (999998, 15, (50, 170, 330)),
    (42, 16, (20, 100, 220)),
    (123456, 17, (70, 190, 300)),
    (777777, 18, (15, 140, 260)),
    (31337, 19, (60, 180, 360)),
    (271828, 20, (80, 210, 400)),
)


def _is_flip_move(game: Game, text: str) -> bool:
    """A column-to-column or column-to-foundation move that turns up a face-down card."""
    kind, a, _b, k = ACTIONS[text]
    if kind not in (COL_COL, COL_F):
        return False
    return game.down[a] > 0 and len(game.columns[a]) - k == game.down[a]


def _weight(game: Game, text: str) -> float:
    kind, _a, _b, k = ACTIONS[text]
    if _is_flip_move(game, text):
        return 25.0
    if kind in (WASTE_F, COL_F):
        return 20.0
    if kind == COL_COL and k > 1:
        return 12.0
    if kind == WASTE_COL:
        return 8.0
    if kind == STOCK:
        return 5.0
    if kind == FOUND_COL:
        return 1.5
    return 1.0  # a plain column-to-column move that turns nothing up


def random_log(number: int, seed: int, steps: int, undo_rate: float = 0.06) -> list[str]:
    """A log of ``steps`` legal actions from deal ``number``, chosen by a seeded random
    player that favours progress but also undoes (in bursts), takes back and recycles."""
    rng = random.Random(seed)
    game = Game.new(number)
    log: list[str] = []
    while len(log) < steps and not game.won:
        if game.history and rng.random() < undo_rate:
            for _ in range(rng.randint(1, 8)):
                if len(log) >= steps or game.refusal(ACTIONS["u"]) is not None:
                    break
                game.play(ACTIONS["u"])
                log.append("u")
            continue
        legal = [text for text in game.legal_actions() if text != "u"]
        text = rng.choices(legal, weights=[_weight(game, t) for t in legal])[0]
        game.play(ACTIONS[text])
        log.append(text)
    return log


def _refusal_key(refusal: Refusal | None) -> str:
    """A refusal as one line of text: its JSON, keys sorted, no spaces (empty: legal)."""
    if refusal is None:
        return ""
    return json.dumps(_refusal(refusal), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _refusal_digest(game: Game) -> str:
    lines = (f"{text}\t{_refusal_key(game.refusal_code(action))}" for text, action in ACTIONS.items())
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _refusal_samples(game: Game, rng: random.Random) -> list[list]:
    """Illegal actions as ``[text, refusal]``, one per distinct refusal: every reason code
    met here (its rarest refusal), then the rarest others, then a random few."""
    by_refusal: dict[str, list[str]] = {}
    for text, action in ACTIONS.items():
        reason = game.refusal_code(action)
        if reason is not None:
            by_refusal.setdefault(_refusal_key(reason), []).append(text)
    groups = sorted(by_refusal.items(), key=lambda item: (len(item[1]), item[0]))
    per_code: dict[str, tuple[str, list[str]]] = {}
    for key, texts in groups:
        per_code.setdefault(json.loads(key)["code"], (key, texts))
    chosen = list(per_code.values())
    rest = [group for group in groups if group not in chosen]
    rarest = max(REFUSAL_SAMPLES // 2 - len(chosen), 0)
    chosen += rest[:rarest]
    rest = rest[rarest:]
    chosen += rng.sample(rest, min(len(rest), REFUSAL_SAMPLES - len(chosen)))
    samples = [[rng.choice(texts), json.loads(key)] for key, texts in chosen]
    order = {text: i for i, text in enumerate(ACTIONS)}
    return sorted(samples, key=lambda sample: order[sample[0]])


def _position(game: Game, log: list[str], rng: random.Random, **where) -> dict:
    return {
        **where,
        "actions": log,
        "snapshot": game.snapshot(),
        "legal_actions": game.legal_actions(),
        "taps": {
            source: {"single": game.tap_destination(source, False), "double": game.tap_destination(source, True)}
            for source in TAP_SOURCES
        },
        "refusals": _refusal_samples(game, rng),
        "refusal_digest": _refusal_digest(game),
        "result": _result(replay_onto(fresh_game(where), log)),
    }


def fresh_game(where: dict) -> Game:
    """The game a position vector starts from: its deal, or its constructed layout."""
    if "deal" in where:
        return Game.new(parse_code(where["deal"]).number)
    layout = where["layout"]
    game = Game(
        Layout(
            0, tuple(tuple(card(c) for c in col) for col in layout["columns"]), tuple(card(c) for c in layout["stock"])
        )
    )
    if "down" in layout:  # face-down counts other than a deal's (top card only face up)
        game.down = list(layout["down"])
    return game


def _positions_of(where: dict, log: list[str], at: tuple[int, ...], seed: int) -> list[dict]:
    rng = random.Random(seed)
    game = fresh_game(where)
    out = []
    done = 0
    for n in sorted(set(at)):
        for text in log[done:n]:
            game.play(ACTIONS[text])
        done = n
        out.append(_position(game, log[:n], rng, **where))
    return out


#: A constructed table: columns 1..8 each hold one suit, King at the bottom, Ace on top
#: (so 1>f thirteen times clears column 1), except that the last Ace of clubs is alone in
#: column 9; the stock is empty. No column starts empty: a real deal never has one, and
#: Game() counts an empty starting column as -1 face-down cards.
SUIT_STACKS = {
    "columns": [[f"{r}{s}" for r in reversed("A23456789TJQK")] for s in "SSHHDDC"]
    + [[f"{r}C" for r in reversed("23456789TJQK")], ["AC"]],
    "stock": [],
}


#: Face-up cards that are not a run, which play never leaves (a run only ever grows by the
#: column rules): the guard of the run rule, checked all the same.
NOT_A_RUN = {
    "columns": [["KH", "QS", "JS"], [], ["5C"], ["9D", "8S"], [], ["AH"], [], [], ["2C", "KD"]],
    "down": [0, 0, 0, 1, 0, 0, 0, 0, 1],
    "stock": ["3H"],
}


def _suit_stacks_log() -> list[str]:
    log = []
    for n in range(1, 8):
        log += [f"{n}>f"] * 13
        if n == 1:  # a take-back onto the emptied column and its undo, then again for real
            log += ["f1>1", "u", "f1>1", "1>f"]
    return log + ["9>f"] + ["8>f"] * 12


def _positions(won_games: list[dict]) -> list[dict]:
    out = []
    for number, seed, at in POSITION_GAMES:
        code = format_code(number, "N" if seed % 2 else "D")
        log = random_log(number, seed, max(at))
        out += _positions_of({"deal": code}, log, at, seed)
    log = _suit_stacks_log()
    out += _positions_of({"layout": SUIT_STACKS}, log, (0, 1, 13, 14, 15, 17, 60, 92, len(log) - 1, len(log)), 99)
    out += _positions_of({"layout": NOT_A_RUN}, ["s", "6>f"], (0, 2), 98)
    # Undo back to the history's limit: "u" is refused for the limit, not for an empty game.
    log = ["s"] * (HISTORY_LIMIT + 30) + ["u"] * HISTORY_LIMIT
    out += _positions_of({"deal": format_code(3)}, log, (len(log),), 97)
    for i, game in enumerate(won_games[:WON_GAME_POSITIONS]):
        log = game["actions"]
        at = (len(log) // 3, 2 * len(log) // 3, len(log) - 1, len(log))
        out += _positions_of({"deal": game["deal"]}, log, at, 1000 + i)
    return out


# -- replays ----------------------------------------------------------------------------------


def _replays(won_games: list[dict]) -> list[dict]:
    cases: list[tuple[str, object, object, int | None]] = []

    def add(name, code, actions, history_limit=HISTORY_LIMIT):
        cases.append((name, code, actions, history_limit))

    add("empty log", "EH1-N-AAAAAAB", [])
    add("five draws", "EH1-D-AAAAAAF", ["s"] * 5)
    add("waste empty at start", "EH1-N-AAAAAAB", ["w>f"])
    add("undo at start", "EH1-N-AAAAAAB", ["u"])
    add("undo everything, then once more", "EH1-N-AAAAAAB", ["s", "u", "u"])
    add("undo everything, unbounded history", "EH1-N-AAAAAAB", ["s", "u", "u"], None)
    add("whole stock, recycle, again", "EH1-N-AAAAAAF", ["s"] * 60 + ["s"] * 60 + ["u", "u", "s", "s"])
    add("three passes", "EH1-N-AACEXHN", ["s"] * 180)
    add("recycle undone back to the last draw", "EH1-N-AAAAAAC", ["s"] * 60 + ["u"] * 60 + ["u"])
    add("a run onto a built column", "EH1-N-AAAAAAB", ["1>2:2"])
    add("a single card by :1", "EH1-N-AAAAAAB", ["s", "7>3:1", "u", "7>3"])
    add("malformed at index 1", "EH1-N-AAAAAAB", ["s", "s ", "s"])
    add("not a string at index 2", "EH1-N-AAAAAAB", ["s", "s", 3, "s"])
    add("null action", "EH1-N-AAAAAAB", [None])
    add("list action", "EH1-N-AAAAAAB", ["s", []])
    add("leading zero", "EH1-N-AAAAAAB", ["01>2"])
    add("self move", "EH1-N-AAAAAAB", ["s", "4>4"])
    add("run too long", "EH1-N-AAAAAAB", ["1>2:14"])
    add("invalid code", "EH1-N-AAAAAAA", ["s"])
    add("lower-case code", "eh1-n-aaaaaab", [])
    add("code not a string", 5, [])
    add("code null", None, ["s"])
    add("actions a string", "EH1-N-AAAAAAB", "s")
    add("actions null", "EH1-N-AAAAAAB", None)
    add("actions an object", "EH1-N-AAAAAAB", {"0": "s"})
    add("actions a number", "EH1-N-AAAAAAB", 1)

    # Deep undo: the history keeps 100 actions; undo 100 is fine, the 101st is refused.
    for number, seed, steps in ((7, 31, 150), (8, 32, 230), (9, 33, 120)):
        code = format_code(number)
        kept = random_log(number, seed, steps, undo_rate=0)
        add(f"deal {number}: {len(kept)} actions, 100 undos", code, kept + ["u"] * 100)
        add(f"deal {number}: {len(kept)} actions, 101 undos", code, kept + ["u"] * 101)
        add(f"deal {number}: {len(kept)} actions, 100 undos, redo by hand", code, kept + ["u"] * 100 + kept[-100:])
        add(f"deal {number}: undo in the middle, 100 deep", code, kept[:60] + ["u"] * 30 + kept[30:] + ["u"] * 100)

    # Random games, and the same games broken by an illegal action at some index.
    rng = random.Random(4242)
    for number, seed, steps in ((11, 41, 80), (12, 42, 200), (13, 43, 350), (14, 44, 500), (15, 45, 60)):
        code = format_code(number, "D")
        log = random_log(number, seed, steps)
        add(f"deal {number}: random game of {len(log)}", code, log)
        cut = rng.randrange(len(log))
        game = Game.new(number)
        for text in log[:cut]:
            game.play(ACTIONS[text])
        illegal = [text for text, action in ACTIONS.items() if game.refusal(action) is not None]
        for bad in rng.sample(illegal, 3):
            add(f"deal {number}: illegal {bad} at {cut}", code, log[:cut] + [bad] + log[cut:])

    # Won games: nothing may follow the winning action, undo included.
    for won in won_games[:3]:
        for extra in ("u", "s", "w>f"):
            add(f"{won['deal']}: {extra} after the win", won["deal"], won["actions"] + [extra])

    return [_replay_vector(name, code, actions, limit) for name, code, actions, limit in cases]


def _replay_vector(name: str, code: object, actions: object, limit: int | None) -> dict:
    result = replay(code, actions, limit)
    return {
        "name": name,
        "deal": code,
        "actions": actions,
        "history_limit": limit,
        "result": _result(result),
        "wire": _wire(result),
        "refusal": _refusal(result.refusal),
    }


# -- won games --------------------------------------------------------------------------------


def _won_games() -> list[dict]:
    """The first MAX_WON_GAMES games of tests/data/won_games.jsonl, when that file exists."""
    if not WON_GAMES_PATH.exists():
        return []
    games = []
    with WON_GAMES_PATH.open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            game = json.loads(line)
            games.append({"deal": game["deal"], "actions": game["actions"]})
            if len(games) == MAX_WON_GAMES:
                break
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.vectors",
        description="Write the browser engine's test vectors (built from the Python engine) to "
        f"{VECTORS_PATH.relative_to(ROOT)}; with --check, only compare and exit non-zero "
        "when the file on disk is stale.",
    )
    parser.add_argument(
        "--check", action="store_true", help="do not write: fail when the file differs from what the engine generates"
    )
    args = parser.parse_args(argv)
    text = vectors_text()
    where = VECTORS_PATH.relative_to(ROOT)
    if args.check:
        try:
            current = VECTORS_PATH.read_text(encoding="utf-8")
        except FileNotFoundError:
            print(f"{where} is missing: run `{REGENERATE}`", file=sys.stderr)
            return 1
        if current != text:
            print(f"{where} is stale: run `{REGENERATE}` and commit it", file=sys.stderr)
            return 1
        print(f"{where} is up to date")
        return 0
    VECTORS_PATH.parent.mkdir(parents=True, exist_ok=True)
    VECTORS_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {where} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
