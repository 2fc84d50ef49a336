/**
 * The calendar's pure parts (no DOM): months as "YYYY-MM", the weeks of a month laid out from
 * the reader's first day of the week, and the month's and weekdays' names in the page's
 * language (Intl.DateTimeFormat). The days are UTC days, as the deals of the day are.
 */

import { language } from "../lib/i18n.js";

const MONTH = /^(\d{4})-(\d{2})$/;

/** "2026-12" and a number of months -> "2027-01" (-1: "2026-11"); null for no month. */
export function shiftMonth(month, by) {
  const found = MONTH.exec(String(month));
  if (!found) return null;
  const index = Number(found[1]) * 12 + Number(found[2]) - 1 + by;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** A month is "YYYY-MM" with a month from 01 to 12. */
export function isMonth(text) {
  const found = MONTH.exec(String(text));
  return Boolean(found) && Number(found[2]) >= 1 && Number(found[2]) <= 12;
}

/** The reader's first day of the week, 1 (Monday) to 7 (Sunday), from Intl.Locale's week
 * information where the browser has it; Monday (ISO 8601) otherwise. */
export function firstWeekday(lang = language()) {
  try {
    const locale = new Intl.Locale(lang);
    const info = typeof locale.getWeekInfo === "function" ? locale.getWeekInfo() : locale.weekInfo;
    if (info && info.firstDay >= 1 && info.firstDay <= 7) return info.firstDay;
  } catch { /* an unknown tag: ISO's Monday */ }
  return 1;
}

/** The ISO weekday of a "YYYY-MM-DD" UTC day: 1 Monday .. 7 Sunday. */
export function isoWeekday(isoDay) {
  return ((new Date(`${isoDay}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

/** The month's days (the API's, in order) in weeks of seven, from `firstDay`; the places
 * before the first and after the last day are null. */
export function weeks(days, firstDay = 1) {
  if (!days.length) return [];
  const lead = (isoWeekday(days[0].date) - firstDay + 7) % 7;
  const cells = [...Array(lead).fill(null), ...days];
  while (cells.length % 7) cells.push(null);
  const found = [];
  for (let i = 0; i < cells.length; i += 7) found.push(cells.slice(i, i + 7));
  return found;
}

/** The weekdays' names from `firstDay`, short and long: [{short: "Mon", long: "Monday"}, ...]. */
export function weekdayNames(firstDay = 1, lang = language()) {
  const short = new Intl.DateTimeFormat(lang, { weekday: "short", timeZone: "UTC" });
  const long = new Intl.DateTimeFormat(lang, { weekday: "long", timeZone: "UTC" });
  // 2024-01-01 was a Monday: day n of the ISO week is 2024-01-0n.
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(Date.UTC(2024, 0, ((firstDay - 1 + i) % 7) + 1));
    return { short: short.format(day), long: long.format(day) };
  });
}

/** "2026-12" the reader's way: "December 2026", "grudzień 2026", "Dezember 2026". */
export function monthName(month, lang = language()) {
  const found = MONTH.exec(String(month));
  if (!found) return String(month);
  const day = new Date(Date.UTC(Number(found[1]), Number(found[2]) - 1, 1));
  return new Intl.DateTimeFormat(lang, { month: "long", year: "numeric", timeZone: "UTC" }).format(day);
}

/** A "YYYY-MM-DD" day in full, the reader's way: "Tuesday, 1 December 2026". */
export function longDay(isoDay, lang = language()) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${isoDay}T00:00:00Z`));
}
