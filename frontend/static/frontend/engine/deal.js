/**
 * Easy Harp, rules version EH1: deal codes and the dealing algorithm, rules sections 3 and 4
 * (a port of games/deal.py). A deal number gives the same layout forever.
 */

import { Refused, refuse } from "./refusals.js";

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
