// The calendar's pure parts: months, the weeks of a month from the reader's first weekday,
// localised month and weekday names; and the bar chart's geometry.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  firstWeekday, isMonth, isoWeekday, monthName, shiftMonth, weekdayNames, weeks,
} from "../../frontend/static/frontend/pages/calendar-grid.js";
import { bars } from "../../frontend/static/frontend/lib/charts.js";

const daysOf = (month, count) => Array.from({ length: count }, (_, i) => ({ date: `${month}-${String(i + 1).padStart(2, "0")}` }));

describe("months", () => {
  test("stepping over the years", () => {
    assert.equal(shiftMonth("2026-12", 1), "2027-01");
    assert.equal(shiftMonth("2026-01", -1), "2025-12");
    assert.equal(shiftMonth("2026-06", -18), "2024-12");
    assert.equal(shiftMonth("nonsense", 1), null);
  });

  test("a month is YYYY-MM from 01 to 12", () => {
    assert.ok(isMonth("2026-11"));
    assert.ok(!isMonth("2026-13") && !isMonth("2026-00") && !isMonth("2026-1") && !isMonth(null));
  });
});

describe("weeks", () => {
  test("December 2026 starts on a Tuesday: one blank before it from Monday, two from Sunday", () => {
    assert.equal(isoWeekday("2026-12-01"), 2);
    const monday = weeks(daysOf("2026-12", 31), 1);
    assert.equal(monday[0][0], null);
    assert.equal(monday[0][1].date, "2026-12-01");
    assert.equal(monday.length, 5);
    assert.ok(monday.every((week) => week.length === 7));
    const sunday = weeks(daysOf("2026-12", 31), 7);
    assert.deepEqual(sunday[0].slice(0, 3).map((d) => d && d.date), [null, null, "2026-12-01"]);
    assert.equal(sunday.flat().filter(Boolean).length, 31);
  });

  test("February 2027 from Monday fills four whole weeks", () => {
    const grid = weeks(daysOf("2027-02", 28), 1);
    assert.equal(grid.length, 4);
    assert.equal(grid[0][0].date, "2027-02-01");
  });

  test("the reader's first weekday", () => {
    assert.equal(firstWeekday("de"), 1);
    assert.equal(firstWeekday("pl"), 1);
    assert.ok([1, 7].includes(firstWeekday("en")));
    assert.equal(firstWeekday("not a language tag!"), 1);
  });
});

describe("names in the page's language", () => {
  test("months", () => {
    assert.equal(monthName("2026-12", "en"), "December 2026");
    assert.equal(monthName("2026-12", "de"), "Dezember 2026");
    assert.match(monthName("2026-12", "pl"), /^grudzień 2026/);
  });

  test("weekdays from the first day of the week", () => {
    assert.deepEqual(weekdayNames(1, "en").map((d) => d.long).slice(0, 2), ["Monday", "Tuesday"]);
    assert.equal(weekdayNames(7, "en")[0].long, "Sunday");
    assert.equal(weekdayNames(1, "de")[0].long, "Montag");
    assert.equal(weekdayNames(1, "pl")[6].long, "niedziela");
  });
});

describe("bars", () => {
  test("the tallest bucket fills the height, an empty one has none", () => {
    const found = bars([{ count: 2 }, { count: 0 }, { count: 4 }], 300, 100);
    assert.deepEqual(found.map((b) => b.height), [50, 0, 100]);
    assert.deepEqual(found.map((b) => b.y), [50, 100, 0]);
    assert.deepEqual(bars([], 300, 100), []);
  });

  test("many buckets share the width; a few stand slim in the middle", () => {
    const many = bars(Array(10).fill({ count: 1 }), 300, 100);
    assert.deepEqual(many.map((b) => Math.round(b.x)), [3, 33, 63, 93, 123, 153, 183, 213, 243, 273]);
    const one = bars([{ count: 1 }], 300, 100);
    assert.equal(one[0].width, 72 * 0.8);
    assert.equal(one[0].x + one[0].width / 2, 150);
  });
});
