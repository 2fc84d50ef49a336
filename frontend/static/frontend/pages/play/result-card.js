/**
 * The ending, in one dialog above everything (<dialog id="result-dialog">, play.html; the
 * cascade falls behind it): won or not, the score, moves and time, the cards home; then,
 * signed out, an invitation to sign up; signed in, what the server made of the game (sending,
 * verifying, verified or rejected, practice, copy, flagged, hints, the rank of N on its board),
 * the day's histogram with "you", the streak, and Share. Its "Same deal" and "New deal"
 * buttons are the toolbar's, repeated where the eye is. It opens once per ending; closed, the
 * toolbar's "Result" opens it again.
 */

import { clock, h } from "../../lib/api.js";
import { formatNumber } from "../../lib/i18n.js";
import { showHistogram } from "../day-histogram.js";
import { keepForm } from "./guest.js";
import { gameTime } from "./server-clock.js";
import { shareLine } from "./share-button.js";
import { isStreak, streakLine } from "./share.js";
import { gameOver } from "./state.js";
import { TEXT, fill, localTime } from "./text.js";
import { $, tickNextDeal } from "./view.js";

/** How many cards are on the foundations of `game` (an engine Game): 104 when won. Pure. */
export function cardsHome(game) {
  return game.foundations.reduce((sum, rank) => sum + rank, 0);
}

/** The dialog closed, and nothing of it left to show (another game, or the daily panel). */
export function closeResult() {
  const dialog = $("result-dialog");
  if (dialog.open) dialog.close();
  $("result").hidden = true;
  $("result").replaceChildren();
  $("show-result").hidden = true;
}

/** Open the dialog (again) with the focus on its top, where a screen reader starts reading. */
function openResult() {
  const dialog = $("result-dialog");
  const resultEl = $("result");
  if (!dialog.open) dialog.showModal();
  resultEl.setAttribute("tabindex", "-1");
  resultEl.focus({ preventScroll: true });
  $("show-result").hidden = true;
}

/** The toolbar's "Result" opens the dialog again once closed (its button, or Escape). */
export function bindResultDialog(play) {
  $("result-dialog").addEventListener("close", () => { $("show-result").hidden = !gameOver(play); });
  $("show-result").addEventListener("click", openResult);
}

/** Draw the result from the page's state; `note` is a last line (a failure to say). */
export function renderResult(play, note) {
  const resultEl = $("result");
  const { game, record } = play;
  if (!gameOver(play)) {
    closeResult();
    play.resultShownFor = null; // the next ending opens the dialog again
    return;
  }
  const snap = game.snapshot();
  const won = game.won;
  const time = clock(gameTime(record, Date.now())); // the verified submission's, as on the board and shared
  const home = cardsHome(game);
  const parts = [
    h("h2", { id: "result-title", "data-testid": "result-title", "data-won": String(won), text: won ? TEXT.won : TEXT.notWon }),
    h("p", { class: "result-line" }, fill(TEXT.resultLine, {
      points: fill(TEXT.resultPoints(snap.score), { score: h("b", { "data-testid": "result-score", text: formatNumber(snap.score) }) }),
      moves: fill(TEXT.resultMoves(snap.moves), { moves: h("b", { "data-testid": "result-moves", text: formatNumber(snap.moves) }) }),
      time: h("b", { "data-testid": "result-time", text: time }),
    }), record.hints ? TEXT.withHints(record.hints) : ""),
    h("p", { class: "cards-home", "data-testid": "cards-home", "data-count": String(home) }, TEXT.cardsHome(home)),
  ];
  if (!play.user.authenticated) parts.push(signUpInvite());
  else parts.push(...serverLines(record, note));
  if (play.user.guest && record.submission && record.submission.status === "verified") parts.push(keepBox(play));
  if (note) parts.push(h("p", { class: "note" }, note));
  parts.push(histogramBox(play));
  if (isStreak(record.streak)) parts.push(h("p", { class: "streak", "data-testid": "result-streak" }, streakLine(record.streak)));
  const share = shareLine(play, () => renderResult(play)); // a verified daily game only
  if (share) parts.push(share);
  if (record.daily) parts.push(h("p", { class: "next-deal", "data-testid": "next-deal" }));
  parts.push(h("p", { class: "result-actions" },
    h("button", { type: "button", onclick: () => $("same-deal").click() }, TEXT.sameDeal), " ",
    h("button", { type: "button", onclick: () => $("new-deal").click() }, TEXT.newDeal), " ",
    h("a", { href: "/boards/" }, TEXT.boards), " ",
    h("button", { type: "button", "data-testid": "result-close", onclick: () => $("result-dialog").close() }, TEXT.closeResult)));
  resultEl.replaceChildren(...parts.filter(Boolean));
  resultEl.hidden = false;
  if (play.resultShownFor !== record) {
    play.resultShownFor = record;
    openResult();
  }
  tickNextDeal(play);
}

/** The day's histogram with "you" (day-histogram.js), once the game's rank on the day is known. */
function histogramBox(play) {
  const { record } = play;
  const day = record.rank && record.rank.me && record.rank.daily_date;
  if (!day) return null;
  if (!play.histogram || play.histogram.record !== record) {
    const box = h("div", { class: "day-histogram result-histogram", "data-testid": "result-histogram" });
    play.histogram = { record, box };
    showHistogram(box, day);
  }
  return play.histogram.box;
}

/** A guest's "Keep this result" (guest.js), made once per game: what is typed in it stays. */
function keepBox(play) {
  const { record } = play;
  if (!play.keep || play.keep.record !== record) play.keep = { record, box: keepForm(play, () => play.onKept()) };
  return play.keep.box;
}

function signUpInvite() {
  const next = encodeURIComponent(window.location.pathname);
  return h("p", { class: "invite", "data-testid": "signup-invite" }, fill(TEXT.onlySignedIn, {
    signup: h("a", { href: `/signup/?next=${next}` }, TEXT.signUpCapital),
    login: h("a", { href: `/login/?next=${next}` }, TEXT.logIn),
  }));
}

/** What the server made of a signed-in player's game, so far. */
function serverLines(record, note) {
  const parts = [];
  const sub = record.submission;
  if (sub) {
    const status = sub.status;
    parts.push(h("p", { class: `submission-status status-${status}`, "data-testid": "submission-status", "data-status": status },
      TEXT.status[status] || status));
    if (status === "rejected") {
      parts.push(h("p", { class: "form-error" }, TEXT.rejectedAt(sub.error_index, sub.error)));
    }
    if (status === "verified") parts.push(...verifiedLines(sub, record.rank, record.gaveUp));
  } else if (record.refusal && record.refusal.code === "day_closed") {
    parts.push(h("p", { class: "form-error", "data-testid": "day-closed" }, TEXT.dayClosed(localTime(record.refusal.closedAt))));
  } else if (!note) {
    parts.push(h("p", { "data-testid": "submission-status", "data-status": "sending" }, TEXT.sending));
  }
  if (record.practice && !(sub && sub.status === "verified")) {
    parts.push(h("p", { "data-testid": "result-practice" }, TEXT.practice));
  }
  return parts;
}

/** A verified game: where it stands (or why it stands on no board), and its rank. */
function verifiedLines(sub, rank, gaveUp) {
  const parts = [];
  if (sub.practice) parts.push(h("p", { "data-testid": "result-practice" }, TEXT.practiceResult));
  if (sub.copy_of) parts.push(h("p", { "data-testid": "result-copy" }, TEXT.copyResult));
  if (sub.flagged) parts.push(h("p", { "data-testid": "flagged" }, TEXT.flaggedResult));
  if (sub.hints > 0 && !sub.practice) parts.push(h("p", { "data-testid": "result-hints" }, TEXT.hintsResult(sub.hints)));
  if (sub.won === false && !gaveUp) parts.push(h("p", {}, TEXT.notAWin));
  if (rank && rank.me && rank.guest) {
    const boardName = rank.daily_date ? TEXT.dailyBoard(rank.daily_date) : TEXT.dealBoard(rank.deal_number);
    parts.push(h("p", { class: "rank-line", "data-testid": "guest-rank" }, fill(TEXT.guestRankLine(rank.count), {
      rank: h("b", { "data-testid": "rank", text: `#${rank.me}` }), count: formatNumber(rank.count), board: boardName,
    })));
  } else if (rank && rank.me) {
    const href = rank.daily_date ? `/boards/?date=${rank.daily_date}` : `/boards/?deal=${rank.deal_number}`;
    const boardName = rank.daily_date ? TEXT.dailyBoard(rank.daily_date) : TEXT.dealBoard(rank.deal_number);
    parts.push(h("p", { class: "rank-line" }, fill(TEXT.rankLine(rank.count), {
      rank: h("b", { "data-testid": "rank", text: `#${rank.me}` }), count: formatNumber(rank.count), board: boardName,
      link: h("a", { href, "data-testid": "board-link" }, TEXT.seeBoard),
    })));
  } else if (rank && rank.error) {
    parts.push(h("p", {}, TEXT.rankUnavailable(rank.error)));
  }
  if (sub.clean === false) parts.push(h("p", { class: "muted" }, TEXT.notClean));
  return parts;
}
