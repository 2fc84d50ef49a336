/**
 * Times in the reader's own time zone. The day of the deal stays the UTC day: it closes at
 * midnight UTC, and the next deal comes out then. These functions say that moment and the
 * time left until it as the reader's clock shows it (Intl, the browser's zone), in the page's
 * language. Pure: the moment "now", the language and the zone are parameters, so tests can fix
 * them; by default they are the browser's.
 */

import { gettext, interpolate, language } from "./i18n.js";

/** The browser's time zone ("Europe/Warsaw"), or undefined to let Intl use it. */
export function localZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * A moment (ISO 8601 text or ms) as the reader's date and time with the zone:
 * "2 Dec, 01:00 CET", "2 gru, 01:00 CET", "2. Dez., 01:00 MEZ".
 */
export function formatMoment(moment, { lang = language(), timeZone = localZone() } = {}) {
  const date = new Date(moment);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang, {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone,
  }).format(date);
}

/** Whole seconds from `now` to `target` (ms), never below 0. */
export function secondsUntil(target, now = Date.now()) {
  return Math.max(0, Math.ceil((target - now) / 1000));
}

/** A count of seconds as a clock: 3 h 5 min 9 s is "3:05:09", 59 s is "0:00:59". */
export function countdown(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
  const s = String(total % 60).padStart(2, "0");
  return `${h}:${m}:${s}`;
}

/**
 * The day's close in the reader's time and the time left until the next deal, in words:
 * {closes: "closes at 2 Dec, 01:00 CET", next: "next deal in 3:05:09"} (or "the next deal is
 * out" once the close has passed). `closesAt` is the API's closes_at (midnight UTC).
 */
export function dayClose(closesAt, { now = Date.now(), lang = language(), timeZone = localZone() } = {}) {
  const at = closesAt ? new Date(closesAt).getTime() : NaN;
  if (Number.isNaN(at)) return { closes: gettext("closes at midnight UTC"), next: "" };
  const left = secondsUntil(at, now);
  return {
    closes: interpolate(gettext("closes at %(time)s"), { time: formatMoment(at, { lang, timeZone }) }),
    next: left > 0 ? interpolate(gettext("next deal in %(time)s"), { time: countdown(left) }) : gettext("the next deal is out"),
  };
}
