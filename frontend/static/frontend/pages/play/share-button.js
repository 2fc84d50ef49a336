/**
 * The result card's Share button, once the server has verified a daily game: the text of
 * share.js, handed to the Web Share API or else copied to the clipboard, with a visible
 * "Copied". The player's streaks (days played, days won) are asked for once, as the button appears, so that the
 * click itself waits for nothing (a share sheet needs the click's user activation).
 */

import { get, h } from "../../lib/api.js";
import { language } from "../../lib/i18n.js";
import { saveGame } from "./saved-game.js";
import { deliver, isStreak, shareFacts, shareText } from "./share.js";
import { TEXT } from "./text.js";

/**
 * The line with the button, or null while there is nothing to share yet. `onStreak` is called
 * once the streak is known (the result shows it).
 */
export function shareLine(play, onStreak = () => {}) {
  const { record } = play;
  const sub = record && record.submission;
  if (!record || !record.daily || !sub || sub.status !== "verified" || !sub.daily_date) return null;
  if (sub.on_boards && !record.rank) return null; // its rank is on its way (session.js)
  const status = h("span", { class: "share-status", role: "status", "data-testid": "share-status" });
  const button = h("button", { type: "button", class: "share-button", "data-testid": "share" }, TEXT.share);
  const line = h("p", { class: "share" }, button, " ", status);
  button.addEventListener("click", () => share(play, line, status));
  if (!isStreak(record.streak) && play.streakAskedFor !== record) {
    // Shared with the streak once its answer is in (a moment: the click must not wait for it).
    button.disabled = true;
    askStreak(play).finally(() => {
      button.disabled = false;
      if (isStreak(record.streak)) onStreak();
    });
  }
  return line;
}

async function share(play, line, status) {
  const foundations = play.game ? play.game.foundations : null;
  const text = shareText(shareFacts(play.record, window.location.origin, foundations), language());
  status.textContent = "";
  let how;
  try {
    how = await deliver(text);
  } catch {
    // Neither way is open: the text to copy by hand.
    line.querySelector("textarea")?.remove();
    status.textContent = TEXT.copyByHand;
    const box = h("textarea", { readonly: true, rows: 6, class: "share-text", "data-testid": "share-text" }, text);
    line.append(box);
    box.select();
    return;
  }
  if (how === "copied") status.textContent = TEXT.copied;
  else if (how === "shared") status.textContent = TEXT.shared;
}

/** The player's streaks (their profile: days played and won in a row), asked for once per game, kept with it. */
function askStreak(play) {
  if (!play.streakAsking) {
    const { record, user } = play;
    play.streakAskedFor = record; // once per game, answered or not
    if (!user.username) return Promise.resolve(); // a guest has no page of its own, nor streak yet
    play.streakAsking = (async () => {
      try {
        const profile = await get(`/api/players/${encodeURIComponent(user.username)}/`);
        const streak = { played: profile.played_streak, won: profile.current_streak };
        if (play.record === record && isStreak(streak)) {
          record.streak = streak;
          saveGame(play);
        }
      } catch {
        // No streak in the text: the rest is still worth sharing.
      } finally {
        play.streakAsking = null;
      }
    })();
  }
  return play.streakAsking;
}
