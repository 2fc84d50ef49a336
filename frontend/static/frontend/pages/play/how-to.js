/**
 * A first visit's how to play: the short box of play.html (its words are the template's,
 * translated by Django), shown until the player dismisses it; the dismissal is remembered in
 * localStorage, per browser, signed in or not. Storage that is off shows it every visit.
 */

import { $ } from "./view.js";

export const SEEN_KEY = "eh:how-to-seen";

/** Whether the box was dismissed before (in `storage`, localStorage by default). */
export function howToSeen(storage = globalThis.localStorage) {
  try {
    return Boolean(storage && storage.getItem(SEEN_KEY));
  } catch {
    return false;
  }
}

/** Remember that the box was dismissed. */
export function rememberHowTo(storage = globalThis.localStorage) {
  try {
    storage.setItem(SEEN_KEY, "1");
  } catch { /* storage full or off: it shows again next visit */ }
}

/** Show the box on a first visit; "Got it" hides it for good and gives the focus back. */
export function bindHowTo() {
  const box = $("how-to");
  if (!box || howToSeen()) return;
  box.hidden = false;
  $("how-to-close").addEventListener("click", () => {
    rememberHowTo();
    box.hidden = true;
    // The focus was on the button just hidden: on to the stock, where play starts.
    const stock = document.querySelector("#table [data-stock][tabindex]");
    if (stock) stock.focus({ preventScroll: true });
  });
}
