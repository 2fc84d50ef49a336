/**
 * Easy Harp, rules version EH1: the cards of the two-deck pack (a port of games/cards.py).
 *
 * Part of the browser engine (engine/: one module per module of the Python engine in games/
 * that it ports). The Python engine is the reference: tools/vectors.py writes vectors.json from
 * it and tests/frontend/engine.test.mjs checks these modules against every vector.
 */

import { quote } from "./refusals.js";

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
