/**
 * Easy Harp, rules version EH1: verifying a move log, rules sections 7 and 8 (a port of
 * games/replay.py).
 */

import { ACTIONS, malformedRefusal } from "./actions.js";
import { InvalidCode, parseCode } from "./deal.js";
import { Game, HISTORY_LIMIT, IllegalAction } from "./game.js";
import { refuse, render } from "./refusals.js";

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
