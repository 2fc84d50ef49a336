// /players/<username>/: a player's daily record, a small SVG chart of moves over time and
// the history of daily results (each linking to its replay). Its words are in TEXT, translated.
import { clock, get, h, pageData } from "../lib/api.js";
import { formatDay, formatNumber, gettext, interpolate, ngettext } from "../lib/i18n.js";
import { groupList } from "./groups/links.js";
import { barChart } from "../lib/charts.js";

const page = pageData();
const user = page.user || {};
const SVG = "http://www.w3.org/2000/svg";

/** The texts a person reads, in the page's language (i18n.js). */
const TEXT = {
  practice: gettext("practice"),
  practiceTitle: gettext("A later try at the day's deal: verified, never ranked."),
  chartLabel: (n) => interpolate(ngettext("Moves in %(count)s daily game", "Moves in %(count)s daily games", n), { count: formatNumber(n) }),
  noGames: gettext("No daily games yet."),
  dot: (day, moves, won, place) => interpolate(won
    ? ngettext("%(day)s: %(moves)s move, won, %(place)s", "%(day)s: %(moves)s moves, won, %(place)s", moves)
    : ngettext("%(day)s: %(moves)s move, %(place)s", "%(day)s: %(moves)s moves, %(place)s", moves),
  { day: formatDay(day), moves: formatNumber(moves), place }),
  dailyWins: gettext("daily wins"),
  played: gettext("days played"),
  winRate: gettext("win rate"),
  distributionLabel: (n) => interpolate(ngettext("Moves in %(count)s won daily game", "Moves in %(count)s won daily games", n),
    { count: formatNumber(n) }),
  noWins: gettext("No daily game won yet."),
  // The two streaks (issue 22): days played in a row (won or given up), and days won in a row.
  playedStreak: gettext("days played in a row"),
  bestPlayedStreak: gettext("most days played in a row"),
  currentStreak: gettext("days won in a row"),
  bestStreak: gettext("most days won in a row"),
  joined: gettext("joined"),
  noResults: gettext("No daily results yet."),
  day: gettext("Day"),
  rank: gettext("Rank"),
  result: gettext("Result"),
  moves: gettext("Moves"),
  score: gettext("Score"),
  time: gettext("Time"),
  won: gettext("won"),
  notWon: gettext("not won"),
  replay: gettext("replay"),
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
    "aria-label": TEXT.chartLabel(points.length) });
  if (!points.length) {
    chart.append(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, TEXT.noGames));
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
    svg("text", { x: pad.left, y: height - 8, "text-anchor": "start" }, formatDay(points[0].date)),
  );
  if (points.length > 1) {
    chart.append(svg("text", { x: width - pad.right, y: height - 8, "text-anchor": "end" }, formatDay(points[points.length - 1].date)));
    const path = points.map((row, i) => `${i ? "L" : "M"}${x(days[i]).toFixed(1)},${y(row.moves).toFixed(1)}`).join(" ");
    chart.append(svg("path", { class: "line", d: path }));
  }
  points.forEach((row, i) => {
    const dot = svg("circle", { class: row.won ? "dot-won" : "dot-lost", cx: x(days[i]).toFixed(1), cy: y(row.moves).toFixed(1), r: 4.5,
      "data-date": row.date, "data-moves": row.moves });
    dot.append(svg("title", {}, TEXT.dot(row.date, row.moves, row.won, place(row))));
    chart.append(dot);
  });
  return chart;
}

/** The player's groups that the viewer may see: all of them to the player, else the ones they
 * share (the API answers only those); nothing to a visitor who is not signed in. */
async function showGroups() {
  if (!user.authenticated) return;
  try {
    const groups = (await get(`/api/groups/?player=${encodeURIComponent(page.username)}`)).results;
    if (!groups.length) return;
    document.getElementById("player-groups").replaceChildren(groupList(groups));
    document.getElementById("player-groups-block").hidden = false;
  } catch { /* the rest of the page stands without them */ }
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
  const rate = data.win_rate === null ? "–"
    : new Intl.NumberFormat(document.documentElement.lang || "en", { style: "percent", maximumFractionDigits: 0 }).format(data.win_rate);
  stats.replaceChildren(
    stat(TEXT.played, formatNumber(data.played), "played"),
    stat(TEXT.dailyWins, formatNumber(data.daily_wins), "daily-wins"),
    stat(TEXT.winRate, rate, "win-rate"),
    stat(TEXT.playedStreak, formatNumber(data.played_streak), "played-streak"),
    stat(TEXT.bestPlayedStreak, formatNumber(data.best_played_streak), "best-played-streak"),
    stat(TEXT.currentStreak, formatNumber(data.current_streak), "current-streak"),
    stat(TEXT.bestStreak, formatNumber(data.best_streak), "best-streak"), stat(TEXT.joined, formatDay(data.joined), "joined"));
  chartBox.replaceChildren(movesChart(data.history));
  document.getElementById("player-distribution").replaceChildren(data.won
    ? barChart(data.moves_distribution, { label: TEXT.distributionLabel(data.won), testid: "moves-distribution" })
    : h("p", { class: "empty" }, TEXT.noWins));
  if (!data.history.length) {
    historyBox.replaceChildren(h("p", { class: "empty" }, TEXT.noResults));
  } else {
    const today = new Date().toISOString().slice(0, 10);
    const head = h("tr", {}, h("th", { class: "player" }, TEXT.day), h("th", {}, TEXT.rank), h("th", {}, TEXT.result),
      h("th", {}, TEXT.moves), h("th", {}, TEXT.score), h("th", { class: "board-col-optional" }, TEXT.time), h("th", {}, ""));
    const rows = data.history.map((row) => h("tr", { "data-date": row.date },
      h("td", { class: "player" }, h("a", { href: `/boards/?date=${row.date}` }, formatDay(row.date))),
      h("td", { title: row.practice ? TEXT.practiceTitle : null }, place(row)),
      h("td", {}, h("span", { class: row.won ? "badge" : "badge lost" }, row.won ? TEXT.won : TEXT.notWon), row.clean ? " \u2713" : ""),
      h("td", {}, row.moves === null ? "" : formatNumber(row.moves)), h("td", {}, row.score === null ? "" : formatNumber(row.score)), h("td", { class: "board-col-optional" }, clock(row.duration_ms)),
      h("td", {}, row.date < today || user.username === data.player ? h("a", { href: `/replay/${row.submission}/` }, TEXT.replay) : "")));
    historyBox.replaceChildren(h("table", { class: "board" }, h("thead", {}, head), h("tbody", {}, rows)));
  }
  await showGroups();
  document.body.dataset.ready = "true";
}

start();
