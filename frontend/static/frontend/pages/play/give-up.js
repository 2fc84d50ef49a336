/**
 * Giving up (issue 22): a game that is not won can end. The Give up button asks in its
 * <dialog id="give-up-dialog"> (play.html); agreed, the game stops where it stands, its time
 * stops, and the log is sent as it is: the server ranks a result that is not won by its cards
 * home, then by fewer moves. The result dialog (result-card.js) then says "Not won", the cards
 * home and the rank of N, and offers Share as for a win.
 */

import { endCelebration } from "./celebrate.js";
import { onGameOver } from "./session.js";
import { clearTapWait, gameOver } from "./state.js";
import { TEXT } from "./text.js";
import { $, say } from "./view.js";

/** Whether there is a game to give up: dealt, not ended, with at least one action. Pure. */
export function canGiveUp(play) {
  return Boolean(play.game && play.record && play.record.actions.length && !gameOver(play));
}

/** Resolves true when the player chose "Give up" in the dialog. */
function askGiveUp() {
  const dialog = $("give-up-dialog");
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "give-up"), { once: true });
  });
}

/** The game as it stands becomes the result: stopped, saved, and sent when it can be ranked. */
export function giveUp(play) {
  endCelebration();
  clearTapWait(play);
  play.hint = null;
  play.held = null;
  play.record.gaveUp = true;
  say(TEXT.gaveUpSaid);
  onGameOver(play);
}

export function bindGiveUp(play) {
  $("give-up").addEventListener("click", async () => {
    if (!canGiveUp(play)) return;
    if (await askGiveUp()) giveUp(play);
  });
}
