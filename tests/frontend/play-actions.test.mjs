// What the board's places and action texts mean on the play page
// (frontend/static/frontend/pages/play/actions.js), on deal 1 as the engine deals it:
// column 1 is a lone A♠, column 7's top card 9♠ goes onto column 3's 10♥, column 9's top is A♥.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Game } from "../../frontend/static/frontend/engine/game.js";
import {
  actionKeys, describeAction, describeSource, foundationTarget, landingKeys, parseSrc,
} from "../../frontend/static/frontend/pages/play/actions.js";

const deal1 = () => Game.new(1);
const topIndex = (game, n) => game.columns[n - 1].length - 1;

describe("parseSrc", () => {
  test("reads the waste, a column card and a foundation", () => {
    assert.deepEqual(parseSrc("waste"), { kind: "waste" });
    assert.deepEqual(parseSrc("col:3:5"), { kind: "col", col: 3, index: 5 });
    assert.deepEqual(parseSrc("f:2"), { kind: "f", foundation: 2 });
  });
});

describe("foundationTarget", () => {
  test("is the engine's first foundation that takes the card, 0-based", () => {
    const game = deal1();
    assert.equal(foundationTarget(game, "1>f"), 0);
    assert.equal(foundationTarget(game, "9>f"), 2); // hearts: foundations 3 and 4
    assert.equal(foundationTarget(game, "7>f"), null);
    assert.equal(foundationTarget(game, "w>f"), null); // the waste is empty
  });
});

describe("actionKeys", () => {
  test("light up what moves and where it goes", () => {
    const game = deal1();
    assert.deepEqual(actionKeys(game, "s"), ["stock"]);
    assert.deepEqual(actionKeys(game, "1>f"), ["col:1:0", "foundation:1"]);
    assert.deepEqual(actionKeys(game, "7>3"), [`col:7:${topIndex(game, 7)}`, `col:3:${topIndex(game, 3)}`]);
    assert.deepEqual(actionKeys(game, "9>1:2"), [`col:9:${topIndex(game, 9) - 1}`, `col:9:${topIndex(game, 9)}`, "col:1:0"]);
  });

  test("an empty column is lit as a whole, a foundation nobody takes yet as all of them", () => {
    const game = deal1();
    game.play("1>f");
    assert.deepEqual(actionKeys(game, "8>1"), [`col:8:${topIndex(game, 8)}`, "column:1"]);
    assert.deepEqual(actionKeys(game, "7>f"), [`col:7:${topIndex(game, 7)}`, "foundations"]);
  });
});

describe("landingKeys", () => {
  test("are where the card(s) ended up once played", () => {
    const game = deal1();
    const target = foundationTarget(game, "1>f");
    game.play("1>f");
    assert.deepEqual(landingKeys(game, "1>f", target), ["foundation:1"]);
    game.play("7>3");
    assert.deepEqual(landingKeys(game, "7>3", null), [`col:3:${topIndex(game, 3)}`]);
    game.play("s");
    assert.deepEqual(landingKeys(game, "s", null), ["waste"]);
    assert.deepEqual(landingKeys(game, "u", null), []);
  });
});

describe("describeAction", () => {
  test("says a move in words", () => {
    const game = deal1();
    assert.equal(describeAction(game, "7>3"), "move 9♠ from column 7 to column 3");
    assert.equal(describeAction(game, "9>f"), "move A♥ from column 9 to a foundation");
    assert.equal(describeAction(game, "9>1:2"), "move the run from 4♥ from column 9 to column 1");
    assert.equal(describeAction(game, "s"), "draw a card from the stock");
    assert.equal(describeAction(game, "u"), "undo the last move");
  });

  test("says a take back from its foundation", () => {
    const game = deal1();
    game.play("1>f");
    assert.equal(describeAction(game, "f1>3"), "move A♠ from foundation 1 to column 3");
  });
});

describe("describeSource", () => {
  test("names the top card, or says 'That card' when there is none", () => {
    const game = deal1();
    assert.equal(describeSource(game, "1"), "A♠");
    assert.equal(describeSource(game, "3"), "10♥");
    assert.equal(describeSource(game, "w"), "That card");
  });
});
