// i18n.js and the modules' words: Django's catalogue (globalThis.django, from /jsi18n/) when a
// page has loaded it, English without; engine/refusals.js translates a refusal's template through it,
// keeping its code and args; play/text.js fills templates with elements; the first visit's
// how-to is remembered. A small fake catalogue stands in for /jsi18n/ (Polish plural rule).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { formatDay, formatNumber, gettext, interpolate, ngettext, pgettext } from "../../frontend/static/frontend/lib/i18n.js";
import { MESSAGES, render } from "../../frontend/static/frontend/engine/refusals.js";
import { SEEN_KEY, howToSeen, rememberHowTo } from "../../frontend/static/frontend/pages/play/how-to.js";
import { fill } from "../../frontend/static/frontend/pages/play/text.js";

const polish = (n) => (n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2);

/** A stand-in for Django's catalogue script. */
function installCatalogue(catalogue) {
  globalThis.django = {
    gettext: (id) => (typeof catalogue[id] === "string" ? catalogue[id] : id),
    ngettext: (singular, plural, n) => {
      const forms = catalogue[singular];
      return Array.isArray(forms) ? forms[polish(n)] : n === 1 ? singular : plural;
    },
    pgettext: (context, id) => catalogue[`${context}\x04${id}`] || id,
  };
}

afterEach(() => {
  delete globalThis.django;
});

describe("i18n.js", () => {
  test("without a catalogue the words are the English msgids", () => {
    assert.equal(gettext("Hint"), "Hint");
    assert.equal(ngettext("%(count)s move", "%(count)s moves", 1), "%(count)s move");
    assert.equal(ngettext("%(count)s move", "%(count)s moves", 5), "%(count)s moves");
    assert.equal(pgettext("replay", "Play"), "Play");
  });

  test("with one, the catalogue's words and its plural forms (Polish: 1, 2-4, 5+)", () => {
    installCatalogue({ Hint: "Podpowiedź", "%(count)s move": ["%(count)s ruch", "%(count)s ruchy", "%(count)s ruchów"],
      "replay\x04Play": "Odtwórz" });
    assert.equal(gettext("Hint"), "Podpowiedź");
    const moves = (n) => interpolate(ngettext("%(count)s move", "%(count)s moves", n), { count: n });
    assert.deepEqual([1, 2, 4, 5, 12, 22, 25].map(moves),
      ["1 ruch", "2 ruchy", "4 ruchy", "5 ruchów", "12 ruchów", "22 ruchy", "25 ruchów"]);
    assert.equal(pgettext("replay", "Play"), "Odtwórz");
  });

  test("interpolate fills named places in any order and leaves unknown ones", () => {
    assert.equal(interpolate("%(b)s, %(a)s, %(b)s", { a: 1, b: "x" }), "x, 1, x");
    assert.equal(interpolate("%(missing)s here", {}), "%(missing)s here");
  });

  test("numbers and days the reader's way", () => {
    assert.equal(formatNumber(1220, "en"), "1,220");
    assert.equal(formatNumber(1220, "de"), "1.220");
    assert.equal(formatNumber(12345, "pl"), "12\u00a0345");
    assert.equal(formatDay("2026-12-01", "en"), "Dec 1, 2026");
    assert.equal(formatDay("2026-12-01", "pl"), "1 gru 2026");
    assert.equal(formatDay("2026-12-01", "de"), "01.12.2026");
    assert.equal(formatDay("not a day", "en"), "not a day");
  });
});

describe("refusals.js through the catalogue", () => {
  test("translates the template, keeps code and args, fills the fields", () => {
    installCatalogue({
      [MESSAGES.column_refuses]: "{card} nie może leżeć na {target}: na kolumnę kładzie się kartę przeciwnego koloru, dokładnie o jedną niższą.",
      [MESSAGES.foundation_refuses]: "Żaden stos końcowy nie przyjmie {card}: stosy {first} i {second} ({suit}) przyjmują tylko kolejną kartę swojego koloru, zaczynając od asa.",
      hearts: "kiery",
    });
    assert.equal(render({ code: "column_refuses", args: { card: "4C", target: "6H" } }),
      "4C nie może leżeć na 6H: na kolumnę kładzie się kartę przeciwnego koloru, dokładnie o jedną niższą.");
    assert.equal(render({ code: "foundation_refuses", args: { card: "2H", suit: "H", first: 3, second: 4 } }),
      "Żaden stos końcowy nie przyjmie 2H: stosy 3 i 4 (kiery) przyjmują tylko kolejną kartę swojego koloru, zaczynając od asa.");
  });

  test("a code the catalogue lacks stays English, and its template is unchanged", () => {
    installCatalogue({});
    assert.equal(render({ code: "nothing_to_undo" }), "Nothing to undo.");
    assert.equal(MESSAGES.nothing_to_undo, "Nothing to undo.");
  });
});

describe("play/text.js fill", () => {
  test("splits a template at its places, each taking text, an element or a list", () => {
    const link = { element: "a" };
    assert.deepEqual(fill("%(signup)s or %(login)s to play.", { signup: link, login: "log in" }),
      [link, " or ", "log in", " to play."]);
    assert.deepEqual(fill("%(points)s %(moves)s", { points: ["1", " point"], moves: "x" }), ["1", " point", " ", "x"]);
    assert.deepEqual(fill("no places", {}), ["no places"]);
  });
});

describe("play/how-to.js", () => {
  test("is shown until dismissed, then remembered", () => {
    const store = new Map();
    const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
    assert.equal(howToSeen(storage), false);
    rememberHowTo(storage);
    assert.equal(store.get(SEEN_KEY), "1");
    assert.equal(howToSeen(storage), true);
  });

  test("storage that is off shows it and never throws", () => {
    const broken = { getItem: () => { throw new Error("off"); }, setItem: () => { throw new Error("off"); } };
    assert.equal(howToSeen(broken), false);
    rememberHowTo(broken);
  });
});
