// The browser engine (frontend/static/frontend/engine/) against the Python engine.
//
// vectors.json is written from the Python engine by tools/vectors.py (`python -m
// tools.vectors`); every vector in it is checked here. Refusals are compared as reason codes and
// arguments; their words come from refusals.js, whose catalogue must be Python's. A few
// hand-written tests of the rules and of the words follow.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  ACTIONS, COL_COL, MalformedAction, formatAction, malformedRefusal, parseAction, whyMalformed,
} from "../../frontend/static/frontend/engine/actions.js";
import { DECK_SIZE, NAME, card, cardName } from "../../frontend/static/frontend/engine/cards.js";
import { InvalidCode, deal, formatCode, parseCode, shuffledDeck } from "../../frontend/static/frontend/engine/deal.js";
import { Game, HISTORY_LIMIT, IllegalAction } from "../../frontend/static/frontend/engine/game.js";
import { MESSAGES, Refused, SUIT_NAMES, quote, render } from "../../frontend/static/frontend/engine/refusals.js";
import { ReplayResult, replay, replayOnto } from "../../frontend/static/frontend/engine/replay.js";

const vectors = JSON.parse(readFileSync(new URL("../../frontend/static/frontend/engine/vectors.json", import.meta.url), "utf8"));

const names = (cards) => cards.map((c) => NAME[c]);

function layoutOf(named) {
  return { number: 0, columns: named.columns.map((col) => col.map(card)), stock: named.stock.map(card) };
}

function freshGame(where) {
  if (where.deal !== undefined) return Game.new(parseCode(where.deal).number);
  const game = new Game(layoutOf(where.layout));
  if (where.layout.down !== undefined) game.down = [...where.layout.down];
  return game;
}

/** A refusal as one line, as the Python generator writes it: JSON, keys sorted, no spaces. */
function refusalKey(refusal) {
  if (refusal === null) return "";
  const args = Object.fromEntries(Object.entries(refusal.args).sort(([x], [y]) => (x < y ? -1 : 1)));
  return JSON.stringify({ args, code: refusal.code });
}

function refusalDigest(game) {
  const lines = [...ACTIONS].map(([text, action]) => `${text}\t${refusalKey(game.refusalCode(action))}`);
  return createHash("sha256").update(lines.join("\n"), "utf8").digest("hex");
}

function throwsWith(fn, type, message) {
  assert.throws(fn, (exc) => {
    assert.ok(exc instanceof type, `expected ${type.name}, got ${exc}`);
    assert.equal(exc.message, message);
    return true;
  });
}

/** `fn` throws a `type` error that carries `refusal` and says it in refusals.js's words. */
function throwsRefusal(fn, type, refusal) {
  assert.throws(fn, (exc) => {
    assert.ok(exc instanceof type, `expected ${type.name}, got ${exc}`);
    assert.deepEqual({ code: exc.code, args: exc.args }, refusal);
    assert.equal(exc.message, render(refusal));
    return true;
  });
}

/** A result dict without its words (`error`): the vectors compare the refusal instead. */
function withoutError(dict) {
  const { error: _error, ...rest } = dict;
  return rest;
}

const label = (value) => JSON.stringify(value);

// ---------------------------------------------------------------------------------------------
// Vectors from the Python engine
// ---------------------------------------------------------------------------------------------

describe("vectors.json", () => {
  test("is complete", () => {
    for (const [key, count] of Object.entries(vectors.meta.counts)) {
      assert.equal(vectors[key].length, count, key);
    }
    assert.equal(vectors.meta.rules, "EH1");
    assert.equal(vectors.meta.history_limit, HISTORY_LIMIT);
    assert.ok(vectors.deals.length >= 30);
    assert.ok(vectors.positions.length >= 30);
    assert.ok(vectors.replays.length >= 40);
    assert.equal(vectors.actions.length, ACTIONS.size);
  });

  test("refusals.js holds Python's catalogue: the same codes, the same templates", () => {
    assert.deepEqual(Object.keys(MESSAGES).sort(), Object.keys(vectors.messages).sort());
    for (const [code, template] of Object.entries(vectors.messages)) assert.equal(MESSAGES[code], template, code);
    assert.deepEqual({ ...SUIT_NAMES }, vectors.suit_names);
  });

  test("every reason code of the catalogue is met by some vector", () => {
    const met = new Set([
      ...vectors.positions.flatMap((v) => v.refusals.map(([, refusal]) => refusal.code)),
      ...vectors.malformed.map((v) => v.refusal.code),
      ...[...vectors.codes, ...vectors.format_code].filter((v) => v.refusal).map((v) => v.refusal.code),
      ...vectors.replays.filter((v) => v.refusal).map((v) => v.refusal.code),
    ]);
    assert.deepEqual([...met].sort(), Object.keys(MESSAGES).sort());
  });
});

describe("deals", () => {
  for (const v of vectors.deals) {
    test(`deal ${v.number}`, () => {
      const layout = deal(v.number);
      assert.deepEqual(layout.columns.map(names), v.columns);
      assert.deepEqual(names(layout.stock), v.stock);
      for (const [mode, code] of Object.entries(v.codes)) {
        assert.equal(formatCode(v.number, mode), code);
        const parsed = parseCode(code);
        assert.equal(parsed.number, v.number);
        assert.equal(parsed.mode, mode);
        assert.equal(String(parsed), code);
      }
    });
  }
});

describe("deal codes", () => {
  for (const v of vectors.codes) {
    test(`parseCode(${label(v.code)})`, () => {
      if (v.refusal !== undefined) {
        throwsRefusal(() => parseCode(v.code), InvalidCode, v.refusal);
      } else {
        const parsed = parseCode(v.code);
        assert.deepEqual([parsed.mode, parsed.number, String(parsed)], [v.mode, v.number, v.formatted]);
      }
    });
  }
  for (const v of vectors.format_code) {
    test(`formatCode(${label(v.number)}, ${label(v.mode)})`, () => {
      throwsRefusal(() => formatCode(v.number, v.mode), InvalidCode, v.refusal);
    });
  }
});

describe("actions", () => {
  test("the table: the same texts, parsed the same, in the same order", () => {
    const table = [...ACTIONS].map(([text, action]) => [text, [...action], formatAction(action)]);
    assert.deepEqual(table, vectors.actions);
    for (const [text, action] of vectors.actions) assert.deepEqual([...parseAction(text)], action);
  });
  for (const v of vectors.malformed) {
    test(`malformed ${label(v.text)}`, () => {
      assert.deepEqual(malformedRefusal(v.text), v.refusal);
      assert.equal(whyMalformed(v.text), render(v.refusal));
      throwsRefusal(() => parseAction(v.text), MalformedAction, v.refusal);
    });
  }
});

describe("positions", () => {
  vectors.positions.forEach((v, i) => {
    const where = v.deal ?? "constructed layout";
    test(`position ${i}: ${where} after ${v.actions.length} actions`, () => {
      const game = freshGame(v);
      v.actions.forEach((text, index) => {
        const reason = game.refusal(text);
        assert.equal(reason, null, `action ${index} ${text} refused: ${reason}`);
        game.play(text);
      });
      assert.deepEqual(game.snapshot(), v.snapshot);
      assert.deepEqual(game.legalActions(), v.legal_actions);
      for (const [source, tap] of Object.entries(v.taps)) {
        assert.equal(game.tapDestination(source, false), tap.single, `tap on ${source}`);
        assert.equal(game.tapDestination(source, true), tap.double, `double tap on ${source}`);
        assert.equal(game.tapDestination(source), tap.double, `default tap on ${source}`);
      }
      for (const [text, refusal] of v.refusals) {
        assert.deepEqual(game.refusalCode(text), refusal, text);
        assert.equal(game.refusal(text), render(refusal), text);
        const before = JSON.stringify(game.snapshot());
        throwsRefusal(() => game.play(text), IllegalAction, refusal);
        assert.equal(JSON.stringify(game.snapshot()), before, `${text} changed the table`);
      }
      assert.equal(refusalDigest(game), v.refusal_digest, "refusal of some action of the table");
      assert.deepEqual(withoutError(replayOnto(freshGame(v), v.actions).toDict()), v.result);
      if (v.deal !== undefined) assert.deepEqual(withoutError(replay(v.deal, v.actions).toDict()), v.result);
    });
  });
});

describe("replays", () => {
  for (const v of vectors.replays) {
    test(v.name, () => {
      const result = replay(v.deal, v.actions, v.history_limit);
      assert.ok(result instanceof ReplayResult);
      assert.deepEqual(withoutError(result.toDict()), v.result);
      assert.deepEqual(withoutError(result.toWire()), v.wire);
      assert.deepEqual(result.refusal, v.refusal);
      if (v.refusal === null) {
        assert.equal(result.error, "");
      } else { // an illegal action's words follow its text; any other refusal's stand alone
        const text = v.result.index === null ? null : v.actions[v.result.index];
        const illegal = typeof text === "string" && ACTIONS.has(text);
        assert.equal(result.error, (illegal ? `${text}: ` : "") + render(v.refusal));
      }
    });
  }
});

describe("won games", () => {
  test("tests/data/won_games.jsonl is in the vectors when it exists", { skip: vectors.won_games.length === 0 && "no won games in vectors.json (tests/data/won_games.jsonl missing when generated)" }, () => {
    assert.ok(vectors.won_games.every((v) => v.result.won));
  });
  for (const v of vectors.won_games) {
    test(`${v.deal}, ${v.actions.length} actions`, () => {
      const result = replay(v.deal, v.actions);
      assert.deepEqual(withoutError(result.toDict()), v.result);
      assert.deepEqual(result.toWire(), { ok: true, won: true, score: v.result.score, moves: v.result.moves, foundation: DECK_SIZE });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Hand-written rules tests
// ---------------------------------------------------------------------------------------------

/** Section 3 with BigInt arithmetic: the reference that the Math.imul shuffle must equal. */
function bigIntDeck(number) {
  const deck = [];
  for (let copy = 0; copy < 2; copy++) for (let c = 0; c < 52; c++) deck.push(c);
  let state = BigInt(number);
  for (let i = deck.length - 1; i > 0; i--) {
    state = (state * 214013n + 2531011n) % 2147483648n;
    const j = Number((state >> 16n) % BigInt(i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** A table from card names: columns bottom to top (missing ones empty), the stock in draw order. */
function table(columns, stock = []) {
  const nine = Array.from({ length: 9 }, (_, n) => (columns[n] ?? []).map(card));
  const game = new Game({ number: 0, columns: nine, stock: stock.map(card) });
  // As in Python, Game() counts len - 1 face-down cards, -1 for an empty column: a real
  // deal never has one, these hand-made tables do.
  game.down = game.down.map((d) => Math.max(d, 0));
  return game;
}

describe("rules", () => {
  test("the check values of section 3", () => {
    const rows = [
      [1, "EH1-N-AAAAAAB", "AS 3C TH 9D 3S 5S 9S KH AH", "2S QC 3D JC 6S 9C 6C 4H AH", "3S QD 2H 9H QD", "3C"],
      [5, "EH1-N-AAAAAAF", "KC AD 7C TC 2S 6S 2D AS AD", "TH 5H QD 6C QS TC KD 5D AD", "KH 7S 4C QD 4D", "3S"],
      [999999, "EH1-N-AACEXHN", "JC 2C JH 6C TH 3C JC 9S 4H", "3C KS 9H TD QH 5S 8H 4C 4H", "6C 7C 7D AC 6D", "3S"],
    ];
    for (const [number, code, tops, column9, firstDraws, last] of rows) {
      const layout = deal(number);
      assert.equal(formatCode(number), code);
      assert.equal(layout.columns.map((col) => NAME[col.at(-1)]).join(" "), tops);
      assert.equal(names(layout.columns[8]).join(" "), column9);
      assert.equal(names(layout.stock.slice(0, 5)).join(" "), firstDraws);
      assert.equal(NAME[layout.stock.at(-1)], last);
      assert.deepEqual(layout.columns.map((col) => col.length), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
      assert.equal(layout.stock.length, 59);
    }
  });

  test("the shuffle has no float rounding: it equals a BigInt LCG", () => {
    const numbers = [1, 2, 3, 1000, 65535, 65536, 131071, 524287, 999998, 999999];
    for (let n = 1; n <= 2000; n += 7) numbers.push(n, 1_000_000 - n);
    for (const n of numbers) assert.deepEqual(shuffledDeck(n), bigIntDeck(n), `deal ${n}`);
  });

  test("every card twice", () => {
    const layout = deal(4242);
    const counts = new Array(52).fill(0);
    for (const c of [...layout.columns.flat(), ...layout.stock]) counts[c] += 1;
    assert.ok(counts.every((n) => n === 2));
    assert.equal(cardName(card("TH")), "TH");
    assert.throws(() => card("1H"), /not a card: '1H'/);
  });

  test("deal codes are base 26, A = 0, seven letters", () => {
    assert.equal(formatCode(5), "EH1-N-AAAAAAF");
    assert.equal(formatCode(26, "D"), "EH1-D-AAAAABA");
    assert.equal(parseCode("EH1-D-AACEXHN").number, 999999);
    assert.throws(() => parseCode("EH1-N-AACEXHO"), InvalidCode);
    assert.throws(() => parseCode("eh1-n-aaaaaaf"), InvalidCode);
  });

  test("words: a typed text in quotes, control characters escaped, numbers grouped", () => {
    assert.equal(quote("s "), "'s '");
    assert.equal(quote("it's"), '"it\'s"');
    assert.equal(quote(`it's "x"`), `'it\\'s "x"'`);
    assert.equal(quote("a\tb\n\x00\u00e9\ud800"), "'a\\tb\\n\\u0000\u00e9\\ud800'");
    assert.equal(quote(null), "null");
    assert.equal(whyMalformed({}), "an action must be a string, not dict");
    assert.equal(whyMalformed(true), "an action must be a string, not bool");
    assert.equal(whyMalformed("s "),
      "malformed action 's ': expected s, u, w>f, w>N, N>f, N>M, N>M:K or fK>N (columns 1-9, foundations 1-8, no spaces)");
    throwsWith(() => parseCode("EH1-N-ZZZZZZZ"), InvalidCode, "'EH1-N-ZZZZZZZ' names deal 8,031,810,175, outside 1..999,999");
    assert.equal(render({ code: "foundation_refuses", args: { card: "2H", suit: "H", first: 3, second: 4 } }),
      "No foundation takes 2H: the hearts foundations (3 and 4) take only the next card of their suit, Ace first.");
    assert.throws(() => render({ code: "constructor", args: {} }), /no message for reason code/);
  });

  test("errors carry their refusal: code and args", () => {
    const game = Game.new(1);
    for (const fn of [() => game.play("w>f"), () => parseAction("1>1"), () => parseCode("EH1")]) {
      assert.throws(fn, (exc) => {
        assert.ok(exc instanceof Refused && exc instanceof Error);
        assert.equal(exc.message, render(exc.refusal));
        assert.deepEqual(exc.refusal, { code: exc.code, args: exc.args });
        return true;
      });
    }
    assert.deepEqual(game.refusalCode("2>3"), { code: "column_refuses", args: { card: "3C", target: "TH" } });
    assert.equal(game.refusalCode("1>f"), null);
    assert.equal(game.refusal("1>f"), null);
  });

  test("an illegal action throws IllegalAction and changes nothing", () => {
    const game = Game.new(1);
    const before = JSON.stringify(game.snapshot());
    throwsWith(() => game.play("w>f"), IllegalAction, "The waste is empty.");
    throwsWith(() => game.play("1>2:2"), IllegalAction,
      "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column.");
    throwsWith(() => game.play("1>1"), MalformedAction, "malformed action '1>1': a card cannot move onto its own column");
    assert.equal(JSON.stringify(game.snapshot()), before);
  });

  test("the stock: draw one, turn the waste over, draw again in the same order", () => {
    const game = Game.new(5);
    const order = names(deal(5).stock);
    for (let i = 0; i < 59; i++) game.play("s");
    assert.deepEqual(game.snapshot().waste, order);
    game.play("s"); // the turn-over
    assert.deepEqual(game.snapshot().stock, order);
    assert.equal(game.stockPasses, 1);
    for (let i = 0; i < 3; i++) game.play("s");
    assert.deepEqual(game.snapshot().waste, order.slice(0, 3));
    for (let i = 0; i < 4; i++) game.play("u");
    assert.deepEqual(game.snapshot().waste, order);
    assert.equal(game.stockPasses, 0);
    assert.equal(game.moves, 63);
    assert.equal(game.score, 0);
  });

  test("undo keeps the last 100 actions and never lowers the move counter", () => {
    const game = Game.new(1);
    for (let i = 0; i < 130; i++) game.play("s");
    assert.equal(game.history.length, HISTORY_LIMIT);
    for (let i = 0; i < 100; i++) game.undo();
    assert.equal(game.moves, 130);
    assert.equal(game.undos, 100);
    assert.equal(game.refusal("u"), "Nothing left to undo: undo goes back at most 100 actions.");
    assert.equal(Game.new(1).refusal("u"), "Nothing to undo.");
    const unbounded = Game.new(1, null);
    for (let i = 0; i < 130; i++) unbounded.play("s");
    for (let i = 0; i < 130; i++) unbounded.play("u");
    assert.equal(unbounded.snapshot().waste.length, 0);
  });

  test("score: +10 to a foundation, +5 a flip, nothing for column moves, undo takes points back", () => {
    // Column 1: 2S face down under AS; column 2: 3H; the stock: AC then 2D.
    const game = table([["2S", "AS"], ["3H"]], ["AC", "2D"]);
    game.play("1>f"); // AS home (+10), 2S turns up (+5)
    assert.equal(game.score, 15);
    assert.deepEqual(game.snapshot().down.slice(0, 2), [0, 0]);
    game.play("1>2"); // 2S onto 3H: nothing
    assert.equal(game.score, 15);
    game.play("s");
    game.play("w>f"); // AC home
    assert.equal(game.score, 25);
    game.play("s");
    throwsWith(() => game.play("w>2"), IllegalAction,
      "2D cannot go on 2S: a column takes a card of the opposite colour, exactly one rank lower.");
    for (let i = 0; i < 5; i++) game.play("u");
    assert.equal(game.score, 0);
    assert.equal(game.moves, 5);
    assert.deepEqual(game.snapshot().down.slice(0, 2), [1, 0]);
    assert.deepEqual(game.snapshot().columns.slice(0, 2), [["2S", "AS"], ["3H"]]);
  });

  test("a card from the waste onto a column earns 5", () => {
    const game = table([["9C"], ["3S"]], ["2D"]);
    game.play("s");
    game.play("w>2");
    assert.equal(game.score, 5);
    assert.equal(game.wasteToColumn, 1);
    game.play("u");
    assert.equal(game.score, 0);
    assert.equal(game.wasteToColumn, 0);
    assert.deepEqual(game.snapshot().waste, ["2D"]);
  });

  test("an empty column takes only a King, and a King-led run moves whole only there", () => {
    const game = table([["KH"], ["QS"], ["JD"], ["5C"], []], []);
    throwsWith(() => game.play("2>5"), IllegalAction, "An empty column takes only a King, not QS.");
    game.play("2>1"); // QS on KH
    game.play("3>1"); // JD on QS
    // Columns 2, 3 and 5..9 are empty now; only the whole King-led run of 3 may go there.
    assert.deepEqual(game.legalActions().filter((t) => t.includes(":")),
      ["1>2:3", "1>3:3", "1>5:3", "1>6:3", "1>7:3", "1>8:3", "1>9:3"]);
    assert.equal(game.refusal("1>4:3"), "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column.");
    assert.equal(game.refusal("1>5:2"), "Only a King-led run moves as a whole: QS is not a King.");
    assert.equal(game.refusal("1>5:4"), "Column 1 has fewer than 4 face-up cards.");
    game.play("1>5:3");
    assert.deepEqual(game.snapshot().columns[4], ["KH", "QS", "JD"]);
    game.play("u");
    assert.deepEqual(game.snapshot().columns[0], ["KH", "QS", "JD"]);
  });

  test("face-up cards that are not a run (unreachable in play, a guard all the same)", () => {
    const game = table([["KH", "QS", "JS"], []]);
    game.down[0] = 0; // force all three face up
    assert.equal(game.refusal("1>2:3"),
      "The top 3 cards of column 1 are not a run: JS does not follow QS in alternating colour, one rank lower.");
  });

  test("foundations fill in order 1..8; take-backs cost nothing", () => {
    const game = table([["AS"], ["AS"], ["2S"], []]);
    game.play("1>f");
    game.play("2>f");
    assert.deepEqual(game.snapshot().foundations.slice(0, 2), ["AS", "AS"]);
    game.play("3>f");
    assert.deepEqual(game.snapshot().foundations.slice(0, 2), ["2S", "AS"]);
    assert.equal(game.score, 30);
    assert.equal(game.refusal("f3>4"), "Foundation 3 is empty.");
    assert.equal(game.refusal("f1>4"), "An empty column takes only a King, not 2S.");
    assert.equal(game.refusal("w>f"), "The waste is empty.");
    assert.equal(game.refusal("s"), "The stock and the waste are both empty: there is nothing to turn.");
  });

  test("a double tap: the longest accepting column, leftmost on a tie, then an empty one for a King", () => {
    const game = table([["9H"], ["4D", "9D"], ["5C", "9H"], ["8S"], []], ["8C", "KD"]);
    game.play("s"); // 8C on the waste
    assert.equal(game.tapDestination("w", false), null);
    // 9H in column 1 (1 card), 9D in column 2 (2 cards), 9H in column 3 (2 cards): column 2.
    assert.equal(game.tapDestination("w", true), "w>2");
    assert.equal(game.tapDestination("4", false), null);
    assert.equal(game.tapDestination("4"), "4>2");
    game.play("s"); // KD
    assert.equal(game.tapDestination("w", false), null);
    assert.equal(game.tapDestination("w"), "w>5"); // the leftmost empty column
    assert.throws(() => game.tapDestination("x"), /not a tap source/);
  });

  test("nothing may follow the winning action", () => {
    const columns = ["S", "S", "H", "H", "D", "D", "C", "C"].map((s) => [..."KQJT98765432A"].map((r) => r + s));
    const game = table(columns);
    for (let n = 1; n <= 8; n++) for (let i = 0; i < 13; i++) game.play(`${n}>f`);
    assert.ok(game.won);
    assert.equal(game.score, 104 * 10 + 96 * 5);
    for (const text of ["u", "s", "w>f", "1>2", "f1>1"]) {
      assert.equal(game.refusal(text), "The game is won: nothing may follow the winning action.");
    }
    assert.throws(() => game.undo(), IllegalAction);
    assert.deepEqual(game.legalActions(), []);
  });

  test("a replay names the first bad action", () => {
    assert.deepEqual(replay("EH1-N-AAAAAAB", ["s", "w>f", "x"]).toWire(),
      { ok: false, index: 1, error: "w>f: No foundation takes 3S: the spades foundations (1 and 2) take only the next card of their suit, Ace first." });
    assert.deepEqual(replay("EH1-N-AAAAAAB", ["s", 7]).toWire(), { ok: false, index: 1, error: "an action must be a string, not int" });
    assert.deepEqual(replay("EH1-N-AAAAAAB", "s").toWire(), { ok: false, index: null, error: "actions must be a list of action strings" });
    const ok = replay("EH1-N-AAAAAAB", ["9>f", "1>f"]);
    assert.deepEqual(ok.toWire(), { ok: true, won: false, score: 25, moves: 2, foundation: 2 });
    assert.equal(ok.takeBacks, 0);
    assert.ok(Object.isFrozen(ok));
  });

  test("the action table holds K = 1..13 runs, N>M:1 being N>M", () => {
    assert.deepEqual(parseAction("3>5:1"), parseAction("3>5"));
    assert.equal(formatAction(parseAction("3>5:1")), "3>5");
    assert.equal(parseAction("3>5:13")[0], COL_COL);
    assert.ok(!ACTIONS.has("__proto__") && !ACTIONS.has("constructor"));
    throwsWith(() => parseAction("constructor"), MalformedAction,
      "malformed action 'constructor': expected s, u, w>f, w>N, N>f, N>M, N>M:K or fK>N (columns 1-9, foundations 1-8, no spaces)");
  });
});
