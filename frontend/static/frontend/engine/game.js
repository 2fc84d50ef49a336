/**
 * Easy Harp, rules version EH1: the game and its rules, sections 5, 6 and 9 (a port of
 * games/game.py).
 *
 * The browser engine (engine/) is a faithful port of the Python engine in games/: the two must
 * agree to the card, with the same layouts, the same legal actions in the same order, the same
 * refusals (reason code and arguments) and the same scores. The Python engine is the
 * reference: tools/vectors.py writes vectors.json from it and tests/frontend/engine.test.mjs
 * checks these modules against every vector (`node --test tests/frontend/`).
 *
 * Refusals: every rule names itself with a code, as {code, args} (Game#refusalCode,
 * malformedRefusal, and .code/.args on IllegalAction, MalformedAction and InvalidCode). The
 * words of a code come only from refusals.js, the catalogue shared with Python; Game#refusal,
 * whyMalformed, the errors' messages and ReplayResult#error are those words.
 *
 * Plain ES modules: no build step; the engine imports nothing outside engine/ but the page's
 * catalogue (lib/i18n.js, through refusals.js).
 *
 * Naming: functions and fields are camelCase (takeBacks, stockPasses, wasteToColumn,
 * legalActions, tapDestination). Everything that crosses the wire or is compared with Python
 * is snake_case, exactly as Python writes it: Game#snapshot() (undo_depth), ReplayResult#toWire()
 * (the JSON line of `manage.py replay`) and ReplayResult#toDict() (Python's ReplayResult.to_dict()).
 *
 * Actions: Game#refusal and Game#play take either a parsed action ([kind, a, b, k], from
 * parseAction or ACTIONS) or its notation string ("w>3"), which is parsed first.
 */

import { ACTIONS, COL_COL, COL_F, FOUND_COL, STOCK, UNDO, WASTE_COL, WASTE_F, parseAction } from "./actions.js";
import { DECK_SIZE, KING, NAME, RANK, STACKS_ON, SUITS, makeCard } from "./cards.js";
import { COLUMNS, deal } from "./deal.js";
import { Refused, quote, refuse, render } from "./refusals.js";

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
