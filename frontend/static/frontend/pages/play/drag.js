/**
 * Dragging cards on the board: a ghost of the dragged card (or a column card and all above
 * it) follows the pointer, the foundations or the column under it light up, and the drop
 * becomes an action (dropAction) or is refused with the rule's reason. Started by gestures.js
 * once a press has moved far enough.
 */

import { parseSrc } from "./actions.js";
import { act } from "./deal.js";
import { clearTapWait } from "./state.js";
import { TEXT } from "./text.js";
import { $, refused } from "./view.js";

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
export function startDrag(play) {
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
export function cleanupDrag(done) {
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
export function markDropTarget(x, y) {
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
export function dropAction(game, srcText, target) {
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
export function endDrag(play, done, x, y) {
  done.ghost.style.display = "none";
  const target = dropTargetAt(x, y);
  cleanupDrag(done);
  const action = dropAction(play.game, done.src, target);
  if (action === null) return;
  if (typeof action === "object") refused(play, action.message);
  else act(play, action);
}
