// Boards that update themselves (live.js): a conditional GET sends the tag it holds and takes a
// 304 as "nothing new"; polling sends the last answer's tag, only while the page is visible,
// at once when it is shown again, and pauses longer after failures. fetch, the document and
// the clock are stand-ins (node:test's mock timers).
// Run: node --test tests/frontend/

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { ApiError } from "../../frontend/static/frontend/lib/api.js";
import { EVERY_MS, fetchTagged, watch } from "../../frontend/static/frontend/lib/live.js";

/** A server that answers each GET from `answers` (status, tag, body) and records what came. */
function server(answers) {
  const asked = [];
  globalThis.fetch = async (path, options) => {
    asked.push({ path, tag: options.headers["If-None-Match"] || null, cache: options.cache });
    const [status, tag, body] = answers.length > 1 ? answers.shift() : answers[0];
    return {
      status, ok: status >= 200 && status < 300,
      headers: { get: (name) => (name === "ETag" ? tag : null) },
      text: async () => (body === undefined ? "" : JSON.stringify(body)),
    };
  };
  return asked;
}

/** A document whose visibility the test sets; `show(state)` fires visibilitychange. */
function page() {
  const listeners = [];
  globalThis.document = {
    visibilityState: "visible",
    addEventListener: (name, fn) => listeners.push(fn),
    removeEventListener: (name, fn) => listeners.splice(listeners.indexOf(fn), 1),
  };
  return (state) => {
    globalThis.document.visibilityState = state;
    listeners.forEach((fn) => fn());
  };
}

/** Let the awaited fetch and its callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function tick(ms) {
  mock.timers.tick(ms);
  for (let i = 0; i < 5; i++) await settle();
}

beforeEach(() => mock.timers.enable({ apis: ["setTimeout"] }));
afterEach(() => {
  mock.timers.reset();
  delete globalThis.fetch;
  delete globalThis.document;
});

describe("one conditional GET", () => {
  test("a 200 gives the data and its tag; a 304 gives nothing new", async () => {
    const asked = server([[200, 'W/"a"', { count: 1 }], [304, 'W/"a"']]);
    assert.deepEqual(await fetchTagged("/api/x/"), { data: { count: 1 }, tag: 'W/"a"' });
    assert.equal(await fetchTagged("/api/x/", 'W/"a"'), null);
    assert.deepEqual(asked.map((a) => [a.tag, a.cache]), [[null, "no-store"], ['W/"a"', "no-store"]]);
  });

  test("an error answer is an ApiError in the API's shape", async () => {
    server([[404, null, { error: { code: "group_not_found", message: "No such group.", detail: null } }]]);
    await assert.rejects(fetchTagged("/api/groups/9/boards/daily/"),
      (exc) => exc instanceof ApiError && exc.status === 404 && exc.code === "group_not_found");
  });
});

describe("polling", () => {
  test("each poll sends the last answer's tag; only a new answer is handed on", async () => {
    page();
    const asked = server([[304, 'W/"a"'], [200, 'W/"b"', { n: 2 }], [304, 'W/"b"']]);
    const seen = [];
    const watching = watch("/api/x/", (data) => seen.push(data), { tag: 'W/"a"' });
    for (let i = 0; i < 3; i++) await tick(EVERY_MS + 3000);
    watching.stop();
    assert.deepEqual(asked.map((a) => a.tag), ['W/"a"', 'W/"a"', 'W/"b"']);
    assert.deepEqual(seen, [{ n: 2 }]);
    await tick(60_000);
    assert.equal(asked.length, 3, "stopped: no more polls");
  });

  test("a hidden page asks nothing, and asks at once when shown again", async () => {
    const show = page();
    const asked = server([[304, 'W/"a"']]);
    const watching = watch("/api/x/", () => {}, { tag: 'W/"a"' });
    show("hidden");
    await tick(10 * 60_000);
    assert.equal(asked.length, 0);
    show("visible");
    await tick(0);
    assert.equal(asked.length, 1);
    await tick(EVERY_MS + 3000);
    assert.equal(asked.length, 2);
    watching.stop();
  });

  test("after failures the pause doubles, up to a minute; it stops once no longer alive", async () => {
    page();
    const asked = server([[503, null, { error: { code: "unavailable", message: "x", detail: null } }]]);
    let alive = true;
    watch("/api/x/", () => {}, { alive: () => alive });
    await tick(EVERY_MS + 3000); // the first poll fails
    assert.equal(asked.length, 1);
    await tick(2 * EVERY_MS - 1);
    assert.equal(asked.length, 1, "the pause after one failure is twice as long");
    await tick(1);
    assert.equal(asked.length, 2);
    await tick(4 * EVERY_MS);
    assert.equal(asked.length, 3);
    await tick(60_000);
    assert.equal(asked.length, 4); // after 48 s
    await tick(60_000);
    assert.equal(asked.length, 5, "never more than a minute");
    alive = false;
    await tick(120_000);
    assert.equal(asked.length, 5);
  });
});
