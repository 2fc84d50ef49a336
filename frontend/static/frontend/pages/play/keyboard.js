/**
 * The game by keyboard. The table is one tab stop (a roving tabindex); on it:
 *   arrow keys     move between the piles, by where they lie on the screen; up and down also
 *                  move through a column's face-up cards (the one focused and those on it are
 *                  what Enter picks up)
 *   1-9, W, F      go to a column, the waste, the foundations
 *   Enter, Space   pick up the focused card (and the cards on it); with cards picked up, put
 *                  them down on the focused pile, which becomes the action of the notation a
 *                  drag there would be (drag.js: dropAction); on the stock, draw
 *   Escape         put the picked-up cards back
 *   D, U, R, H     draw, undo, redo, hint
 * and anywhere on the page (but in a text field): Ctrl+Z (Cmd+Z) undo, Ctrl+Shift+Z or
 * Ctrl+Y redo (history.js). A screen reader that activates a pile or card with a click of
 * its own (no pointer: event.detail is 0) picks up and puts down as Enter does.
 *
 * A place is "stock", "waste", "f1".."f8" or "c1".."c9"; the cursor (play.cursor) is a place
 * and, in a column, its depth: how many face-up cards lie on the focused one. Every action
 * draws the table anew, so after each drawing (a MutationObserver: no drawing code calls
 * this) the focus goes back to the cursor's place, unless the focus had left the game; a won
 * game sends it to the result card. Letter keys work only while the table has the focus, so
 * they never take a key from a screen reader or a text field (WCAG 2.1.4).
 */

import { cardName } from "../../lib/card-words.js";
import { pretty } from "../../lib/table.js";
import { announce } from "./announce.js";
import { act } from "./deal.js";
import { dropAction } from "./drag.js";
import { redo, undo } from "./history.js";
import { askHint } from "./session.js";
import { gameOver } from "./state.js";
import { TEXT } from "./text.js";
import { $, refused } from "./view.js";

const MOVES = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

/**
 * The place `key` leads to from `from`, among `boxes` ({place: {left, top, right, bottom}},
 * each a pile's card-sized head), or null. Left and right stay in the row, up and down go to
 * the nearest row that way and in it the place nearest across. Home and End: the row's ends. Pure.
 */
export function neighbour(boxes, from, key) {
  const a = boxes[from];
  if (!a) return null;
  const half = (a.bottom - a.top) / 2;
  const centre = (b) => (b.left + b.right) / 2;
  const others = Object.entries(boxes).filter(([place]) => place !== from);
  if (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") {
    const row = others.filter(([, b]) => Math.abs(b.top - a.top) < half);
    const sign = key === "ArrowRight" || key === "End" ? 1 : -1;
    const ahead = row.filter(([, b]) => sign * (centre(b) - centre(a)) > 0);
    if (!ahead.length) return null;
    const far = key === "Home" || key === "End";
    ahead.sort(([, b], [, c]) => (far ? -1 : 1) * sign * (centre(b) - centre(c)));
    return ahead[0][0];
  }
  const sign = key === "ArrowDown" ? 1 : -1;
  const ahead = others.filter(([, b]) => sign * (b.top - a.top) >= half);
  if (!ahead.length) return null;
  const nearest = Math.min(...ahead.map(([, b]) => sign * (b.top - a.top)));
  const row = ahead.filter(([, b]) => sign * (b.top - a.top) < nearest + half);
  row.sort(([, b], [, c]) => Math.abs(centre(b) - centre(a)) - Math.abs(centre(c) - centre(a)));
  return row[0][0];
}

/** How many face-up cards column `n` (1-based) of `snap` has. */
function faceUp(snap, n) {
  return snap.columns[n - 1].length - snap.down[n - 1];
}

/** What a pick-up at `cursor` takes, as drag.js's data-src ("waste", "f:2", "col:3:5"), or null. */
export function sourceAt(snap, cursor) {
  const { place, depth = 0 } = cursor;
  if (place === "waste") return snap.waste.length ? "waste" : null;
  if (place[0] === "f") return snap.foundations[Number(place.slice(1)) - 1] ? `f:${place.slice(1)}` : null;
  if (place[0] !== "c") return null;
  const n = Number(place.slice(1));
  const length = snap.columns[n - 1].length;
  if (!length || depth >= faceUp(snap, n)) return null;
  return `col:${n}:${length - 1 - depth}`;
}

/** The pile a put-down at `place` aims at, as drag.js's drop targets, or null (stock, waste). */
export function targetAt(place) {
  if (place[0] === "f") return { foundations: true };
  if (place[0] === "c") return { column: Number(place.slice(1)) };
  return null;
}

/** The place (and depth) an element of the drawn table stands for, or null. */
function cursorOf(node) {
  const el = node.closest("[data-stock], [data-waste], [data-foundation], [data-col], [data-column]");
  if (!el) return null;
  if (el.hasAttribute("data-stock")) return { place: "stock", depth: 0 };
  if (el.hasAttribute("data-waste")) return { place: "waste", depth: 0 };
  if (el.hasAttribute("data-foundation")) return { place: `f${el.dataset.foundation}`, depth: 0 };
  if (el.hasAttribute("data-col")) {
    const count = el.parentElement.querySelectorAll("[data-col]").length;
    return { place: `c${el.dataset.col}`, depth: count - 1 - Number(el.dataset.index) };
  }
  return { place: `c${el.dataset.column}`, depth: 0 };
}

/** The element that stands for `cursor` on the drawn table (a column's depth kept in range). */
function elementAt(tableEl, cursor) {
  const { place } = cursor;
  if (place === "stock") return tableEl.querySelector("[data-stock]");
  if (place === "waste") return tableEl.querySelector("[data-waste]");
  if (place[0] === "f") return tableEl.querySelector(`[data-foundation="${place.slice(1)}"]`);
  const column = tableEl.querySelector(`[data-column="${place.slice(1)}"]`);
  if (!column) return null;
  const up = [...column.querySelectorAll("[data-col][data-face=up]")];
  if (!up.length) return column;
  return up[Math.max(0, up.length - 1 - Math.min(cursor.depth || 0, up.length - 1))];
}

/** Each place's card-sized head on the screen, for `neighbour`. */
function boxes(tableEl) {
  const found = {};
  const put = (place, node) => { if (node) found[place] = node.getBoundingClientRect(); };
  put("stock", tableEl.querySelector("[data-stock]"));
  put("waste", tableEl.querySelector("[data-waste]"));
  for (const node of tableEl.querySelectorAll("[data-foundation]")) put(`f${node.dataset.foundation}`, node);
  for (const node of tableEl.querySelectorAll("[data-column]")) put(`c${node.dataset.column}`, node.querySelector(".slot"));
  return found;
}

/** Where `key` takes the cursor: through a column's face-up cards first, then between piles. */
function moved(play, tableEl, key) {
  const cursor = play.cursor;
  const depth = cursor.depth || 0;
  if (cursor.place[0] === "c" && (key === "ArrowUp" || key === "ArrowDown")) {
    const up = faceUp(play.game.snapshot(), Number(cursor.place.slice(1)));
    if (key === "ArrowUp" && depth + 1 < up) return { place: cursor.place, depth: depth + 1 };
    if (key === "ArrowDown" && depth > 0) return { place: cursor.place, depth: Math.min(depth, up) - 1 };
  }
  const place = neighbour(boxes(tableEl), cursor.place, key);
  return place ? { place, depth: 0 } : null;
}

/** Move the cursor (and the focus, and the one tab stop) to `cursor`. */
function goTo(play, cursor) {
  play.cursor = cursor;
  const el = elementAt($("table"), cursor);
  if (!el) return;
  keepTabStop($("table"), el);
  el.focus();
}

/** The table's one tab stop is `el`: Tab comes back to where the keyboard was. */
function keepTabStop(tableEl, el) {
  for (const node of tableEl.querySelectorAll('[tabindex="0"]')) if (node !== el) node.setAttribute("tabindex", "-1");
  if (el) el.setAttribute("tabindex", "0");
}

/** The cards picked up are lifted on the table (drawn again after every drawing). */
function markHeld(play, tableEl) {
  for (const node of tableEl.querySelectorAll(".held")) node.classList.remove("held");
  const note = $("held-note");
  if (note) note.hidden = !play.held;
  if (!play.held) return;
  const { src } = play.held;
  let cards;
  if (src === "waste") cards = [tableEl.querySelector("[data-waste-top]")];
  else if (src[0] === "f") cards = [tableEl.querySelector(`[data-src="${src}"]`)];
  else {
    const [, n, index] = src.split(":").map(Number);
    cards = [...tableEl.querySelectorAll(`[data-col="${n}"]`)].filter((card) => Number(card.dataset.index) >= index);
  }
  for (const card of cards) card?.classList.add("held");
  // In view beside the outline: "holding 5♥" (the live region has said "Picked up ...").
  if (note && cards[0]) note.textContent = TEXT.holding(pretty(cards[0].dataset.card));
}

/** Enter or Space: pick up, put down, or draw. */
function press(play) {
  const { game, cursor } = play;
  const snap = game.snapshot();
  if (!play.held) {
    if (cursor.place === "stock") {
      act(play, "s");
      return;
    }
    const src = sourceAt(snap, cursor);
    if (!src) {
      announce(TEXT.nothingToPickUp);
      return;
    }
    play.held = { src, place: cursor.place, record: play.record, length: play.record.actions.length };
    markHeld(play, $("table"));
    const parts = src.split(":");
    const name = src === "waste" ? snap.waste[snap.waste.length - 1]
      : src[0] === "f" ? snap.foundations[Number(parts[1]) - 1] : snap.columns[Number(parts[1]) - 1][Number(parts[2])];
    announce(cursor.depth ? TEXT.pickedUpRun(cardName(name), cursor.depth) : TEXT.pickedUp(cardName(name)));
    return;
  }
  const target = targetAt(cursor.place);
  if (cursor.place === play.held.place) {
    putBack(play);
    return;
  }
  if (!target) {
    announce(TEXT.cannotPutThere);
    return;
  }
  const action = dropAction(game, play.held.src, target);
  play.held = null;
  markHeld(play, $("table"));
  if (action === null) {
    announce(TEXT.putBack);
  } else if (typeof action === "object") {
    refused(play, action.message);
    if (!play.settings.rules) announce(TEXT.notAllowed);
  } else if (!act(play, action) && !play.settings.rules) {
    announce(TEXT.notAllowed);
  }
}

function putBack(play) {
  play.held = null;
  markHeld(play, $("table"));
  announce(TEXT.putBack);
}

/** A key on the table. */
function onTableKey(play, event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const { game } = play;
  if (!game || gameOver(play)) return;
  const tableEl = $("table");
  const key = event.key;
  const letter = key.length === 1 ? key.toLowerCase() : "";
  if (!play.cursor) play.cursor = cursorOf(event.target) || { place: "stock", depth: 0 };
  if (MOVES.has(key)) {
    const next = moved(play, tableEl, key);
    if (next) goTo(play, next);
  } else if (key === "Enter" || key === " ") {
    press(play);
  } else if (key === "Escape") {
    if (!play.held) return;
    putBack(play);
  } else if (letter >= "1" && letter <= "9") {
    goTo(play, { place: `c${letter}`, depth: 0 });
  } else if (letter === "w" || letter === "f") {
    goTo(play, { place: letter === "w" ? "waste" : "f1", depth: 0 });
  } else if (letter === "d") {
    act(play, "s");
  } else if (letter === "u") {
    undo(play);
  } else if (letter === "r") {
    redo(play);
  } else if (letter === "h") {
    askHint(play);
  } else {
    return;
  }
  event.preventDefault();
}

/** A click no pointer made (a screen reader's activation): Enter on the place clicked. */
function onActivate(play, event) {
  if (event.detail !== 0 || !play.game || gameOver(play)) return;
  const cursor = cursorOf(event.target);
  if (!cursor) return;
  play.cursor = cursor;
  press(play);
}

/** Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes, anywhere but in a text field or a dialog. */
function onPageKey(play, event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || !play.game) return;
  if (event.target.closest("input, textarea, select, [contenteditable]") || document.querySelector("dialog[open]")) return;
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) undo(play);
  else if ((key === "z" && event.shiftKey) || (key === "y" && !event.shiftKey)) redo(play);
  else return;
  event.preventDefault();
}

/** After the table is drawn: the picked-up cards, the tab stop, and the focus back in place. */
function afterDrawing(play) {
  const tableEl = $("table");
  const { held, record, game } = play;
  if (held && (held.record !== record || held.length !== record.actions.length)) play.held = null;
  markHeld(play, tableEl);
  if (!game) return;
  const cursor = play.cursor || { place: "stock", depth: 0 };
  const el = gameOver(play) ? null : elementAt(tableEl, cursor);
  keepTabStop(tableEl, el);
  const lost = !document.activeElement || document.activeElement === document.body;
  if (!lost || !play.focusKept) return;
  if (el) {
    el.focus({ preventScroll: play.lastInput === "pointer" });
  } else if (gameOver(play) && !$("result").hidden) {
    // The game is over: on to what the server makes of it.
    $("result").setAttribute("tabindex", "-1");
    $("result").focus({ preventScroll: play.lastInput === "pointer" });
  }
}

/** Wire the keys, and keep the focus where the keyboard was across every drawing. */
export function bindKeyboard(play) {
  const tableEl = $("table");
  const gameEl = $("game");
  tableEl.addEventListener("keydown", (event) => onTableKey(play, event));
  tableEl.addEventListener("click", (event) => onActivate(play, event));
  document.addEventListener("keydown", (event) => {
    play.lastInput = "key";
    if (gameEl.contains(event.target)) play.focusKept = true;
    onPageKey(play, event);
  });
  document.addEventListener("pointerdown", () => { play.lastInput = "pointer"; }, true);
  document.addEventListener("focusin", (event) => {
    play.focusKept = gameEl.contains(event.target);
    const cursor = tableEl.contains(event.target) ? cursorOf(event.target) : null;
    if (cursor) play.cursor = cursor;
  });
  document.addEventListener("focusout", (event) => {
    if (event.relatedTarget) return; // the focusin that follows decides
    const left = event.target;
    // Focus gone to nowhere from an element still there: a click on the page's background.
    // (An element a drawing took away is not there any more: the focus goes back then.)
    queueMicrotask(() => {
      if (left.isConnected && document.activeElement === document.body) play.focusKept = false;
    });
  });
  new MutationObserver(() => afterDrawing(play)).observe(tableEl, { childList: true });
}
