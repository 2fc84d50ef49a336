/**
 * The small picture of a shared result (share.js): the cards home by suit, in characters any
 * chat shows. One block a foundation, as high as its pile (of 13), grouped by suit:
 *
 *   ♠██ ♥██ ♦▆▃ ♣▁· 86/104
 *
 * Only counts: nothing in it tells which cards lay where (the deal stays unspoiled). Pure.
 */

/** A foundation's height, 0..13 cards: "·" for none, then eight blocks from ▁ to █. */
const LEVELS = "▁▂▃▄▅▆▇█";
const SUITS = ["♠", "♥", "♦", "♣"]; // foundations 1-2, 3-4, 5-6, 7-8 (lib/table.js)

/** The block for a foundation of `rank` cards (0 to 13). */
export function block(rank) {
  if (!rank) return "·";
  return LEVELS[Math.min(LEVELS.length - 1, Math.max(0, Math.ceil((rank / 13) * LEVELS.length) - 1))];
}

/** `foundations`: the eight piles' heights (an engine Game's foundations). */
export function foundationPicture(foundations) {
  const home = foundations.reduce((sum, rank) => sum + rank, 0);
  const suits = SUITS.map((suit, s) => suit + block(foundations[2 * s]) + block(foundations[2 * s + 1]));
  return `${suits.join(" ")} ${home}/104`;
}
