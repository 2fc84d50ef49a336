// The attempt's clock (frontend/static/frontend/pages/play/timing.js): monotonic, carried across a
// reload, never going backwards. The clocks are driven by hand.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { AttemptClock, alignTimes } from "../../frontend/static/frontend/pages/play/timing.js";

/** A clock the test moves: `clock.now()` reads it, `clock.at = x` sets it. */
function handClock(at = 0) {
  const clock = { at, now: () => clock.at };
  return clock;
}

describe("AttemptClock", () => {
  test("counts whole ms from the attempt's start on the monotonic clock", () => {
    const mono = handClock(5000.7);
    const timer = AttemptClock.start(mono.now);
    assert.equal(timer.elapsed(), 0);
    mono.at = 5250.2;
    assert.equal(timer.elapsed(), 249);
    mono.at = 65_000.7;
    assert.equal(timer.elapsed(), 60_000);
  });

  test("stamps each action with the time since the start, never earlier than the last", () => {
    const mono = handClock(100);
    const timer = AttemptClock.start(mono.now);
    const times = [];
    mono.at = 1100;
    times.push(timer.stamp(times));
    mono.at = 1100; // a double click: two actions in one millisecond
    times.push(timer.stamp(times));
    mono.at = 2600;
    times.push(timer.stamp(times));
    assert.deepEqual(times, [1000, 1000, 2500]);
    // A clock that reads less than the last time (a resumed count that fell short) is clamped.
    assert.equal(AttemptClock.start(mono.now).stamp(times), 2500);
  });

  test("a monotonic source that steps back does not move the count below its start", () => {
    const mono = handClock(1000);
    const timer = new AttemptClock(300, mono.now);
    mono.at = 900;
    assert.equal(timer.elapsed(), 300);
  });

  test("a reload goes on from the saved count plus the wall time since the save", () => {
    const before = handClock(40_000);
    const timer = AttemptClock.start(before.now);
    before.at = 52_345.9;
    const saved = timer.saved(() => 1_700_000_000_000);
    assert.deepEqual(saved, { elapsed: 12_345, wall: 1_700_000_000_000 });

    // The new page's performance.now() starts near 0; 8 s passed on the wall clock meanwhile.
    const after = handClock(12);
    const resumed = AttemptClock.resume(JSON.parse(JSON.stringify(saved)), {
      now: after.now, wallNow: () => 1_700_000_008_000,
    });
    assert.equal(resumed.elapsed(), 20_345);
    after.at = 1012;
    assert.equal(resumed.elapsed(), 21_345);
  });

  test("a wall clock set back since the save counts as no time away", () => {
    const resumed = AttemptClock.resume({ elapsed: 9000, wall: 2_000_000 }, {
      now: handClock(0).now, wallNow: () => 1_000_000,
    });
    assert.equal(resumed.elapsed(), 9000);
  });

  test("nothing or something unreadable saved: the count starts at 0 now", () => {
    for (const saved of [null, undefined, {}, { elapsed: "x", wall: 1 }, { elapsed: 5, wall: null }]) {
      const mono = handClock(777);
      const resumed = AttemptClock.resume(saved, { now: mono.now, wallNow: () => 0 });
      assert.equal(resumed.elapsed(), 0, JSON.stringify(saved));
    }
  });
});

describe("alignTimes", () => {
  test("keeps one time per action", () => {
    assert.deepEqual(alignTimes([0, 5, 9], 3), [0, 5, 9]);
    assert.deepEqual(alignTimes([], 0), []);
  });

  test("actions without a time get 0 at the front", () => {
    assert.deepEqual(alignTimes(undefined, 3), [0, 0, 0]);
    assert.deepEqual(alignTimes([40, 70], 4), [0, 0, 40, 70]);
  });

  test("extra times are dropped from the front, bad ones become 0, and none goes back", () => {
    assert.deepEqual(alignTimes([1, 2, 3, 4], 2), [3, 4]);
    assert.deepEqual(alignTimes([10, "x", -4, 30.9, 20], 5), [10, 10, 10, 30, 30]);
  });
});
