/**
 * The play page: `/` (today's deal of the day) and `/play/<code>/` (any deal).
 *
 * Every action goes through the engine (engine.js): the page only turns taps and drags into
 * action texts of the notation, asks the engine, and keeps the action log. The log, the time
 * of each action (timing.js), the attempt and the hints (counted by the server) live in
 * localStorage per deal code, so a reload (or coming back to a deal later) resumes the game.
 *
 * Today's deal (fair play, issue 12): signed out, the page only tells about it and invites the
 * visitor to sign up; signed in, the cards are dealt only once the player has pressed Start and
 * the server has answered with the attempt (its code, and whether it is ranked or practice).
 * A player who has started today's attempt resumes it, on any device.
 *
 * How a person's gestures become actions (rules section 9):
 *   tap the stock                         -> "s"
 *   tap a top card (column N or waste)    -> tapDestination(src, false): "N>f" / "w>f"
 *   double tap it ("Double click" on)     -> tapDestination(src, true): a foundation, else the
 *                                            longest column that takes it, else an empty column
 *   drag a card over the foundations      -> "w>f" / "N>f" (the engine picks the foundation)
 *   drag the waste top onto column M      -> "w>M"
 *   drag the top card of N onto column M  -> "N>M"
 *   drag a card with K-1 cards on it to M -> "N>M:K" (the engine allows only a King-led run
 *                                            onto an empty column and says why otherwise)
 *   drag a foundation's top card onto N   -> "fK>N" (take back)
 *   Undo button / Ctrl+Z                  -> "u"
 */

import {
  Game, InvalidCode, formatCode, parseCode, replayOnto, MAX_DEAL, MIN_DEAL,
} from "./engine.js";
import { ApiError, clock, get, h, pageData, post } from "./api.js";
import { pretty, renderTable } from "./table.js";
import { AttemptClock, alignTimes } from "./timing.js";
import { attemptIsMine, createPlayState } from "./play/state.js";

const page = pageData();
const play = createPlayState(page);
const { user } = play;

const $ = (id) => document.getElementById(id);
const tableEl = $("table");
const ruleEl = $("rule-message");
const resultEl = $("result");
const STORE_PREFIX = "eh:game:";
const SETTINGS_KEY = "eh:settings";
const DOUBLE_TAP_MS = 400;
const KEEP_DAYS = 14;
const RUN_TO_FOUNDATION =
  "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column.";

/** The texts a person reads, in one place for the translation that follows. */
const TEXT = {
  dailyKind: (date) => `Deal of the day · ${date}`,
  provenWinnable: "proven winnable",
  playersSoFar: (n) => (n === 1 ? "1 player so far" : `${n} players so far`),
  closesAt: (when) => `closes at ${when}`,
  codeHidden: "shown when you start",
  dailyAbout: "Everyone gets the same deal today. The fewest moves wins, then the highest score, then the fastest time.",
  inviteTitle: "Sign in to play today's deal",
  inviteBefore: "Today's deal is for signed-in players: ",
  signUp: "sign up",
  or: " or ",
  logIn: "log in",
  inviteAfter: " to play it and go on today's board.",
  numberedOpen: "Numbered deals are open to everyone: ",
  playNumbered: (code) => `play deal ${code}`,
  startTitle: "Your ranked try",
  rankedTry: "This is your ranked try today. The cards stay hidden until you press Start; the server's clock starts then, and this game is the one that goes on today's board.",
  againTitle: "You have played today's deal",
  again: "You may play it again: a game after your ranked try is practice and will not be ranked.",
  yourGame: "See your game",
  start: "Start",
  starting: "Starting…",
  cannotStart: (why) => `The game could not start: ${why}`,
  practice: "Practice: this game will not be ranked.",
  ranked: "Your ranked try has started: good luck.",
  resumed: "Welcome back: your ranked try goes on.",
  dealtAgainDaily: "Dealt again: the same cards, a fresh log; the server's clock of your try keeps running.",
  hintSignIn: "Sign in to get hints",
  hint: "Hint",
  hintLooking: "Looking for a good move…",
  hintFailed: (why) => `No hint: ${why}`,
  hintNote: "(Hints make a game not clean, and it ranks after every game without hints.)",
  practiceResult: "Practice: verified, but not ranked and not on any board.",
  copyResult: "This game is identical to an earlier game of another player: it is kept, but off the boards.",
  hintsResult: (n) => `Hints used (${n}): ranked after every game without hints.`,
  flaggedResult: "Flagged for a review: the result goes on the boards once staff have looked at it.",
  dayClosed: (when) => `The day closed at ${when}; this game can no longer be ranked.`,
};

/** A moment as the reader's local date and time, e.g. "1 Dec, 01:00 (CET)". */
function localTime(iso) {
  if (!iso) return "midnight UTC";
  return new Date(iso).toLocaleString([], {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
}

// -- settings (persisted) ---------------------------------------------------------------------

try { Object.assign(play.settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}")); } catch { /* defaults */ }

function bindSetting(id, key) {
  const box = $(id);
  box.checked = Boolean(play.settings[key]);
  box.addEventListener("change", () => {
    play.settings[key] = box.checked;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(play.settings));
  });
}
bindSetting("opt-double", "double");
bindSetting("opt-rules", "rules");

// -- the game and its saved state -------------------------------------------------------------

/**
 * times[i]: ms since the attempt started when actions[i] was played (0 before it started);
 * clock: the attempt's clock as saved; daily/ranked/practice/closesAt: from the attempt's
 * answer; refusal: a submission the server refused for good (day_closed).
 */
function freshState(dealCode) {
  return {
    code: dealCode, actions: [], times: [], hints: 0, startedAt: null, finishedAt: null,
    attemptId: null, attemptUser: null, attemptStartedAt: null, clockNote: false, clock: null,
    daily: false, ranked: null, practice: false, closesAt: null,
    submissionId: null, submission: null, rank: null, refusal: null, savedAt: Date.now(),
  };
}

function save() {
  play.record.savedAt = Date.now();
  if (play.timer) play.record.clock = play.timer.saved();
  try {
    localStorage.setItem(STORE_PREFIX + play.record.code, JSON.stringify(play.record));
    localStorage.setItem("eh:current", play.record.code);
  } catch { /* storage full or disabled: the game still plays */ }
}

function load(dealCode) {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_PREFIX + dealCode) || "null");
    if (saved && saved.code === dealCode && Array.isArray(saved.actions)) {
      return { ...freshState(dealCode), ...saved, times: alignTimes(saved.times, saved.actions.length) };
    }
  } catch { /* unreadable: start again */ }
  return null;
}

function forgetOldGames() {
  const limit = Date.now() - KEEP_DAYS * 86400_000;
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(STORE_PREFIX)) continue;
    try {
      const saved = JSON.parse(localStorage.getItem(key));
      if (!saved || !saved.savedAt || saved.savedAt < limit) localStorage.removeItem(key);
    } catch { localStorage.removeItem(key); }
  }
}

// -- messages ---------------------------------------------------------------------------------

function say(text, kind = "info") {
  ruleEl.textContent = text || "";
  ruleEl.dataset.kind = text ? kind : "";
  ruleEl.classList.remove("pulse");
  if (text) {
    void ruleEl.offsetWidth; // restart the animation
    ruleEl.classList.add("pulse");
  }
}

function refused(reason) {
  if (play.settings.rules) say(reason, "refused");
  else say("");
}

// -- drawing ----------------------------------------------------------------------------------

// Measured once and on resize: reading layout on every action would slow every tap.
function measureLayout() {
  const top = tableEl.getBoundingClientRect().top + window.scrollY;
  play.layout = {
    width: tableEl.clientWidth,
    maxColumnHeight: Math.max(window.innerHeight - Math.min(top, window.innerHeight * 0.45) - 24, 260),
  };
  // Lets a test (or a curious reader) see which window width the table was laid out for.
  tableEl.dataset.laidOutFor = String(window.innerWidth);
}

function render() {
  if (!play.game) return;
  const snap = play.game.snapshot();
  const keys = {};
  if (play.hint) for (const key of play.hint.keys) keys[key] = "hinted";
  if (play.landed) for (const key of play.landed) keys[key] = `${keys[key] || ""} landed`.trim();
  if (!play.layout) measureLayout();
  renderTable(tableEl, snap, { interactive: !snap.won, keys, ...play.layout });
  $("score").textContent = snap.score;
  $("moves").textContent = snap.moves;
  $("hints").textContent = play.record.hints;
  $("mode-note").hidden = !play.record.practice;
  tableEl.dataset.logLength = play.record.actions.length;
  $("log-length").textContent = play.record.actions.length;
  $("move-log").value = JSON.stringify({ deal: play.code, actions: play.record.actions });
  $("undo").disabled = snap.won;
  $("hint").disabled = snap.won;
  tick();
}

function tick() {
  if (!play.record) return;
  const end = play.record.finishedAt || Date.now();
  $("time").textContent = play.game && play.record.startedAt ? clock(end - play.record.startedAt) : "0:00";
}
setInterval(tick, 1000);

// -- playing an action ------------------------------------------------------------------------

/** Where the moved card(s) end up, for a short "landed" highlight. */
function landingKeys(text, foundationBefore) {
  const snap = play.game.snapshot();
  if (text === "u") return [];
  if (text === "s") return snap.waste.length ? ["waste"] : ["stock"];
  if (text.endsWith(">f")) return foundationBefore === null ? [] : [`foundation:${foundationBefore + 1}`];
  const to = Number(text.split(">")[1].split(":")[0]);
  const k = text.includes(":") ? Number(text.split(":")[1]) : 1;
  const length = snap.columns[to - 1].length;
  const keys = [];
  for (let i = Math.max(0, length - k); i < length; i++) keys.push(`col:${to}:${i}`);
  return keys;
}

function foundationTarget(text) {
  // The foundation a "w>f" / "N>f" will land on (the engine's first that accepts it).
  if (text === "w>f") return play.game.waste.length ? play.game.foundationFor(play.game.waste[play.game.waste.length - 1]) : null;
  const column = play.game.columns[Number(text[0]) - 1];
  return column && column.length ? play.game.foundationFor(column[column.length - 1]) : null;
}

/** Try one action: the engine either refuses it (and says why) or it is played and logged. */
function act(text) {
  if (!play.game) return false;
  clearTapWait();
  const reason = play.game.refusal(text);
  if (reason !== null) {
    refused(reason);
    return false;
  }
  const target = text.endsWith(">f") ? foundationTarget(text) : null;
  play.game.play(text);
  play.record.actions.push(text);
  play.record.times.push(play.timer ? play.timer.stamp(play.record.times) : 0);
  if (!play.record.startedAt) play.record.startedAt = Date.now();
  play.hint = null;
  play.landed = landingKeys(text, target);
  say("");
  save();
  render();
  if (play.game.won) onWin();
  else ensureAttempt();
  return true;
}

function clearTapWait() {
  if (play.tapWait) clearTimeout(play.tapWait.timer);
  play.tapWait = null;
}

/** A tap on the top card of "w" or "1".."9" (section 9). */
function tap(source, cardKey) {
  const now = Date.now();
  if (play.tapWait && play.tapWait.source === source && play.tapWait.cardKey === cardKey && now - play.tapWait.at < DOUBLE_TAP_MS) {
    clearTapWait();
    const action = play.game.tapDestination(source, true);
    if (action) act(action);
    else refused(`${describeSource(source)} has nowhere to go: no foundation and no column takes it.`);
    return;
  }
  clearTapWait();
  const action = play.game.tapDestination(source, false);
  if (action) {
    act(action);
    return;
  }
  const why = play.game.refusal(`${source}>f`) || "";
  if (!play.settings.double) {
    refused(why);
    return;
  }
  // Wait for a possible second tap before saying no foundation takes it.
  play.tapWait = { source, cardKey, at: now, timer: setTimeout(() => { play.tapWait = null; refused(why); }, DOUBLE_TAP_MS) };
}

function describeSource(source) {
  const snap = play.game.snapshot();
  const name = source === "w" ? snap.waste[snap.waste.length - 1] : snap.columns[Number(source) - 1].slice(-1)[0];
  return name ? pretty(name) : "That card";
}

// -- pointer input: taps and drags ------------------------------------------------------------

function parseSrc(src) {
  if (src === "waste") return { kind: "waste" };
  const [kind, a, b] = src.split(":");
  if (kind === "col") return { kind: "col", col: Number(a), index: Number(b) };
  return { kind: "f", foundation: Number(a) };
}

tableEl.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || !play.game || play.game.won) return;
  const target = event.target.closest("[data-src], [data-stock]");
  if (!target || !tableEl.contains(target)) return;
  event.preventDefault();
  play.press = {
    id: event.pointerId, x: event.clientX, y: event.clientY, el: target, dragging: false,
    stock: target.hasAttribute("data-stock"), src: target.dataset.src,
  };
});

window.addEventListener("pointermove", (event) => {
  if (!play.press || event.pointerId !== play.press.id || play.press.stock) return;
  const dx = event.clientX - play.press.x;
  const dy = event.clientY - play.press.y;
  if (!play.press.dragging) {
    if (Math.hypot(dx, dy) < 6) return;
    startDrag();
  }
  play.press.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  markDropTarget(event.clientX, event.clientY);
});

window.addEventListener("pointerup", (event) => {
  if (!play.press || event.pointerId !== play.press.id) return;
  const done = play.press;
  play.press = null;
  if (done.dragging) {
    endDrag(done, event.clientX, event.clientY);
    return;
  }
  if (done.stock) {
    act("s");
    return;
  }
  const src = parseSrc(done.src);
  if (src.kind === "waste") tap("w", `w:${play.game.waste.length}`);
  else if (src.kind === "col") {
    const length = play.game.columns[src.col - 1].length;
    if (src.index === length - 1) tap(String(src.col), `${src.col}:${length}`);
  }
});

window.addEventListener("pointercancel", (event) => {
  if (!play.press || event.pointerId !== play.press.id) return;
  if (play.press.dragging) cleanupDrag(play.press);
  play.press = null;
});

/** The cards that move with the pointer: one card, or a column card and all above it. */
function dragged(srcText) {
  const src = parseSrc(srcText);
  if (src.kind === "col") {
    return [...tableEl.querySelectorAll(`[data-col="${src.col}"]`)]
      .filter((card) => Number(card.dataset.index) >= src.index);
  }
  return [play.press.el];
}

function startDrag() {
  clearTapWait();
  play.press.dragging = true;
  play.press.cards = dragged(play.press.src);
  const first = play.press.cards[0].getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  ghost.style.left = `${first.left}px`;
  ghost.style.top = `${first.top}px`;
  ghost.style.setProperty("--w", tableEl.style.getPropertyValue("--w"));
  ghost.style.setProperty("--h", tableEl.style.getPropertyValue("--h"));
  for (const card of play.press.cards) {
    const rect = card.getBoundingClientRect();
    const copy = card.cloneNode(true);
    copy.style.left = `${rect.left - first.left}px`;
    copy.style.top = `${rect.top - first.top}px`;
    copy.removeAttribute("data-src");
    copy.removeAttribute("data-col");
    copy.removeAttribute("data-index");
    copy.removeAttribute("data-key");
    ghost.append(copy);
    card.classList.add("drag-origin");
  }
  document.body.append(ghost);
  document.body.classList.add("dragging");
  play.press.ghost = ghost;
}

function cleanupDrag(done) {
  done.ghost?.remove();
  for (const card of done.cards || []) card.classList.remove("drag-origin");
  tableEl.querySelectorAll(".drop-target").forEach((node) => node.classList.remove("drop-target"));
  document.body.classList.remove("dragging");
}

/** What lies under the pointer: {foundations: true} or {column: n}, else null. */
function dropTargetAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  if (!hit || !tableEl.contains(hit)) return null;
  if (hit.closest("[data-foundations]")) return { foundations: true };
  const column = hit.closest("[data-column]");
  if (column) return { column: Number(column.dataset.column) };
  if (hit.closest("[data-columns]")) {
    // Between two columns: the nearest one.
    let best = null;
    for (const node of tableEl.querySelectorAll("[data-column]")) {
      const rect = node.getBoundingClientRect();
      const distance = Math.abs(x - (rect.left + rect.right) / 2);
      if (!best || distance < best.distance) best = { distance, column: Number(node.dataset.column) };
    }
    return best && { column: best.column };
  }
  return null;
}

function markDropTarget(x, y) {
  tableEl.querySelectorAll(".drop-target").forEach((node) => node.classList.remove("drop-target"));
  const target = dropTargetAt(x, y);
  if (!target) return;
  const node = target.foundations ? tableEl.querySelector("[data-foundations]")
    : tableEl.querySelector(`[data-column="${target.column}"]`);
  node?.classList.add("drop-target");
}

/** The action a drop means (null: put it back where it was), or {message} for no action at all. */
function dropAction(srcText, target) {
  if (!target) return null;
  const src = parseSrc(srcText);
  if (src.kind === "waste") return target.foundations ? "w>f" : `w>${target.column}`;
  if (src.kind === "f") return target.foundations ? null : `f${src.foundation}>${target.column}`;
  const k = play.game.columns[src.col - 1].length - src.index;
  if (target.foundations) return k === 1 ? `${src.col}>f` : { message: RUN_TO_FOUNDATION };
  if (target.column === src.col) return null;
  if (k === 1) return `${src.col}>${target.column}`;
  if (k > 13) return { message: RUN_TO_FOUNDATION };
  return `${src.col}>${target.column}:${k}`;
}

function endDrag(done, x, y) {
  done.ghost.style.display = "none";
  const target = dropTargetAt(x, y);
  cleanupDrag(done);
  const action = dropAction(done.src, target);
  if (action === null) return;
  if (typeof action === "object") refused(action.message);
  else act(action);
}

tableEl.addEventListener("keydown", (event) => {
  if ((event.key === "Enter" || event.key === " ") && event.target.hasAttribute("data-stock")) {
    event.preventDefault();
    act("s");
  }
});

document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !event.target.closest("input, textarea")) {
    event.preventDefault();
    act("u");
  }
});

// -- buttons ----------------------------------------------------------------------------------

$("undo").addEventListener("click", () => act("u"));
$("hint").addEventListener("click", () => askHint());
$("same-deal").addEventListener("click", () => restart());
$("new-deal").addEventListener("click", () => {
  const number = MIN_DEAL + Math.floor(Math.random() * (MAX_DEAL - MIN_DEAL + 1));
  window.location.assign(`/play/${formatCode(number, "N")}/`);
});

$("code-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("code-input");
  const typed = input.value.trim().toUpperCase();
  input.value = typed;
  if (!typed) return;
  try {
    const next = /^\d+$/.test(typed) ? formatCode(Number(typed), "N") : parseCode(typed).toString();
    window.location.assign(`/play/${next}/`);
  } catch (exc) {
    if (!(exc instanceof InvalidCode)) throw exc;
    say(exc.message, "error");
  }
});
$("code-input").addEventListener("input", (event) => {
  const input = event.target;
  const at = input.selectionStart;
  input.value = input.value.toUpperCase();
  input.setSelectionRange(at, at);
});

function restart() {
  clearTapWait();
  play.hint = null;
  play.landed = null;
  if (page.daily && !(attemptIsMine(play) && !play.record.submissionId && !play.record.refusal)) {
    // Today's try is over: another game is a new attempt, which needs Start again.
    showPanel("again", play.record.submissionId);
    return;
  }
  if (page.daily) {
    // The same try goes on (its attempt and clock, hints counted): only the log starts again.
    Object.assign(play.record, { actions: [], times: [], startedAt: null, finishedAt: null });
  } else {
    play.record = freshState(play.code);
    play.timer = null;
  }
  play.game = Game.new(parseCode(play.code).number);
  save();
  say(page.daily ? TEXT.dealtAgainDaily : "Dealt again: the same cards, a fresh start.");
  renderResult();
  render();
}

// -- hints ------------------------------------------------------------------------------------

/** The cells to light up for an action text. */
function actionKeys(text) {
  if (text === "s") return ["stock"];
  const [from, rest] = text.split(">");
  const [to, kText] = rest.split(":");
  const keys = [];
  if (from === "w") keys.push("waste");
  else if (from.startsWith("f")) keys.push(`foundation:${from.slice(1)}`);
  else {
    const length = play.game.columns[Number(from) - 1].length;
    const k = kText ? Number(kText) : 1;
    for (let i = length - k; i < length; i++) keys.push(`col:${from}:${i}`);
  }
  if (to === "f") {
    const f = foundationTarget(text);
    keys.push(f === null ? "foundations" : `foundation:${f + 1}`);
  } else {
    const length = play.game.columns[Number(to) - 1].length;
    keys.push(length ? `col:${to}:${length - 1}` : `column:${to}`);
  }
  return keys;
}

function describe(text) {
  const snap = play.game.snapshot();
  if (text === "u") return "undo the last move";
  if (text === "s") return snap.stock.length ? "draw a card from the stock" : "turn the waste over into the stock";
  const [from, rest] = text.split(">");
  const [to, kText] = rest.split(":");
  let what;
  let where;
  if (from === "w") { what = pretty(snap.waste[snap.waste.length - 1]); where = "the waste"; }
  else if (from.startsWith("f")) { what = pretty(snap.foundations[Number(from.slice(1)) - 1]); where = `foundation ${from.slice(1)}`; }
  else {
    const column = snap.columns[Number(from) - 1];
    const k = kText ? Number(kText) : 1;
    what = k > 1 ? `the run from ${pretty(column[column.length - k])}` : pretty(column[column.length - 1]);
    where = `column ${from}`;
  }
  const onto = to === "f" ? "a foundation" : `column ${to}`;
  return `move ${what} from ${where} to ${onto}`;
}

/** The solver's next move, asked on the attempt: the server counts the hint on it. */
async function askHint() {
  if (!play.game || play.game.won) return;
  if (!user.authenticated) {
    window.location.assign(`/login/?next=${encodeURIComponent(window.location.pathname)}`);
    return;
  }
  say(TEXT.hintLooking);
  let action = null;
  try {
    await ensureAttempt({ force: true });
    if (!attemptIsMine(play)) return; // ensureAttempt said why
    const answer = await post("/api/hints/", { attempt: play.record.attemptId, actions: play.record.actions });
    action = answer.action;
    play.record.hints = answer.hints;
    save();
    render();
  } catch (exc) {
    say(TEXT.hintFailed(exc.message), "error");
    return;
  }
  if (!action || play.game.refusal(action) !== null) {
    say("No move to suggest from here: undo a few moves or start again.");
    return;
  }
  play.hint = { action, keys: actionKeys(action) };
  render();
  say(`Hint: ${describe(action)}. ${TEXT.hintNote}`, "hint");
}

// -- the server: attempts, submissions, ranks -------------------------------------------------

/** The attempt's answer becomes this game's: its id, kind, and the clock of its times. */
function bindAttempt(attempt) {
  Object.assign(play.record, {
    attemptId: attempt.id, attemptUser: user.username, attemptStartedAt: attempt.started_at,
    daily: Boolean(attempt.daily_date), ranked: attempt.ranked ?? null, practice: Boolean(attempt.practice),
    closesAt: attempt.closes_at ?? null, hints: attempt.hints ?? 0,
  });
  play.timer = AttemptClock.start();
  save();
}

/**
 * A numbered deal, signed in: the server's clock starts with an attempt at the first action
 * (or a hint), once per game. Today's deal has its attempt before the cards are dealt.
 */
function ensureAttempt({ force = false } = {}) {
  if (play.attemptStarting) return play.attemptStarting;
  if (page.daily || !user.authenticated || !play.game || play.game.won || attemptIsMine(play)) return Promise.resolve();
  if (!force && !play.record.actions.length) return Promise.resolve();
  const forState = play.record;
  const lateStart = play.record.actions.length > 1;
  play.attemptStarting = (async () => {
    try {
      const attempt = await post("/api/attempts/", { deal: play.record.code });
      if (play.record !== forState) return; // dealt again meanwhile: the next action starts a new one
      bindAttempt(attempt);
      play.record.clockNote = lateStart;
      save();
      if (lateStart) say("You are signed in: the server's clock for this game starts now.", "info");
    } catch (exc) {
      say(`Could not start this game on the server (${exc.message}); it can't be ranked yet.`, "error");
    } finally {
      play.attemptStarting = null;
    }
  })();
  return play.attemptStarting;
}

function onWin() {
  if (!play.record.finishedAt) play.record.finishedAt = Date.now();
  save();
  render();
  renderResult();
  if (user.authenticated) submit();
}

async function submit() {
  if (play.attemptStarting) { try { await play.attemptStarting; } catch { /* reported */ } }
  if (play.record.submissionId) { poll(); return; }
  if (play.record.refusal) { renderResult(); return; }
  if (!attemptIsMine(play)) {
    renderResult("This game began before you signed in, so the server has no clock for it and it can't be ranked. Play it again with “Same deal”.");
    return;
  }
  try {
    const body = { actions: play.record.actions };
    // A late start's first actions have no time worth sending; today's deal always has them.
    if (play.record.daily || !play.record.clockNote) body.times = play.record.times;
    const sent = await post(`/api/attempts/${play.record.attemptId}/submission`, body);
    play.record.submissionId = sent.id;
    play.record.submission = { status: sent.status };
    save();
    renderResult();
    poll();
  } catch (exc) {
    if (exc instanceof ApiError && exc.code === "day_closed") {
      // The server may say when the day closed; else the attempt's answer did.
      play.record.refusal = { code: exc.code, closedAt: (exc.detail && exc.detail.closes_at) || play.record.closesAt };
      save();
      renderResult();
      return;
    }
    renderResult(`The server did not take this game: ${exc.message}`);
  }
}

/** Whether a verified result stands on its board (else there is no rank to ask for). */
function onBoards(sub) {
  return sub.status === "verified" && !sub.practice && !sub.copy_of && !sub.flagged && !sub.hidden;
}

async function poll() {
  if (play.polling || !play.record.submissionId) return;
  play.polling = true;
  const id = play.record.submissionId;
  const forCode = play.record.code;
  let delay = 400;
  try {
    for (let round = 0; round < 600 && play.record.code === forCode && play.record.submissionId === id; round++) {
      let sub;
      try {
        sub = await get(`/api/submissions/${id}/`);
      } catch (exc) {
        if (exc instanceof ApiError && exc.status === 404) break;
        sub = null;
      }
      if (sub) {
        play.record.submission = sub;
        save();
        renderResult();
        if (sub.status === "verified" || sub.status === "rejected") {
          if (onBoards(sub)) await fetchRank(sub);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 1.3, 5000);
    }
  } finally {
    play.polling = false;
  }
}

async function fetchRank(sub) {
  const path = sub.daily_date ? `/api/leaderboards/daily/${sub.daily_date}/?around=me&page_size=5`
    : `/api/leaderboards/deals/${sub.deal_number}/?around=me&page_size=5`;
  try {
    const board = await get(path);
    play.record.rank = { me: board.me, count: board.count, daily_date: sub.daily_date, deal_number: sub.deal_number };
  } catch (exc) {
    play.record.rank = { me: null, error: exc.message, daily_date: sub.daily_date, deal_number: sub.deal_number };
  }
  save();
  renderResult();
}

const STATUS_TEXT = {
  pending: "Sent to the server: waiting for the verifier…",
  verifying: "The server is replaying your moves…",
  verified: "Verified by the server.",
  rejected: "Rejected by the server.",
};

function renderResult(note) {
  if (!play.game || !play.game.won) {
    resultEl.hidden = true;
    resultEl.replaceChildren();
    return;
  }
  const snap = play.game.snapshot();
  const time = play.record.startedAt ? clock((play.record.finishedAt || Date.now()) - play.record.startedAt) : "–";
  const parts = [
    h("h2", { text: "You won!" }),
    h("p", { class: "result-line" },
      h("b", { "data-testid": "result-score", text: snap.score }), " points in ",
      h("b", { "data-testid": "result-moves", text: snap.moves }), " moves, ", h("b", { text: time }),
      play.record.hints ? ` with ${play.record.hints} hint${play.record.hints > 1 ? "s" : ""}` : ""),
  ];
  if (!user.authenticated) {
    const next = encodeURIComponent(window.location.pathname);
    parts.push(h("p", { class: "invite", "data-testid": "signup-invite" },
      "Only signed-in players' games are verified and ranked. ",
      h("a", { href: `/signup/?next=${next}` }, "Sign up"), " or ", h("a", { href: `/login/?next=${next}` }, "log in"),
      ", then play the next one for the boards."));
  } else {
    const sub = play.record.submission;
    if (sub) {
      const status = sub.status;
      const line = h("p", { class: `submission-status status-${status}`, "data-testid": "submission-status", "data-status": status },
        STATUS_TEXT[status] || status);
      parts.push(line);
      if (status === "rejected") {
        parts.push(h("p", { class: "form-error" }, `Action ${sub.error_index}: ${sub.error}`));
      }
      if (status === "verified") {
        if (sub.practice) parts.push(h("p", { "data-testid": "result-practice" }, TEXT.practiceResult));
        if (sub.copy_of) parts.push(h("p", { "data-testid": "result-copy" }, TEXT.copyResult));
        if (sub.flagged) parts.push(h("p", { "data-testid": "flagged" }, TEXT.flaggedResult));
        if (sub.hints > 0 && !sub.practice) parts.push(h("p", { "data-testid": "result-hints" }, TEXT.hintsResult(sub.hints)));
        if (sub.won === false) parts.push(h("p", {}, "The server's replay did not end in a win."));
        const rank = play.record.rank;
        if (rank && rank.me) {
          const href = rank.daily_date ? `/boards/?date=${rank.daily_date}` : `/boards/?deal=${rank.deal_number}`;
          const boardName = rank.daily_date ? `the board of ${rank.daily_date}` : `the board of deal ${rank.deal_number}`;
          parts.push(h("p", { class: "rank-line" }, "Rank ",
            h("b", { "data-testid": "rank", text: `#${rank.me}` }), ` of ${rank.count} on ${boardName}. `,
            h("a", { href, "data-testid": "board-link" }, "See the board")));
        } else if (rank && rank.error) {
          parts.push(h("p", {}, `Rank unavailable: ${rank.error}`));
        }
        if (sub.clean === false) parts.push(h("p", { class: "muted" }, "Not a clean game (undo or hints used)."));
      }
    } else if (play.record.refusal && play.record.refusal.code === "day_closed") {
      parts.push(h("p", { class: "form-error", "data-testid": "day-closed" }, TEXT.dayClosed(localTime(play.record.refusal.closedAt))));
    } else if (!note) {
      parts.push(h("p", { "data-testid": "submission-status", "data-status": "sending" }, "Sending your game to the server…"));
    }
    if (play.record.practice && !(sub && sub.status === "verified")) {
      parts.push(h("p", { "data-testid": "result-practice" }, TEXT.practice));
    }
  }
  if (note) parts.push(h("p", { class: "note" }, note));
  parts.push(h("p", { class: "result-actions" },
    h("button", { type: "button", onclick: () => restart() }, "Same deal"), " ",
    h("button", { type: "button", onclick: () => $("new-deal").click() }, "New deal"), " ",
    h("a", { href: "/boards/" }, "Boards")));
  resultEl.replaceChildren(...parts);
  resultEl.hidden = false;
}

// -- today's deal: before the cards are dealt -------------------------------------------------

const panelEl = $("daily-panel");

/** "invite" and "start"/"again" show the panel and no cards; "playing" the table. */
function setStage(stage) {
  $("game").dataset.stage = stage;
  panelEl.hidden = stage === "playing";
  for (const id of ["undo", "hint", "same-deal"]) $(id).disabled = stage !== "playing";
}

function dailyFacts() {
  const facts = [TEXT.dailyKind(play.daily.date)];
  if (play.daily.proven_winnable) facts.push(TEXT.provenWinnable);
  if (play.daily.players !== null && play.daily.players !== undefined) facts.push(TEXT.playersSoFar(play.daily.players));
  facts.push(TEXT.closesAt(localTime(play.daily.closes_at)));
  return facts.join(" · ");
}

function numberedDealLink() {
  const dealCode = formatCode(MIN_DEAL + Math.floor(Math.random() * (MAX_DEAL - MIN_DEAL + 1)), "N");
  return h("a", { href: `/play/${dealCode}/`, "data-testid": "play-numbered" }, TEXT.playNumbered(dealCode));
}

/** The panel in place of the cards: an invitation (signed out) or the Start of a try. */
function showPanel(kind, previousSubmission = null) {
  play.game = null;
  play.hint = null;
  play.timer = null;
  tableEl.replaceChildren();
  delete tableEl.dataset.ready;
  resultEl.hidden = true;
  for (const id of ["score", "moves", "hints"]) $(id).textContent = "0";
  $("time").textContent = "0:00";
  $("mode-note").hidden = true;
  say("");
  const next = encodeURIComponent(window.location.pathname);
  const parts = [];
  if (kind === "invite") {
    parts.push(h("h2", {}, TEXT.inviteTitle),
      h("p", { "data-testid": "daily-facts" }, dailyFacts()), h("p", {}, TEXT.dailyAbout),
      h("p", { "data-testid": "daily-invite" }, TEXT.inviteBefore,
        h("a", { href: `/signup/?next=${next}`, "data-testid": "invite-signup" }, TEXT.signUp), TEXT.or,
        h("a", { href: `/login/?next=${next}`, "data-testid": "invite-login" }, TEXT.logIn), TEXT.inviteAfter),
      h("p", {}, TEXT.numberedOpen, numberedDealLink()));
  } else {
    const error = h("p", { class: "form-error", "data-testid": "start-error" });
    const button = h("button", { type: "button", class: "start-button", "data-testid": "start-attempt" }, TEXT.start);
    button.addEventListener("click", () => startDailyAttempt(button, error));
    parts.push(h("h2", {}, kind === "start" ? TEXT.startTitle : TEXT.againTitle),
      h("p", { "data-testid": "daily-facts" }, dailyFacts()),
      h("p", { "data-testid": "ranked-try" }, kind === "start" ? TEXT.rankedTry : TEXT.again),
      previousSubmission ? h("p", {}, h("a", { href: `/replay/${previousSubmission}/` }, TEXT.yourGame)) : null,
      h("p", {}, button), error);
  }
  panelEl.replaceChildren(...parts.filter(Boolean));
  setStage(kind);
}

/** Start: the server opens the attempt and only its answer tells which cards these are. */
async function startDailyAttempt(button, error) {
  button.disabled = true;
  button.textContent = TEXT.starting;
  error.textContent = "";
  let attempt;
  try {
    attempt = await post("/api/attempts/", { deal: "daily" });
  } catch (exc) {
    button.disabled = false;
    button.textContent = TEXT.start;
    error.textContent = TEXT.cannotStart(exc.message);
    return;
  }
  play.code = attempt.deal;
  play.record = freshState(play.code);
  bindAttempt(attempt);
  dealCards();
  say(attempt.ranked ? TEXT.ranked : TEXT.practice, attempt.ranked ? "info" : "practice");
}

/** Today's deal: the invitation, the Start of a try, or the try already started (resumed). */
async function openDaily() {
  try {
    play.daily = await get("/api/daily/");
  } catch (exc) {
    say(`Today's deal is not available: ${exc.message}`, "error");
    return;
  }
  $("deal-kind").textContent = TEXT.dailyKind(play.daily.date) + (play.daily.proven_winnable ? ` · ${TEXT.provenWinnable}` : "");
  $("deal-code").textContent = user.authenticated ? TEXT.codeHidden : "–";
  const mine = user.authenticated ? play.daily.attempt : null;
  if (!user.authenticated || !mine) {
    showPanel(user.authenticated ? "start" : "invite");
    return;
  }
  play.code = mine.code;
  const saved = load(play.code);
  if (saved && saved.attemptId === mine.id && saved.attemptUser === user.username) {
    play.record = saved;
    play.timer = AttemptClock.resume(play.record.clock);
  } else if (mine.submission) {
    showPanel("again", mine.submission); // played on another device, or this one forgot it
    return;
  } else {
    // Started on another device (or this one forgot the game): the same try, the log starts
    // here, and so does the count of its times, which then never passes the server's clock.
    play.record = freshState(play.code);
    Object.assign(play.record, {
      attemptId: mine.id, attemptUser: user.username, attemptStartedAt: mine.started_at, daily: true,
      ranked: mine.ranked, practice: !mine.ranked, closesAt: play.daily.closes_at,
    });
    play.timer = AttemptClock.start();
  }
  dealCards();
  if (play.game.won) submit();
}

// -- start ------------------------------------------------------------------------------------

/** Deal the cards of `code` and replay the saved log onto them. */
function dealCards() {
  $("deal-code").textContent = play.code;
  $("code-input").placeholder = play.code;
  play.game = Game.new(parseCode(play.code).number);
  if (play.record.actions.length) {
    const result = replayOnto(play.game, play.record.actions);
    if (!result.ok) {
      say(`The saved game could not be resumed (${result.error}); dealt again.`, "error");
      Object.assign(play.record, { actions: [], times: [], startedAt: null, finishedAt: null });
      play.game = Game.new(parseCode(play.code).number);
    } else if (!play.game.won) {
      say(`Welcome back: your game is where you left it (${play.record.actions.length} actions).`);
    }
  }
  save();
  setStage("playing");
  render();
  renderResult();
  tableEl.dataset.ready = "true";
}

async function start() {
  forgetOldGames();
  $("hint").textContent = user.authenticated ? TEXT.hint : TEXT.hintSignIn;
  $("mode-note").textContent = TEXT.practice;
  if (page.error) {
    say(page.error, "error");
    $("deal-code").textContent = "invalid code";
    return;
  }
  if (page.daily) {
    await openDaily();
    return;
  }
  play.code = page.code;
  $("deal-kind").textContent = parseCode(play.code).mode === "D" ? "Deal of a day" : "Deal";
  play.record = load(play.code) || freshState(play.code);
  if (attemptIsMine(play)) play.timer = AttemptClock.resume(play.record.clock);
  dealCards();
  if (play.game.won) {
    if (user.authenticated && (play.record.submissionId || attemptIsMine(play))) submit();
  } else {
    ensureAttempt();
  }
}

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { measureLayout(); render(); }, 100);
});

start();
