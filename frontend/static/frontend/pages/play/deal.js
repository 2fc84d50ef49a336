/**
 * The game itself: dealing a deal's cards (and replaying its saved log onto them), dealing
 * them again, and playing one action. Every action goes through the engine (engine/),
 * which refuses it (and says why) or plays it; a played action is logged with its time.
 */

import { parseCode } from "../../engine/deal.js";
import { Game } from "../../engine/game.js";
import { replayOnto } from "../../engine/replay.js";
import { AttemptClock } from "./timing.js";
import { foundationTarget, landingKeys, refusalWords } from "./actions.js";
import { celebrate } from "./celebrate.js";
import { land, takeOff } from "./motion.js";
import { renderResult } from "./result-card.js";
import { freshRecord, loadGame, saveGame } from "./saved-game.js";
import { scheduleDraft } from "./drafts.js";
import { ensureAttempt, onGameOver, submit } from "./session.js";
import { attemptIsMine, clearTapWait, gameOver } from "./state.js";
import { TEXT } from "./text.js";
import { $, refused, render, say, setStage } from "./view.js";

/** Try one action: the engine either refuses it (and says why) or it is played and logged. */
export function act(play, text) {
  const { game } = play;
  if (!game || gameOver(play)) return false;
  clearTapWait(play);
  const reason = refusalWords(game, text);
  if (reason !== null) {
    refused(play, reason);
    return false;
  }
  const target = text.endsWith(">f") ? foundationTarget(game, text) : null;
  const flight = takeOff(play, text);
  game.play(text);
  const { record } = play;
  record.actions.push(text);
  record.times.push(play.timer ? play.timer.stamp(record.times) : 0);
  if (!record.startedAt) record.startedAt = Date.now();
  play.hint = null;
  play.landed = landingKeys(game, text, target);
  say("");
  saveGame(play);
  render(play);
  if (game.won) onGameOver(play); // draws the table again
  else {
    ensureAttempt(play);
    scheduleDraft(play); // today's ranked try: its log as it stands, kept by the server (drafts.js)
  }
  land(play, flight);
  if (game.won) celebrate();
  return true;
}

/** Deal the cards of `play.code` and replay the saved log onto them. */
export function dealCards(play) {
  const { code, record } = play;
  // Today's deal keeps its code off its page until the day is final (docs/fair-play.md): a
  // player who saw it could open the same cards as a numbered deal, or pass it on.
  const secret = Boolean(play.page && play.page.daily);
  $("deal-code").textContent = secret ? TEXT.codeHidden : code;
  if (!secret) $("code-input").placeholder = code;
  play.game = Game.new(parseCode(code).number);
  if (record.actions.length) {
    const result = replayOnto(play.game, record.actions);
    if (!result.ok) {
      say(TEXT.resumeFailed(result.error), "error");
      Object.assign(record, { actions: [], times: [], startedAt: null, finishedAt: null, gaveUp: false });
      play.game = Game.new(parseCode(code).number);
    } else if (!play.game.won) {
      say(TEXT.welcomeBack(record.actions.length));
    }
  }
  saveGame(play);
  setStage("playing");
  render(play);
  renderResult(play);
  $("table").dataset.ready = "true";
}

/**
 * The same cards again. Today's try goes on (its attempt and clock, hints counted): only the
 * log starts again. A numbered deal starts afresh, and its next action starts a new attempt.
 */
export function dealAgain(play) {
  if (play.page.daily) {
    Object.assign(play.record, { actions: [], times: [], startedAt: null, finishedAt: null, gaveUp: false });
  } else {
    play.record = freshRecord(play.code);
    play.timer = null;
  }
  play.game = Game.new(parseCode(play.code).number);
  saveGame(play);
  say(play.page.daily ? TEXT.dealtAgainDaily : TEXT.dealtAgain);
  renderResult(play);
  render(play);
}

/** A deal by its code (`/play/<code>/`): the saved game resumed, else a new one. */
export function openNumbered(play) {
  const { page, user } = play;
  play.code = page.code;
  $("deal-kind").textContent = parseCode(play.code).mode === "D" ? TEXT.dealOfADay : TEXT.deal;
  play.record = loadGame(play.code) || freshRecord(play.code);
  if (attemptIsMine(play)) play.timer = AttemptClock.resume(play.record.clock);
  dealCards(play);
  if (gameOver(play)) {
    if (user.authenticated && (play.record.submissionId || attemptIsMine(play))) submit(play);
  } else {
    ensureAttempt(play);
  }
}
