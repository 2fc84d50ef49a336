/**
 * The result card's rank, kept current: once a verified result's rank is shown, its board is
 * asked again every few seconds while the page is visible (lib/live.js: a 304 while nothing
 * moved), until another game is dealt. A rank that moved is drawn on the card and said in the
 * status line (a polite live region).
 */

import { watch } from "../../lib/live.js";
import { renderResult } from "./result-card.js";
import { saveGame } from "./saved-game.js";
import { TEXT } from "./text.js";
import { say } from "./view.js";

/** Poll `path` (the result's `around=me` on `board`) from the answer tagged `tag`. */
export function watchRank(play, path, board, tag) {
  if (play.rankWatch) play.rankWatch.stop();
  const { code, submissionId } = play.record;
  const current = () => play.record.code === code && play.record.submissionId === submissionId;
  play.rankWatch = watch(path, (answer) => {
    if (!current()) return;
    const before = play.record.rank && play.record.rank.me;
    play.record.rank = { me: answer.me, count: answer.count, ...board };
    saveGame(play);
    renderResult(play);
    if (answer.me && answer.me !== before) say(TEXT.rankNow(answer.me));
  }, { tag, alive: current });
}
