/**
 * What the board's places and the action texts of the notation mean: a card's data-src, the
 * cells an action lights up (a hint), where its cards land (the "landed" highlight), and how
 * to say it in words. Pure functions of an engine Game: no DOM.
 */

import { render } from "../../engine/refusals.js";
import { pretty } from "../../lib/table.js";
import { TEXT } from "./text.js";

/** A card's data-src ("waste", "col:3:5", "f:2") as {kind, ...}. */
export function parseSrc(src) {
  if (src === "waste") return { kind: "waste" };
  const [kind, a, b] = src.split(":");
  if (kind === "col") return { kind: "col", col: Number(a), index: Number(b) };
  return { kind: "f", foundation: Number(a) };
}

/** The foundation (0-based) a "w>f" / "N>f" lands on: the engine's first that accepts it. */
export function foundationTarget(game, text) {
  if (text === "w>f") return game.waste.length ? game.foundationFor(game.waste[game.waste.length - 1]) : null;
  const column = game.columns[Number(text[0]) - 1];
  return column && column.length ? game.foundationFor(column[column.length - 1]) : null;
}

/** Where the moved card(s) ended up, after `text` was played, for a short highlight. */
export function landingKeys(game, text, foundationBefore) {
  const snap = game.snapshot();
  if (text === "u") return [];
  if (text === "s") return snap.waste.length ? ["waste"] : ["stock"];
  if (text.endsWith(">f")) return foundationBefore === null ? [] : [`foundation:${foundationBefore + 1}`];
  const to = Number(text.split(">")[1].split(":")[0]);
  const k = text.includes(":") ? Number(text.split(":")[1]) : 1;
  const length = snap.columns[to - 1].length;
  const keys = [];
  for (let i = Math.max(0, length - k); i < length; i++) keys.push(`col:${to}:${i}`);
  return keys;
}

/** The cells to light up for an action text not yet played: what moves, and where to. */
export function actionKeys(game, text) {
  if (text === "s") return ["stock"];
  const [from, rest] = text.split(">");
  const [to, kText] = rest.split(":");
  const keys = [];
  if (from === "w") keys.push("waste");
  else if (from.startsWith("f")) keys.push(`foundation:${from.slice(1)}`);
  else {
    const length = game.columns[Number(from) - 1].length;
    const k = kText ? Number(kText) : 1;
    for (let i = length - k; i < length; i++) keys.push(`col:${from}:${i}`);
  }
  if (to === "f") {
    const f = foundationTarget(game, text);
    keys.push(f === null ? "foundations" : `foundation:${f + 1}`);
  } else {
    const length = game.columns[Number(to) - 1].length;
    keys.push(length ? `col:${to}:${length - 1}` : `column:${to}`);
  }
  return keys;
}

/** An action not yet played, in words: "move 7♥ from column 3 to a foundation". */
export function describeAction(game, text) {
  const snap = game.snapshot();
  if (text === "u") return TEXT.undoMove;
  if (text === "s") return snap.stock.length ? TEXT.drawCard : TEXT.turnWaste;
  const [from, rest] = text.split(">");
  const [to, kText] = rest.split(":");
  let what;
  let where;
  if (from === "w") { what = pretty(snap.waste[snap.waste.length - 1]); where = TEXT.fromWaste; }
  else if (from.startsWith("f")) { what = pretty(snap.foundations[Number(from.slice(1)) - 1]); where = TEXT.fromFoundation(from.slice(1)); }
  else {
    const column = snap.columns[Number(from) - 1];
    const k = kText ? Number(kText) : 1;
    what = k > 1 ? TEXT.runFrom(pretty(column[column.length - k])) : pretty(column[column.length - 1]);
    where = TEXT.fromColumn(from);
  }
  const onto = to === "f" ? TEXT.toFoundation : TEXT.toColumn(to);
  return TEXT.move(what, where, onto);
}

/** The top card of "w" or "1".."9" in words ("7♥"), for a refusal. */
export function describeSource(game, source) {
  const snap = game.snapshot();
  const name = source === "w" ? snap.waste[snap.waste.length - 1] : snap.columns[Number(source) - 1].slice(-1)[0];
  return name ? pretty(name) : TEXT.thatCard;
}

/** The refusal's args that name a card ("4C"), written with its suit's symbol for a player. */
const CARD_ARGS = ["card", "target", "below"];

/**
 * Why the engine refuses `text` here, in words a player reads ("4♣ cannot go on 6♥: ..."), or
 * null when it is legal. The engine's own words keep the notation's names (4C, 6H), as the
 * server's and the vectors' do; only the page writes symbols, as hints do.
 */
export function refusalWords(game, text) {
  const reason = game.refusalCode(text);
  if (reason === null) return null;
  const args = { ...reason.args };
  for (const name of CARD_ARGS) if (typeof args[name] === "string") args[name] = pretty(args[name]);
  return render({ code: reason.code, args });
}
