/**
 * Drawing the page from its state: the table (table.js), the heads-up numbers, the move log,
 * the status line under the toolbar, and which stage shows (a panel or the cards).
 */

import { clock } from "../../lib/api.js";
import { gameTime } from "./server-clock.js";
import { renderTable } from "../../lib/table.js";
import { dayClose } from "../../lib/time.js";
import { gameOver } from "./state.js";

export const $ = (id) => document.getElementById(id);

/** The status line: a rule's refusal, a hint, a note from the server. "" clears it. */
export function say(text, kind = "info") {
  const ruleEl = $("rule-message");
  ruleEl.textContent = text || "";
  ruleEl.dataset.kind = text ? kind : "";
  ruleEl.classList.remove("pulse", "faded");
  if (text) {
    void ruleEl.offsetWidth; // restart the animation
    ruleEl.classList.add("pulse");
  }
}

/** Say why a move is refused, when "Interactive rules" is on; the words fade once read. */
export function refused(play, reason) {
  clearTimeout(play.fade);
  if (!play.settings.rules) {
    say("");
    return;
  }
  say(reason, "refused");
  play.fade = setTimeout(() => fadeAway(play, reason), refusalLinger(reason));
}

/** How long a refusal stays before it fades: time to read it, about 15 letters a second. */
export function refusalLinger(text) {
  return Math.min(10_000, Math.max(2500, String(text).length * 65));
}

const FADE_MS = 600; // app.css: .rule-message.faded

/** The refusal fades out, then is gone; unless the line says something else by then. */
function fadeAway(play, reason) {
  const ruleEl = $("rule-message");
  if (ruleEl.dataset.kind !== "refused" || ruleEl.textContent !== reason) return;
  ruleEl.classList.add("faded");
  play.fade = setTimeout(() => { if (ruleEl.classList.contains("faded")) say(""); }, FADE_MS);
}

/** From this window width on (app.css too), the table fits the window's height. */
const DESKTOP_WIDTH = 640;

/** Measured once and on resize: reading layout on every action would slow every tap. */
export function measureLayout(play) {
  const tableEl = $("table");
  const top = tableEl.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - Math.min(top, window.innerHeight * 0.45);
  play.layout = {
    width: tableEl.clientWidth,
    maxColumnHeight: Math.max(room - 24, 260),
    // A desktop's window holds the whole table: the cards shrink to fit (table.js, fitCards).
    // A phone scrolls down a long column instead: its cards are small already.
    fitHeight: window.innerWidth >= DESKTOP_WIDTH ? Math.max(room - 12, 320) : null,
  };
  // Lets a test (or a curious reader) see which window width the table was laid out for.
  tableEl.dataset.laidOutFor = String(window.innerWidth);
}

export function render(play) {
  const { game, record } = play;
  if (!game) return;
  const tableEl = $("table");
  const snap = game.snapshot();
  const keys = {};
  if (play.hint) for (const key of play.hint.keys) keys[key] = "hinted";
  if (play.landed) for (const key of play.landed) keys[key] = `${keys[key] || ""} landed`.trim();
  if (!play.layout) measureLayout(play);
  const over = gameOver(play);
  renderTable(tableEl, snap, { interactive: !over, keys, ...play.layout });
  $("score").textContent = snap.score;
  $("moves").textContent = snap.moves;
  $("hints").textContent = record.hints;
  $("mode-note").hidden = !record.practice;
  tableEl.dataset.logLength = record.actions.length;
  $("log-length").textContent = record.actions.length;
  const secret = Boolean(play.page && play.page.daily); // today's code stays off its page (deal.js)
  $("move-log").value = JSON.stringify({ deal: secret ? null : play.code, actions: record.actions });
  $("undo").disabled = over;
  $("hint").disabled = over;
  $("give-up").disabled = over || !record.actions.length;
  tick(play);
}

/** The game's time in the heads-up display (every second, and at each action). */
export function tick(play) {
  tickNextDeal(play);
  const { record } = play;
  if (!record) return;
  const time = play.game ? gameTime(record, Date.now()) : null; // the server's, once it has an attempt
  $("time").textContent = time === null ? "0:00" : clock(time);
}

/** The focus on the table's one tab stop (the skip link, and Start, lead there). */
export function focusTable() {
  const stop = $("table").querySelector('[tabindex="0"]') || $("table").querySelector("[tabindex]");
  if (stop) stop.focus();
}

/** "invite" and "start"/"again" show the daily panel and no cards; "playing" the table. */
export function setStage(stage) {
  $("game").dataset.stage = stage;
  $("daily-panel").hidden = stage === "playing";
  for (const id of ["undo", "hint", "same-deal", "give-up"]) $(id).disabled = stage !== "playing";
}

/** The countdown to the next deal, in the reader's clock, where the page shows one. */
export function tickNextDeal(play) {
  const closesAt = (play.daily && play.daily.closes_at) || (play.record && play.record.closesAt);
  if (!closesAt) return;
  const { next } = dayClose(closesAt);
  for (const line of document.querySelectorAll(".next-deal")) line.textContent = next;
}
