/**
 * The play page: `/` (today's deal of the day) and `/play/<code>/` (any deal). This entry
 * wires the parts in play/ to the page, over one state object (play/state.js):
 *
 *   gestures.js, drag.js  taps, double taps, drags and keys become actions of the notation
 *   deal.js               dealing (and resuming) a deal, and playing one action
 *   saved-game.js         the game and the settings in localStorage, per deal code
 *   session.js            the server: attempt, hints, submission, polling, rank
 *   daily.js              today's deal: the invitation, the Start of a try, its resumption
 *   result-card.js        the result dialog of an ended game (won or given up)
 *   give-up.js            giving up: the game as it stands becomes the result
 *   view.js               drawing the table, the numbers and the status line
 *   actions.js            what a card's place and an action text mean, in cells and in words
 *   text.js               every text a person reads (translated: lib/i18n.js)
 *   how-to.js             a first visit's how to play, until dismissed
 *   keyboard.js           the game by keyboard: the focus on the table, keys to pick up and put down
 *   history.js            undo, and redo (the page's: it plays an undone action again)
 *   announce.js           the live region: each action in words, for screen readers
 *   confirm.js            asking before "Same deal" or "New deal" throws a game away
 *   motion.js, celebrate.js  cards gliding to where they land; a won game's cascade
 *   timing.js             the attempt's clock: when each action was played
 *   guest.js              a visitor's Start as a guest, and its "Keep this result"
 *   drafts.js             today's ranked log as it stands, saved to the server while played
 *
 * Every action goes through the engine (engine/): the page only turns gestures into action
 * texts, asks the engine, and keeps the action log with the time of each action (play/timing.js).
 */

import { InvalidCode, MAX_DEAL, MIN_DEAL, formatCode, parseCode } from "../engine/deal.js";
import { pageData } from "../lib/api.js";
import { bindAnnouncer } from "./play/announce.js";
import { endCelebration } from "./play/celebrate.js";
import { confirmThrowAway } from "./play/confirm.js";
import { openDaily, showPanel } from "./play/daily.js";
import { dealAgain, openNumbered } from "./play/deal.js";
import { bindGestures } from "./play/gestures.js";
import { bindGiveUp } from "./play/give-up.js";
import { undo } from "./play/history.js";
import { bindHowTo } from "./play/how-to.js";
import { bindKeyboard } from "./play/keyboard.js";
import { bindResultDialog } from "./play/result-card.js";
import { forgetOldGames, loadSettings, saveSettings } from "./play/saved-game.js";
import { bindDrafts } from "./play/drafts.js";
import { askHint, resultAgain } from "./play/session.js";
import { attemptIsMine, clearTapWait, createPlayState } from "./play/state.js";
import { TEXT } from "./play/text.js";
import { $, focusTable, measureLayout, render, say, tick } from "./play/view.js";

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
  endCelebration();
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
  $("undo").addEventListener("click", () => undo(play));
  $("hint").addEventListener("click", () => askHint(play));
  $("same-deal").addEventListener("click", async () => {
    if (await confirmThrowAway(play, "same")) sameDeal(play);
  });
  $("new-deal").addEventListener("click", async () => {
    if (!(await confirmThrowAway(play, "new"))) return;
    const number = MIN_DEAL + Math.floor(Math.random() * (MAX_DEAL - MIN_DEAL + 1));
    window.location.assign(`/play/${formatCode(number, "N")}/`);
  });
  $("code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    playTyped($("code-input"));
  });
  // A phone keeps the rarely used actions behind "More" (app.css): this opens and closes them.
  const more = $("more-toggle");
  more.addEventListener("click", () => {
    const open = more.getAttribute("aria-expanded") !== "true";
    more.setAttribute("aria-expanded", String(open));
    $("toolbar").classList.toggle("more-open", open);
  });
  $("code-input").addEventListener("input", (event) => {
    const input = event.target;
    const at = input.selectionStart;
    input.value = input.value.toUpperCase();
    input.setSelectionRange(at, at);
  });
}

/** The skip link (base.html) leads to the cards: the focus on the table's tab stop. */
function bindSkipLink() {
  const link = document.querySelector("[data-testid=skip-link]");
  if (!link) return;
  link.addEventListener("click", (event) => {
    if (!$("table").querySelector("[tabindex]")) return; // no cards yet: the fragment leads on
    event.preventDefault();
    focusTable();
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

/**
 * The deal named in the address, for the shell the service worker keeps (frontend/offline.py):
 * offline, it stands in for every numbered deal's page. {code} or, for no valid code, {error}.
 */
function dealInAddress(path) {
  if (path === "/") return { code: formatCode(offlinePracticeNumber(), "N"), offlineStart: true };
  const match = /^\/play\/([^/]+)\/$/.exec(path);
  try {
    return { code: parseCode(match ? decodeURIComponent(match[1]) : "").toString() };
  } catch (exc) {
    if (!(exc instanceof InvalidCode)) throw exc;
    return { error: exc.message };
  }
}

/**
 * The start page offline (the installed app opens there): today's deal needs the server, so a
 * numbered deal stands in, the same one all day, so that a game begun offline resumes.
 */
function offlinePracticeNumber(now = new Date()) {
  const day = Math.floor(now.getTime() / 86_400_000);
  return MIN_DEAL + ((day * 7919) % (MAX_DEAL - MIN_DEAL + 1));
}

async function start(play) {
  forgetOldGames();
  if (play.page.shell) {
    Object.assign(play.page, dealInAddress(window.location.pathname));
    if (play.page.code) document.title = `${play.page.code} · ${document.title.split(" · ").pop()}`;
  }
  $("hint").textContent = play.user.authenticated ? TEXT.hint : TEXT.hintSignIn;
  // A hint's price, on the button too (and in a dialog before the first: play/session.js).
  $("hint").title = TEXT.hintPrice;
  $("hint").setAttribute("aria-description", TEXT.hintPrice);
  $("mode-note").textContent = TEXT.practice;
  if (play.page.error) {
    say(play.page.error, "error");
    $("deal-code").textContent = TEXT.invalidCode;
    return;
  }
  if (play.page.daily) await openDaily(play);
  else openNumbered(play);
  if (play.page.offlineStart) say(TEXT.offlineStart, "info");
}

const play = createPlayState(pageData());
play.onKept = () => resultAgain(play);
bindSettings(play);
setInterval(() => tick(play), 1000);
bindGestures(play);
bindKeyboard(play);
bindAnnouncer(play);
bindToolbar(play);
bindResize(play);
bindHowTo();
bindGiveUp(play);
bindResultDialog(play);
bindSkipLink();
bindDrafts(play);
start(play);
