// time.js: the day's close and the countdown to the next deal in the reader's own zone and
// language, with fixed moments and zones (the day itself stays UTC: it closes at midnight UTC).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { countdown, dayClose, formatMoment, secondsUntil } from "../../frontend/static/frontend/lib/time.js";

const CLOSE = "2026-12-02T00:00:00Z"; // the close of 1 December 2026 (UTC)
const NOW = Date.parse("2026-12-01T20:54:51Z"); // 3 h 5 min 9 s before it

describe("countdown", () => {
  test("is hours, minutes and seconds", () => {
    assert.equal(countdown(3 * 3600 + 5 * 60 + 9), "3:05:09");
    assert.equal(countdown(59), "0:00:59");
    assert.equal(countdown(0), "0:00:00");
    assert.equal(countdown(24 * 3600), "24:00:00");
  });

  test("never goes below zero and drops fractions", () => {
    assert.equal(countdown(-5), "0:00:00");
    assert.equal(countdown(61.9), "0:01:01");
  });

  test("counts whole seconds up to the moment, rounding up", () => {
    assert.equal(secondsUntil(Date.parse(CLOSE), NOW), 11109);
    assert.equal(secondsUntil(Date.parse(CLOSE), Date.parse(CLOSE) - 1), 1);
    assert.equal(secondsUntil(Date.parse(CLOSE), Date.parse(CLOSE) + 1000), 0);
  });
});

describe("the close in the reader's zone", () => {
  const cases = [
    ["en", "Europe/Warsaw", /Dec 2, 01:00 AM/],
    ["en", "America/New_York", /Dec 1, 07:00 PM EST/],
    ["en", "UTC", /Dec 2, 12:00 AM UTC/],
    ["pl", "Europe/Warsaw", /^2 gru, 01:00 CET$/],
    ["pl", "America/New_York", /^1 gru, 19:00 /],
    ["de", "Europe/Berlin", /^2\. Dez\., 01:00 MEZ$/],
    ["de", "Asia/Kolkata", /^2\. Dez\., 05:30 /],
  ];
  for (const [lang, timeZone, expected] of cases) {
    test(`${lang} in ${timeZone}`, () => {
      assert.match(formatMoment(CLOSE, { lang, timeZone }), expected);
    });
  }

  test("is the same moment in every zone: the day stays UTC", () => {
    const warsaw = formatMoment(CLOSE, { lang: "en", timeZone: "Europe/Warsaw" });
    const utc = formatMoment(CLOSE, { lang: "en", timeZone: "UTC" });
    assert.notEqual(warsaw, utc);
    assert.match(utc, /12:00 AM/);
  });

  test("an unreadable moment is said as nothing", () => {
    assert.equal(formatMoment("not a time", { lang: "en", timeZone: "UTC" }), "");
  });
});

describe("dayClose", () => {
  test("says the close and the time left to the next deal", () => {
    assert.deepEqual(dayClose(CLOSE, { now: NOW, lang: "pl", timeZone: "Europe/Warsaw" }), {
      closes: "closes at 2 gru, 01:00 CET", // English words: no catalogue outside a page
      next: "next deal in 3:05:09",
    });
  });

  test("after the close the next deal is out", () => {
    const after = dayClose(CLOSE, { now: Date.parse(CLOSE) + 60_000, lang: "en", timeZone: "UTC" });
    assert.equal(after.next, "the next deal is out");
  });

  test("without a close it is midnight UTC", () => {
    assert.deepEqual(dayClose(null, { now: NOW }), { closes: "closes at midnight UTC", next: "" });
  });

  test("takes its words from the page's catalogue", () => {
    const words = {
      "closes at %(time)s": "koniec: %(time)s",
      "next deal in %(time)s": "następne rozdanie za %(time)s",
    };
    globalThis.django = { gettext: (id) => words[id] || id, ngettext: (s, p, n) => (n === 1 ? s : p), pgettext: (c, id) => id };
    try {
      assert.deepEqual(dayClose(CLOSE, { now: NOW, lang: "pl", timeZone: "Europe/Warsaw" }), {
        closes: "koniec: 2 gru, 01:00 CET",
        next: "następne rozdanie za 3:05:09",
      });
    } finally {
      delete globalThis.django;
    }
  });
});
