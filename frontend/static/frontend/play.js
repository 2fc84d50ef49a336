/**
 * The play page: `/` (today's deal of the day) and `/play/<code>/` (any deal). This entry
 * wires the parts in play/ to the page, over one state object (play/state.js):
 *
 *   deal.js               dealing (and resuming) a deal, and playing one action
 *   saved-game.js         the game and the settings in localStorage, per deal code
 *   session.js            the server: attempt, hints, submission, polling, rank
 *   daily.js              today's deal: the invitation, the Start of a try, its resumption
 *   result-card.js        the card under a won game
 *   view.js               drawing the table, the numbers and the status line
 *   actions.js            what a card's place and an action text mean, in cells and in words
 *   text.js               every text a person reads
 *   (the rest)            below, in sections, until it moves out too
 *
 * Every action goes through the engine (engine.js): the page only turns gestures into action
 * texts, asks the engine, and keeps the action log with the time of each action (timing.js).
 */

import { formatCode, InvalidCode, MAX_DEAL, MIN_DEAL, parseCode } from "./engine.js";
import { pageData } from "./api.js";
import { describeSource, parseSrc } from "./play/actions.js";
import { openDaily, showPanel } from "./play/daily.js";
import { act, dealAgain, openNumbered } from "./play/deal.js";
import { forgetOldGames, loadSettings, saveSettings } from "./play/saved-game.js";
import { askHint } from "./play/session.js";
import { attemptIsMine, clearTapWait, createPlayState } from "./play/state.js";
import { TEXT } from "./play/text.js";
import { $, measureLayout, refused, render, say, tick } from "./play/view.js";

// -- drag ------------------------------------------------------------------------------------

/** The cards that move with the pointer: one card, or a column card and all above it. */
function dragged(pressed) {
  const src = parseSrc(pressed.src);
  if (src.kind === "col") {
    return [...$("table").querySelectorAll(`[data-col="${src.col}"]`)]
      .filter((card) => Number(card.dataset.index) >= src.index);
  }
  return [pressed.el];
}

/** A ghost of the dragged cards follows the pointer; the cards themselves stay, dimmed. */
function startDrag(play) {
  clearTapWait(play);
  const pressed = play.press;
  const tableEl = $("table");
  pressed.dragging = true;
  pressed.cards = dragged(pressed);
  const first = pressed.cards[0].getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  ghost.style.left = `${first.left}px`;
  ghost.style.top = `${first.top}px`;
  ghost.style.setProperty("--w", tableEl.style.getPropertyValue("--w"));
  ghost.style.setProperty("--h", tableEl.style.getPropertyValue("--h"));
  for (const card of pressed.cards) {
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
  pressed.ghost = ghost;
}

/** Drop the ghost and the highlights (the end of a drag, or a cancelled one). */
function cleanupDrag(done) {
  done.ghost?.remove();
  for (const card of done.cards || []) card.classList.remove("drag-origin");
  clearDropTargets();
  document.body.classList.remove("dragging");
}

function clearDropTargets() {
  $("table").querySelectorAll(".drop-target").forEach((node) => node.classList.remove("drop-target"));
}

/** What lies under the pointer: {foundations: true} or {column: n}, else null. */
function dropTargetAt(x, y) {
  const tableEl = $("table");
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

/** Light up what the pointer is over. */
function markDropTarget(x, y) {
  clearDropTargets();
  const target = dropTargetAt(x, y);
  if (!target) return;
  const tableEl = $("table");
  const node = target.foundations ? tableEl.querySelector("[data-foundations]")
    : tableEl.querySelector(`[data-column="${target.column}"]`);
  node?.classList.add("drop-target");
}

/**
 * The action a drop of `srcText` on `target` means on `game` (null: put it back where it
 * was), or {message} for a drop that is no action at all.
 */
function dropAction(game, srcText, target) {
  if (!target) return null;
  const src = parseSrc(srcText);
  if (src.kind === "waste") return target.foundations ? "w>f" : `w>${target.column}`;
  if (src.kind === "f") return target.foundations ? null : `f${src.foundation}>${target.column}`;
  const k = game.columns[src.col - 1].length - src.index;
  if (target.foundations) return k === 1 ? `${src.col}>f` : { message: TEXT.runToFoundation };
  if (target.column === src.col) return null;
  if (k === 1) return `${src.col}>${target.column}`;
  if (k > 13) return { message: TEXT.runToFoundation };
  return `${src.col}>${target.column}:${k}`;
}

/** The drag let go at (x, y): play what the drop means, refuse it, or put the cards back. */
function endDrag(play, done, x, y) {
  done.ghost.style.display = "none";
  const target = dropTargetAt(x, y);
  cleanupDrag(done);
  const action = dropAction(play.game, done.src, target);
  if (action === null) return;
  if (typeof action === "object") refused(play, action.message);
  else act(play, action);
}

// -- gestures --------------------------------------------------------------------------------

const DOUBLE_TAP_MS = 400;
const DRAG_THRESHOLD_PX = 6;

/** Listen to the board (and the window, where a drag goes on) for the page's gestures. */
function bindGestures(play) {
  const tableEl = $("table");
  tableEl.addEventListener("pointerdown", (event) => press(play, event));
  window.addEventListener("pointermove", (event) => move(play, event));
  window.addEventListener("pointerup", (event) => release(play, event));
  window.addEventListener("pointercancel", (event) => {
    if (!play.press || event.pointerId !== play.press.id) return;
    if (play.press.dragging) cleanupDrag(play.press);
    play.press = null;
  });
  tableEl.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.hasAttribute("data-stock")) {
      event.preventDefault();
      act(play, "s");
    }
  });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !event.target.closest("input, textarea")) {
      event.preventDefault();
      act(play, "u");
    }
  });
}

function press(play, event) {
  if (event.button !== 0 || !play.game || play.game.won) return;
  const tableEl = $("table");
  const target = event.target.closest("[data-src], [data-stock]");
  if (!target || !tableEl.contains(target)) return;
  event.preventDefault();
  play.press = {
    id: event.pointerId, x: event.clientX, y: event.clientY, el: target, dragging: false,
    stock: target.hasAttribute("data-stock"), src: target.dataset.src,
  };
}

function move(play, event) {
  const pressed = play.press;
  if (!pressed || event.pointerId !== pressed.id || pressed.stock) return;
  const dx = event.clientX - pressed.x;
  const dy = event.clientY - pressed.y;
  if (!pressed.dragging) {
    if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    startDrag(play);
  }
  pressed.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  markDropTarget(event.clientX, event.clientY);
}

/** Let go: the end of a drag, or a tap (on the stock, or on a top card). */
function release(play, event) {
  if (!play.press || event.pointerId !== play.press.id) return;
  const done = play.press;
  play.press = null;
  if (done.dragging) {
    endDrag(play, done, event.clientX, event.clientY);
    return;
  }
  if (done.stock) {
    act(play, "s");
    return;
  }
  const { game } = play;
  const src = parseSrc(done.src);
  if (src.kind === "waste") tap(play, "w", `w:${game.waste.length}`);
  else if (src.kind === "col") {
    const length = game.columns[src.col - 1].length;
    if (src.index === length - 1) tap(play, String(src.col), `${src.col}:${length}`);
  }
}

/** A tap on the top card of "w" or "1".."9" (section 9). */
function tap(play, source, cardKey) {
  const { game, tapWait } = play;
  const now = Date.now();
  if (tapWait && tapWait.source === source && tapWait.cardKey === cardKey && now - tapWait.at < DOUBLE_TAP_MS) {
    clearTapWait(play);
    const action = game.tapDestination(source, true);
    if (action) act(play, action);
    else refused(play, TEXT.nowhereToGo(describeSource(game, source)));
    return;
  }
  clearTapWait(play);
  const action = game.tapDestination(source, false);
  if (action) {
    act(play, action);
    return;
  }
  const why = game.refusal(`${source}>f`) || "";
  if (!play.settings.double) {
    refused(play, why);
    return;
  }
  // Wait for a possible second tap before saying no foundation takes it.
  play.tapWait = {
    source, cardKey, at: now, timer: setTimeout(() => { play.tapWait = null; refused(play, why); }, DOUBLE_TAP_MS),
  };
}

// -- the page ---------------------------------------------------------------------------------

/** The settings' boxes, checked from the saved settings and saved when changed. */
function bindSettings(play) {
  loadSettings(play.settings);
  for (const [id, key] of [["opt-double", "double"], ["opt-rules", "rules"]]) {
    const box = $(id);
    box.checked = Boolean(play.settings[key]);
    box.addEventListener("change", () => {
      play.settings[key] = box.checked;
      saveSettings(play.settings);
    });
  }
}

/** Same deal: the cards again, or today's Start once its try is over (a new attempt). */
function sameDeal(play) {
  clearTapWait(play);
  play.hint = null;
  play.landed = null;
  const { record } = play;
  if (play.page.daily && !(attemptIsMine(play) && !record.submissionId && !record.refusal)) {
    showPanel(play, "again", record.submissionId);
    return;
  }
  dealAgain(play);
}

/** A deal code or number typed in: that deal's page (an invalid code is said, not followed). */
function playTyped(input) {
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
}

function bindToolbar(play) {
  $("undo").addEventListener("click", () => act(play, "u"));
  $("hint").addEventListener("click", () => askHint(play));
  $("same-deal").addEventListener("click", () => sameDeal(play));
  $("new-deal").addEventListener("click", () => {
    const number = MIN_DEAL + Math.floor(Math.random() * (MAX_DEAL - MIN_DEAL + 1));
    window.location.assign(`/play/${formatCode(number, "N")}/`);
  });
  $("code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    playTyped($("code-input"));
  });
  $("code-input").addEventListener("input", (event) => {
    const input = event.target;
    const at = input.selectionStart;
    input.value = input.value.toUpperCase();
    input.setSelectionRange(at, at);
  });
}

/** The table is measured again once a resize has settled. */
function bindResize(play) {
  let settle = null;
  window.addEventListener("resize", () => {
    clearTimeout(settle);
    settle = setTimeout(() => { measureLayout(play); render(play); }, 100);
  });
}

async function start(play) {
  forgetOldGames();
  $("hint").textContent = play.user.authenticated ? TEXT.hint : TEXT.hintSignIn;
  $("mode-note").textContent = TEXT.practice;
  if (play.page.error) {
    say(play.page.error, "error");
    $("deal-code").textContent = TEXT.invalidCode;
    return;
  }
  if (play.page.daily) await openDaily(play);
  else openNumbered(play);
}

const play = createPlayState(pageData());
bindSettings(play);
setInterval(() => tick(play), 1000);
bindGestures(play);
bindToolbar(play);
bindResize(play);
start(play);
