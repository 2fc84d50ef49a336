// The play page's modules (frontend/static/frontend/pages/play/): each says its job in a header
// comment, loads without a page (no DOM read while a module is evaluated: the entry play.js
// wires them once the page is there), and is preloaded by the page's template.
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";

const folder = new URL("../../frontend/static/frontend/pages/play/", import.meta.url);
const modules = readdirSync(folder).filter((name) => name.endsWith(".js")).sort();
const template = readFileSync(new URL("../../frontend/templates/frontend/play.html", import.meta.url), "utf8");

describe("play/ modules", () => {
  test("are there", () => {
    assert.ok(modules.length >= 10, modules.join(", "));
  });

  for (const name of modules) {
    test(`${name} opens with a comment saying its job`, () => {
      const text = readFileSync(new URL(name, folder), "utf8");
      assert.match(text, /^\/\*\*\n \* \S/);
    });

    test(`${name} loads without a page`, async () => {
      await import(new URL(name, folder));
    });
  }

  test("are each preloaded by play.html, and nothing else is", () => {
    const preloaded = [...template.matchAll(/rel="modulepreload" href="\{% static 'frontend\/pages\/play\/([\w-]+\.js)' %\}"/g)]
      .map((match) => match[1]).sort();
    assert.deepEqual(preloaded, modules);
  });
});
