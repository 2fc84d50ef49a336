// The game by keyboard and for screen readers, in its pure parts: where an arrow key leads
// (play/keyboard.js), what Enter picks up and where it puts it down, the action an undo takes
// back (play/history.js), a played action in words (play/announce.js) and a card's name
// (card-words.js), in English and through a catalogue. On deal 1 as the engine deals it:
// column 1 is a lone A♠, column 7's top card 9♠ goes onto column 3's 10♥, column 9's top is A♥.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { cardName } from "../../frontend/static/frontend/lib/card-words.js";
import { Game } from "../../frontend/static/frontend/engine/game.js";
import { describePlayed } from "../../frontend/static/frontend/pages/play/announce.js";
import { lastPlayed } from "../../frontend/static/frontend/pages/play/history.js";
import { neighbour, sourceAt, targetAt } from "../../frontend/static/frontend/pages/play/keyboard.js";

afterEach(() => {
  delete globalThis.django;
});

/** Card-sized boxes (60 x 84) at `left`, `top`. */
const box = (left, top) => ({ left, top, right: left + 60, bottom: top + 84 });

/** A desktop table: stock, waste and 8 foundations in one row, 9 columns below. */
function desktop() {
  const boxes = { stock: box(0, 0), waste: box(70, 0) };
  for (let f = 1; f <= 8; f++) boxes[`f${f}`] = box(200 + (f - 1) * 70, 0);
  for (let c = 1; c <= 9; c++) boxes[`c${c}`] = box((c - 1) * 90, 120);
  return boxes;
}

/** A phone table: the foundations on top, then stock and waste, then the columns. */
function phone() {
  const boxes = { stock: box(0, 100), waste: box(70, 100) };
  for (let f = 1; f <= 8; f++) boxes[`f${f}`] = box(10 + (f - 1) * 45, 0);
  for (let c = 1; c <= 9; c++) boxes[`c${c}`] = box((c - 1) * 40, 200);
  return boxes;
}

describe("neighbour", () => {
  test("left and right stay in the row, and stop at its ends", () => {
    const boxes = desktop();
    assert.equal(neighbour(boxes, "stock", "ArrowRight"), "waste");
    assert.equal(neighbour(boxes, "waste", "ArrowRight"), "f1");
    assert.equal(neighbour(boxes, "f1", "ArrowLeft"), "waste");
    assert.equal(neighbour(boxes, "stock", "ArrowLeft"), null);
    assert.equal(neighbour(boxes, "f8", "ArrowRight"), null);
    assert.equal(neighbour(boxes, "c4", "ArrowRight"), "c5");
    assert.equal(neighbour(boxes, "c9", "ArrowRight"), null);
  });

  test("Home and End go to the row's ends", () => {
    const boxes = desktop();
    assert.equal(neighbour(boxes, "f3", "Home"), "stock");
    assert.equal(neighbour(boxes, "waste", "End"), "f8");
    assert.equal(neighbour(boxes, "c5", "Home"), "c1");
    assert.equal(neighbour(boxes, "c9", "End"), null);
  });

  test("up and down go to the nearest pile in the next row", () => {
    const boxes = desktop();
    assert.equal(neighbour(boxes, "stock", "ArrowDown"), "c1");
    assert.equal(neighbour(boxes, "f8", "ArrowDown"), "c9");
    assert.equal(neighbour(boxes, "c1", "ArrowUp"), "stock");
    assert.equal(neighbour(boxes, "c4", "ArrowUp"), "f2"); // 270 is nearest to f2's 270
    assert.equal(neighbour(boxes, "f1", "ArrowUp"), null);
    assert.equal(neighbour(boxes, "c3", "ArrowDown"), null);
  });

  test("on a phone the rows are three: foundations, stock and waste, columns", () => {
    const boxes = phone();
    assert.equal(neighbour(boxes, "c1", "ArrowUp"), "stock");
    assert.equal(neighbour(boxes, "stock", "ArrowUp"), "f1");
    assert.equal(neighbour(boxes, "f8", "ArrowDown"), "waste");
    assert.equal(neighbour(boxes, "waste", "ArrowRight"), null);
    assert.equal(neighbour(boxes, "waste", "ArrowDown"), "c3"); // 100 is nearest to column 3's 80
  });

  test("knows no place it is not given", () => {
    assert.equal(neighbour(desktop(), "c10", "ArrowLeft"), null);
  });
});

describe("sourceAt and targetAt", () => {
  test("pick up a column's face-up card with those on it, never a face-down one", () => {
    const game = Game.new(1);
    const snap = game.snapshot();
    const top7 = snap.columns[6].length - 1;
    assert.equal(sourceAt(snap, { place: "c7", depth: 0 }), `col:7:${top7}`);
    assert.equal(sourceAt(snap, { place: "c7", depth: 1 }), null); // only the top card is face up
    assert.equal(sourceAt(snap, { place: "c1", depth: 0 }), "col:1:0");
  });

  test("pick up the waste's top and a foundation's top, when there is one", () => {
    const game = Game.new(1);
    assert.equal(sourceAt(game.snapshot(), { place: "waste", depth: 0 }), null);
    assert.equal(sourceAt(game.snapshot(), { place: "f1", depth: 0 }), null);
    assert.equal(sourceAt(game.snapshot(), { place: "stock", depth: 0 }), null);
    game.play("s");
    game.play("1>f");
    assert.equal(sourceAt(game.snapshot(), { place: "waste", depth: 0 }), "waste");
    assert.equal(sourceAt(game.snapshot(), { place: "f1", depth: 0 }), "f:1");
    assert.equal(sourceAt(game.snapshot(), { place: "c1", depth: 0 }), null); // column 1 is empty now
  });

  test("put down on a column or the foundations, nowhere else", () => {
    assert.deepEqual(targetAt("c4"), { column: 4 });
    assert.deepEqual(targetAt("f7"), { foundations: true });
    assert.equal(targetAt("stock"), null);
    assert.equal(targetAt("waste"), null);
  });
});

describe("lastPlayed", () => {
  test("is the last action not undone already", () => {
    assert.equal(lastPlayed([]), null);
    assert.equal(lastPlayed(["s", "7>3"]), "7>3");
    assert.equal(lastPlayed(["s", "7>3", "u"]), "s");
    assert.equal(lastPlayed(["s", "7>3", "u", "u"]), null);
    assert.equal(lastPlayed(["s", "7>3", "u", "1>f", "u"]), "s");
    assert.equal(lastPlayed(["s", "7>3", "u", "7>3"]), "7>3");
  });
});

describe("describePlayed", () => {
  /** `text` played on `game`, in words. */
  const played = (game, text) => {
    const before = game.snapshot();
    game.play(text);
    return describePlayed(before, game.snapshot(), text);
  };

  test("says what moved where, and what turned up", () => {
    const game = Game.new(1);
    assert.equal(played(game, "1>f"), "ace of spades to foundation 1.");
    const said = played(game, "9>f");
    assert.equal(said, `ace of hearts to foundation 3. Turned up ${cardName(game.snapshot().columns[8].at(-1))}.`);
    const words = played(game, "7>3");
    assert.equal(words, `nine of spades to column 3. Turned up ${cardName(game.snapshot().columns[6].at(-1))}.`);
    assert.equal(played(game, "u"), "Undone.");
  });

  test("says a draw, a run and the end of the stock", () => {
    const game = Game.new(1);
    const drawn = game.stock.length;
    assert.match(played(game, "s"), /^Drew [a-z]+ of [a-z]+\.$/);
    for (let i = 1; i < drawn; i++) game.play("s");
    assert.equal(played(game, "s"), "Turned the waste over into the stock.");
    const before = { columns: [["KS", "QH"], []], down: [0, 0], waste: [], stock: [], foundations: [], won: false };
    const after = { columns: [[], ["KS", "QH"]], down: [0, 0], waste: [], stock: [], foundations: [], won: false };
    assert.equal(describePlayed(before, after, "1>2:2"), "king of spades and 1 card on it to column 2.");
  });
});

describe("cardName", () => {
  test("names a card in English without a catalogue", () => {
    assert.equal(cardName("7C"), "seven of clubs");
    assert.equal(cardName("TH"), "ten of hearts");
    assert.equal(cardName("QD"), "queen of diamonds");
    assert.equal(cardName("AS"), "ace of spades");
  });

  test("names it through the catalogue, in its word order", () => {
    const words = {
      "card rank\x04seven": "Sieben", "in a card's name\x04clubs": "Kreuz", "%(rank)s of %(suit)s": "%(suit)s %(rank)s",
    };
    globalThis.django = {
      gettext: (id) => words[id] || id,
      ngettext: (one, many, n) => (n === 1 ? one : many),
      pgettext: (context, id) => words[`${context}\x04${id}`] || id,
    };
    assert.equal(cardName("7C"), "Kreuz Sieben");
    delete globalThis.django;
    assert.equal(cardName("7C"), "seven of clubs");
  });
});
