/**
 * The attempt's clock in the browser: when each action was played, in whole milliseconds
 * since the attempt started, on a monotonic clock (performance.now(), which a change of the
 * computer's time does not move).
 *
 * performance.now() restarts with every page load, so the clock is saved beside the game as
 * {elapsed, wall}: the milliseconds counted at the save and Date.now() then. A reload goes on
 * from `elapsed` plus the wall time since the save (none when the wall clock was set back).
 * Times never go backwards: each is at least the one before it, as the server requires.
 * Pure: no DOM, no storage; the clocks are parameters so tests can drive them.
 */

const monotonicNow = () => performance.now();

export class AttemptClock {
  /** A clock that reads `elapsed` ms now and counts on with `now` (a monotonic ms source). */
  constructor(elapsed = 0, now = monotonicNow) {
    this.base = Number.isFinite(elapsed) && elapsed > 0 ? elapsed : 0;
    this.now = now;
    this.origin = now();
  }

  /** The clock of an attempt whose start was answered just now. */
  static start(now = monotonicNow) {
    return new AttemptClock(0, now);
  }

  /** The clock saved by `saved()` (before a reload), counting the wall time since then. */
  static resume(saved, { now = monotonicNow, wallNow = Date.now } = {}) {
    if (!saved || !Number.isFinite(saved.elapsed) || !Number.isFinite(saved.wall)) return AttemptClock.start(now);
    return new AttemptClock(saved.elapsed + Math.max(0, wallNow() - saved.wall), now);
  }

  /** Whole ms since the attempt started. */
  elapsed() {
    return Math.floor(this.base + Math.max(0, this.now() - this.origin));
  }

  /** The time of an action played now, after `times` (never earlier than the last of them). */
  stamp(times) {
    const last = times.length ? times[times.length - 1] : 0;
    return Math.max(this.elapsed(), last);
  }

  /** What to keep with the saved game, for `AttemptClock.resume` after a reload. */
  saved(wallNow = Date.now) {
    return { elapsed: this.elapsed(), wall: wallNow() };
  }
}

/**
 * One time per action, rising: a saved game from before times were kept (or a damaged one)
 * gets 0 for the actions it has no time for, at the front, and a time below the one before
 * it is raised to that one.
 */
export function alignTimes(times, count) {
  const kept = Array.isArray(times) ? times.slice(-count).map((t) => (Number.isFinite(t) && t > 0 ? Math.floor(t) : 0)) : [];
  const aligned = [...new Array(count - kept.length).fill(0), ...kept];
  for (let i = 1; i < aligned.length; i++) aligned[i] = Math.max(aligned[i], aligned[i - 1]);
  return aligned;
}
