/**
 * The live region (#announcer, polite): what a screen reader says after each action, however
 * it was made (tap, drag, key): "seven of clubs to column 3. Turned up eight of hearts." The
 * keyboard's own words (a card picked up, put back) go through `announce` too; the rules'
 * refusals and hints are said by the status line, itself a live region (view.js).
 *
 * It listens for the table being drawn again (a MutationObserver: no drawing code calls it)
 * and compares the game with how it last told it (play.announced): one action more is said
 * in words, anything else (a deal, a reload) silently becomes the new starting point.
 */

import { cardName } from "../../lib/card-words.js";
import { TEXT } from "./text.js";
import { $ } from "./view.js";

/** `text`, just played, in words, from the table `before` and `after` it (snapshots). Pure. */
export function describePlayed(before, after, text) {
  if (text === "u") return TEXT.undone;
  if (text === "s") return before.stock.length ? TEXT.drew(cardName(after.waste[after.waste.length - 1])) : TEXT.wasteTurned;
  const [from, rest] = text.split(">");
  const [to, kText] = rest.split(":");
  const k = kText ? Number(kText) : 1;
  let card;
  let column = null;
  if (from === "w") card = before.waste[before.waste.length - 1];
  else if (from.startsWith("f")) card = before.foundations[Number(from.slice(1)) - 1];
  else {
    column = Number(from) - 1;
    card = before.columns[column][before.columns[column].length - k];
  }
  const words = [];
  if (to === "f") {
    const f = after.foundations.findIndex((top, i) => top !== before.foundations[i]);
    words.push(TEXT.toFoundationDone(cardName(card), f + 1));
  } else if (k > 1) {
    words.push(TEXT.runToColumnDone(cardName(card), k - 1, Number(to)));
  } else {
    words.push(TEXT.toColumnDone(cardName(card), Number(to)));
  }
  if (column !== null && after.down[column] < before.down[column]) {
    words.push(TEXT.turnedUp(cardName(after.columns[column][after.down[column]])));
  }
  if (after.won) words.push(TEXT.won);
  return words.join(" ");
}

/**
 * Say `text` in the live region. The same words twice in a row are said twice: a
 * no-break space is added or taken off, so the region's text always changes.
 */
export function announce(text) {
  const region = $("announcer");
  if (!region) return;
  const same = region.textContent.replace(/\u00a0$/, "") === text;
  region.textContent = same && !region.textContent.endsWith("\u00a0") ? `${text}\u00a0` : text;
}

/** After each drawing of the table, say the action that was just played, if one was. */
export function bindAnnouncer(play) {
  new MutationObserver(() => announcePlayed(play)).observe($("table"), { childList: true });
}

function announcePlayed(play) {
  const { game, record } = play;
  if (!game || !record) {
    play.announced = null;
    return;
  }
  const was = play.announced;
  const now = { record, length: record.actions.length, snap: game.snapshot() };
  play.announced = now;
  if (was && was.record === record && now.length === was.length + 1) {
    announce(describePlayed(was.snap, now.snap, record.actions[now.length - 1]));
  }
}
