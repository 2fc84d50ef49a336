/**
 * The result card under a won game: the score, moves and time; then, signed out, an
 * invitation to sign up; signed in, what the server made of the game (sending, verifying,
 * verified or rejected, practice, copy, flagged, hints, the rank on its board) or why it could
 * not take it. Its "Same deal" and "New deal" buttons are the toolbar's, repeated where the
 * eye is at the end of a game. Hidden while no game is won.
 */

import { clock, h } from "../../lib/api.js";
import { formatNumber } from "../../lib/i18n.js";
import { shareLine } from "./share-button.js";
import { TEXT, fill, localTime } from "./text.js";
import { $, tickNextDeal } from "./view.js";

/** Draw the card from the page's state; `note` is a last line (a failure to say). */
export function renderResult(play, note) {
  const resultEl = $("result");
  const { game, record } = play;
  if (!game || !game.won) {
    resultEl.hidden = true;
    resultEl.replaceChildren();
    return;
  }
  const snap = game.snapshot();
  const time = record.startedAt ? clock((record.finishedAt || Date.now()) - record.startedAt) : "–";
  const parts = [
    h("h2", { text: TEXT.won }),
    h("p", { class: "result-line" }, fill(TEXT.resultLine, {
      points: fill(TEXT.resultPoints(snap.score), { score: h("b", { "data-testid": "result-score", text: formatNumber(snap.score) }) }),
      moves: fill(TEXT.resultMoves(snap.moves), { moves: h("b", { "data-testid": "result-moves", text: formatNumber(snap.moves) }) }),
      time: h("b", { text: time }),
    }), record.hints ? TEXT.withHints(record.hints) : ""),
  ];
  if (!play.user.authenticated) parts.push(signUpInvite());
  else parts.push(...serverLines(record, note));
  if (note) parts.push(h("p", { class: "note" }, note));
  const share = shareLine(play); // a verified daily game only
  if (share) parts.push(share);
  if (record.daily) parts.push(h("p", { class: "next-deal", "data-testid": "next-deal" }));
  parts.push(h("p", { class: "result-actions" },
    h("button", { type: "button", onclick: () => $("same-deal").click() }, TEXT.sameDeal), " ",
    h("button", { type: "button", onclick: () => $("new-deal").click() }, TEXT.newDeal), " ",
    h("a", { href: "/boards/" }, TEXT.boards)));
  resultEl.replaceChildren(...parts);
  resultEl.hidden = false;
  tickNextDeal(play);
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
    if (status === "verified") parts.push(...verifiedLines(sub, record.rank));
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
function verifiedLines(sub, rank) {
  const parts = [];
  if (sub.practice) parts.push(h("p", { "data-testid": "result-practice" }, TEXT.practiceResult));
  if (sub.copy_of) parts.push(h("p", { "data-testid": "result-copy" }, TEXT.copyResult));
  if (sub.flagged) parts.push(h("p", { "data-testid": "flagged" }, TEXT.flaggedResult));
  if (sub.hints > 0 && !sub.practice) parts.push(h("p", { "data-testid": "result-hints" }, TEXT.hintsResult(sub.hints)));
  if (sub.won === false) parts.push(h("p", {}, TEXT.notAWin));
  if (rank && rank.me) {
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
