/**
 * Draws an Easy Harp table from an engine snapshot (Game#snapshot()): the stock with its
 * count, the waste, 8 foundations marked by suit and 9 columns of card backs and faces.
 * Shared by the play page (interactive) and the replay page (read only).
 *
 * Stable hooks for people and tests:
 *   column      [data-column="3"]                      (1-based, the whole column area)
 *   card        [data-col="3"][data-index="5"]         (0-based from the bottom), data-card="TH",
 *               data-face="up|down"
 *   stock       [data-stock] data-count                 waste [data-waste] data-count, top card inside
 *   foundations [data-foundations], each [data-foundation="1"] data-suit="S" data-count
 * Elements a player may pick up carry data-src: "col:3:5", "waste", "f:2". Every slot has a
 * data-key ("col:3:5", "column:3", "stock", "waste", "foundation:2") for highlighting.
 *
 * For screen readers every card and pile has a role and a label in words ("seven of clubs,
 * face up"; "column 3, 5 cards, top: queen of hearts"). On the play page (`interactive`) the
 * piles and face-up column cards are buttons a keyboard reaches (tabindex -1: play/keyboard.js
 * moves the one tab stop among them); on the replay page they are pictures in labelled groups.
 */

import { cardName } from "./card-words.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";

export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const SUIT_WORD = { S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs") };

/** The labels a screen reader says, in the page's language (i18n.js). */
const TEXT = {
  faceDown: gettext("face-down card"),
  stock: (n) => interpolate(ngettext("stock, %(count)s card: draw one", "stock, %(count)s cards: draw one", n), { count: formatNumber(n) }),
  stockEmpty: gettext("stock empty: turn the waste over"),
  allEmpty: gettext("stock and waste empty"),
  foundation: (number, suit, top) => interpolate(top ? gettext("foundation %(number)s (%(suit)s): %(card)s")
    : gettext("foundation %(number)s (%(suit)s), empty"), { number, suit, card: top && cardName(top) }),
  foundations: gettext("foundations"),
  faceUp: (name) => interpolate(gettext("%(card)s, face up"), { card: cardName(name) }),
  waste: (n, top) => interpolate(n ? ngettext("waste, %(count)s card, top: %(card)s", "waste, %(count)s cards, top: %(card)s", n)
    : gettext("waste, empty"), { count: formatNumber(n), card: top && cardName(top) }),
  column: (number, n, top) => interpolate(n ? ngettext(
    "column %(number)s, %(count)s card, top: %(card)s", "column %(number)s, %(count)s cards, top: %(card)s", n)
    : gettext("column %(number)s, empty: only a King goes here"), { number, count: formatNumber(n), card: top && cardName(top) }),
};
/** Foundations 1..8: 1-2 spades, 3-4 hearts, 5-6 diamonds, 7-8 clubs. */
export const FOUNDATION_SUITS = ["S", "S", "H", "H", "D", "D", "C", "C"];

export function rankLabel(name) {
  return name[0] === "T" ? "10" : name[0];
}

/**
 * A court card's or an ace's letter in the reader's language, for messages: German writes
 * B, D, K (Bube, Dame, König), Polish W, D, K (walet, dama, król). The cards' faces keep the
 * letters every pack prints.
 */
function rankLetter(name) {
  switch (name[0]) {
    case "A": return pgettext("card rank, one letter", "A");
    case "J": return pgettext("card rank, one letter", "J");
    case "Q": return pgettext("card rank, one letter", "Q");
    case "K": return pgettext("card rank, one letter", "K");
    default: return rankLabel(name);
  }
}

/** "TH" -> "10♥", "QD" -> "Q♦" ("D♦" in German and Polish) for messages. */
export function pretty(name) {
  return rankLetter(name) + SUIT_SYMBOL[name[1]];
}

function isRed(name) {
  return name[1] === "H" || name[1] === "D";
}

function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  return node;
}

/** A face-up card (rank + suit in the corners, a big pip in the middle) or a card back. */
export function cardElement(name, faceUp = true) {
  if (!faceUp) {
    const back = el("div", "card down", { "data-face": "down", role: "img", "aria-label": TEXT.faceDown });
    back.append(el("span", "back-pattern"));
    return back;
  }
  const suit = SUIT_SYMBOL[name[1]];
  const node = el("div", `card up ${isRed(name) ? "red" : "black"}`, {
    "data-card": name, "data-face": "up", role: "img", "aria-label": TEXT.faceUp(name),
  });
  const corner = el("span", "corner");
  corner.append(el("span", "rank"), el("span", "suit"));
  corner.firstChild.textContent = rankLabel(name);
  corner.lastChild.textContent = suit;
  const pip = el("span", "pip");
  pip.textContent = suit;
  const corner2 = corner.cloneNode(true);
  corner2.className = "corner bottom";
  node.append(corner, pip, corner2);
  return node;
}

/** The widest card: a 1920 px window's table is about 1700 px wide, ten cards of this fill it. */
export const MAX_CARD_WIDTH = 150;

/** Card size and spacing for the table's width (9 columns always fit). */
export function measure(width) {
  const gap = width >= 640 ? 8 : width >= 420 ? 5 : 3;
  // One row on top (stock, waste, a gap, 8 foundations) when 10 cards of a good size fit;
  // else the foundations get a row of their own and the cards may be wider.
  const oneRowWidth = Math.min(MAX_CARD_WIDTH, Math.floor((width - 10 * gap) / 10.3));
  const oneRow = oneRowWidth >= 56;
  const w = oneRow ? oneRowWidth : Math.max(28, Math.min(MAX_CARD_WIDTH, Math.floor((width - 8 * gap) / 9)));
  const h = Math.round(w * 1.4);
  return { w, h, gap, oneRow };
}

/** The smallest card fitCards shrinks to: the corners stay readable, the layout wide. */
export const MIN_FIT_WIDTH = 48;

/** A column's overlaps for card height `h`: face down, face up, face up squeezed the most. */
function steps(h) {
  return { downStep: Math.max(4, Math.round(h * 0.13)), upStep: Math.max(14, Math.round(h * 0.3)), minUpStep: Math.round(h * 0.2) };
}

/** The height of the top row (stock, waste, foundations) and the space under it (app.css). */
function topRowHeight({ h, gap, oneRow }) {
  return 4 + (oneRow ? h : 2 * h + gap) + 2 * gap;
}

/**
 * The card size for `width` at which the whole table, its top row and its tallest column
 * with face-up offsets squeezed as far as they go, fits in `room` px of height: cards shrink
 * (down to MIN_FIT_WIDTH) only when squeezing is not enough. Pure.
 */
export function fitCards(width, snap, room) {
  const size = measure(width);
  const tallest = (h) => {
    const { downStep, minUpStep } = steps(h);
    return Math.max(h, ...snap.columns.map((cards, c) => (cards.length
      ? snap.down[c] * downStep + Math.max(0, cards.length - snap.down[c] - 1) * minUpStep + h : h)));
  };
  for (let w = size.w; w > MIN_FIT_WIDTH; w -= 2) {
    const h = Math.round(w * 1.4);
    if (topRowHeight({ ...size, h }) + tallest(h) <= room) return { ...size, w, h };
  }
  const w = Math.min(size.w, MIN_FIT_WIDTH);
  return { ...size, w, h: Math.round(w * 1.4) };
}

/**
 * Render `snap` into `root`. Options: `interactive` (mark what can be picked up),
 * `maxColumnHeight` (px; face-up offsets shrink to fit), `fitHeight` (px from the table's
 * top: cards shrink too, fitCards, so the top row and the columns fit), `keys`:
 * {key: className} to add.
 */
export function renderTable(root, snap, options = {}) {
  const { interactive = false, keys = {} } = options;
  // A pile is a button to press on the play page, a labelled group of pictures elsewhere.
  const pileRole = interactive ? "button" : "group";
  const reachable = interactive ? "-1" : null;
  const width = options.width || root.clientWidth || 360;
  const size = options.fitHeight ? fitCards(width, snap, options.fitHeight) : measure(width);
  const { w, h, gap } = size;
  root.style.setProperty("--w", `${w}px`);
  root.style.setProperty("--h", `${h}px`);
  root.style.setProperty("--gap", `${gap}px`);
  root.classList.toggle("one-row", size.oneRow);
  root.classList.toggle("narrow", w < 48);
  root.dataset.won = snap.won ? "true" : "false";

  const top = el("div", "top-row");
  const piles = el("div", "piles");

  // Stock: face down, with its count; a tap draws (or turns the waste over when empty).
  const stock = el("div", "pile stock", {
    "data-stock": "", "data-count": snap.stock.length, "data-key": "stock", role: pileRole,
    tabindex: interactive ? "0" : null,
    "aria-label": snap.stock.length ? TEXT.stock(snap.stock.length) : snap.waste.length ? TEXT.stockEmpty : TEXT.allEmpty,
  });
  if (snap.stock.length) {
    stock.append(cardElement(null, false));
    if (snap.stock.length > 1) stock.classList.add("stacked");
  } else {
    const mark = el("span", "pile-mark");
    mark.textContent = snap.waste.length ? "\u21bb" : "";
    stock.append(mark);
  }
  const count = el("span", "count", { "data-testid": "stock-count" });
  count.textContent = snap.stock.length;
  stock.append(count);

  // Waste: face up, only its top card plays.
  const waste = el("div", "pile waste", {
    "data-waste": "", "data-count": snap.waste.length, "data-key": "waste", role: pileRole, tabindex: reachable,
    "aria-label": TEXT.waste(snap.waste.length, snap.waste[snap.waste.length - 1]),
  });
  if (snap.waste.length) {
    if (snap.waste.length > 1) {
      const under = cardElement(snap.waste[snap.waste.length - 2]);
      under.classList.add("under");
      waste.append(under);
    }
    const topCard = cardElement(snap.waste[snap.waste.length - 1]);
    topCard.dataset.wasteTop = "";
    if (interactive) topCard.dataset.src = "waste";
    waste.append(topCard);
  }
  const wasteCount = el("span", "count", { "data-testid": "waste-count" });
  wasteCount.textContent = snap.waste.length;
  waste.append(wasteCount);
  piles.append(stock, waste);

  // Foundations 1..8, each marked by its suit.
  const foundations = el("div", "foundations", {
    "data-foundations": "", "data-key": "foundations", role: "group", "aria-label": TEXT.foundations,
  });
  snap.foundations.forEach((topName, f) => {
    const suit = FOUNDATION_SUITS[f];
    const rank = topName ? "A23456789TJQK".indexOf(topName[0]) + 1 : 0;
    const slot = el("div", `pile foundation suit-${suit}`, {
      "data-foundation": f + 1, "data-suit": suit, "data-count": rank, "data-key": `foundation:${f + 1}`,
      role: pileRole, tabindex: reachable, "aria-label": TEXT.foundation(f + 1, SUIT_WORD[suit], topName),
    });
    const mark = el("span", `pile-mark ${suit === "H" || suit === "D" ? "red" : "black"}`);
    mark.textContent = SUIT_SYMBOL[suit];
    const label = el("span", "slot-number");
    label.textContent = f + 1;
    slot.append(mark, label);
    if (topName) {
      const card = cardElement(topName);
      if (interactive) card.dataset.src = `f:${f + 1}`;
      slot.append(card);
    }
    foundations.append(slot);
  });
  top.append(piles, foundations);

  // Columns: face-down cards overlap tightly, face-up ones show their corner.
  const columns = el("div", "columns", { "data-columns": "" });
  const { downStep, minUpStep } = steps(h);
  let { upStep } = steps(h);
  const maxHeight = options.fitHeight ? options.fitHeight - topRowHeight(size) : options.maxColumnHeight || Infinity;
  let tallest = h;
  const heights = snap.columns.map((cards, c) => {
    const down = snap.down[c];
    return cards.length ? down * downStep + (cards.length - down - 1) * upStep + h : h;
  });
  const worst = Math.max(...heights);
  if (worst > maxHeight) {
    // Squeeze face-up offsets (never below what shows the corner of a small card).
    const c = heights.indexOf(worst);
    const ups = snap.columns[c].length - snap.down[c] - 1;
    if (ups > 0) {
      const room = maxHeight - h - snap.down[c] * downStep;
      upStep = Math.max(minUpStep, Math.min(upStep, Math.floor(room / ups)));
    }
  }
  snap.columns.forEach((cards, c) => {
    const n = c + 1;
    // An empty column is a button (a place to put a King); else a group of its cards.
    const column = el("div", "column", {
      "data-column": n, "data-key": `column:${n}`, "data-count": cards.length,
      role: cards.length || !interactive ? "group" : "button", tabindex: cards.length ? null : reachable,
      "aria-label": TEXT.column(n, cards.length, cards[cards.length - 1]),
    });
    const slot = el("div", "slot", { "aria-hidden": "true" });
    slot.textContent = "K";
    column.append(slot);
    let y = 0;
    cards.forEach((name, i) => {
      const faceUp = i >= snap.down[c];
      const card = cardElement(name, faceUp);
      card.dataset.col = n;
      card.dataset.index = i;
      card.dataset.key = `col:${n}:${i}`;
      if (!faceUp) card.removeAttribute("data-card");
      if (faceUp && interactive) {
        card.dataset.src = `col:${n}:${i}`;
        card.setAttribute("role", "button");
        card.setAttribute("tabindex", "-1");
      }
      if (i === cards.length - 1) card.dataset.top = "";
      card.style.top = `${y}px`;
      card.style.zIndex = String(i + 1);
      column.append(card);
      y += faceUp ? upStep : downStep;
    });
    const height = cards.length ? y - (snap.down[c] >= cards.length ? downStep : upStep) + h : h;
    column.style.height = `${height}px`;
    tallest = Math.max(tallest, height);
    columns.append(column);
  });
  columns.style.minHeight = `${tallest + h * 0.5}px`;

  root.replaceChildren(top, columns);
  for (const [key, className] of Object.entries(keys)) {
    root.querySelectorAll(`[data-key="${key}"]`).forEach((node) => node.classList.add(...className.split(" ")));
  }
  return size;
}
