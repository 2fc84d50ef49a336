/**
 * Easy Harp, rules version EH1: the move-log notation, rules section 7 (a port of
 * games/actions.py), parsed once into small frozen arrays.
 */

import { Refused, refuse, render } from "./refusals.js";

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
