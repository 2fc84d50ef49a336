// The group pages' pure parts: an invite link's code, a group's address, and the counted texts
// in English and through a catalogue with Polish plural forms (a stand-in for /jsi18n/).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { groupHref, inviteCode } from "../../frontend/static/frontend/pages/groups/links.js";
import { TEXT } from "../../frontend/static/frontend/pages/groups/text.js";

const polish = (n) => (n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2);

afterEach(() => {
  delete globalThis.django;
});

describe("invite links", () => {
  test("the code of a link, pasted whole or as the code", () => {
    const code = "eSa7R96UMyRB_EG98qryvg";
    assert.equal(inviteCode(`https://harp.example.com/groups/join/${code}/`), code);
    assert.equal(inviteCode(`  http://127.0.0.1:8000/groups/join/${code}  `), code);
    assert.equal(inviteCode(`/groups/join/${code}/?utm=x`), code);
    assert.equal(inviteCode(code), code);
    assert.equal(inviteCode("not a code"), null);
    assert.equal(inviteCode("https://harp.example.com/boards/"), null);
    assert.equal(inviteCode(""), null);
  });

  test("a group's page, on a day's board", () => {
    assert.equal(groupHref({ id: 7 }), "/groups/7/");
    assert.equal(groupHref({ id: 7 }, "2026-12-01"), "/groups/7/?date=2026-12-01");
  });
});

describe("texts", () => {
  test("counted texts in English", () => {
    assert.equal(TEXT.members(1), "1 member");
    assert.equal(TEXT.members(100), "100 members");
    assert.equal(TEXT.groupsUsed(3, 20), "You are in 3 groups of at most 20.");
    assert.equal(TEXT.boardMeta("Today", 2, 5), "Today: 2 of 5 members played");
    assert.equal(TEXT.pointsNote([10, 8, 6], 1), "Each day's place in the group earns points: 10, 8, 6 from 1st place on; "
      + "any later place 1.");
  });

  test("counted texts take the catalogue's plural forms", () => {
    const forms = ["%(count)s członek", "%(count)s członkowie", "%(count)s członków"];
    globalThis.django = {
      gettext: (id) => id,
      ngettext: (singular, plural, n) => (singular === "%(count)s member" ? forms[polish(n)] : n === 1 ? singular : plural),
    };
    assert.deepEqual([1, 2, 5, 22].map((n) => TEXT.members(n)),
      ["1 członek", "2 członkowie", "5 członków", "22 członkowie"]);
  });
});
