/**
 * Why the engine refuses something (a port of games/refusals.py): a refusal is data, {code,
 * args}, and this module holds the words for it, one English template per reason code.
 *
 * The engine (engine/) decides with codes: `code` is a stable snake_case name of the rule (the
 * same in the Python engine, games/refusals.py) and `args` plain values (card names such as
 * "QS", 1-based column and foundation numbers, counts, the text a player typed). Only this
 * module turns one into words. MESSAGES must hold exactly the codes and templates of Python's
 * catalogue: vectors.json carries that one and tests/frontend/engine.test.mjs compares them
 * key for key and word for word.
 *
 * Template fields: {name}; {name!r}, a typed text in quotes; {name:,}, a number with
 * thousands separators (the reader's); {suit} takes a suit letter and writes its name
 * (SUIT_NAMES).
 *
 * Translation: the templates are marked with gettext_noop (the catalogue keeps them English,
 * word for word Python's) and `render` translates the template and the suit's name through
 * the page's catalogue (lib/i18n.js; locale/<lang>/djangojs.po) before filling the fields in,
 * so codes and args stay the data and only the words change with the language.
 *
 * Plain ES module: no build step.
 */

import { formatNumber, gettext, gettext_noop } from "../lib/i18n.js";

export const MESSAGES = Object.freeze({
  // The rules of play: Game#refusalCode.
  game_won: gettext_noop("The game is won: nothing may follow the winning action."),
  stock_empty: gettext_noop("The stock and the waste are both empty: there is nothing to turn."),
  nothing_to_undo: gettext_noop("Nothing to undo."),
  undo_limit: gettext_noop("Nothing left to undo: undo goes back at most {limit} actions."),
  waste_empty: gettext_noop("The waste is empty."),
  foundation_empty: gettext_noop("Foundation {foundation} is empty."),
  column_empty: gettext_noop("Column {column} is empty."),
  foundation_refuses: gettext_noop(
    "No foundation takes {card}: the {suit} foundations ({first} and {second}) take only "
    + "the next card of their suit, Ace first."),
  column_refuses: gettext_noop(
    "{card} cannot go on {target}: a column takes a card of the opposite colour, exactly "
    + "one rank lower."),
  empty_column_king_only: gettext_noop("An empty column takes only a King, not {card}."),
  run_needs_empty_column: gettext_noop(
    "A run cannot move as a whole: only the top card moves, except a King-led run onto an "
    + "empty column."),
  run_too_few_face_up: gettext_noop("Column {column} has fewer than {count} face-up cards."),
  run_not_king_led: gettext_noop("Only a King-led run moves as a whole: {card} is not a King."),
  not_a_run: gettext_noop(
    "The top {count} cards of column {column} are not a run: {card} does not follow "
    + "{below} in alternating colour, one rank lower."),
  // The notation of an action: malformedRefusal.
  action_not_string: gettext_noop("an action must be a string, not {type}"),
  action_self_move: gettext_noop("malformed action {action!r}: a card cannot move onto its own column"),
  action_bad_run: gettext_noop("malformed action {action!r}: a run is 1 to 13 cards, written without leading zeros"),
  action_malformed: gettext_noop(
    "malformed action {action!r}: expected s, u, w>f, w>N, N>f, N>M, N>M:K or fK>N "
    + "(columns 1-9, foundations 1-8, no spaces)"),
  // A move log that is not a list at all: replay.
  actions_not_list: gettext_noop("actions must be a list of action strings"),
  // Deal codes and numbers: parseCode, formatCode, deal.
  deal_code_not_string: gettext_noop("a deal code must be a string such as EH1-N-AAAAAAF"),
  deal_code_shape: gettext_noop("{deal!r} is not a deal code: expected EH1-<mode>-<7 letters>, e.g. EH1-N-AAAAAAF"),
  deal_code_version: gettext_noop("{deal!r}: unknown rules version {version!r}, only EH1 is played here"),
  deal_code_mode: gettext_noop("{deal!r}: unknown mode {mode!r}, use N (numbered deal) or D (deal of the day)"),
  deal_code_letters: gettext_noop("{deal!r}: the deal part must be exactly 7 upper-case letters A-Z"),
  deal_code_range: gettext_noop("{deal!r} names deal {number:,}, outside 1..999,999"),
  deal_mode_unknown: gettext_noop("unknown mode {mode!r}: use N (numbered deal) or D (deal of the day)"),
  deal_number_range: gettext_noop("deal number {number!r} is outside 1..999,999"),
});

/** The name of each suit letter, for the {suit} field. */
export const SUIT_NAMES = Object.freeze({
  S: gettext_noop("spades"), H: gettext_noop("hearts"), D: gettext_noop("diamonds"), C: gettext_noop("clubs"),
});


/** A refusal: the reason `code` of the rule that refuses and the `args` of its words. */
export function refuse(code, args = {}) {
  return Object.freeze({ code, args: Object.freeze(args) });
}

/** An error whose message is a refusal's words; `code` and `args` keep the refusal. */
export class Refused extends Error {
  constructor(refusal) {
    super(render(refusal));
    this.name = new.target.name;
    this.code = refusal.code;
    this.args = refusal.args;
  }

  /** The refusal {code, args} this error says. */
  get refusal() {
    return refuse(this.code, this.args);
  }
}

const FIELD = /\{([a-z]+)(!r)?(:,)?\}/g;

/**
 * The words of a refusal {code, args} in the page's language: its template, translated, with
 * the fields filled in (English, Python's words, without a catalogue).
 */
export function render({ code, args = {} }) {
  if (!Object.hasOwn(MESSAGES, code)) throw new Error(`no message for reason code ${quote(code)}`);
  return gettext(MESSAGES[code]).replace(FIELD, (_, name, asText, grouped) => {
    const value = name === "suit" ? gettext(SUIT_NAMES[args.suit]) : args[name];
    if (asText) return quote(value);
    if (grouped) return typeof value === "number" ? formatNumber(value) : thousands(value);
    return String(value);
  });
}

/**
 * A value as a player typed it, quoted: 'text' (or "it's" when it holds a ' and no "), with
 * control and invisible characters escaped; anything not a string as JSON.
 */
export function quote(value) {
  if (typeof value !== "string") return String(JSON.stringify(value));
  const escaped = JSON.stringify(value).slice(1, -1).replaceAll('\\"', '"');
  if (value.includes("'") && !value.includes('"')) return `"${escaped}"`;
  return `'${escaped.replaceAll("'", "\\'")}'`;
}

/** An integer with comma thousands separators: 8,031,810,175. */
export function thousands(n) {
  const digits = Math.abs(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? "-" + digits : digits;
}
