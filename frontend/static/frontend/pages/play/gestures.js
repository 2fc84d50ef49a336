/**
 * How a person's gestures on the board become actions of the notation (rules section 9):
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
 * (Keys are keyboard.js's.)
 */

import { describeSource, parseSrc, refusalWords } from "./actions.js";
import { act } from "./deal.js";
import { cleanupDrag, endDrag, markDropTarget, startDrag } from "./drag.js";
import { clearTapWait, gameOver } from "./state.js";
import { TEXT } from "./text.js";
import { $, refused } from "./view.js";

const DOUBLE_TAP_MS = 400;
const DRAG_THRESHOLD_PX = 6;

/** Listen to the board (and the window, where a drag goes on) for the page's gestures. */
export function bindGestures(play) {
  const tableEl = $("table");
  tableEl.addEventListener("pointerdown", (event) => press(play, event));
  window.addEventListener("pointermove", (event) => move(play, event));
  window.addEventListener("pointerup", (event) => release(play, event));
  window.addEventListener("pointercancel", (event) => {
    if (!play.press || event.pointerId !== play.press.id) return;
    if (play.press.dragging) cleanupDrag(play.press);
    play.press = null;
  });
}

function press(play, event) {
  if (event.button !== 0 || !play.game || gameOver(play)) return;
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
  const why = refusalWords(game, `${source}>f`) || "";
  // No wait for a second tap that is switched off, or that could send the card nowhere.
  if (!play.settings.double || !game.tapDestination(source, true)) {
    refused(play, why);
    return;
  }
  // Wait for a possible second tap before saying no foundation takes it.
  play.tapWait = {
    source, cardKey, at: now, timer: setTimeout(() => { play.tapWait = null; refused(play, why); }, DOUBLE_TAP_MS),
  };
}
