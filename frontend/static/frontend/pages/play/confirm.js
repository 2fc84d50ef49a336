/**
 * Asking before a game is thrown away: "Same deal" and "New deal" (the toolbar's, and the
 * result card's) on a game with moves in it, won or not, open the page's <dialog id="confirm">
 * (play.html: Cancel, Throw away) with what would be lost. Nothing to lose, no question.
 */

import { TEXT } from "./text.js";
import { $ } from "./view.js";

/** Whether dealing now loses something: a game on the table with at least one action. Pure. */
export function wouldLose(play, stage) {
  return stage === "playing" && Boolean(play.game && play.record && play.record.actions.length);
}

/** The question's words for `kind` ("same" or "new") about the game on the table. Pure. */
export function question(play, kind) {
  const title = kind === "new" ? TEXT.confirmNewDeal : TEXT.confirmSameDeal;
  const thrown = play.game.won ? TEXT.throwAwayWon : TEXT.throwAway(play.game.snapshot().moves);
  // Today's try is not thrown away with its log: its clock (the server's) runs on (deal.js).
  const keepsTime = kind === "same" && !play.game.won && play.page && play.page.daily;
  return { title, text: keepsTime ? `${thrown} ${TEXT.sameDealKeepsTime}` : thrown };
}

/** Resolves true when the game may go: nothing to lose, or the player chose "Throw away". */
export function confirmThrowAway(play, kind) {
  if (!wouldLose(play, $("game").dataset.stage)) return Promise.resolve(true);
  const dialog = $("confirm");
  const { title, text } = question(play, kind);
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "throw"), { once: true });
  });
}
