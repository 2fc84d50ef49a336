/**
 * Boards that update themselves. A page asks for its board again every few seconds with the
 * ETag of its last answer (If-None-Match): while nothing changed the server answers 304 without
 * a body (leaderboard/boards/live.py), so unchanged rows are never sent twice. Only while the
 * page is visible: a hidden page asks nothing, and asks at once when it is shown again. After a
 * failure the pause doubles, up to a minute.
 *
 * - `fetchTagged(path, tag)`: one conditional GET: {data, tag}, or null when not modified.
 * - `watch(path, onChange, {tag, alive})`: poll `path`; `onChange(data)` on each new answer;
 *   stops by itself once `alive()` is false. Returns {stop()}.
 * - `showTable(box, table, ...after)`: a fresh drawing of a board into `box`, keeping the rows
 *   that did not change.
 * - `politeRegion(anchor)`: where news a screen reader says politely goes (a rank that moved).
 */

import { ApiError } from "./api.js";
import { gettext, interpolate } from "./i18n.js";

/** The pause between two polls of a visible page: 6 to 9 s (the jitter spreads the pages' polls),
 * so a new result shows within 10 s. */
export const EVERY_MS = 6000;
const JITTER_MS = 3000;
const MAX_PAUSE_MS = 60000;

/** One GET of the API with If-None-Match: {data, tag} when changed, null when not (304). */
export async function fetchTagged(path, tag = null) {
  const headers = { Accept: "application/json" };
  if (tag) headers["If-None-Match"] = tag;
  let response;
  try {
    // no-store: the 304 comes to this code, not answered from the browser's cache.
    response = await fetch(path, { headers, credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new ApiError(0, "network", gettext("The server cannot be reached: check your connection."));
  }
  if (response.status === 304) return null;
  const text = await response.text();
  let data;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(response.status, err ? err.code : `http_${response.status}`,
      err ? err.message : interpolate(gettext("The server answered %(status)s."), { status: response.status }),
      err ? err.detail : null);
  }
  return { data, tag: response.headers.get("ETag") };
}

/** Poll `path` while the page is visible; `onChange(data)` for each answer that is new. */
export function watch(path, onChange, { tag = null, every = EVERY_MS, alive = () => true } = {}) {
  let held = tag;
  let timer = null;
  let failures = 0;
  let busy = false;
  let stopped = false;

  const visible = () => document.visibilityState === "visible";
  const schedule = () => {
    clearTimeout(timer);
    if (stopped || !visible()) return; // hidden: nothing until shown again
    const pause = failures ? Math.min(every * 2 ** failures, MAX_PAUSE_MS) : every + Math.random() * JITTER_MS;
    timer = setTimeout(poll, pause);
  };
  async function poll() {
    if (!stopped && !alive()) handle.stop();
    if (stopped || busy || !visible()) return;
    busy = true;
    try {
      const fresh = await fetchTagged(path, held);
      failures = 0;
      if (fresh && !stopped) {
        held = fresh.tag;
        onChange(fresh.data);
      }
    } catch {
      failures += 1;
    } finally {
      busy = false;
      schedule();
    }
  }
  const shown = () => {
    if (visible()) poll();
    else clearTimeout(timer);
  };
  const handle = {
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", shown);
    },
  };
  document.addEventListener("visibilitychange", shown);
  schedule();
  return handle;
}

/**
 * Show `table` (a fresh drawing of a board), then `after` (a pager), in `box`. When `box` holds
 * a board already, its rows drawn the same (same key, same cells) stay as they are (their
 * elements: nothing a reader is on moves under them); the others are replaced, in the new
 * order, and marked `data-fresh`. Rows are keyed by `data-key`, else `data-player`.
 */
export function showTable(box, table, ...after) {
  const current = box.firstElementChild;
  const rest = after.filter(Boolean);
  if (!(current && current.tagName === "TABLE" && table.tagName === "TABLE" && patchRows(current, table))) {
    box.replaceChildren(table, ...rest);
    return;
  }
  while (current.nextSibling) current.nextSibling.remove();
  current.after(...rest);
}

function patchRows(old, table) {
  const body = old.tBodies[0];
  const next = table.tBodies[0];
  if (!body || !next || old.tHead?.outerHTML !== table.tHead?.outerHTML) return false;
  const key = (row) => row.dataset.key || row.dataset.player;
  const kept = new Map([...body.rows].map((row) => [key(row), row]));
  const rows = [...next.rows].map((row) => {
    const before = kept.get(key(row));
    if (before) delete before.dataset.fresh; // fresh: changed by the last update only
    if (before && before.outerHTML === row.outerHTML) return before;
    row.dataset.fresh = "true";
    return row;
  });
  body.replaceChildren(...rows);
  return true;
}

/**
 * A polite live region placed after `anchor`, for news a screen reader should say without
 * interrupting (a rank that changed). Returns `say(text)`.
 */
export function politeRegion(anchor, testid) {
  const region = document.createElement("p");
  region.className = "visually-hidden";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("role", "status");
  if (testid) region.dataset.testid = testid;
  anchor.after(region);
  return (text) => { region.textContent = text; };
}
