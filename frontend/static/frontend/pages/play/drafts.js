/**
 * An unfinished ranked daily is not lost (issue 22): while today's ranked try is played, its
 * log as it stands is saved to the server (PUT /api/attempts/<id>/draft, the last one kept),
 * a few seconds after the last action and at once when the page is hidden. Once the day is
 * final, the server submits the last log it holds of a try never sent, as its result.
 */

import { api } from "../../lib/api.js";
import { attemptIsMine, gameOver } from "./state.js";

/** The quiet after an action before the log is saved (the server allows 20 saves a minute). */
export const DRAFT_WAIT_MS = 5000;

/** Whether the game on the table is a ranked try at today's deal still being played. */
export function draftable(play) {
  const { record } = play;
  return Boolean(record && record.daily && record.ranked && attemptIsMine(play) && !record.submissionId
    && record.actions.length && !gameOver(play));
}

/** Save the log once the player pauses (each action starts the wait again). */
export function scheduleDraft(play) {
  clearTimeout(play.draftTimer);
  play.draftTimer = draftable(play) ? setTimeout(() => sendDraft(play), DRAFT_WAIT_MS) : null;
}

/** Save the log now, unless the server holds it as it stands; `keepalive` outlives the page. */
export function sendDraft(play, { keepalive = false } = {}) {
  clearTimeout(play.draftTimer);
  play.draftTimer = null;
  if (!draftable(play)) return Promise.resolve();
  const { record } = play;
  const length = record.actions.length;
  if (record.draftSaved === length) return Promise.resolve();
  const body = { actions: record.actions.slice(), times: record.times.slice() };
  return api(`/api/attempts/${record.attemptId}/draft`, { method: "PUT", body, keepalive })
    .then(() => { if (play.record === record) record.draftSaved = length; })
    .catch(() => { /* the next action tries again; the game itself is kept on this device */ });
}

/** A page hidden (another tab, the phone locked, closed) saves the log at once. */
export function bindDrafts(play) {
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") sendDraft(play, { keepalive: true });
  });
}
