// The play page's saved game (frontend/static/frontend/pages/play/saved-game.js): each deal code's
// record in localStorage, read back for that code only, forgotten after KEEP_DAYS; the
// settings. localStorage is an in-memory stand-in here.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import {
  KEEP_DAYS, STORE_PREFIX, forgetOldGames, freshRecord, loadGame, loadSettings, restoreRecord,
  saveGame, saveSettings,
} from "../../frontend/static/frontend/pages/play/saved-game.js";
import { createPlayState } from "../../frontend/static/frontend/pages/play/state.js";

const CODE = "EH1-N-AAAAAAF";
const DAY_MS = 86400_000;

/** The Storage interface over a Map; `broken` makes every call throw (storage switched off). */
function memoryStorage(entries = {}, { broken = false } = {}) {
  const map = new Map(Object.entries(entries));
  const guard = () => { if (broken) throw new Error("SecurityError"); };
  return {
    map,
    get length() { guard(); return map.size; },
    key(i) { guard(); return [...map.keys()][i] ?? null; },
    getItem(key) { guard(); return map.has(key) ? map.get(key) : null; },
    setItem(key, value) { guard(); map.set(key, String(value)); },
    removeItem(key) { guard(); map.delete(key); },
  };
}

let storage;
beforeEach(() => { storage = memoryStorage(); globalThis.localStorage = storage; });
afterEach(() => { delete globalThis.localStorage; });

describe("freshRecord", () => {
  test("is an empty game of the code, with no attempt and no submission", () => {
    const before = Date.now();
    const record = freshRecord(CODE);
    assert.equal(record.code, CODE);
    assert.deepEqual([record.actions, record.times, record.hints], [[], [], 0]);
    for (const key of ["attemptId", "attemptUser", "submissionId", "submission", "rank", "refusal", "clock", "startedAt"]) {
      assert.equal(record[key], null, key);
    }
    assert.equal(record.practice, false);
    assert.ok(record.savedAt >= before && record.savedAt <= Date.now());
  });

  test("gives each game its own log", () => {
    const one = freshRecord(CODE);
    one.actions.push("s");
    assert.deepEqual(freshRecord(CODE).actions, []);
  });
});

describe("restoreRecord", () => {
  test("reads back what was saved", () => {
    const record = { ...freshRecord(CODE), actions: ["s", "1>f"], times: [0, 1200], hints: 1, attemptId: 4 };
    assert.deepEqual(restoreRecord(JSON.stringify(record), CODE), record);
  });

  test("fills the fields an older save lacks, and gives times to actions saved without them", () => {
    const record = restoreRecord(JSON.stringify({ code: CODE, actions: ["s", "s", "s"], times: [500] }), CODE);
    assert.deepEqual(record.times, [0, 0, 500]);
    assert.equal(record.refusal, null);
    assert.equal(record.hints, 0);
  });

  test("is null for another deal's record, a record without a log, or no record at all", () => {
    assert.equal(restoreRecord(JSON.stringify(freshRecord("EH1-N-AAAAAAG")), CODE), null);
    assert.equal(restoreRecord(JSON.stringify({ code: CODE, actions: "s" }), CODE), null);
    assert.equal(restoreRecord("{not json", CODE), null);
    assert.equal(restoreRecord(null, CODE), null);
  });
});

describe("saveGame and loadGame", () => {
  test("keep the record under its code, as the current game, with the attempt's clock", () => {
    const play = createPlayState();
    play.record = { ...freshRecord(CODE), actions: ["s"], times: [300] };
    play.timer = { saved: () => ({ elapsed: 300, wall: 1_000 }) };
    saveGame(play);
    assert.equal(storage.getItem("eh:current"), CODE);
    assert.deepEqual(JSON.parse(storage.getItem(STORE_PREFIX + CODE)).clock, { elapsed: 300, wall: 1_000 });
    assert.deepEqual(loadGame(CODE), play.record);
    assert.equal(loadGame("EH1-N-AAAAAAG"), null);
  });

  test("never stop the game when storage is full or switched off", () => {
    globalThis.localStorage = memoryStorage({}, { broken: true });
    const play = createPlayState();
    play.record = freshRecord(CODE);
    assert.doesNotThrow(() => saveGame(play));
    assert.equal(loadGame(CODE), null);
  });
});

describe("forgetOldGames", () => {
  test(`forgets games not saved for ${KEEP_DAYS} days and unreadable ones, and nothing else`, () => {
    const now = Date.UTC(2026, 11, 1);
    const saved = (daysAgo) => JSON.stringify({ ...freshRecord(CODE), savedAt: now - daysAgo * DAY_MS });
    globalThis.localStorage = storage = memoryStorage({
      [`${STORE_PREFIX}recent`]: saved(KEEP_DAYS - 1),
      [`${STORE_PREFIX}old`]: saved(KEEP_DAYS + 1),
      [`${STORE_PREFIX}undated`]: JSON.stringify({ code: CODE, actions: [] }),
      [`${STORE_PREFIX}garbled`]: "{",
      "eh:settings": "{",
      "eh:current": "EH1-N-AAAAAAF",
    });
    forgetOldGames(now);
    assert.deepEqual([...storage.map.keys()].sort(), ["eh:current", `${STORE_PREFIX}recent`, "eh:settings"]);
  });
});

describe("settings", () => {
  test("saved ones override the defaults; unreadable ones leave the defaults", () => {
    const settings = { double: true, rules: true };
    saveSettings({ double: false, rules: true });
    loadSettings(settings);
    assert.deepEqual(settings, { double: false, rules: true });
    storage.setItem("eh:settings", "{");
    const defaults = { double: true, rules: true };
    loadSettings(defaults);
    assert.deepEqual(defaults, { double: true, rules: true });
  });
});
