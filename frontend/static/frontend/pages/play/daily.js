/**
 * Today's deal (fair play, issue 12). Signed out, the page only tells about it and invites
 * the visitor to sign up; signed in, the cards are dealt only once the player has pressed
 * Start and the server has answered with the attempt (its code, and whether it is ranked or
 * practice). A player who has started today's attempt resumes it, on any device.
 */

import { formatCode, MAX_DEAL, MIN_DEAL } from "../../engine/deal.js";
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

/** The panel in place of the cards: an invitation (signed out) or the Start of a try. */
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
  const parts = [];
  if (kind === "invite") {
    parts.push(h("h2", {}, TEXT.inviteTitle), facts, nextDeal(), h("p", {}, TEXT.dailyAbout),
      h("p", { "data-testid": "daily-invite" }, fill(TEXT.invite, {
        signup: h("a", { href: `/signup/?next=${next}`, "data-testid": "invite-signup" }, TEXT.signUp),
        login: h("a", { href: `/login/?next=${next}`, "data-testid": "invite-login" }, TEXT.logIn),
      })),
      h("p", {}, fill(TEXT.numberedOpen, { link: numberedDealLink() })),
      h("p", {}, h("a", { href: "/rules/", "data-testid": "daily-rules" }, TEXT.rules)));
  } else {
    const error = h("p", { class: "form-error", "data-testid": "start-error" });
    const button = h("button", { type: "button", class: "start-button", "data-testid": "start-attempt" }, TEXT.start);
    button.addEventListener("click", () => startDailyAttempt(play, button, error));
    parts.push(h("h2", {}, kind === "start" ? TEXT.startTitle : TEXT.againTitle), facts, nextDeal(),
      h("p", { "data-testid": "ranked-try" }, kind === "start" ? TEXT.rankedTry : TEXT.again),
      previousSubmission ? h("p", {}, h("a", { href: `/replay/${previousSubmission}/` }, TEXT.yourGame)) : null,
      h("p", {}, button), error);
  }
  $("daily-panel").replaceChildren(...parts.filter(Boolean));
  setStage(kind);
  tickNextDeal(play);
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

/** Start: the server opens the attempt and only its answer tells which cards these are. */
async function startDailyAttempt(play, button, error) {
  button.disabled = true;
  button.textContent = TEXT.starting;
  error.textContent = "";
  let attempt, offset;
  try {
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
