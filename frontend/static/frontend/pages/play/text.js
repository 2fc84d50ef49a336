/**
 * Every text a person reads on the play page, in one place, in the page's language: each is
 * marked for the catalogue (gettext, ngettext; locale/<lang>/djangojs.po) and translated by
 * /jsi18n/ (lib/i18n.js). Counts choose their plural form (Polish has three) and are written
 * the reader's way; days and moments too. A text with a link or a number in bold inside is a
 * template whose %(name)s places take elements (`fill`).
 * (The engine's refusals come from engine/refusals.js; the server's messages from the server.)
 */

import { formatDay, formatNumber, gettext, interpolate, ngettext, pgettext } from "../../lib/i18n.js";
import { formatMoment } from "../../lib/time.js";

/** A moment as the reader's local date and time, e.g. "2 Dec, 01:00 CET". */
export function localTime(iso) {
  if (!iso) return gettext("midnight UTC");
  return formatMoment(iso);
}

/** `template` split at its %(name)s places, each filled from `parts` (text or an element). */
export function fill(template, parts) {
  const out = [];
  let at = 0;
  for (const match of template.matchAll(/%\((\w+)\)s/g)) {
    if (match.index > at) out.push(template.slice(at, match.index));
    const part = Object.hasOwn(parts, match[1]) ? parts[match[1]] : match[0];
    if (Array.isArray(part)) out.push(...part);
    else out.push(part);
    at = match.index + match[0].length;
  }
  if (at < template.length) out.push(template.slice(at));
  return out;
}

const say = (template, values) => interpolate(template, values);

export const TEXT = {
  // The deal in the heading.
  dealOfADay: gettext("Deal of a day"),
  deal: gettext("Deal"),
  invalidCode: gettext("invalid code"),

  // Today's deal, before its cards are dealt.
  dailyKind: (date) => say(gettext("Deal of the day · %(date)s"), { date: formatDay(date) }),
  provenWinnable: gettext("proven winnable"),
  playersSoFar: (n) => say(ngettext("%(count)s player so far", "%(count)s players so far", n), { count: formatNumber(n) }),
  closesAt: (when) => say(gettext("closes at %(time)s"), { time: when }),
  codeHidden: gettext("shown once the day is final"),
  dailyAbout: gettext("Everyone gets the same deal today. The fewest moves wins, then the highest score, then the fastest time."),
  dailyUnavailable: (why) => say(gettext("Today's deal is not available: %(reason)s"), { reason: why }),
  inviteTitle: gettext("Sign in to play today's deal"),
  /** Takes {signup, login}: the two links. */
  invite: gettext("Today's deal is for signed-in players: %(signup)s or %(login)s to play it and go on today's board."),
  signUp: gettext("sign up"),
  logIn: gettext("log in"),
  /** Takes {link}: a numbered deal's link. */
  numberedOpen: gettext("Numbered deals are open to everyone: %(link)s"),
  playNumbered: (code) => say(gettext("play deal %(code)s"), { code }),
  /** Takes {signup, login}: the two links. */
  inviteGuest: gettext("No account needed: you play as a guest on this browser, and keep your result under a name afterwards. Have an account? %(login)s, or %(signup)s first."),
  guestTry: gettext("Your ranked try of today: the cards stay hidden until you press Start, and the server's clock starts then."),
  startTitle: gettext("Your ranked try"),
  rankedTry: gettext("This is your ranked try today. The cards stay hidden until you press Start; the server's clock starts then, and this game is the one that goes on today's board."),
  againTitle: gettext("You have played today's deal"),
  again: gettext("You may play it again: a game after your ranked try is practice and will not be ranked."),
  yourGame: gettext("See your game"),
  start: gettext("Start"),
  starting: gettext("Starting…"),
  cannotStart: (why) => say(gettext("The game could not start: %(reason)s"), { reason: why }),
  practice: gettext("Practice: this game will not be ranked."),
  ranked: gettext("Your ranked try has started: good luck."),
  resumed: gettext("Welcome back: your ranked try goes on."),
  offlineStart: gettext("Offline: today's deal needs a connection. Meanwhile, a practice deal."),

  // Dealing, and dealing again.
  resumeFailed: (why) => say(gettext("The saved game could not be resumed (%(reason)s); dealt again."), { reason: why }),
  welcomeBack: (n) => say(ngettext(
    "Welcome back: your game is where you left it (%(count)s action).",
    "Welcome back: your game is where you left it (%(count)s actions).", n), { count: formatNumber(n) }),
  dealtAgain: gettext("Dealt again: the same cards, a fresh start."),
  dealtAgainDaily: gettext("Dealt again: the same cards, a fresh log; the server's clock of your try keeps running."),

  // Asking before "Same deal" or "New deal" throws a game away (confirm.js).
  confirmSameDeal: gettext("Deal the same cards again?"),
  confirmNewDeal: gettext("Deal new cards?"),
  throwAway: (n) => say(ngettext(
    "The game on the table, %(count)s move so far, will be thrown away.",
    "The game on the table, %(count)s moves so far, will be thrown away.", n), { count: formatNumber(n) }),
  throwAwayWon: gettext("Your won game and what the server said of it will no longer be shown here."),
  sameDealKeepsTime: gettext("Today's try goes on: the same cards, and its time by the server's clock keeps running."),

  // Gestures the rules refuse before the engine is asked.
  runToFoundation: gettext("A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column."),
  nowhereToGo: (card) => say(gettext("%(card)s has nowhere to go: no foundation and no column takes it."), { card }),
  thatCard: gettext("That card"),

  // The keyboard (keyboard.js, history.js) and what the live region says (announce.js); the
  // cards in words come from lib/card-words.js.
  pickedUp: (card) => say(gettext("Picked up %(card)s."), { card }),
  pickedUpRun: (card, n) => say(ngettext(
    "Picked up %(card)s with %(count)s card on it.", "Picked up %(card)s with %(count)s cards on it.", n),
  { card, count: formatNumber(n) }),
  putBack: gettext("Put back."),
  nothingToPickUp: gettext("Nothing to pick up here."),
  cannotPutThere: gettext("Cards go onto a column or a foundation, not here."),
  notAllowed: gettext("That move is not allowed."),
  nothingToRedo: gettext("Nothing to redo."),
  drew: (card) => say(gettext("Drew %(card)s."), { card }),
  wasteTurned: gettext("Turned the waste over into the stock."),
  undone: gettext("Undone."),
  toFoundationDone: (card, number) => say(gettext("%(card)s to foundation %(number)s."), { card, number }),
  toColumnDone: (card, number) => say(gettext("%(card)s to column %(number)s."), { card, number }),
  runToColumnDone: (card, n, number) => say(ngettext(
    "%(card)s and %(count)s card on it to column %(number)s.", "%(card)s and %(count)s cards on it to column %(number)s.", n),
  { card, count: formatNumber(n), number }),
  turnedUp: (card) => say(gettext("Turned up %(card)s."), { card }),

  // Hints.
  hintSignIn: gettext("Sign in to get hints"),
  hint: gettext("Hint"),
  hintLooking: gettext("Looking for a good move…"),
  hintFailed: (why) => say(gettext("No hint: %(reason)s"), { reason: why }),
  hintNote: gettext("(Hints make a game not clean, and it ranks after every game without hints.)"),
  noHint: gettext("No move to suggest from here: undo a few moves or start again."),
  hintSays: (move, note) => say(gettext("Hint: %(move)s. %(note)s"), { move, note }),
  undoMove: gettext("undo the last move"),
  drawCard: gettext("draw a card from the stock"),
  turnWaste: gettext("turn the waste over into the stock"),
  // A move in words: what, from where, to where (each with its preposition: the words' case
  // depends on it in Polish and German).
  fromWaste: gettext("from the waste"),
  fromFoundation: (n) => say(gettext("from foundation %(number)s"), { number: n }),
  fromColumn: (n) => say(gettext("from column %(number)s"), { number: n }),
  toFoundation: gettext("to a foundation"),
  toColumn: (n) => say(gettext("to column %(number)s"), { number: n }),
  runFrom: (card) => say(gettext("the run from %(card)s"), { card }),
  move: (what, from, to) => say(gettext("move %(what)s %(from)s %(to)s"), { what, from, to }),

  // The server's attempt and the submission.
  clockStartsNow: gettext("You are signed in: the server's clock for this game starts now."),
  attemptFailed: (why) => say(gettext("Could not start this game on the server (%(reason)s); it can't be ranked yet."), { reason: why }),
  noClock: gettext("This game began before you signed in, so the server has no clock for it and it can't be ranked. Play it again with “Same deal”."),
  notTaken: (why) => say(gettext("The server did not take this game: %(reason)s"), { reason: why }),

  // Giving up (the give-up dialog of play.html): the game as it stands is the result.
  gaveUpSaid: gettext("You gave up: the game as it stands is your result."),
  notWon: gettext("Not won"),
  /** The cards on the foundations, of 104. */
  cardsHome: (n) => say(ngettext("%(count)s card home", "%(count)s cards home", n), { count: formatNumber(n) }),

  // Hints' price (the hint dialog of play.html and the hint button's description).
  hintPrice: gettext("A result with hints ranks after every result without hints."),

  // The result dialog.
  closeResult: gettext("Back to the table"),
  /** The held cards, shown beside the table (the live region says "Picked up ..."). */
  holding: (card) => say(gettext("holding %(card)s"), { card }),

  // The result card.
  won: gettext("You won!"),
  /** Takes {points, moves, time}: the two phrases below, and the time. */
  resultLine: gettext("%(points)s %(moves)s, %(time)s"),
  /** Takes {score} (an element); the score chooses the form. */
  resultPoints: (score) => ngettext("%(score)s point", "%(score)s points", score),
  /** Takes {moves} (an element); the count chooses the form. */
  resultMoves: (moves) => ngettext("in %(moves)s move", "in %(moves)s moves", moves),
  withHints: (n) => say(ngettext(" with %(count)s hint", " with %(count)s hints", n), { count: formatNumber(n) }),
  /** Takes {signup, login}: the two links. */
  onlySignedIn: gettext("Only signed-in players' games are verified and ranked. %(signup)s or %(login)s, then play the next one for the boards."),
  signUpCapital: gettext("Sign up"),
  status: {
    pending: gettext("Sent to the server: waiting for the verifier…"),
    verifying: gettext("The server is replaying your moves…"),
    verified: gettext("Verified by the server."),
    rejected: gettext("Rejected by the server."),
  },
  sending: gettext("Sending your game to the server…"),
  rejectedAt: (index, why) => say(gettext("Action %(index)s: %(reason)s"), { index, reason: why }),
  practiceResult: gettext("Practice: verified, but not ranked and not on any board."),
  copyResult: gettext("This game is identical to an earlier game of another player: it is kept, but off the boards."),
  hintsResult: (n) => say(ngettext(
    "Hint used (%(count)s): ranked after every game without hints.",
    "Hints used (%(count)s): ranked after every game without hints.", n), { count: formatNumber(n) }),
  flaggedResult: gettext("Flagged for a review: the result goes on the boards once staff have looked at it."),
  notAWin: gettext("The server's replay did not end in a win."),
  /** Takes {rank, board, link} (elements); `count` chooses the form. */
  rankLine: (count) => ngettext(
    "Rank %(rank)s of %(count)s on %(board)s. %(link)s", "Rank %(rank)s of %(count)s on %(board)s. %(link)s", count),
  dailyBoard: (date) => say(gettext("the board of %(date)s"), { date: formatDay(date) }),
  dealBoard: (number) => say(gettext("the board of deal %(number)s"), { number }),
  seeBoard: gettext("See the board"),
  /** Takes {rank, board} (elements); `count` chooses the form. */
  guestRankLine: (count) => ngettext(
    "Rank %(rank)s of %(count)s on %(board)s, once you keep this result.",
    "Rank %(rank)s of %(count)s on %(board)s, once you keep this result.", count),
  keepNote: gettext("You played as a guest: your result goes on the board once you keep it under a name, before the day is final."),
  keepResult: gettext("Keep this result"),
  keepSubmit: gettext("Keep it"),
  username: gettext("Username"),
  password: gettext("Password"),
  emailOptional: gettext("Email address (optional)"),
  rankUnavailable: (why) => say(gettext("Rank unavailable: %(reason)s"), { reason: why }),
  rankNow: (rank) => say(gettext("Your rank on this board is now #%(rank)s."), { rank: formatNumber(rank) }),
  notClean: gettext("Not a clean game (undo or hints used)."),
  dayClosed: (when) => say(gettext("The day closed at %(time)s; this game can no longer be ranked."), { time: when }),
  // Sharing a verified daily game (share.js says what is shared).
  share: gettext("Share"),
  copied: gettext("Copied"),
  shared: gettext("Shared"),
  copyByHand: gettext("The text could not be handed on: copy it from here."),
  sameDeal: gettext("Same deal"),
  newDeal: gettext("New deal"),
  boards: gettext("Boards"),
  rules: gettext("Rules"),
  playDeal: pgettext("a deal", "Play"),
};
