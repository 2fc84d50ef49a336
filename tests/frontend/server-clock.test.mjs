// One clock (frontend/static/frontend/pages/play/server-clock.js): the offset between the
// server's clock and the device's, the attempt's time by the server's clock, and the one time a
// game shows (the verified submission's, else the attempt's, else the page's own count).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { attemptElapsed, clockOffset, gameTime, timed } from "../../frontend/static/frontend/pages/play/server-clock.js";

const SERVER_NOON = "2026-12-01T12:00:00.000Z";
const NOON = Date.parse(SERVER_NOON);
const MINUTE = 60_000;

describe("clockOffset", () => {
  test("the server's time minus the device's, taken halfway through the request", () => {
    // A device 7 minutes behind: it sent at 11:52:59.800 and had the answer at 11:53:00.200.
    assert.equal(clockOffset(SERVER_NOON, NOON - 7 * MINUTE - 200, NOON - 7 * MINUTE + 200), 7 * MINUTE);
    // Two hours ahead, a slow answer of 3 s.
    assert.equal(clockOffset(SERVER_NOON, NOON + 120 * MINUTE - 1500, NOON + 120 * MINUTE + 1500), -120 * MINUTE);
    assert.equal(clockOffset(SERVER_NOON, NOON, NOON), 0);
  });

  test("unknown without a server time, or with one that is not a time", () => {
    assert.equal(clockOffset(undefined, NOON, NOON), null);
    assert.equal(clockOffset("soon", NOON, NOON), null);
    assert.equal(clockOffset(SERVER_NOON, NaN, NOON), null);
  });
});

describe("attemptElapsed", () => {
  test("the device's now corrected to the server's clock, minus the attempt's start", () => {
    const startedAt = "2026-12-01T11:50:00.000Z"; // ten minutes before the server's noon
    // The device says 11:53 when the server says noon: 7 minutes behind.
    assert.equal(attemptElapsed(startedAt, 7 * MINUTE, NOON - 7 * MINUTE), 10 * MINUTE);
    assert.equal(attemptElapsed(startedAt, 0, NOON + 1234), 10 * MINUTE + 1234);
  });

  test("never below zero, and unknown without an offset or a start", () => {
    assert.equal(attemptElapsed(SERVER_NOON, 0, NOON - 5000), 0);
    assert.equal(attemptElapsed(SERVER_NOON, null, NOON), null);
    assert.equal(attemptElapsed(null, 0, NOON), null);
  });
});

describe("gameTime", () => {
  const attempt = { attemptStartedAt: "2026-12-01T11:50:00.000Z", clockOffset: -2 * MINUTE, startedAt: null };

  test("during an attempt, the server's clock whatever the device's says", () => {
    // The device is two minutes ahead: its 12:02 is the server's noon, ten minutes in.
    assert.equal(gameTime({ ...attempt, finishedAt: null }, NOON + 2 * MINUTE), 10 * MINUTE);
  });

  test("the same deal dealt again (a fresh log, startedAt cleared) keeps the attempt's time", () => {
    const dealtAgain = { ...attempt, startedAt: null, finishedAt: null };
    const playedOn = { ...attempt, startedAt: NOON + MINUTE, finishedAt: null };
    assert.equal(gameTime(dealtAgain, NOON + 3 * MINUTE), 11 * MINUTE);
    assert.equal(gameTime(playedOn, NOON + 3 * MINUTE), 11 * MINUTE);
  });

  test("an ended game stops at its end; once verified, the server's duration is the time", () => {
    const ended = { ...attempt, finishedAt: NOON + 5 * MINUTE };
    assert.equal(gameTime(ended, NOON + 60 * MINUTE), 13 * MINUTE);
    const verified = { ...ended, submission: { status: "verified", duration_ms: 13 * MINUTE + 1500 } };
    assert.equal(gameTime(verified, NOON + 60 * MINUTE), 13 * MINUTE + 1500);
    const pending = { ...ended, submission: { status: "pending" } };
    assert.equal(gameTime(pending, NOON + 60 * MINUTE), 13 * MINUTE);
  });

  test("without an attempt (signed out), the page's own count; before a first move, none", () => {
    assert.equal(gameTime({ startedAt: NOON, finishedAt: null }, NOON + 4321), 4321);
    assert.equal(gameTime({ startedAt: NOON, finishedAt: NOON + 99 }, NOON + 4321), 99);
    assert.equal(gameTime({ startedAt: null, finishedAt: null }, NOON), null);
    // An attempt saved before the offset was kept: the page's count until the server answers again.
    assert.equal(gameTime({ attemptStartedAt: SERVER_NOON, clockOffset: null, startedAt: NOON, finishedAt: null },
      NOON + 10), 10);
  });
});

describe("timed", () => {
  test("the answer and the offset measured around it", async () => {
    const reads = [NOON - MINUTE - 100, NOON - MINUTE + 100];
    const { answer, offset } = await timed(async () => ({ server_time: SERVER_NOON, id: 1 }), () => reads.shift());
    assert.equal(answer.id, 1);
    assert.equal(offset, MINUTE);
  });

  test("an answer without server_time has no offset", async () => {
    assert.equal((await timed(async () => ({}), () => NOON)).offset, null);
    assert.equal((await timed(async () => null, () => NOON)).offset, null);
  });
});
