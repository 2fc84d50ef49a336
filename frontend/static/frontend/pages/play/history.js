/**
 * Undo and redo. The rules know only undo ("u", rules section 5): redo is the page's, and
 * plays an undone action again, as a new action of the log and a move like any other. So the
 * page keeps the actions its undos took back (play.redo), good until any other action is
 * played or the game is dealt again.
 */

import { act } from "./deal.js";
import { TEXT } from "./text.js";
import { refused } from "./view.js";

/** The action an undo would take back: the last of `actions` not undone already. Pure. */
export function lastPlayed(actions) {
  let undone = 0;
  for (let i = actions.length - 1; i >= 0; i--) {
    if (actions[i] === "u") undone++;
    else if (undone) undone--;
    else return actions[i];
  }
  return null;
}

/** Whether `play.redo` still holds for the game as it is (nothing played since its undos). */
export function redoable(play) {
  const { redo, record } = play;
  return Boolean(redo && redo.record === record && redo.at === record.actions.length && redo.actions.length);
}

/** Undo the last action; what it took back may be redone. */
export function undo(play) {
  if (!play.record) return false;
  const action = lastPlayed(play.record.actions);
  const kept = redoable(play) ? play.redo.actions : [];
  if (!act(play, "u")) return false;
  play.redo = { record: play.record, at: play.record.actions.length, actions: [...kept, action] };
  return true;
}

/** Play the last undone action again (Ctrl+Shift+Z); refused when there is none. */
export function redo(play) {
  if (!play.record) return false;
  if (!redoable(play)) {
    refused(play, TEXT.nothingToRedo);
    return false;
  }
  const actions = play.redo.actions.slice(0, -1);
  if (!act(play, play.redo.actions[play.redo.actions.length - 1])) return false;
  play.redo = { record: play.record, at: play.record.actions.length, actions };
  return true;
}
