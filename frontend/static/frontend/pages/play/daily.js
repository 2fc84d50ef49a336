/**
 * Today's deal (fair play, issue 12; guests, issue 22). The first screen is its Start over
 * the table's layout face down, signed in or not (a visitor starts as a guest): the cards are
 * dealt only once the player has pressed Start and the server has answered with the attempt
 * (its code, and whether it is ranked or practice). A player who has started today's attempt
 * resumes it, on any device (a guest, on its browser).
 */

import { formatCode, MAX_DEAL, MIN_DEAL } from "../../engine/deal.js";
import { Game } from "../../engine/game.js";
import { renderTable } from "../../lib/table.js";
import { becomeGuest } from "./guest.js";
import { get, h, post } from "../../lib/api.js";
import { AttemptClock } from "./timing.js";
import { timed } from "./server-clock.js";
import { dealCards } from "./deal.js";
import { closeResult } from "./result-card.js";
import { freshRecord, loadGame } from "./saved-game.js";
import { bindAttempt, submit } from "./session.js";
import { gameOver } from "./state.js";
import { dayClose } from "../../lib/time.js";
import { TEXT, fill } from "./text.js";
import { $, focusTable, say, setStage, tickNextDeal } from "./view.js";

/** Today's deal: the invitation, the Start of a try, or the try already started (resumed). */
export async function openDaily(play) {
  const { user } = play;
  let offset;
  try {
    ({ answer: play.daily, offset } = await timed(() => get("/api/daily/")));
  } catch (exc) {
    say(TEXT.dailyUnavailable(exc.message), "error");
    return;
  }
  const { daily } = play;
  $("deal-kind").textContent = TEXT.dailyKind(daily.date) + (daily.proven_winnable ? ` · ${TEXT.provenWinnable}` : "");
  $("deal-code").textContent = user.authenticated ? TEXT.codeHidden : "–";
  const mine = user.authenticated ? daily.attempt : null;
  if (!user.authenticated || !mine) {
    showPanel(play, user.authenticated ? "start" : "invite");
    return;
  }
  play.code = mine.code;
  const saved = loadGame(play.code);
  if (saved && saved.attemptId === mine.id && saved.attemptUser === user.username) {
    play.record = saved;
    // The server's start and this device's offset from its clock, as they are now.
    Object.assign(play.record, { attemptStartedAt: mine.started_at, clockOffset: offset });
    play.timer = AttemptClock.resume(saved.clock);
  } else if (mine.submission) {
    showPanel(play, "again", mine.submission); // played on another device, or this one forgot it
    return;
  } else {
    // Started on another device (or this one forgot the game): the same try, the log starts
    // here, and so does the count of its times, which then never passes the server's clock.
    play.record = freshRecord(play.code);
    Object.assign(play.record, {
      attemptId: mine.id, attemptUser: user.username, attemptStartedAt: mine.started_at, clockOffset: offset, daily: true,
      ranked: mine.ranked, practice: !mine.ranked, closesAt: daily.closes_at,
    });
    play.timer = AttemptClock.start();
  }
  dealCards(play);
  if (gameOver(play)) submit(play);
}

/**
 * The panel in place of the cards: the first screen (the Start of today's ranked try, for a
 * visitor too: it starts a guest, guest.js) over the table's layout face down, or, the try
 * played, the Start of a practice try.
 */
export function showPanel(play, kind, previousSubmission = null) {
  play.game = null;
  play.hint = null;
  play.timer = null;
  const tableEl = $("table");
  tableEl.replaceChildren();
  delete tableEl.dataset.ready;
  closeResult();
  play.resultShownFor = null;
  for (const id of ["score", "moves", "hints"]) $(id).textContent = "0";
  $("time").textContent = "0:00";
  $("mode-note").hidden = true;
  say("");
  const next = encodeURIComponent(window.location.pathname);
  const facts = h("p", { "data-testid": "daily-facts" }, dailyFacts(play.daily));
  const error = h("p", { class: "form-error", "data-testid": "start-error", role: "alert" });
  // The first try of the day (signed in or not) is Start; a later one, a practice try.
  const first = kind !== "again";
  const button = h("button", { type: "button", class: "start-button", "data-testid": first ? "start-daily" : "start-attempt" }, TEXT.start);
  button.addEventListener("click", () => startDailyAttempt(play, button, error));
  const parts = [h("h2", {}, kind === "again" ? TEXT.againTitle : TEXT.startTitle), h("p", { class: "start-line" }, button), error, facts];
  if (kind === "invite") {
    parts.push(h("p", { "data-testid": "ranked-try" }, TEXT.guestTry),
      h("p", { "data-testid": "daily-invite" }, fill(TEXT.inviteGuest, {
        signup: h("a", { href: `/signup/?next=${next}`, "data-testid": "invite-signup" }, TEXT.signUp),
        login: h("a", { href: `/login/?next=${next}`, "data-testid": "invite-login" }, TEXT.logIn),
      })));
  } else {
    parts.push(h("p", { "data-testid": "ranked-try" }, kind === "start" ? TEXT.rankedTry : TEXT.again),
      previousSubmission ? h("p", {}, h("a", { href: `/replay/${previousSubmission}/` }, TEXT.yourGame)) : null);
  }
  parts.push(nextDeal());
  if (first) parts.push(facedDown());
  if (kind === "invite") {
    parts.push(h("p", {}, fill(TEXT.numberedOpen, { link: numberedDealLink() })),
      h("p", {}, h("a", { href: "/rules/", "data-testid": "daily-rules" }, TEXT.rules)));
  }
  $("daily-panel").replaceChildren(...parts.filter(Boolean));
  setStage(kind);
  tickNextDeal(play);
}

/**
 * Today's table before Start: every deal's layout is the same, so deal 1's, every card face
 * down, shows it without telling a card of today's (a picture: hidden from screen readers).
 */
function facedDown() {
  const box = h("div", { class: "table table-preview", "data-testid": "table-preview", "aria-hidden": "true" });
  const snap = Game.new(MIN_DEAL).snapshot();
  const masked = { ...snap, down: snap.columns.map((cards) => cards.length), waste: [], foundations: snap.foundations.map(() => null) };
  requestAnimationFrame(() => {
    const width = Math.min(box.clientWidth || 360, 720);
    renderTable(box, masked, { width, maxColumnHeight: width * 0.45 });
  });
  return box;
}

/** The line that counts down to the next deal (view.js's tickNextDeal, every second). */
function nextDeal() {
  return h("p", { class: "next-deal", "data-testid": "next-deal" });
}

function dailyFacts(daily) {
  const facts = [TEXT.dailyKind(daily.date)];
  if (daily.proven_winnable) facts.push(TEXT.provenWinnable);
  if (daily.players !== null && daily.players !== undefined) facts.push(TEXT.playersSoFar(daily.players));
  facts.push(dayClose(daily.closes_at).closes);
  return facts.join(" · ");
}

function numberedDealLink() {
  const dealCode = formatCode(MIN_DEAL + Math.floor(Math.random() * (MAX_DEAL - MIN_DEAL + 1)), "N");
  return h("a", { href: `/play/${dealCode}/`, "data-testid": "play-numbered" }, TEXT.playNumbered(dealCode));
}

/**
 * Start: the server opens the attempt and only its answer tells which cards these are. A
 * visitor without an account becomes a guest first (guest.js).
 */
async function startDailyAttempt(play, button, error) {
  button.disabled = true;
  button.textContent = TEXT.starting;
  error.textContent = "";
  let attempt, offset;
  try {
    if (!play.user.authenticated) await becomeGuest(play);
    ({ answer: attempt, offset } = await timed(() => post("/api/attempts/", { deal: "daily" })));
  } catch (exc) {
    button.disabled = false;
    button.textContent = TEXT.start;
    error.textContent = TEXT.cannotStart(exc.message);
    return;
  }
  play.code = attempt.deal;
  play.record = freshRecord(play.code);
  bindAttempt(play, attempt, offset);
  dealCards(play);
  say(attempt.ranked ? TEXT.ranked : TEXT.practice, attempt.ranked ? "info" : "practice");
  focusTable(); // the player's next press is on the cards (issue 22, keyboard)
}
