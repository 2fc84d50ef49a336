/**
 * Every text a person reads on the play page, in one place for the translation that follows.
 * (The engine's refusals come from the engine; the server's messages from the server.)
 */

/** A moment as the reader's local date and time, e.g. "1 Dec, 01:00 (CET)". */
export function localTime(iso) {
  if (!iso) return "midnight UTC";
  return new Date(iso).toLocaleString([], {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
}

export const TEXT = {
  // The deal in the heading.
  dealOfADay: "Deal of a day",
  deal: "Deal",
  invalidCode: "invalid code",

  // Today's deal, before its cards are dealt.
  dailyKind: (date) => `Deal of the day · ${date}`,
  provenWinnable: "proven winnable",
  playersSoFar: (n) => (n === 1 ? "1 player so far" : `${n} players so far`),
  closesAt: (when) => `closes at ${when}`,
  codeHidden: "shown when you start",
  dailyAbout: "Everyone gets the same deal today. The fewest moves wins, then the highest score, then the fastest time.",
  dailyUnavailable: (why) => `Today's deal is not available: ${why}`,
  inviteTitle: "Sign in to play today's deal",
  inviteBefore: "Today's deal is for signed-in players: ",
  signUp: "sign up",
  or: " or ",
  logIn: "log in",
  inviteAfter: " to play it and go on today's board.",
  numberedOpen: "Numbered deals are open to everyone: ",
  playNumbered: (code) => `play deal ${code}`,
  startTitle: "Your ranked try",
  rankedTry: "This is your ranked try today. The cards stay hidden until you press Start; the server's clock starts then, and this game is the one that goes on today's board.",
  againTitle: "You have played today's deal",
  again: "You may play it again: a game after your ranked try is practice and will not be ranked.",
  yourGame: "See your game",
  start: "Start",
  starting: "Starting…",
  cannotStart: (why) => `The game could not start: ${why}`,
  practice: "Practice: this game will not be ranked.",
  ranked: "Your ranked try has started: good luck.",
  resumed: "Welcome back: your ranked try goes on.",

  // Dealing, and dealing again.
  resumeFailed: (why) => `The saved game could not be resumed (${why}); dealt again.`,
  welcomeBack: (n) => `Welcome back: your game is where you left it (${n} actions).`,
  dealtAgain: "Dealt again: the same cards, a fresh start.",
  dealtAgainDaily: "Dealt again: the same cards, a fresh log; the server's clock of your try keeps running.",

  // Gestures the rules refuse before the engine is asked.
  runToFoundation: "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column.",
  nowhereToGo: (card) => `${card} has nowhere to go: no foundation and no column takes it.`,
  thatCard: "That card",

  // Hints.
  hintSignIn: "Sign in to get hints",
  hint: "Hint",
  hintLooking: "Looking for a good move…",
  hintFailed: (why) => `No hint: ${why}`,
  hintNote: "(Hints make a game not clean, and it ranks after every game without hints.)",
  noHint: "No move to suggest from here: undo a few moves or start again.",
  hintSays: (move, note) => `Hint: ${move}. ${note}`,
  undoMove: "undo the last move",
  drawCard: "draw a card from the stock",
  turnWaste: "turn the waste over into the stock",
  theWaste: "the waste",
  foundationN: (n) => `foundation ${n}`,
  columnN: (n) => `column ${n}`,
  aFoundation: "a foundation",
  runFrom: (card) => `the run from ${card}`,
  move: (what, where, onto) => `move ${what} from ${where} to ${onto}`,

  // The server's attempt and the submission.
  clockStartsNow: "You are signed in: the server's clock for this game starts now.",
  attemptFailed: (why) => `Could not start this game on the server (${why}); it can't be ranked yet.`,
  noClock: "This game began before you signed in, so the server has no clock for it and it can't be ranked. Play it again with “Same deal”.",
  notTaken: (why) => `The server did not take this game: ${why}`,

  // The result card.
  won: "You won!",
  pointsIn: " points in ",
  movesComma: " moves, ",
  withHints: (n) => ` with ${n} hint${n > 1 ? "s" : ""}`,
  onlySignedIn: "Only signed-in players' games are verified and ranked. ",
  signUpCapital: "Sign up",
  thenPlayNext: ", then play the next one for the boards.",
  status: {
    pending: "Sent to the server: waiting for the verifier…",
    verifying: "The server is replaying your moves…",
    verified: "Verified by the server.",
    rejected: "Rejected by the server.",
  },
  sending: "Sending your game to the server…",
  rejectedAt: (index, why) => `Action ${index}: ${why}`,
  practiceResult: "Practice: verified, but not ranked and not on any board.",
  copyResult: "This game is identical to an earlier game of another player: it is kept, but off the boards.",
  hintsResult: (n) => `Hints used (${n}): ranked after every game without hints.`,
  flaggedResult: "Flagged for a review: the result goes on the boards once staff have looked at it.",
  notAWin: "The server's replay did not end in a win.",
  rank: "Rank ",
  rankOf: (count, board) => ` of ${count} on ${board}. `,
  dailyBoard: (date) => `the board of ${date}`,
  dealBoard: (number) => `the board of deal ${number}`,
  seeBoard: "See the board",
  rankUnavailable: (why) => `Rank unavailable: ${why}`,
  notClean: "Not a clean game (undo or hints used).",
  dayClosed: (when) => `The day closed at ${when}; this game can no longer be ranked.`,
  sameDeal: "Same deal",
  newDeal: "New deal",
  boards: "Boards",
};
