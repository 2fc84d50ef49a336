// /players/<username>/: a player's daily record, a small SVG chart of moves over time and
// the history of daily results (each linking to its replay).
import { clock, get, h, pageData } from "./api.js";

const page = pageData();
const user = page.user || {};
const SVG = "http://www.w3.org/2000/svg";

/** The texts a person reads, in one place for the translation that follows. */
const TEXT = {
  practice: "practice",
  practiceTitle: "A later try at the day's deal: verified, never ranked.",
};

/** A history row's place: its rank, or "practice" for a game after the ranked try. */
function place(row) {
  return row.practice || row.rank === null ? TEXT.practice : `#${row.rank}`;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** Moves per daily game, oldest on the left; filled dots are wins. */
export function movesChart(history) {
  const points = [...history].filter((row) => row.moves !== null).reverse();
  const width = 640;
  const height = 200;
  const pad = { left: 44, right: 12, top: 12, bottom: 28 };
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "data-testid": "moves-chart",
    "aria-label": `Moves in ${points.length} daily games` });
  if (!points.length) {
    chart.append(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, "No daily games yet."));
    return chart;
  }
  const days = points.map((row) => Date.parse(`${row.date}T00:00:00Z`));
  const first = days[0];
  const last = days[days.length - 1];
  const lo = Math.min(...points.map((row) => row.moves));
  const hi = Math.max(...points.map((row) => row.moves));
  const yLo = Math.max(0, Math.floor((lo - (hi - lo) * 0.1 - 1) / 10) * 10);
  const yHi = Math.ceil((hi + (hi - lo) * 0.1 + 1) / 10) * 10;
  const x = (t) => (last === first ? (pad.left + width - pad.right) / 2
    : pad.left + ((t - first) / (last - first)) * (width - pad.left - pad.right));
  const y = (m) => pad.top + (1 - (m - yLo) / (yHi - yLo)) * (height - pad.top - pad.bottom);
  chart.append(
    svg("line", { class: "axis", x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom }),
    svg("line", { class: "axis", x1: pad.left, y1: height - pad.bottom, x2: width - pad.right, y2: height - pad.bottom }),
    svg("text", { x: pad.left - 6, y: y(yHi) + 4, "text-anchor": "end" }, String(yHi)),
    svg("text", { x: pad.left - 6, y: y(yLo) + 4, "text-anchor": "end" }, String(yLo)),
    svg("text", { x: pad.left, y: height - 8, "text-anchor": "start" }, points[0].date),
  );
  if (points.length > 1) {
    chart.append(svg("text", { x: width - pad.right, y: height - 8, "text-anchor": "end" }, points[points.length - 1].date));
    const path = points.map((row, i) => `${i ? "L" : "M"}${x(days[i]).toFixed(1)},${y(row.moves).toFixed(1)}`).join(" ");
    chart.append(svg("path", { class: "line", d: path }));
  }
  points.forEach((row, i) => {
    const dot = svg("circle", { class: row.won ? "dot-won" : "dot-lost", cx: x(days[i]).toFixed(1), cy: y(row.moves).toFixed(1), r: 4.5,
      "data-date": row.date, "data-moves": row.moves });
    dot.append(svg("title", {}, `${row.date}: ${row.moves} moves${row.won ? ", won" : ""}, ${place(row)}`));
    chart.append(dot);
  });
  return chart;
}

async function start() {
  const stats = document.getElementById("player-stats");
  const chartBox = document.getElementById("player-chart");
  const historyBox = document.getElementById("player-history");
  let data;
  try {
    data = await get(`/api/players/${encodeURIComponent(page.username)}/`);
  } catch (exc) {
    stats.replaceChildren(h("p", { class: "form-error" }, exc.message));
    return;
  }
  const stat = (label, value, id) => h("div", {}, h("b", { "data-testid": id }, value), h("span", { class: "muted" }, label));
  stats.replaceChildren(
    stat("daily wins", data.daily_wins, "daily-wins"), stat("current streak", data.current_streak, "current-streak"),
    stat("best streak", data.best_streak, "best-streak"), stat("joined", data.joined, "joined"));
  chartBox.replaceChildren(movesChart(data.history));
  if (!data.history.length) {
    historyBox.replaceChildren(h("p", { class: "empty" }, "No daily results yet."));
  } else {
    const today = new Date().toISOString().slice(0, 10);
    const head = h("tr", {}, h("th", { class: "player" }, "Day"), h("th", {}, "Rank"), h("th", {}, "Result"),
      h("th", {}, "Moves"), h("th", {}, "Score"), h("th", { class: "board-col-optional" }, "Time"), h("th", {}, ""));
    const rows = data.history.map((row) => h("tr", { "data-date": row.date },
      h("td", { class: "player" }, h("a", { href: `/boards/?date=${row.date}` }, row.date)),
      h("td", { title: row.practice ? TEXT.practiceTitle : null }, place(row)),
      h("td", {}, h("span", { class: row.won ? "badge" : "badge lost" }, row.won ? "won" : "not won"), row.clean ? " \u2713" : ""),
      h("td", {}, row.moves), h("td", {}, row.score), h("td", { class: "board-col-optional" }, clock(row.duration_ms)),
      h("td", {}, row.date < today || user.username === data.player ? h("a", { href: `/replay/${row.submission}/` }, "replay") : "")));
    historyBox.replaceChildren(h("table", { class: "board" }, h("thead", {}, head), h("tbody", {}, rows)));
  }
  document.body.dataset.ready = "true";
}

start();
