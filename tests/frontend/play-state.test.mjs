// The play page's one state object (frontend/static/frontend/pages/play/state.js).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { attemptIsMine, createPlayState } from "../../frontend/static/frontend/pages/play/state.js";

describe("createPlayState", () => {
  test("starts with no deal, no game and the default settings", () => {
    const play = createPlayState({ daily: true });
    assert.deepEqual(play.page, { daily: true });
    assert.deepEqual(play.user, { authenticated: false, username: null });
    assert.deepEqual(play.settings, { double: true, rules: true });
    for (const key of ["code", "daily", "game", "record", "timer", "attemptStarting", "hint", "landed", "tapWait", "press", "layout"]) {
      assert.equal(play[key], null, key);
    }
    assert.equal(play.polling, false);
  });

  test("takes the viewer from the page's data", () => {
    const user = { authenticated: true, username: "ada" };
    assert.equal(createPlayState({ user }).user, user);
  });

  test("gives each page its own settings", () => {
    const one = createPlayState();
    one.settings.double = false;
    assert.equal(createPlayState().settings.double, true);
  });
});

describe("attemptIsMine", () => {
  const signedIn = () => createPlayState({ user: { authenticated: true, username: "ada" } });

  test("is the record's attempt when it was started by the signed-in player", () => {
    const play = signedIn();
    play.record = { attemptId: 7, attemptUser: "ada" };
    assert.equal(attemptIsMine(play), true);
  });

  test("is not another player's attempt, nor a game without one", () => {
    const play = signedIn();
    play.record = { attemptId: 7, attemptUser: "bob" };
    assert.equal(attemptIsMine(play), false);
    play.record = { attemptId: null, attemptUser: null };
    assert.equal(attemptIsMine(play), false);
    play.record = null;
    assert.equal(attemptIsMine(play), false);
  });
});
