/**
 * The game's session with the server: the attempt (whose start is the server's clock, the
 * only one that ranks), hints asked on it (the server counts them), the submission of a won
 * game with the time of each action, polling until it is verified or rejected, and then its
 * rank on its board.
 */

import { ApiError, get, post } from "../../lib/api.js";
import { fetchTagged } from "../../lib/live.js";
import { AttemptClock } from "./timing.js";
import { timed } from "./server-clock.js";
import { actionKeys, describeAction } from "./actions.js";
import { watchRank } from "./live-rank.js";
import { renderResult } from "./result-card.js";
import { saveGame } from "./saved-game.js";
import { attemptIsMine, gameOver } from "./state.js";
import { TEXT } from "./text.js";
import { $, render, say } from "./view.js";

/**
 * The attempt's answer becomes this game's: its id, kind, the clock of its times and the
 * offset of the server's clock (`offset`, server-clock.js), by which the page shows its time.
 */
export function bindAttempt(play, attempt, offset = null) {
  Object.assign(play.record, {
    attemptId: attempt.id, attemptUser: play.user.username, attemptStartedAt: attempt.started_at, clockOffset: offset,
    daily: Boolean(attempt.daily_date), ranked: attempt.ranked ?? null, practice: Boolean(attempt.practice),
    closesAt: attempt.closes_at ?? null, hints: attempt.hints ?? 0,
  });
  play.timer = AttemptClock.start();
  saveGame(play);
}

/**
 * A numbered deal, signed in: the server's clock starts with an attempt at the first action
 * (or a hint), once per game. Today's deal has its attempt before the cards are dealt.
 */
export function ensureAttempt(play, { force = false } = {}) {
  if (play.attemptStarting) return play.attemptStarting;
  const { game, page, user } = play;
  if (page.daily || !user.authenticated || !game || gameOver(play) || attemptIsMine(play)) return Promise.resolve();
  if (!force && !play.record.actions.length) return Promise.resolve();
  const forRecord = play.record;
  const lateStart = forRecord.actions.length > 1;
  play.attemptStarting = (async () => {
    try {
      const { answer: attempt, offset } = await timed(() => post("/api/attempts/", { deal: forRecord.code }));
      if (play.record !== forRecord) return; // dealt again meanwhile: the next action starts a new one
      bindAttempt(play, attempt, offset);
      play.record.clockNote = lateStart;
      saveGame(play);
      if (lateStart) say(TEXT.clockStartsNow, "info");
    } catch (exc) {
      say(TEXT.attemptFailed(exc.message), "error");
    } finally {
      play.attemptStarting = null;
    }
  })();
  return play.attemptStarting;
}

/**
 * Before the first hint of a game that can rank, its price in a dialog (play.html): a result
 * with hints ranks after every result without. Resolves true when the player still wants it.
 */
function hintAccepted(play) {
  if (play.record.hints || play.record.practice) return Promise.resolve(true);
  const dialog = $("hint-dialog");
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "hint"), { once: true });
  });
}

/** The solver's next move, asked on the attempt: the server counts the hint on it. */
export async function askHint(play) {
  if (!play.game || gameOver(play)) return;
  if (!play.user.authenticated) {
    window.location.assign(`/login/?next=${encodeURIComponent(window.location.pathname)}`);
    return;
  }
  if (!(await hintAccepted(play)) || gameOver(play)) return;
  say(TEXT.hintLooking);
  let action;
  try {
    await ensureAttempt(play, { force: true });
    if (!attemptIsMine(play)) return; // ensureAttempt said why
    const answer = await post("/api/hints/", { attempt: play.record.attemptId, actions: play.record.actions });
    action = answer.action;
    play.record.hints = answer.hints;
    saveGame(play);
    render(play);
  } catch (exc) {
    say(TEXT.hintFailed(exc.message), "error");
    return;
  }
  if (!action || play.game.refusal(action) !== null) {
    say(TEXT.noHint);
    return;
  }
  play.hint = { action, keys: actionKeys(play.game, action) };
  render(play);
  say(TEXT.hintSays(describeAction(play.game, action), TEXT.hintNote), "hint");
}

/**
 * The game is over, won or given up: stop its time, show the result, and send it when signed
 * in (a game given up is sent as it stands: the server ranks it by cards home, then moves).
 */
export function onGameOver(play) {
  if (!play.record.finishedAt) play.record.finishedAt = Date.now();
  saveGame(play);
  render(play);
  renderResult(play);
  if (play.user.authenticated) submit(play);
}

/** Send the ended game (once: after a reload, go on polling, or show the refusal again). */
export async function submit(play) {
  if (play.attemptStarting) { try { await play.attemptStarting; } catch { /* reported */ } }
  if (play.record.submissionId) { poll(play); return; }
  if (play.record.refusal) { renderResult(play); return; }
  if (!attemptIsMine(play)) {
    renderResult(play, TEXT.noClock);
    return;
  }
  try {
    // Every game that can rank is sent with its times (the server keeps one without them off
    // the boards); a late start's actions before the attempt have 0.
    const body = { actions: play.record.actions, times: play.record.times };
    const sent = await post(`/api/attempts/${play.record.attemptId}/submission`, body);
    play.record.submissionId = sent.id;
    play.record.submission = { status: sent.status };
    saveGame(play);
    renderResult(play);
    poll(play);
  } catch (exc) {
    if (exc instanceof ApiError && exc.code === "day_closed") {
      // The server may say when the day closed; else the attempt's answer did.
      play.record.refusal = { code: exc.code, closedAt: (exc.detail && exc.detail.closes_at) || play.record.closesAt };
      saveGame(play);
      renderResult(play);
      return;
    }
    renderResult(play, TEXT.notTaken(exc.message));
  }
}

/** Ask for the submission until it is verified or rejected, backing off up to 5 s a round. */
async function poll(play) {
  if (play.polling || !play.record.submissionId) return;
  play.polling = true;
  const id = play.record.submissionId;
  const forCode = play.record.code;
  let delay = 400;
  try {
    for (let round = 0; round < 600 && play.record.code === forCode && play.record.submissionId === id; round++) {
      let sub;
      try {
        sub = await get(`/api/submissions/${id}/`);
      } catch (exc) {
        if (exc instanceof ApiError && exc.status === 404) break;
        sub = null;
      }
      if (sub) {
        play.record.submission = sub;
        saveGame(play);
        renderResult(play);
        if (sub.status === "verified" || sub.status === "rejected") {
          // The server says whether the result stands on its board: else there is no rank to ask for.
          if (sub.on_boards) await fetchRank(play, sub);
          else if (sub.guest_rank) guestRank(play, sub);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 1.3, 5000);
    }
  } finally {
    play.polling = false;
  }
}

/** A guest's result: the rank it would have if kept now (the server's answer says it). */
function guestRank(play, sub) {
  const { rank: me, count } = sub.guest_rank;
  play.record.rank = { me, count, guest: true, daily_date: sub.daily_date, deal_number: sub.deal_number };
  saveGame(play);
  renderResult(play);
}

/** A guest kept its result (guest.js): the submission again, now on its board, and its rank there. */
export async function resultAgain(play) {
  const { record } = play;
  if (!record || !record.submissionId) return;
  record.rank = null;
  try {
    const sub = await get(`/api/submissions/${record.submissionId}/`);
    record.submission = sub;
    if (sub.on_boards) await fetchRank(play, sub);
    else if (sub.guest_rank) guestRank(play, sub);
    else renderResult(play);
  } catch (exc) {
    renderResult(play, TEXT.rankUnavailable(exc.message));
  }
}

async function fetchRank(play, sub) {
  const path = sub.daily_date ? `/api/leaderboards/daily/${sub.daily_date}/?around=me&page_size=5`
    : `/api/leaderboards/deals/${sub.deal_number}/?around=me&page_size=5`;
  const board = { daily_date: sub.daily_date, deal_number: sub.deal_number };
  try {
    const { data: answer, tag } = await fetchTagged(path);
    play.record.rank = { me: answer.me, count: answer.count, ...board };
    watchRank(play, path, board, tag); // kept current while the card is open
  } catch (exc) {
    play.record.rank = { me: null, error: exc.message, ...board };
  }
  saveGame(play);
  renderResult(play);
}
