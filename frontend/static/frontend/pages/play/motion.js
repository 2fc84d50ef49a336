/**
 * Cards that move, seen moving: before an action is played the page notes where its cards
 * are (takeOff), and once the table is drawn again each card that landed glides from there to
 * its new place (land), a short transform animation (First, Last, Invert, Play). Only the
 * picture moves: the game, its log and the table's DOM are already in their new state, so an
 * animation never delays a move, and a moving card lets pointer events through to the board.
 * Off when the reader asks for reduced motion (prefers-reduced-motion: reduce).
 */

import { actionKeys } from "./actions.js";
import { $ } from "./view.js";

export const MOVE_MS = 180;
/** The id of every card's flight (the e2e driver waits for these before it measures). */
export const MOVE_ID = "card-move";

/** Whether the reader lets things move on the page. */
export function motionAllowed() {
  return !(globalThis.matchMedia && globalThis.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/**
 * The keys of the cards `text` picks up, in the order landingKeys (actions.js) puts them
 * down, or null when nothing flies (undo; turning the waste over). Pure.
 */
export function takeOffKeys(game, text) {
  if (text === "u") return null;
  if (text === "s") return game.stock.length ? ["stock"] : null;
  return actionKeys(game, text).slice(0, -1); // the last key is where it goes
}

/** The card drawn at `key`: a column's card, or the top card of a pile. */
export function cardAt(tableEl, key) {
  const node = tableEl.querySelector(`[data-key="${key}"]`);
  if (!node || node.classList.contains("card")) return node;
  return node.querySelector("[data-waste-top]") || node.querySelector(".card:last-of-type");
}

/** Where the cards of `text` are now, before it is played; null when nothing will fly. */
export function takeOff(play, text) {
  if (!motionAllowed()) return null;
  const keys = takeOffKeys(play.game, text);
  if (!keys || !keys.length) return null;
  const tableEl = $("table");
  const rects = keys.map((key) => cardAt(tableEl, key)?.getBoundingClientRect());
  return rects.every(Boolean) ? rects : null;
}

/** Each card that landed (play.landed) glides from where takeOff saw it to where it is now. */
export function land(play, rects) {
  if (!rects || !play.landed || play.landed.length !== rects.length) return;
  const tableEl = $("table");
  play.landed.forEach((key, i) => {
    const card = cardAt(tableEl, key);
    if (!card) return;
    const to = card.getBoundingClientRect();
    const dx = rects[i].left - to.left;
    const dy = rects[i].top - to.top;
    if (!dx && !dy) return;
    card.classList.add("moving", "flown");
    const flight = card.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: MOVE_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", id: MOVE_ID },
    );
    const done = () => card.classList.remove("moving");
    flight.finished.then(done, done);
  });
}
