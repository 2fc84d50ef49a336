// /replay/<submission id>/: a finished game, step by step (prev / next / play), replayed by
// the engine from its move log. Others' logs are public once the day has closed.
import { Game, parseCode, replayOnto } from "./engine.js";
import { clock, get, pageData } from "./api.js";
import { renderTable } from "./table.js";

const page = pageData();
const $ = (id) => document.getElementById(id);
const tableEl = $("table");
const message = $("replay-message");
let actions = [];
let number = null;
let game = null;
let step = 0;
let timer = null;

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
  if (step === actions.length && snap.won) message.textContent = "All 104 cards are home: the game is won.";
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
      message.textContent = `Action ${result.index} cannot be played: ${result.error}`;
    }
  }
  step = target;
  render();
}

function pause() {
  clearInterval(timer);
  timer = null;
  $("r-play").textContent = "\u25b6 Play";
}

function play() {
  if (timer) { pause(); return; }
  if (step === actions.length) goTo(0);
  $("r-play").textContent = "\u23f8 Pause";
  timer = setInterval(() => {
    if (step >= actions.length) { pause(); return; }
    goTo(step + 1);
  }, 250);
}

$("r-first").addEventListener("click", () => { pause(); goTo(0); });
$("r-prev").addEventListener("click", () => { pause(); goTo(step - 1); });
$("r-next").addEventListener("click", () => { pause(); goTo(step + 1); });
$("r-last").addEventListener("click", () => { pause(); goTo(actions.length); });
$("r-play").addEventListener("click", play);
$("r-scrub").addEventListener("input", (event) => { pause(); goTo(Number(event.target.value)); });
document.addEventListener("keydown", (event) => {
  if (!game || event.target.closest("input")) return;
  if (event.key === "ArrowRight") { pause(); goTo(step + 1); }
  if (event.key === "ArrowLeft") { pause(); goTo(step - 1); }
});
window.addEventListener("resize", () => game && render());

async function start() {
  let sub;
  try {
    sub = await get(`/api/submissions/${page.submission}/`);
  } catch (exc) {
    message.dataset.kind = "error";
    message.textContent = exc.message;
    return;
  }
  number = parseCode(sub.deal).number;
  $("replay-code").textContent = sub.deal;
  const when = sub.daily_date ? `deal of ${sub.daily_date}` : `deal #${sub.deal_number}`;
  const outcome = sub.status === "verified"
    ? `${sub.won ? "won" : "not won"}, ${sub.moves} moves, ${sub.score} points, ${clock(sub.duration_ms)}`
    : sub.status;
  $("replay-title").textContent = `${sub.player} · ${when} · ${outcome}`;
  game = Game.new(number);
  if (!Array.isArray(sub.actions)) {
    message.dataset.kind = "error";
    message.textContent = "This game's moves become public once its day has closed (midnight UTC).";
    for (const id of ["r-first", "r-prev", "r-next", "r-last", "r-play"]) $(id).disabled = true;
    renderTable(tableEl, game.snapshot());
    tableEl.dataset.ready = "true";
    return;
  }
  actions = sub.actions;
  render();
  tableEl.dataset.ready = "true";
}

start();
