/**
 * The saved game: each deal code's record in localStorage, so that a reload (or coming back
 * to a deal later) resumes the game, and the player's settings. Records not saved for
 * KEEP_DAYS are forgotten. Storage that is full or switched off never stops the game.
 */

import { alignTimes } from "./timing.js";

export const STORE_PREFIX = "eh:game:";
const CURRENT_KEY = "eh:current";
const SETTINGS_KEY = "eh:settings";
export const KEEP_DAYS = 14;
const DAY_MS = 86400_000;

/**
 * A new game's record. times[i]: ms since the attempt started when actions[i] was played (0
 * before it started); clock: the attempt's clock as saved; clockOffset: the server's clock minus
 * the device's (server-clock.js); daily/ranked/practice/closesAt:
 * from the attempt's answer; refusal: a submission the server refused for good (day_closed).
 */
export function freshRecord(code) {
  return {
    code, actions: [], times: [], hints: 0, startedAt: null, finishedAt: null,
    attemptId: null, attemptUser: null, attemptStartedAt: null, clockOffset: null, clockNote: false, clock: null,
    daily: false, ranked: null, practice: false, closesAt: null,
    submissionId: null, submission: null, rank: null, refusal: null, savedAt: Date.now(),
  };
}

/** The record of `code` read back from its JSON, or null when it is not one (or another deal's). */
export function restoreRecord(json, code) {
  try {
    const saved = JSON.parse(json || "null");
    if (saved && saved.code === code && Array.isArray(saved.actions)) {
      return { ...freshRecord(code), ...saved, times: alignTimes(saved.times, saved.actions.length) };
    }
  } catch { /* unreadable: start again */ }
  return null;
}

/** Keep the page's record (with the attempt's clock as it reads now). */
export function saveGame(play) {
  const { record } = play;
  record.savedAt = Date.now();
  if (play.timer) record.clock = play.timer.saved();
  try {
    localStorage.setItem(STORE_PREFIX + record.code, JSON.stringify(record));
    localStorage.setItem(CURRENT_KEY, record.code);
  } catch { /* storage full or disabled: the game still plays */ }
}

/** The saved record of `code`, or null. */
export function loadGame(code) {
  try {
    return restoreRecord(localStorage.getItem(STORE_PREFIX + code), code);
  } catch { /* storage disabled: start again */ }
  return null;
}

/** Forget the records saved more than KEEP_DAYS ago (and unreadable ones). */
export function forgetOldGames(now = Date.now()) {
  const limit = now - KEEP_DAYS * DAY_MS;
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(STORE_PREFIX)) continue;
    try {
      const saved = JSON.parse(localStorage.getItem(key));
      if (!saved || !saved.savedAt || saved.savedAt < limit) localStorage.removeItem(key);
    } catch { localStorage.removeItem(key); }
  }
}

/** The player's saved settings over the defaults in `settings`. */
export function loadSettings(settings) {
  try { Object.assign(settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}")); } catch { /* defaults */ }
}

export function saveSettings(settings) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}
