/**
 * A card in words, the way a person says it, in the page's language: "7C" is "seven of
 * clubs" ("siódemka trefl", "Kreuz Sieben"). Screen readers read these (table.js's labels)
 * and so does the game page's live region (play/announce.js); the table shows "7♣".
 *
 * The words come from the catalogue (i18n.js): each rank and suit is marked once, with a
 * context, since a suit in a card's name is not always the suit's plural ("pik", not "piki").
 * A name is built once per catalogue and kept: a table draws 104 of them on every action.
 */

import { gettext, interpolate, pgettext } from "./i18n.js";

function rankWords() {
  return {
    A: pgettext("card rank", "ace"), 2: pgettext("card rank", "two"), 3: pgettext("card rank", "three"),
    4: pgettext("card rank", "four"), 5: pgettext("card rank", "five"), 6: pgettext("card rank", "six"),
    7: pgettext("card rank", "seven"), 8: pgettext("card rank", "eight"), 9: pgettext("card rank", "nine"),
    T: pgettext("card rank", "ten"), J: pgettext("card rank", "jack"), Q: pgettext("card rank", "queen"),
    K: pgettext("card rank", "king"),
  };
}

function suitWords() {
  return {
    S: pgettext("in a card's name", "spades"), H: pgettext("in a card's name", "hearts"),
    D: pgettext("in a card's name", "diamonds"), C: pgettext("in a card's name", "clubs"),
  };
}

/** The names made so far, for the catalogue they were made with (tests swap catalogues). */
let made = { catalogue: undefined, names: new Map() };

/** "7C" -> "seven of clubs", in the page's language. */
export function cardName(name) {
  const catalogue = globalThis.django;
  if (made.catalogue !== catalogue) made = { catalogue, names: new Map() };
  let words = made.names.get(name);
  if (words === undefined) {
    if (!made.ranks) Object.assign(made, { ranks: rankWords(), suits: suitWords() });
    words = interpolate(gettext("%(rank)s of %(suit)s"), { rank: made.ranks[name[0]], suit: made.suits[name[1]] });
    made.names.set(name, words);
  }
  return words;
}
