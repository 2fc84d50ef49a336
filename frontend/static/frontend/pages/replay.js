// /replay/<submission id>/: a finished game, step by step (prev / next / play, at 1x to 16x
// of 4 actions a second; keys: arrows step, Space plays or pauses, Home and End), replayed by
// the engine from its move log. Another player's game of the day shows its deal and moves once
// the day is final (its close plus the grace for late games); a numbered deal's moves once the
// UTC day it was played on has closed. Its words are in TEXT, translated (i18n.js).
import { parseCode } from "../engine/deal.js";
import { Game } from "../engine/game.js";
import { replayOnto } from "../engine/replay.js";
import { clock, get, pageData } from "../lib/api.js";
import { formatDay, formatNumber, gettext, interpolate, ngettext, pgettext } from "../lib/i18n.js";
import { renderTable } from "../lib/table.js";
import { formatMoment } from "../lib/time.js";

/** The texts a person reads, in the page's language (i18n.js). */
const TEXT = {
  dealOfDay: (date) => interpolate(gettext("deal of %(date)s"), { date: formatDay(date) }),
  numbered: (number) => interpolate(gettext("deal #%(number)s"), { number }),
  outcome: (sub) => [
    sub.won ? gettext("won") : gettext("not won"),
    interpolate(ngettext("%(count)s move", "%(count)s moves", sub.moves), { count: formatNumber(sub.moves) }),
    interpolate(ngettext("%(count)s point", "%(count)s points", sub.score), { count: formatNumber(sub.score) }),
    clock(sub.duration_ms),
  ].join(", "),
  status: { pending: gettext("pending"), verifying: gettext("verifying"), rejected: gettext("rejected") },
  won: gettext("All 104 cards are home: the game is won."),
  archived: gettext("This game's month was archived: its moves are kept in the archive, no longer on the site."),
  cannotPlay: (index, why) => interpolate(gettext("Action %(index)s cannot be played: %(reason)s"), { index, reason: why }),
  dealSecret: (when) => interpolate(gettext("This game's deal is secret until the day is final (%(time)s); then its moves are public too."), { time: when }),
  finalUnknown: gettext("after midnight UTC and a grace for late games"),
  movesLater: gettext("This game's moves become public once the UTC day it was played on has closed (midnight UTC)."),
  play: pgettext("replay", "Play"),
  pause: gettext("Pause"),
};

const page = pageData();
const $ = (id) => document.getElementById(id);
const tableEl = $("table");
const message = $("replay-message");
let actions = [];
let number = null;
let game = null;
let step = 0;
let timer = null;

/** Playing speeds: 1x is BASE_RATE actions a second. The reader's choice is remembered. */
const SPEEDS = [1, 2, 4, 8, 16];
const BASE_RATE = 4;
const SPEED_KEY = "eh:replay-speed";

/** The time between two actions at `speed` (1x: 250 ms; an unknown speed plays at 1x). */
function stepDelay(speed) {
  return 1000 / (BASE_RATE * (SPEEDS.includes(speed) ? speed : 1));
}

function speed() {
  return Number($("r-speed").value);
}

/** The card a column move or a draw just put down, for a short highlight. */
function landing(text) {
  if (!text || text === "u" || text.endsWith(">f")) return {};
  if (text === "s") return { waste: "landed" };
  const to = Number(text.split(">")[1].split(":")[0]);
  const length = game.columns[to - 1].length;
  return length ? { [`col:${to}:${length - 1}`]: "landed" } : {};
}

function render() {
  const snap = game.snapshot();
  renderTable(tableEl, snap, { keys: landing(actions[step - 1]) });
  $("score").textContent = snap.score;
  $("moves").textContent = snap.moves;
  $("step").textContent = `${step} / ${actions.length}`;
  $("replay-action").textContent = step ? actions[step - 1] : "–";
  tableEl.dataset.step = step;
  $("r-scrub").max = actions.length;
  $("r-scrub").value = step;
  $("r-prev").disabled = $("r-first").disabled = step === 0;
  $("r-next").disabled = $("r-last").disabled = step === actions.length;
  if (step === actions.length && snap.won) message.textContent = TEXT.won;
  else if (message.dataset.kind !== "error") message.textContent = "";
}

function goTo(target) {
  target = Math.max(0, Math.min(actions.length, target));
  if (target === step + 1) {
    game.play(actions[step]);
  } else if (target !== step) {
    game = Game.new(number);
    const result = replayOnto(game, actions.slice(0, target));
    if (!result.ok) {
      message.dataset.kind = "error";
      message.textContent = TEXT.cannotPlay(result.index, result.error);
    }
  }
  step = target;
  render();
}

function pause() {
  clearInterval(timer);
  timer = null;
  $("r-play").textContent = `\u25b6 ${TEXT.play}`;
}

function play() {
  if (timer) { pause(); return; }
  if (step === actions.length) goTo(0);
  $("r-play").textContent = `\u23f8 ${TEXT.pause}`;
  timer = setInterval(() => {
    if (step >= actions.length) { pause(); return; }
    goTo(step + 1);
  }, stepDelay(speed()));
}

/** A new speed: remembered, and a replay that is playing goes on at it. */
function setSpeed() {
  try { localStorage.setItem(SPEED_KEY, String(speed())); } catch { /* not remembered */ }
  if (timer) { pause(); play(); }
}

/** The remembered speed, when it is one of the choices. */
function restoreSpeed() {
  let saved = null;
  try { saved = Number(localStorage.getItem(SPEED_KEY)); } catch { /* the default */ }
  if (SPEEDS.includes(saved)) $("r-speed").value = String(saved);
}

$("r-first").addEventListener("click", () => { pause(); goTo(0); });
$("r-prev").addEventListener("click", () => { pause(); goTo(step - 1); });
$("r-next").addEventListener("click", () => { pause(); goTo(step + 1); });
$("r-last").addEventListener("click", () => { pause(); goTo(actions.length); });
$("r-play").addEventListener("click", play);
$("r-scrub").addEventListener("input", (event) => { pause(); goTo(Number(event.target.value)); });
$("r-speed").addEventListener("change", setSpeed);
/** Keys anywhere but in a control that uses them itself (the scrubber, the speed, a button's Space). */
const STEP_KEYS = { ArrowRight: () => goTo(step + 1), ArrowLeft: () => goTo(step - 1), Home: () => goTo(0), End: () => goTo(actions.length) };
document.addEventListener("keydown", (event) => {
  if (!game || !actions.length || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (Object.hasOwn(STEP_KEYS, event.key)) {
    event.preventDefault();
    pause();
    STEP_KEYS[event.key]();
  } else if (event.key === " " && !event.target.closest("button, a")) {
    event.preventDefault();
    play();
  }
});
window.addEventListener("resize", () => game && render());
restoreSpeed();

async function start() {
  let sub;
  try {
    sub = await get(`/api/submissions/${page.submission}/`);
  } catch (exc) {
    message.dataset.kind = "error";
    message.textContent = exc.message;
    return;
  }
  const when = sub.daily_date ? TEXT.dealOfDay(sub.daily_date) : TEXT.numbered(sub.deal_number);
  const outcome = sub.status === "verified" ? TEXT.outcome(sub) : TEXT.status[sub.status] || sub.status;
  $("replay-title").textContent = `${sub.player} · ${when} · ${outcome}`;
  if (!sub.deal) {  // another player's game of a day not final yet: no cards to show
    closed(TEXT.dealSecret(await dayFinalAt(sub.daily_date)));
    return;
  }
  number = parseCode(sub.deal).number;
  $("replay-code").textContent = sub.deal;
  game = Game.new(number);
  if (!Array.isArray(sub.actions)) {
    renderTable(tableEl, game.snapshot());
    closed(sub.archived ? TEXT.archived : TEXT.movesLater);
    return;
  }
  actions = sub.actions;
  render();
  tableEl.dataset.ready = "true";
}

/** Controls off and ``text`` said; the table stays as the caller leaves it. */
function closed(text) {
  message.dataset.kind = "error";
  message.textContent = text;
  for (const id of ["r-first", "r-prev", "r-next", "r-last", "r-play", "r-scrub", "r-speed"]) $(id).disabled = true;
  tableEl.dataset.ready = "true";
}

/** When ``day`` becomes final (its accepts_until), in the reader's time zone. */
async function dayFinalAt(day) {
  const deal = await get(`/api/daily/${day}/`).catch(() => null);
  if (!deal || !deal.accepts_until) return TEXT.finalUnknown;
  return formatMoment(deal.accepts_until);
}

start();
