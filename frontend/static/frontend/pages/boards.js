// /boards/: a day's board (today by default, ?date= for past days), a numbered deal's board
// (?deal= code or number) and the players board. Its words are in TEXT, translated (i18n.js).
import { InvalidCode, formatCode, parseCode } from "../engine/deal.js";
import { clock, get, h, pageData } from "../lib/api.js";
import { formatDay, formatNumber, gettext, interpolate, ngettext } from "../lib/i18n.js";
import { formatMoment } from "../lib/time.js";
import { groupList } from "./groups/links.js";
import { fetchTagged, politeRegion, showTable, watch } from "../lib/live.js";
import { showHistogram } from "./day-histogram.js";

const page = pageData();
const user = page.user || { authenticated: false };
const params = new URLSearchParams(window.location.search);
const PAGE_SIZE = 25;
const $ = (id) => document.getElementById(id);
let today = null;
let myGroups = [];
let dayWatches = []; // the shown day's board and rank, polled (live.js)
let dayShown = 0; // counts showDay's calls: a late answer of an earlier one is not watched
let dealWatch = null;
const sayRank = politeRegion($("daily-meta"), "rank-news");

/** The texts a person reads, in the page's language (i18n.js). */
const TEXT = {
  hints: (n) => interpolate(ngettext("%(count)s hint", "%(count)s hints", n), { count: formatNumber(n) }),
  hintsTitle: gettext("Played with hints: ranked after every game without hints."),
  final: gettext(" · final, games are public"),
  open: (when) => interpolate(gettext(" · open until %(time)s"), { time: when }),
  midnight: gettext("midnight UTC"),
  empty: gettext("No verified results on this board yet."),
  player: gettext("Player"),
  result: gettext("Result"),
  moves: gettext("Moves"),
  score: gettext("Score"),
  time: gettext("Time"),
  clean: gettext("Clean"),
  won: gettext("won"),
  notWon: gettext("not won"),
  replay: gettext("replay"),
  prev: gettext("‹ Prev"),
  next: gettext("Next ›"),
  pageOf: (n, pages) => interpolate(gettext("page %(page)s of %(pages)s"), { page: formatNumber(n), pages: formatNumber(pages) }),
  loading: gettext("Loading…"),
  today: gettext("Today"),
  proven: gettext(" · proven winnable"),
  players: (n) => interpolate(ngettext(" · %(count)s player", " · %(count)s players", n), { count: formatNumber(n) }),
  yourRank: (rank) => interpolate(gettext(" · your rank #%(rank)s"), { rank }),
  rankNow: (rank) => interpolate(gettext("Your rank on this board is now #%(rank)s."), { rank }),
  dealNumber: (number) => interpolate(gettext("Deal #%(number)s · "), { number }),
  playCode: (code) => interpolate(gettext("play %(code)s"), { code }),
  nobody: gettext("Nobody has won a deal of the day yet."),
  dailyWins: gettext("Daily wins"),
  streak: gettext("Streak"),
  best: gettext("Best"),
};

/** A small badge on a result that used hints: words, not only a colour. */
function hintsBadge(row) {
  if (!(row.hints > 0)) return null;
  return h("span", { class: "badge hinted", title: TEXT.hintsTitle, "data-testid": "row-hints" }, TEXT.hints(row.hints));
}

function setParam(name, value) {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  window.history.replaceState(null, "", url);
}

function resultTable(data, { me = null, replayable = () => true } = {}) {
  if (!data.results.length) return h("p", { class: "empty" }, TEXT.empty);
  const head = h("tr", {}, h("th", {}, "#"), h("th", { class: "player" }, TEXT.player), h("th", {}, TEXT.result),
    h("th", {}, TEXT.moves), h("th", {}, TEXT.score), h("th", { class: "board-col-optional" }, TEXT.time),
    h("th", { class: "board-col-optional" }, TEXT.clean), h("th", {}, ""));
  const rows = data.results.map((row) => h("tr", {
    class: row.player === user.username || row.rank === me ? "me" : null, "data-player": row.player, "data-rank": row.rank,
  },
  h("td", { "data-testid": "row-rank" }, row.rank),
  h("td", { class: "player" }, h("a", { href: `/players/${encodeURIComponent(row.player)}/` }, row.player)),
  h("td", {}, h("span", { class: row.won ? "badge" : "badge lost" }, row.won ? TEXT.won : TEXT.notWon), hintsBadge(row)),
  h("td", { "data-testid": "row-moves" }, formatNumber(row.moves)),
  h("td", {}, formatNumber(row.score)),
  h("td", { class: "board-col-optional", "data-testid": "row-time" }, clock(row.duration_ms)),
  h("td", { class: "board-col-optional" }, row.clean ? "\u2713" : ""),
  h("td", {}, replayable(row) ? h("a", { href: `/replay/${row.submission}/` }, TEXT.replay) : "")));
  return h("table", { class: "board" }, h("thead", {}, head), h("tbody", {}, rows));
}

function pager(data, go) {
  const pages = Math.max(1, Math.ceil(data.count / data.page_size));
  if (pages <= 1) return null;
  return h("div", { class: "pager" },
    h("button", { type: "button", disabled: data.page <= 1, onclick: () => go(data.page - 1) }, TEXT.prev),
    h("span", {}, TEXT.pageOf(data.page, pages)),
    h("button", { type: "button", disabled: data.page >= pages, onclick: () => go(data.page + 1) }, TEXT.next));
}

// -- the deal of the day ----------------------------------------------------------------------

async function showDay(day, pageNumber = 1) {
  dayWatches.forEach((watching) => watching.stop());
  dayWatches = [];
  const shown = ++dayShown;
  const box = $("daily-board");
  const meta = $("daily-meta");
  box.replaceChildren(h("p", { class: "empty" }, TEXT.loading));
  // The day by its date, today too: a page left open past midnight goes on showing its day.
  const path = `/api/leaderboards/daily/${day}/`;
  const boardPath = `${path}?page=${pageNumber}&page_size=${PAGE_SIZE}`;
  const minePath = `${path}?around=me&page_size=1`;
  try {
    const [first, deal, mineFirst] = await Promise.all([
      fetchTagged(boardPath),
      get(`/api/daily/${day}/`).catch(() => null),
      user.authenticated ? fetchTagged(minePath).catch(() => null) : Promise.resolve(null),
    ]);
    let board = first.data;
    let mine = mineFirst && mineFirst.data;
    // The deal's code (and its games) are public only once the day is final: close plus grace.
    const closed = deal ? deal.final : false;
    const draw = () => {
      meta.replaceChildren(
        // The code shows once the day is final; before that the day's name stands alone.
        day === today ? TEXT.today : formatDay(day),
        ...(deal && deal.code ? [": ", h("a", { href: `/play/${deal.code}/` }, deal.code)] : []),
        deal && deal.proven_winnable ? h("span", { "data-testid": "proven" }, TEXT.proven) : "",
        TEXT.players(board.count),
        closed ? TEXT.final : TEXT.open(deal && deal.closes_at ? formatMoment(deal.closes_at) : TEXT.midnight),
        mine && mine.me ? h("b", { "data-testid": "my-rank" }, TEXT.yourRank(mine.me)) : "",
      );
      showTable(box,
        resultTable(board, { me: mine && mine.me, replayable: (row) => closed || row.player === user.username }),
        pager(board, (n) => showDay(day, n)));
    };
    draw();
    box.dataset.day = day;
    showGroups(day);
    // Live: new results and the rank, without a reload (unchanged answers are 304s).
    if (shown !== dayShown) return;
    dayWatches.push(watch(boardPath, (data) => { board = data; draw(); }, { tag: first.tag }));
    if (mineFirst) {
      dayWatches.push(watch(minePath, (data) => {
        if (data.me && data.me !== (mine && mine.me)) sayRank(TEXT.rankNow(data.me));
        mine = data;
        draw();
      }, { tag: mineFirst.tag }));
    }
    showHistogram($("daily-histogram"), day);
  } catch (exc) {
    meta.textContent = "";
    box.replaceChildren(h("p", { class: "form-error" }, exc.message));
  }
}

$("date-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const day = $("board-date").value;
  if (!day) return;
  setParam("date", day === today ? null : day);
  showDay(day);
});

// -- the player's groups: each link opens the group's board of the day shown ------------------

function showGroups(day) {
  if (!myGroups.length) return;
  $("groups-list").replaceChildren(groupList(myGroups, { day }));
  $("groups-block").hidden = false;
}

async function loadGroups() {
  if (!user.authenticated) return;
  try {
    myGroups = (await get("/api/groups/")).results;
  } catch {
    myGroups = [];
  }
}

// -- a numbered deal ---------------------------------------------------------------------------

async function showDeal(typed, pageNumber = 1) {
  if (dealWatch) dealWatch.stop();
  dealWatch = null;
  const box = $("deal-board");
  const meta = $("deal-meta");
  let dealCode;
  try {
    dealCode = /^\d+$/.test(typed) ? formatCode(Number(typed), "N") : parseCode(typed).toString();
  } catch (exc) {
    if (!(exc instanceof InvalidCode)) throw exc;
    meta.textContent = "";
    box.replaceChildren(h("p", { class: "form-error", "data-testid": "deal-error" }, exc.message));
    return;
  }
  const number = parseCode(dealCode).number;
  const nCode = formatCode(number, "N");
  box.replaceChildren(h("p", { class: "empty" }, TEXT.loading));
  try {
    const path = `/api/leaderboards/deals/${number}/?page=${pageNumber}&page_size=${PAGE_SIZE}`;
    const first = await fetchTagged(path);
    const draw = (board) => {
      meta.replaceChildren(TEXT.dealNumber(number), h("a", { href: `/play/${nCode}/`, "data-testid": "play-deal" }, TEXT.playCode(nCode)),
        TEXT.players(board.count));
      showTable(box, resultTable(board, { replayable: (row) => row.player === user.username }),
        pager(board, (n) => showDeal(typed, n)));
    };
    draw(first.data);
    dealWatch = watch(path, draw, { tag: first.tag });
  } catch (exc) {
    meta.textContent = "";
    box.replaceChildren(h("p", { class: "form-error" }, exc.message));
  }
}

$("deal-input").addEventListener("input", (event) => { event.target.value = event.target.value.toUpperCase(); });
$("deal-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const typed = $("deal-input").value.trim().toUpperCase();
  if (!typed) return;
  setParam("deal", typed);
  showDeal(typed);
});

// -- players -----------------------------------------------------------------------------------

async function showPlayers(pageNumber = 1) {
  const box = $("players-board");
  try {
    const data = await get(`/api/leaderboards/players/?page=${pageNumber}&page_size=${PAGE_SIZE}`);
    if (!data.results.length) {
      box.replaceChildren(h("p", { class: "empty" }, TEXT.nobody));
      return;
    }
    const head = h("tr", {}, h("th", {}, "#"), h("th", { class: "player" }, TEXT.player), h("th", {}, TEXT.dailyWins),
      h("th", {}, TEXT.streak), h("th", {}, TEXT.best));
    const rows = data.results.map((row) => h("tr", { class: row.player === user.username ? "me" : null, "data-player": row.player },
      h("td", {}, row.rank),
      h("td", { class: "player" }, h("a", { href: `/players/${encodeURIComponent(row.player)}/` }, row.player)),
      h("td", {}, formatNumber(row.daily_wins)), h("td", {}, formatNumber(row.current_streak)),
      h("td", {}, formatNumber(row.best_streak))));
    box.replaceChildren(h("table", { class: "board" }, h("thead", {}, head), h("tbody", {}, rows)),
      pager(data, showPlayers) || "");
  } catch (exc) {
    box.replaceChildren(h("p", { class: "form-error" }, exc.message));
  }
}

async function start() {
  try {
    today = (await get("/api/daily/")).date;
  } catch {
    today = new Date().toISOString().slice(0, 10);
  }
  const input = $("board-date");
  input.max = today;
  const asked = params.get("date");
  const day = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked <= today ? asked : today;
  input.value = day;
  await loadGroups();
  const jobs = [showDay(day), showPlayers()];
  if (params.get("deal")) {
    $("deal-input").value = params.get("deal").toUpperCase();
    jobs.push(showDeal(params.get("deal").toUpperCase()));
  }
  await Promise.all(jobs);
  document.body.dataset.ready = "true";
}

start();
