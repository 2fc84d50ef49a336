/**
 * Easy Harp, rules version EH1: the browser engine.
 *
 * A faithful port of the Python engine in games/ (cards.py, deal.py, actions.py, game.py,
 * replay.py). The two must agree to the card: the same layouts, the same legal actions in
 * the same order, the same refusals (reason code and arguments), the same scores. The Python
 * engine is the reference; frontend/vectors.py writes vectors.json from it and
 * frontend/tests/engine.test.mjs checks this file against every vector
 * (`node --test frontend/tests/`).
 *
 * Refusals: every rule names itself with a code, as {code, args} (Game#refusalCode,
 * malformedRefusal, and .code/.args on IllegalAction, MalformedAction and InvalidCode). The
 * words of a code come only from messages.js, the catalogue shared with Python; Game#refusal,
 * whyMalformed, the errors' messages and ReplayResult#error are those words.
 *
 * Plain ES module: no build step; it imports only messages.js.
 *
 * Naming: functions and fields are camelCase (takeBacks, stockPasses, wasteToColumn,
 * legalActions, tapDestination). Everything that crosses the wire or is compared with Python
 * is snake_case, exactly as Python writes it: Game#snapshot() (undo_depth), ReplayResult#toWire()
 * (the JSON line of `manage.py replay`) and ReplayResult#toDict() (Python's ReplayResult.to_dict()).
 *
 * Actions: Game#refusal and Game#play take either a parsed action ([kind, a, b, k], from
 * parseAction or ACTIONS) or its notation string ("w>3"), which is parsed first.
 */

import { quote, render } from "./messages.js";

// ---------------------------------------------------------------------------------------------
// Refusals: what the rules say no to, by reason code (refusals.py)
// ---------------------------------------------------------------------------------------------

/** A refusal: the reason `code` of the rule that refuses and the `args` of its words. */
function refuse(code, args = {}) {
  return Object.freeze({ code, args: Object.freeze(args) });
}

/** An error whose message is a refusal's words; `code` and `args` keep the refusal. */
export class Refused extends Error {
  constructor(refusal) {
    super(render(refusal));
    this.name = new.target.name;
    this.code = refusal.code;
    this.args = refusal.args;
  }

  /** The refusal {code, args} this error says. */
  get refusal() {
    return refuse(this.code, this.args);
  }
}

/**
 * Python's type(value).__name__ for a JSON value, the argument of action_not_string. JSON
 * cannot tell 1.0 from 1: an integral number is an int, as Python reads JSON without a
 * fraction or exponent.
 */
export function pyTypeName(value) {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "bigint") return "int";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}

// ---------------------------------------------------------------------------------------------
// Cards (cards.py)
// ---------------------------------------------------------------------------------------------

/**
 * A card is a small int, suit * 13 + rank - 1: suits in the order S, H, D, C and ranks
 * A (1) .. K (13). The two copies of a card are the same int: no rule tells them apart.
 */
export const SUITS = "SHDC";
export const RANKS = "A23456789TJQK";
export const ACE = 1;
export const KING = 13;
export const DECK_SIZE = 104;

/** Per-card lookup tables, indexed by the card int. Hearts (1) and diamonds (2) are red. */
export const RANK = Object.freeze(Array.from({ length: 52 }, (_, c) => (c % 13) + 1));
export const SUIT = Object.freeze(Array.from({ length: 52 }, (_, c) => Math.floor(c / 13)));
export const IS_RED = Object.freeze(SUIT.map((s) => s === 1 || s === 2));
export const NAME = Object.freeze(RANK.map((r, c) => RANKS[r - 1] + SUITS[SUIT[c]]));
const BY_NAME = new Map(NAME.map((name, c) => [name, c]));

/**
 * STACKS_ON[below] is the set of cards that may be built on `below` in a column:
 * opposite colour, exactly one rank lower.
 */
export const STACKS_ON = Object.freeze(
  Array.from({ length: 52 }, (_, below) => new Set(
    RANK.map((_, c) => c).filter((c) => IS_RED[c] !== IS_RED[below] && RANK[c] === RANK[below] - 1),
  )),
);

/** Parse a card name such as "TH" into its int; throws Error for anything else. */
export function card(name) {
  if (typeof name === "string" && BY_NAME.has(name)) return BY_NAME.get(name);
  throw new Error(`not a card: ${quote(name)}`);
}

/** The two-letter name of a card int, rank then suit: "QD". */
export function cardName(c) {
  return NAME[c];
}

export function makeCard(rank, suit) {
  return suit * 13 + rank - 1;
}

// ---------------------------------------------------------------------------------------------
// Deal codes and the EH1 dealing algorithm (deal.py, rules sections 3 and 4)
// ---------------------------------------------------------------------------------------------

export const RULES_VERSION = "EH1";
export const MIN_DEAL = 1;
export const MAX_DEAL = 999999;
export const MODES = Object.freeze({ N: "numbered deal", D: "deal of the day" });
export const COLUMNS = 9;
const LETTERS = 7;
const A_CODE = "A".charCodeAt(0);

/** A deal code that is not EH1-<N|D>-<7 upper-case letters> naming 1..999,999; `code` says which part. */
export class InvalidCode extends Refused {}

function isMode(mode) {
  return typeof mode === "string" && Object.hasOwn(MODES, mode);
}

function isDealNumber(number) {
  return Number.isInteger(number) && number >= MIN_DEAL && number <= MAX_DEAL;
}

/** EH1-<mode>-<number in base 26, A=0, most significant first, 7 letters>. */
export function formatCode(number, mode = "N") {
  if (!isMode(mode)) throw new InvalidCode(refuse("deal_mode_unknown", { mode }));
  if (!isDealNumber(number)) throw new InvalidCode(refuse("deal_number_range", { number }));
  let letters = "";
  for (let i = 0; i < LETTERS; i++) {
    letters = String.fromCharCode(A_CODE + (number % 26)) + letters;
    number = Math.floor(number / 26);
  }
  return `${RULES_VERSION}-${mode}-${letters}`;
}

/**
 * Parse a deal code into {mode, number}; every kind of bad code throws InvalidCode saying why
 * (the same words as Python's parse_code).
 */
export function parseCode(code) {
  if (typeof code !== "string") throw new InvalidCode(refuse("deal_code_not_string"));
  const parts = code.split("-");
  if (parts.length !== 3) throw new InvalidCode(refuse("deal_code_shape", { deal: code }));
  const [version, mode, letters] = parts;
  if (version !== RULES_VERSION) throw new InvalidCode(refuse("deal_code_version", { deal: code, version }));
  if (!isMode(mode)) throw new InvalidCode(refuse("deal_code_mode", { deal: code, mode }));
  if (!/^[A-Z]{7}$/.test(letters)) throw new InvalidCode(refuse("deal_code_letters", { deal: code }));
  let number = 0;
  for (const ch of letters) number = number * 26 + ch.charCodeAt(0) - A_CODE;
  if (!isDealNumber(number)) throw new InvalidCode(refuse("deal_code_range", { deal: code, number }));
  return Object.freeze({ mode, number, toString: () => formatCode(number, mode) });
}

/**
 * The 104-card deck of a deal, shuffled by the EH1 LCG (section 3 steps 1-3):
 * state = (state * 214013 + 2531011) mod 2^31, draw = state >> 16, j = draw mod (i + 1).
 *
 * Math.imul multiplies as 32-bit integers and keeps the low 32 bits exactly, so no float
 * rounding can creep in; the low 31 bits of the sum are the new state (mod 2^31 only needs
 * the low bits). A BigInt reference implementation checks this in the tests.
 */
export function shuffledDeck(number) {
  const deck = [];
  for (let copy = 0; copy < 2; copy++) for (let c = 0; c < 52; c++) deck.push(c);
  let state = number;
  for (let i = deck.length - 1; i > 0; i--) {
    state = (Math.imul(state, 214013) + 2531011) & 0x7fffffff;
    const j = (state >>> 16) % (i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * Deal a numbered deal: rows r = 0..8 over columns r..8, then the rest is the stock.
 * Returns {number, columns, stock}: columns bottom to top, stock in the order it is drawn.
 */
export function deal(number) {
  if (!isDealNumber(number)) throw new InvalidCode(refuse("deal_number_range", { number }));
  const deck = shuffledDeck(number);
  const columns = Array.from({ length: COLUMNS }, () => []);
  let next = 0;
  for (let row = 0; row < COLUMNS; row++) {
    for (let col = row; col < COLUMNS; col++) columns[col].push(deck[next++]);
  }
  return { number, columns, stock: deck.slice(next) };
}

// ---------------------------------------------------------------------------------------------
// The move-log notation (actions.py, rules section 7)
// ---------------------------------------------------------------------------------------------

/**
 * An action is a frozen array [kind, a, b, k] with 0-based indexes:
 *   STOCK "s"; UNDO "u"; WASTE_F "w>f"; WASTE_COL "w>N" (b = column); COL_F "N>f" (a = column);
 *   COL_COL "N>M[:K]" (a = from, b = to, k = cards 1..13); FOUND_COL "fK>N" (a = foundation, b = column).
 */
export const STOCK = 0;
export const UNDO = 1;
export const WASTE_F = 2;
export const WASTE_COL = 3;
export const COL_F = 4;
export const COL_COL = 5;
export const FOUND_COL = 6;

/** A text that is not an action of the notation; `code` says which rule of it. */
export class MalformedAction extends Refused {}

/** The notation of a parsed action (1-based, ":K" only for runs). */
export function formatAction(action) {
  const [kind, a, b, k] = action;
  switch (kind) {
    case STOCK: return "s";
    case UNDO: return "u";
    case WASTE_F: return "w>f";
    case WASTE_COL: return `w>${b + 1}`;
    case COL_F: return `${a + 1}>f`;
    case COL_COL: return k > 1 ? `${a + 1}>${b + 1}:${k}` : `${a + 1}>${b + 1}`;
    case FOUND_COL: return `f${a + 1}>${b + 1}`;
    default: throw new Error(`not an action kind: ${kind}`);
  }
}

function allActions() {
  const table = new Map();
  const put = (text, kind, a, b, k) => table.set(text, Object.freeze([kind, a, b, k]));
  put("s", STOCK, 0, 0, 1);
  put("u", UNDO, 0, 0, 1);
  put("w>f", WASTE_F, 0, 0, 1);
  for (let n = 0; n < 9; n++) {
    put(`w>${n + 1}`, WASTE_COL, 0, n, 1);
    put(`${n + 1}>f`, COL_F, n, 0, 1);
    for (let m = 0; m < 9; m++) {
      if (m === n) continue;
      put(`${n + 1}>${m + 1}`, COL_COL, n, m, 1);
      for (let k = 1; k < 14; k++) put(`${n + 1}>${m + 1}:${k}`, COL_COL, n, m, k);
    }
  }
  for (let f = 0; f < 8; f++) {
    for (let n = 0; n < 9; n++) put(`f${f + 1}>${n + 1}`, FOUND_COL, f, n, 1);
  }
  return table;
}

/** Every well-formed action text, parsed, in the same order as Python's ACTIONS dict. */
export const ACTIONS = allActions();

const SELF_MOVE = /^([1-9])>\1(:([1-9]|1[0-3]))?$/;
// Python's \d matches every Unicode decimal digit (category Nd), hence \p{Nd}.
const RUN = /^[1-9]>[1-9]:\p{Nd}+$/u;

/** Parse one action of the notation; anything else throws MalformedAction saying why. */
export function parseAction(text) {
  if (typeof text === "string" && ACTIONS.has(text)) return ACTIONS.get(text);
  throw new MalformedAction(malformedRefusal(text));
}

/** Why `text` is not an action, as {code, args} (Python's malformed_refusal). */
export function malformedRefusal(text) {
  if (typeof text !== "string") return refuse("action_not_string", { type: pyTypeName(text) });
  if (SELF_MOVE.test(text)) return refuse("action_self_move", { action: text });
  if (RUN.test(text)) return refuse("action_bad_run", { action: text });
  return refuse("action_malformed", { action: text });
}

/** Why `text` is not an action, in words. */
export function whyMalformed(text) {
  return render(malformedRefusal(text));
}

// ---------------------------------------------------------------------------------------------
// The game (game.py, rules sections 5, 6 and 9)
// ---------------------------------------------------------------------------------------------

export const FOUNDATIONS = 8;
export const HISTORY_LIMIT = 100;
/** Points of section 6. */
export const TO_FOUNDATION = 10;
export const WASTE_TO_COLUMN = 5;
export const FLIP = 5;
/** An action that the rules refuse where it stands; the message names the rule, `code` too. */
export class IllegalAction extends Refused {}

function asAction(action) {
  return typeof action === "string" ? parseAction(action) : action;
}

/**
 * One game of Easy Harp.
 *
 * Columns list cards bottom to top; down[n] of column n's bottom cards are face down (a
 * non-empty column always has its top card face up). `stock` is drawn from its end; `waste`
 * has its top card at its end. foundations[f] is the rank on top of foundation f (0 when
 * empty); foundation f holds suit floor(f / 2). `history` is the undo stack of records
 * {action, card, foundation, flipped, points}, at most historyLimit deep (null: unbounded).
 */
export class Game {
  constructor(layout, historyLimit = HISTORY_LIMIT) {
    this.number = layout.number;
    this.columns = layout.columns.map((col) => [...col]);
    this.down = layout.columns.map((col) => Math.max(col.length - 1, 0));
    this.stock = [...layout.stock].reverse();
    this.waste = [];
    this.foundations = new Array(FOUNDATIONS).fill(0);
    this.onFoundations = 0;
    this.score = 0;
    this.moves = 0;
    this.undos = 0;
    this.takeBacks = 0;
    this.stockPasses = 0;
    this.wasteToColumn = 0;
    this.historyLimit = historyLimit;
    this.history = [];
  }

  /** A new game of deal `number`. */
  static new(number, historyLimit = HISTORY_LIMIT) {
    return new Game(deal(number), historyLimit);
  }

  /** All 104 cards are on the foundations. */
  get won() {
    return this.onFoundations === DECK_SIZE;
  }

  // -- legality: every rule, in one place ------------------------------------------------------

  /** Why `action` is illegal here, in words a player can read; null if it is legal. */
  refusal(action) {
    const reason = this.refusalCode(action);
    return reason === null ? null : render(reason);
  }

  /** The rule that refuses `action` here, as {code, args}; null if it is legal. */
  refusalCode(action) {
    // Section 5: nothing may follow the winning action, undo included.
    if (this.onFoundations === DECK_SIZE) return refuse("game_won");
    const [kind, a, b, k] = asAction(action);
    if (kind === STOCK) {
      // A tap draws one card, or turns the waste over; both empty: nothing to do.
      if (!this.stock.length && !this.waste.length) return refuse("stock_empty");
      return null;
    }
    if (kind === UNDO) {
      // Undo pops the history stack; it keeps only the last historyLimit actions.
      if (this.history.length) return null;
      if (this.historyLimit && this.moves >= this.historyLimit) {
        return refuse("undo_limit", { limit: this.historyLimit });
      }
      return refuse("nothing_to_undo");
    }
    if (kind === WASTE_F || kind === WASTE_COL) {
      // Only the waste's top card plays.
      if (!this.waste.length) return refuse("waste_empty");
      const top = this.waste[this.waste.length - 1];
      if (kind === WASTE_F) return this.foundationRefusal(top);
      return this.columnRefusal(top, b);
    }
    if (kind === FOUND_COL) {
      // Take back: the top card of a foundation goes onto a column by the column rules.
      const rank = this.foundations[a];
      if (!rank) return refuse("foundation_empty", { foundation: a + 1 });
      return this.columnRefusal(makeCard(rank, Math.floor(a / 2)), b);
    }
    const column = this.columns[a];
    if (!column.length) return refuse("column_empty", { column: a + 1 });
    if (kind === COL_F) return this.foundationRefusal(column[column.length - 1]);
    // One card at a time between columns; K > 1 only for a King-led run.
    if (k === 1) return this.columnRefusal(column[column.length - 1], b);
    return this.runRefusal(a, b, k);
  }

  /** A foundation takes the next card of its suit, from the Ace up. */
  foundationRefusal(c) {
    if (this.foundationFor(c) !== null) return null;
    const suit = Math.floor(c / 13);
    return refuse("foundation_refuses", { card: NAME[c], suit: SUITS[suit], first: 2 * suit + 1, second: 2 * suit + 2 });
  }

  /** The first foundation, in order 1..8, that accepts card `c` (0-based), or null. */
  foundationFor(c) {
    const first = 2 * Math.floor(c / 13);
    const below = RANK[c] - 1;
    if (this.foundations[first] === below) return first;
    if (this.foundations[first + 1] === below) return first + 1;
    return null;
  }

  /** A column takes a card of opposite colour one rank lower; an empty one only a King. */
  columnRefusal(c, to) {
    const column = this.columns[to];
    if (!column.length) {
      if (RANK[c] === KING) return null;
      return refuse("empty_column_king_only", { card: NAME[c] });
    }
    const top = column[column.length - 1];
    if (STACKS_ON[top].has(c)) return null;
    return refuse("column_refuses", { card: NAME[c], target: NAME[top] });
  }

  /**
   * Only a King-led run of face-up cards, alternating in colour and descending by one,
   * moves whole, and only onto an empty column.
   */
  runRefusal(source, to, k) {
    if (this.columns[to].length) return refuse("run_needs_empty_column");
    const column = this.columns[source];
    if (column.length - this.down[source] < k) {
      return refuse("run_too_few_face_up", { column: source + 1, count: k });
    }
    const run = column.slice(-k);
    if (RANK[run[0]] !== KING) return refuse("run_not_king_led", { card: NAME[run[0]] });
    for (let i = 1; i < run.length; i++) {
      const below = run[i - 1];
      const above = run[i];
      if (!STACKS_ON[below].has(above)) {
        return refuse("not_a_run", { count: k, column: source + 1, card: NAME[above], below: NAME[below] });
      }
    }
    return null;
  }

  // -- applying and undoing --------------------------------------------------------------------

  /** Apply a legal action; an illegal one throws IllegalAction and changes nothing. */
  play(action) {
    action = asAction(action);
    const reason = this.refusalCode(action);
    if (reason !== null) throw new IllegalAction(reason);
    const [kind, a, b, k] = action;
    if (kind === UNDO) {
      this.#undoLast();
      return;
    }
    this.moves += 1;
    let c = -1;
    let foundation = -1;
    let flipped = false;
    let points = 0;
    if (kind === STOCK) {
      if (this.stock.length) {
        this.waste.push(this.stock.pop());
      } else { // turn the waste over: drawn again in the same order
        this.waste.reverse();
        [this.stock, this.waste] = [this.waste, this.stock];
        this.stockPasses += 1;
        c = 0; // marks a recycle for undo
      }
    } else if (kind === WASTE_F || kind === COL_F) {
      c = kind === WASTE_F ? this.waste.pop() : this.columns[a].pop();
      foundation = this.foundationFor(c);
      this.foundations[foundation] += 1;
      this.onFoundations += 1;
      points = TO_FOUNDATION;
      if (kind === COL_F) flipped = this.#flip(a);
    } else if (kind === WASTE_COL) {
      this.columns[b].push(this.waste.pop());
      this.wasteToColumn += 1;
      points = WASTE_TO_COLUMN;
    } else if (kind === COL_COL) {
      const column = this.columns[a];
      this.columns[b].push(...column.splice(column.length - k, k));
      flipped = this.#flip(a);
    } else { // FOUND_COL
      const rank = this.foundations[a];
      this.foundations[a] = rank - 1;
      this.onFoundations -= 1;
      this.columns[b].push(makeCard(rank, Math.floor(a / 2)));
      this.takeBacks += 1;
    }
    if (flipped) points += FLIP;
    this.score += points;
    this.history.push({ action, card: c, foundation, flipped, points });
    // The history keeps the last historyLimit actions: the oldest drops off.
    if (this.historyLimit !== null && this.history.length > this.historyLimit) this.history.shift();
  }

  /** A face-down card left on top of a column turns face up as part of the move. */
  #flip(column) {
    if (this.down[column] && this.down[column] === this.columns[column].length) {
      this.down[column] -= 1;
      return true;
    }
    return false;
  }

  /** Undo the last action: the same as play("u"), refused in the same cases. */
  undo() {
    this.play(ACTIONS.get("u"));
  }

  /** Restore everything the last recorded action changed; the move counter stays. */
  #undoLast() {
    const { action, card: c, foundation, flipped, points } = this.history.pop();
    const [kind, a, b, k] = action;
    this.undos += 1;
    this.score -= points;
    if (flipped) this.down[a] += 1;
    if (kind === STOCK) {
      if (c === -1) {
        this.stock.push(this.waste.pop());
      } else {
        this.stock.reverse();
        [this.stock, this.waste] = [this.waste, this.stock];
        this.stockPasses -= 1;
      }
    } else if (kind === WASTE_F || kind === COL_F) {
      this.foundations[foundation] -= 1;
      this.onFoundations -= 1;
      (kind === WASTE_F ? this.waste : this.columns[a]).push(c);
    } else if (kind === WASTE_COL) {
      this.waste.push(this.columns[b].pop());
      this.wasteToColumn -= 1;
    } else if (kind === COL_COL) {
      const column = this.columns[b];
      this.columns[a].push(...column.splice(column.length - k, k));
    } else { // FOUND_COL
      this.columns[b].pop();
      this.foundations[a] += 1;
      this.onFoundations += 1;
      this.takeBacks -= 1;
    }
  }

  // -- reading the table -----------------------------------------------------------------------

  /** Every legal action here, in the notation, each written once ("N>M", never "N>M:1"). */
  legalActions() {
    const candidates = ["s", "u", "w>f"];
    for (let n = 1; n <= COLUMNS; n++) candidates.push(`w>${n}`);
    this.columns.forEach((column, i) => {
      const n = i + 1;
      candidates.push(`${n}>f`);
      for (let m = 1; m <= COLUMNS; m++) if (m !== n) candidates.push(`${n}>${m}`);
      for (let k = 2; k <= column.length - this.down[i]; k++) {
        for (let m = 1; m <= COLUMNS; m++) if (m !== n) candidates.push(`${n}>${m}:${k}`);
      }
    });
    for (let f = 1; f <= FOUNDATIONS; f++) {
      for (let n = 1; n <= COLUMNS; n++) candidates.push(`f${f}>${n}`);
    }
    return candidates.filter((text) => this.refusalCode(ACTIONS.get(text)) === null);
  }

  /**
   * Where a tap on the top card of `source` ("w" or "1".."9") sends it (section 9), as an
   * action text, or null: nowhere. A tap sends the card to a foundation that accepts it. A
   * double tap (`double`) then tries the board: the longest column that accepts the card,
   * leftmost on a tie, then the leftmost empty column if the card is a King.
   */
  tapDestination(source, double = true) {
    for (const text of this.tapCandidates(source, double)) {
      const action = ACTIONS.get(text);
      if (action === undefined) throw new Error(`not a tap source: ${quote(source)}`);
      if (this.refusalCode(action) === null) return text;
    }
    return null;
  }

  tapCandidates(source, double) {
    const candidates = [`${source}>f`];
    if (double) {
      const others = [];
      for (let n = 0; n < COLUMNS; n++) if (String(n + 1) !== source) others.push(n);
      // Array#sort is stable: equal lengths keep left-to-right order.
      const built = others.filter((n) => this.columns[n].length)
        .sort((x, y) => this.columns[y].length - this.columns[x].length);
      const empty = others.filter((n) => !this.columns[n].length);
      for (const n of [...built, ...empty]) candidates.push(`${source}>${n + 1}`);
    }
    return candidates;
  }

  /** The whole visible state as plain JSON-able data (cards by name), as Python's snapshot(). */
  snapshot() {
    return {
      columns: this.columns.map((col) => col.map((c) => NAME[c])),
      down: [...this.down],
      stock: [...this.stock].reverse().map((c) => NAME[c]),
      waste: this.waste.map((c) => NAME[c]),
      foundations: this.foundations.map((rank, f) => (rank ? NAME[makeCard(rank, Math.floor(f / 2))] : null)),
      score: this.score,
      moves: this.moves,
      undo_depth: this.history.length,
      won: this.won,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Verifying a move log (replay.py, rules sections 7 and 8)
// ---------------------------------------------------------------------------------------------

/**
 * What a replay proves. ok false: `index` is the 0-based index of the first bad action (null
 * when the input is not a game at all), `error` says why and `refusal` is the {code, args}
 * it says. Fields are camelCase; toWire() and toDict() give Python's snake_case to_wire()
 * and to_dict() (neither holds the refusal).
 */
export class ReplayResult {
  constructor({
    ok, won = false, score = 0, moves = 0, foundation = 0, undos = 0, takeBacks = 0,
    stockPasses = 0, wasteToColumn = 0, index = null, error = "", refusal = null,
  }) {
    Object.assign(this, {
      ok, won, score, moves, foundation, undos, takeBacks, stockPasses, wasteToColumn, index, error, refusal,
    });
    Object.freeze(this);
  }

  /** The JSON line of `manage.py replay` (section 8). */
  toWire() {
    if (this.ok) {
      return { ok: true, won: this.won, score: this.score, moves: this.moves, foundation: this.foundation };
    }
    return { ok: false, index: this.index, error: this.error };
  }

  /** Every field, snake_case, as Python's ReplayResult.to_dict(). */
  toDict() {
    return {
      ok: this.ok,
      won: this.won,
      score: this.score,
      moves: this.moves,
      foundation: this.foundation,
      undos: this.undos,
      take_backs: this.takeBacks,
      stock_passes: this.stockPasses,
      waste_to_column: this.wasteToColumn,
      index: this.index,
      error: this.error,
    };
  }
}

/** A failed replay: the refusal, its words after `prefix`. */
function invalid(index, refusal, prefix = "") {
  return new ReplayResult({ ok: false, index, error: prefix + render(refusal), refusal });
}

/** Replay `actions` (an array of action strings) on the deal named by `code`. */
export function replay(code, actions, historyLimit = HISTORY_LIMIT) {
  let number;
  try {
    number = parseCode(code).number;
  } catch (exc) {
    if (exc instanceof InvalidCode) return invalid(null, exc.refusal);
    throw exc;
  }
  if (!Array.isArray(actions)) return invalid(null, refuse("actions_not_list"));
  return replayOnto(Game.new(number, historyLimit), actions);
}

/** Apply `actions` to `game` in order, stopping at the first bad one. */
export function replayOnto(game, actions) {
  for (let index = 0; index < actions.length; index++) {
    const text = actions[index];
    if (typeof text !== "string" || !ACTIONS.has(text)) return invalid(index, malformedRefusal(text));
    try {
      game.play(ACTIONS.get(text));
    } catch (exc) { // the action's text first, then why the rule refuses it
      if (exc instanceof IllegalAction) return invalid(index, exc.refusal, `${text}: `);
      throw exc;
    }
  }
  return new ReplayResult({
    ok: true,
    won: game.won,
    score: game.score,
    moves: game.moves,
    foundation: game.onFoundations,
    undos: game.undos,
    takeBacks: game.takeBacks,
    stockPasses: game.stockPasses,
    wasteToColumn: game.wasteToColumn,
  });
}
