// play/share.js: the text a player shares after a daily game (spoiler-free, one fact a line,
// each count in its plural form) and how it leaves the page (the Web Share API, else the
// clipboard). The Polish and German words are the project's own catalogues
// (locale/<lang>/LC_MESSAGES/djangojs.po), read here as /jsi18n/ would serve them.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, test } from "node:test";

import { BRAND, deliver, shareFacts, shareText } from "../../frontend/static/frontend/pages/play/share.js";
import { block, foundationPicture } from "../../frontend/static/frontend/pages/play/share-picture.js";

const PLURALS = {
  pl: (n) => (n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2),
  de: (n) => (n === 1 ? 0 : 1),
};

/** A .po file's entries: msgid (the singular for a plural) -> msgstr or [msgstr[0], ...]. */
function readPo(lang) {
  const text = readFileSync(new URL(`../../locale/${lang}/LC_MESSAGES/djangojs.po`, import.meta.url), "utf8");
  const unquote = (line) => JSON.parse(line.slice(line.indexOf('"')));
  const entries = {};
  for (const block of text.split(/\n\s*\n/)) {
    const fields = {};
    let current = null;
    for (const line of block.split("\n")) {
      if (line.startsWith("#") || !line.trim()) continue;
      if (line.startsWith('"')) {
        fields[current] += unquote(line);
        continue;
      }
      current = line.slice(0, line.indexOf(" "));
      fields[current] = unquote(line);
    }
    if (!fields.msgid) continue;
    const key = fields.msgctxt === undefined ? fields.msgid : `${fields.msgctxt}\x04${fields.msgid}`;
    entries[key] = fields.msgid_plural === undefined ? fields.msgstr
      : Object.keys(fields).filter((name) => name.startsWith("msgstr[")).sort().map((name) => fields[name]);
  }
  return entries;
}

/** What /jsi18n/ defines for `lang`: django.gettext and friends over its catalogue. */
function installLanguage(lang) {
  const catalogue = readPo(lang);
  const plural = PLURALS[lang];
  globalThis.django = {
    gettext: (id) => catalogue[id] || id,
    ngettext: (singular, pluralId, n) => {
      const forms = catalogue[singular];
      return Array.isArray(forms) && forms[plural(n)] ? forms[plural(n)] : n === 1 ? singular : pluralId;
    },
    pgettext: (context, id) => catalogue[`${context}\x04${id}`] || id,
  };
}

afterEach(() => {
  delete globalThis.django;
});

const URL_ = "https://harp.example/";
const facts = (more = {}) => ({
  date: "2026-12-01", won: true, moves: 5, durationMs: 83_456, practice: false, rank: 3, count: 57, streak: { played: 4, won: 3 },
  url: URL_, ...more,
});

describe("shareText in English (no catalogue)", () => {
  test("the day, the result, the rank of N, the streak and the link, one a line", () => {
    assert.equal(shareText(facts({ moves: 123 }), "en"), [
      `${BRAND} · Dec 1, 2026`, "Won in 123 moves, 1:23", "Rank #3 of 57 players", "Streak: 4 days played, 3 won", URL_,
    ].join("\n"));
  });

  test("one of each, and a game the server's replay did not find won", () => {
    const text = shareText(facts({ won: false, moves: 1, rank: 1, count: 1, streak: { played: 1, won: 0 } }), "en");
    assert.deepEqual(text.split("\n").slice(1, 4), ["Not won: 1 move, 1:23", "Rank #1 of 1 player", "Streak: 1 day played, 0 won"]);
  });

  test("a practice game has no rank; an unknown rank or streak is left out", () => {
    assert.deepEqual(shareText(facts({ practice: true }), "en").split("\n").slice(2),
      ["A practice game: not ranked", "Streak: 4 days played, 3 won", URL_]);
    assert.deepEqual(shareText(facts({ rank: null, count: null, streak: null }), "en").split("\n").slice(2), [URL_]);
  });

  test("numbers the reader's way", () => {
    assert.match(shareText(facts({ moves: 1234, rank: 1500, count: 20_000 }), "en"), /1,234 moves[^]*#1,500 of 20,000/);
    assert.match(shareText(facts({ moves: 1234, rank: 1500, count: 20_000 }), "de"), /1\.234 moves[^]*#1\.500 of 20\.000/);
  });
});

describe("the picture and the hints' mark", () => {
  test("a block a foundation, as high as its pile, grouped by suit, and the count of 104", () => {
    assert.deepEqual([0, 1, 2, 7, 12, 13].map(block), ["·", "▁", "▂", "▅", "█", "█"]);
    assert.equal(foundationPicture(new Array(8).fill(13)), "♠██ ♥██ ♦██ ♣██ 104/104");
    assert.equal(foundationPicture([13, 13, 13, 10, 4, 0, 1, 7]), "♠██ ♥█▇ ♦▃· ♣▁▅ 61/104");
  });

  test("a won game's text with its picture; hints marked, in their plural form", () => {
    const lines = shareText(facts({ foundations: new Array(8).fill(13), hints: 1 }), "en").split("\n");
    assert.deepEqual(lines.slice(1, 4), ["Won in 5 moves, 1:23", "♠██ ♥██ ♦██ ♣██ 104/104", "💡 1 hint used"]);
    assert.equal(shareText(facts({ hints: 3 }), "en").split("\n")[2], "💡 3 hints used");
    assert.ok(!shareText(facts({ hints: 0 }), "en").includes("💡"));
  });

  test("a game given up: not won, its cards home, its rank", () => {
    const text = shareText(facts({ won: false, moves: 160, foundations: [13, 13, 13, 10, 4, 0, 1, 7], rank: 37, count: 120 }), "en");
    assert.deepEqual(text.split("\n").slice(1, 4), ["Not won: 160 moves, 1:23", "♠██ ♥█▇ ♦▃· ♣▁▅ 61/104", "Rank #37 of 120 players"]);
  });
});

describe("shareText in Polish and German (the project's catalogues)", () => {
  test("Polish: three plural forms for moves, players and days", () => {
    installLanguage("pl");
    const lines = (more) => shareText(facts(more), "pl").split("\n");
    assert.equal(lines({})[0], `${BRAND} · 1 gru 2026`);
    assert.deepEqual([1, 2, 5, 12, 22].map((moves) => lines({ moves })[1]), [
      "Wygrana w 1 ruchu, 1:23", "Wygrana w 2 ruchach, 1:23", "Wygrana w 5 ruchach, 1:23",
      "Wygrana w 12 ruchach, 1:23", "Wygrana w 22 ruchach, 1:23"]);
    assert.deepEqual([1, 3, 5, 14, 24].map((moves) => lines({ moves, won: false })[1]), [
      "Bez wygranej: 1 ruch, 1:23", "Bez wygranej: 3 ruchy, 1:23", "Bez wygranej: 5 ruchów, 1:23",
      "Bez wygranej: 14 ruchów, 1:23", "Bez wygranej: 24 ruchy, 1:23"]);
    assert.deepEqual([1, 4, 57].map((count) => lines({ rank: 1, count })[2]), [
      "Miejsce #1 z 1 gracza", "Miejsce #1 z 4 graczy", "Miejsce #1 z 57 graczy"]);
    assert.deepEqual([0, 1, 2, 5, 22].map((played) => lines({ streak: { played, won: 1 } })[3]), [
      "Seria: 0 dni gry, wygranych 1", "Seria: 1 dzień gry, wygranych 1", "Seria: 2 dni gry, wygranych 1",
      "Seria: 5 dni gry, wygranych 1", "Seria: 22 dni gry, wygranych 1"]);
    assert.equal(lines({ practice: true })[2], "Gra treningowa: bez rankingu");
  });

  test("German: one and many", () => {
    installLanguage("de");
    const text = (more) => shareText(facts(more), "de");
    assert.equal(text({ moves: 1, count: 1, rank: 1, streak: { played: 1, won: 1 } }),
      [`${BRAND} · 01.12.2026`, "Gewonnen in 1 Zug, 1:23", "Platz #1 von 1 Spieler", "Serie: 1 Tag gespielt, 1 gewonnen", URL_].join("\n"));
    assert.equal(text({ moves: 80, won: false }).split("\n").slice(1, 4).join("|"),
      "Nicht gewonnen: 80 Züge, 1:23|Platz #3 von 57 Spielern|Serie: 4 Tage gespielt, 3 gewonnen");
  });
});

describe("shareFacts from a verified daily game's record", () => {
  const record = {
    code: "EH1-D-QWERTYU", actions: ["s", "w>3", "3>f", "7>2:3"], times: [1, 2, 3, 4], daily: true,
    submission: {
      status: "verified", daily_date: "2026-12-01", won: true, moves: 4, duration_ms: 61_000, practice: false,
      on_boards: true,
    },
    rank: { me: 2, count: 9, daily_date: "2026-12-01" }, streak: { played: 3, won: 2 },
  };

  test("the server's figures, the rank and the streak, and the deal of the day's page", () => {
    assert.deepEqual(shareFacts(record, "https://harp.example"), {
      date: "2026-12-01", won: true, moves: 4, durationMs: 61_000, practice: false, hints: 0, foundations: null,
      rank: 2, count: 9, streak: { played: 3, won: 2 }, url: "https://harp.example/",
    });
  });

  test("the table's foundations, for the picture, and the server's count of hints", () => {
    const piles = [13, 13, 13, 12, 4, 0, 1, 5];
    const facts_ = shareFacts({ ...record, submission: { ...record.submission, hints: 2 } }, "https://x", piles);
    assert.deepEqual([facts_.foundations, facts_.hints], [piles, 2]);
    assert.notEqual(facts_.foundations, piles); // a copy: the game plays on without changing it
  });

  test("spoiler-free: neither the deal's code nor any move of the game", () => {
    const text = shareText(shareFacts(record, "https://harp.example"), "en");
    assert.ok(!text.includes(record.code) && !text.includes("QWERTYU"), text);
    for (const action of record.actions.filter((a) => a.length > 1)) assert.ok(!text.includes(action), action);
    assert.ok(!/[>]/.test(text), text);
  });

  test("a rank not known (an error) or a streak not yet asked for is left out", () => {
    const facts_ = shareFacts({ ...record, rank: { me: null, error: "down" }, streak: undefined }, "https://x");
    assert.equal(facts_.rank, null);
    assert.equal(facts_.streak, null);
    // A game saved before both streaks were kept (a bare number): asked for again, not shown.
    assert.equal(shareFacts({ ...record, streak: 3 }, "https://x").streak, null);
  });
});

describe("deliver", () => {
  const clipboard = () => {
    const box = { text: null, writeText: async (text) => { box.text = text; } };
    return box;
  };

  test("the Web Share API where the browser has it", async () => {
    let shared = null;
    const nav = { share: async (data) => { shared = data; }, canShare: () => true, clipboard: clipboard() };
    assert.equal(await deliver("hello", nav), "shared");
    assert.deepEqual(shared, { text: "hello" });
    assert.equal(nav.clipboard.text, null);
  });

  test("a closed share sheet is no failure, and copies nothing", async () => {
    const abort = Object.assign(new Error("closed"), { name: "AbortError" });
    const nav = { share: async () => { throw abort; }, clipboard: clipboard() };
    assert.equal(await deliver("hello", nav), "cancelled");
    assert.equal(nav.clipboard.text, null);
  });

  test("the clipboard without the API, when it cannot share the text, or when sharing is refused", async () => {
    const refused = Object.assign(new Error("no"), { name: "NotAllowedError" });
    for (const nav of [
      { clipboard: clipboard() },
      { share: async () => {}, canShare: () => false, clipboard: clipboard() },
      { share: async () => { throw refused; }, clipboard: clipboard() },
    ]) {
      assert.equal(await deliver("hello", nav), "copied");
      assert.equal(nav.clipboard.text, "hello");
    }
  });

  test("neither: an error the page turns into the text to copy by hand", async () => {
    await assert.rejects(deliver("hello", {}));
    await assert.rejects(deliver("hello", { clipboard: { writeText: async () => { throw new Error("denied"); } } }));
  });
});
