/**
 * The play page's state, in one object that every part of the page is handed (no module
 * keeps state of its own). Pure: no DOM, no storage, so tests can build one.
 *
 * `record` is the game as localStorage keeps it for its deal code (saved-game.js); the rest
 * lives only as long as the page.
 */

/** The page's state for the server's page data (json_script "page-data"). */
export function createPlayState(page = {}) {
  return {
    page,
    user: page.user || { authenticated: false, username: null },
    settings: { double: true, rules: true }, // persisted apart from any game (saved-game.js)
    code: null,            // "EH1-D-..." or "EH1-N-..."
    daily: null,           // /api/daily/ answer when this is the deal of the day
    game: null,            // engine Game, once the cards are dealt
    record: null,          // what localStorage keeps for this deal code
    timer: null,           // the attempt's clock (timing.js), once the server has answered
    attemptStarting: null, // the promise of an attempt being asked for
    polling: false,        // a submission's result is being asked for
    hint: null,            // {action, keys} highlighted until the next action
    landed: null,          // data-keys of the card(s) that just moved
    tapWait: null,         // a first tap that found no foundation, waiting for a second
    fade: null,            // the timer that fades a refusal out of the status line (view.js)
    press: null,           // the pointer pressed on a card or the stock, until it is let go
    layout: null,          // the table's measured width and height for drawing
    cursor: null,          // the keyboard's place on the table: {place, depth} (keyboard.js)
    held: null,            // the card(s) the keyboard picked up, until put down (keyboard.js)
    focusKept: false,      // the focus was last in the game: a drawing puts it back (keyboard.js)
    lastInput: null,       // "key" or "pointer": the focus put back scrolls only for keys
    redo: null,            // the actions undos took back, to play again (history.js)
    announced: null,       // the game as the live region last told it (announce.js)
    streakAsking: null,    // the promise of the player's streak, asked for to share (share-button.js)
    resultShownFor: null,  // the record whose ending the result dialog last opened on (result-card.js)
    histogram: null,       // {record, box}: the day's histogram in the result dialog, fetched once
    hintWarned: false,     // the price of a hint was told in its dialog this visit (session.js)
    draftTimer: null,      // the wait before today's ranked log is saved to the server (drafts.js)
    keep: null,            // {record, box}: a guest's "Keep this result" in the result dialog (guest.js)
    onKept: () => {},      // what a guest's keeping its result does next (play.js wires it)
  };
}

/** Whether the game's attempt is the signed-in player's (a game begun signed out has none). */
export function attemptIsMine(play) {
  const { record, user } = play;
  return Boolean(record && record.attemptId && record.attemptUser === user.username);
}

/** Whether the game on the table has ended: won, or given up (then the log as it stands is sent). */
export function gameOver(play) {
  return Boolean(play.game && (play.game.won || (play.record && play.record.gaveUp)));
}

/** Forget a first tap waiting for a second: any other action or gesture ends the wait. */
export function clearTapWait(play) {
  if (play.tapWait) clearTimeout(play.tapWait.timer);
  play.tapWait = null;
}
