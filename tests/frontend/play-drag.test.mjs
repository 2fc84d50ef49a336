// What a drop on the board means (frontend/static/frontend/pages/play/drag.js, dropAction): the
// action text the engine is asked about, nothing (the cards go back), or a refusal of a run
// dropped on the foundations. The engine judges the action itself; this is only the gesture.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Game } from "../../frontend/static/frontend/engine/game.js";
import { dropAction } from "../../frontend/static/frontend/pages/play/drag.js";
import { TEXT } from "../../frontend/static/frontend/pages/play/text.js";

const FOUNDATIONS = { foundations: true };
const column = (n) => ({ column: n });
const RUN_REFUSED = { message: TEXT.runToFoundation };

describe("dropAction", () => {
  const game = Game.new(1);
  const top = (n) => game.columns[n - 1].length - 1;

  test("a drop off the board puts the cards back", () => {
    assert.equal(dropAction(game, "waste", null), null);
    assert.equal(dropAction(game, `col:7:${top(7)}`, null), null);
  });

  test("the waste's top card goes to the foundations or a column", () => {
    assert.equal(dropAction(game, "waste", FOUNDATIONS), "w>f");
    assert.equal(dropAction(game, "waste", column(4)), "w>4");
  });

  test("a foundation's top card is taken back onto a column, never onto the foundations", () => {
    assert.equal(dropAction(game, "f:2", column(5)), "f2>5");
    assert.equal(dropAction(game, "f:2", FOUNDATIONS), null);
  });

  test("a column's top card goes to the foundations or another column", () => {
    assert.equal(dropAction(game, `col:7:${top(7)}`, FOUNDATIONS), "7>f");
    assert.equal(dropAction(game, `col:7:${top(7)}`, column(3)), "7>3");
    assert.equal(dropAction(game, `col:7:${top(7)}`, column(7)), null);
  });

  test("a card with cards on it moves them all as a run, never onto the foundations", () => {
    assert.equal(dropAction(game, `col:9:${top(9) - 1}`, column(1)), "9>1:2");
    assert.equal(dropAction(game, `col:9:${top(9) - 2}`, column(1)), "9>1:3");
    assert.deepEqual(dropAction(game, `col:9:${top(9) - 1}`, FOUNDATIONS), RUN_REFUSED);
  });

  test("a run longer than a suit (13 cards) is refused before the engine is asked", () => {
    const tall = { columns: [Array.from({ length: 20 }, (_, i) => i), [], [], [], [], [], [], [], []] };
    assert.equal(dropAction(tall, "col:1:7", column(2)), "1>2:13");
    assert.deepEqual(dropAction(tall, "col:1:6", column(2)), RUN_REFUSED);
  });
});
