// The play page's feel, its pure parts: refusals in suit symbols (play/actions.js), which cards
// fly (play/motion.js), when to ask before dealing again (play/confirm.js), how long a refusal
// stays (play/view.js), the win's bouncing cards (play/celebrate.js) and the cards shrinking
// until the tallest column fits the window (table.js). On deal 1 as the engine deals it:
// column 1 is a lone A♠, column 3's top is 10♥, column 7's top 9♠ goes onto it.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Game } from "../../frontend/static/frontend/engine/game.js";
import { landingKeys, refusalWords } from "../../frontend/static/frontend/pages/play/actions.js";
import { bouncePath } from "../../frontend/static/frontend/pages/play/celebrate.js";
import { question, wouldLose } from "../../frontend/static/frontend/pages/play/confirm.js";
import { takeOffKeys } from "../../frontend/static/frontend/pages/play/motion.js";
import { createPlayState } from "../../frontend/static/frontend/pages/play/state.js";
import { refusalLinger } from "../../frontend/static/frontend/pages/play/view.js";
import { MIN_FIT_WIDTH, fitCards, measure } from "../../frontend/static/frontend/lib/table.js";

const deal1 = () => Game.new(1);
const topIndex = (game, n) => game.columns[n - 1].length - 1;

describe("refusalWords", () => {
  test("writes the cards with their suits' symbols, as hints do", () => {
    const game = deal1();
    assert.equal(refusalWords(game, "1>3"),
      "A♠ cannot go on 10♥: a column takes a card of the opposite colour, exactly one rank lower.");
    assert.match(refusalWords(game, "7>f"), /^No foundation takes 9♠: the spades foundations \(1 and 2\)/);
  });

  test("leaves the engine's own words in the notation, and says nothing of a legal action", () => {
    const game = deal1();
    assert.match(game.refusal("1>3"), /^AS cannot go on TH/);
    assert.equal(refusalWords(game, "7>3"), null);
    assert.equal(refusalWords(game, "u"), "Nothing to undo.");
  });
});

describe("takeOffKeys", () => {
  test("are the cards an action picks up, in the order they land", () => {
    const game = deal1();
    assert.deepEqual(takeOffKeys(game, "s"), ["stock"]);
    assert.deepEqual(takeOffKeys(game, "7>3"), [`col:7:${topIndex(game, 7)}`]);
    assert.deepEqual(takeOffKeys(game, "1>f"), ["col:1:0"]);
    const before = takeOffKeys(game, "7>3");
    game.play("7>3");
    assert.equal(landingKeys(game, "7>3", null).length, before.length);
  });

  test("are none for an undo, or for turning the waste over", () => {
    const game = deal1();
    assert.equal(takeOffKeys(game, "u"), null);
    while (game.stock.length) game.play("s");
    assert.equal(takeOffKeys(game, "s"), null);
  });
});

describe("confirm.js", () => {
  const playing = (actions) => {
    const play = createPlayState();
    play.game = deal1();
    for (const text of actions) play.game.play(text);
    play.record = { actions };
    return play;
  };

  test("asks only when a game with moves is on the table", () => {
    assert.equal(wouldLose(playing([]), "playing"), false);
    assert.equal(wouldLose(playing(["s"]), "playing"), true);
    assert.equal(wouldLose(playing(["s"]), "again"), false); // today's panel, no cards shown
    assert.equal(wouldLose(createPlayState(), "playing"), false);
  });

  test("says which deal and how many moves would be lost", () => {
    const two = question(playing(["s", "7>3"]), "same");
    assert.equal(two.title, "Deal the same cards again?");
    assert.equal(two.text, "The game on the table, 2 moves so far, will be thrown away.");
    const one = question(playing(["s"]), "new");
    assert.equal(one.title, "Deal new cards?");
    assert.equal(one.text, "The game on the table, 1 move so far, will be thrown away.");
  });

  test("on today's try, Same deal says its time runs on; New deal does not", () => {
    const today = playing(["s"]);
    today.page = { daily: true };
    assert.equal(question(today, "same").text, "The game on the table, 1 move so far, will be thrown away. "
      + "Today's try goes on: the same cards, and its time by the server's clock keeps running.");
    assert.equal(question(today, "new").text, "The game on the table, 1 move so far, will be thrown away.");
  });
});

describe("refusalLinger", () => {
  test("gives a longer refusal longer to be read, within bounds", () => {
    assert.equal(refusalLinger("Nothing to undo."), 2500);
    const long = refusalWords(deal1(), "1>3");
    assert.ok(refusalLinger(long) > 2500 && refusalLinger(long) <= 10_000);
    assert.equal(refusalLinger("x".repeat(1000)), 10_000);
  });
});

describe("bouncePath", () => {
  test("starts where the card is, falls, and never goes through the floor", () => {
    const path = bouncePath(100, 50, 0.2, -0.3, 600);
    assert.deepEqual(path[0], [0, 0]);
    assert.ok(path.every(([, dy]) => 50 + dy <= 600));
    assert.ok(path.some(([, dy]) => 50 + dy === 600), "it reaches the floor");
    assert.ok(path[path.length - 1][0] > path[1][0], "and travels sideways");
  });
});

describe("fitCards", () => {
  // A 21-card column (8 face down, 13 face up) beside eight short ones.
  const tall = {
    columns: [Array(21).fill("KS"), ...Array.from({ length: 8 }, () => ["AH"])],
    down: [8, 0, 0, 0, 0, 0, 0, 0, 0],
  };
  const height = ({ h, gap }) => 4 + h + 2 * gap + 8 * Math.round(h * 0.13) + 12 * Math.round(h * 0.2) + h;

  test("keeps the width's size when the table fits", () => {
    assert.deepEqual(fitCards(1084, tall, 5000), measure(1084));
  });

  test("shrinks the cards until the tallest column, squeezed, fits the room", () => {
    const size = fitCards(1084, tall, 640);
    assert.ok(size.w < measure(1084).w && size.w >= MIN_FIT_WIDTH, `${size.w}`);
    assert.equal(size.h, Math.round(size.w * 1.4));
    assert.ok(height(size) <= 640, `${height(size)}`);
    assert.ok(height({ ...size, h: Math.round((size.w + 2) * 1.4) }) > 640, "and no more than that");
  });

  test("stops at the smallest readable card", () => {
    assert.equal(fitCards(1084, tall, 100).w, MIN_FIT_WIDTH);
  });
});
