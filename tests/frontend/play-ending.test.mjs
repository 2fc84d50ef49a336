// Issue 22's pure parts of the play page: when a game has ended (won, or given up), when it may
// be given up, how many cards are home, and a card's rank letter in the reader's language in
// messages (German B, D, K; Polish W, D, K).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { Game } from "../../frontend/static/frontend/engine/game.js";
import { pretty } from "../../frontend/static/frontend/lib/table.js";
import { canGiveUp } from "../../frontend/static/frontend/pages/play/give-up.js";
import { cardsHome } from "../../frontend/static/frontend/pages/play/result-card.js";
import { createPlayState, gameOver } from "../../frontend/static/frontend/pages/play/state.js";

/** A play state on deal 1 with `actions` played (deal 1's column 1 is a lone A♠). */
function playing(actions = [], more = {}) {
  const play = createPlayState({});
  play.game = Game.new(1);
  for (const action of actions) play.game.play(action);
  play.record = { actions: [...actions], gaveUp: false, ...more };
  return play;
}

describe("gameOver and canGiveUp", () => {
  test("a game on the table, with moves, may be given up; it is not over", () => {
    const play = playing(["1>f"]);
    assert.equal(gameOver(play), false);
    assert.equal(canGiveUp(play), true);
  });

  test("nothing played, or no game: nothing to give up", () => {
    assert.equal(canGiveUp(playing()), false);
    assert.equal(canGiveUp(createPlayState({})), false);
    assert.equal(gameOver(createPlayState({})), false);
  });

  test("given up: over, and not given up twice", () => {
    const play = playing(["1>f"], { gaveUp: true });
    assert.equal(gameOver(play), true);
    assert.equal(canGiveUp(play), false);
  });
});

describe("cardsHome", () => {
  test("the cards on the eight foundations", () => {
    assert.equal(cardsHome(Game.new(1)), 0);
    assert.equal(cardsHome(playing(["1>f"]).game), 1);
  });
});

describe("pretty: a card in a message", () => {
  afterEach(() => {
    delete globalThis.django;
  });

  test("English without a catalogue: the pack's letters, 10 for a ten", () => {
    assert.deepEqual(["QD", "JS", "KH", "AC", "TH", "7C"].map(pretty), ["Q♦", "J♠", "K♥", "A♣", "10♥", "7♣"]);
  });

  for (const [lang, letters] of [["de", { J: "B", Q: "D", K: "K" }], ["pl", { J: "W", Q: "D", K: "K" }]]) {
    test(`${lang}: the court cards' letters come from the catalogue`, () => {
      globalThis.django = {
        gettext: (id) => id,
        ngettext: (one, many, n) => (n === 1 ? one : many),
        pgettext: (context, id) => (context === "card rank, one letter" && letters[id]) || id,
      };
      assert.deepEqual(["JS", "QD", "KH", "AC", "9S"].map(pretty), [`${letters.J}♠`, "D♦", "K♥", "A♣", "9♠"]);
    });
  }
});
