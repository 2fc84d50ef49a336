// /groups/<id>/: the group's board of a day (today by default, ?date= for past days), its
// standings for a month (?month=), its members and, for the owner, the invite link and the
// owner's tools. To anyone but a member the API answers 404: the page shows that message only.
import { api, clock, get, h, pageData, post } from "../../lib/api.js";
import { formatDay, formatNumber } from "../../lib/i18n.js";
import { fetchTagged, politeRegion, showTable, watch } from "../../lib/live.js";
import { TEXT } from "./text.js";

const page = pageData();
const user = page.user || {};
const base = `/api/groups/${page.group}/`;
const params = new URLSearchParams(window.location.search);
const $ = (id) => document.getElementById(id);
const BOARD_SIZE = 100; // a group's whole board: at most 100 members
let today = null;
let group = null;
let boardWatch = null; // the shown day's board, polled (live.js)
let boardShown = 0; // counts showDay's calls: a late answer of an earlier one is not watched
const sayPlace = politeRegion($("board-meta"), "place-news");

function setParam(name, value) {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  window.history.replaceState(null, "", url);
}

function failed(exc) {
  $("group-error").textContent = exc.message;
}

// -- the day's board --------------------------------------------------------------------------

function resultCell(row) {
  return h("td", {}, h("span", { class: row.won ? "badge" : "badge lost" }, row.won ? TEXT.won : TEXT.notWon),
    row.hints > 0 ? h("span", { class: "badge hinted", title: TEXT.hintsTitle }, TEXT.hints(row.hints)) : null);
}

/** The group's rows: place in the group, the result, and its rank on the day's board. */
export function boardTable(data, { replayable = () => false } = {}) {
  if (!data.results.length) return h("p", { class: "empty" }, TEXT.emptyBoard);
  const head = h("tr", {}, h("th", {}, "#"), h("th", { class: "player" }, TEXT.player), h("th", {}, TEXT.result),
    h("th", {}, TEXT.moves), h("th", {}, TEXT.score), h("th", { class: "board-col-optional" }, TEXT.time),
    h("th", { title: TEXT.dayRankTitle }, TEXT.dayRank), h("th", {}, ""));
  const rows = data.results.map((row) => h("tr", {
    class: row.player === user.username ? "me" : null, "data-player": row.player, "data-rank": row.rank,
  },
  h("td", { "data-testid": "row-rank" }, row.rank),
  h("td", { class: "player" }, h("a", { href: `/players/${encodeURIComponent(row.player)}/` }, row.player)),
  resultCell(row),
  h("td", { "data-testid": "row-moves" }, formatNumber(row.moves)),
  h("td", {}, formatNumber(row.score)),
  h("td", { class: "board-col-optional" }, clock(row.duration_ms)),
  h("td", { "data-testid": "row-day-rank" }, `#${formatNumber(row.day_rank)}`),
  h("td", {}, replayable(row) ? h("a", { href: `/replay/${row.submission}/` }, TEXT.replay) : "")));
  return h("table", { class: "board" }, h("thead", {}, head), h("tbody", {}, rows));
}

async function showDay(day) {
  if (boardWatch) boardWatch.stop();
  boardWatch = null;
  const shown = ++boardShown;
  const box = $("group-board");
  box.replaceChildren(h("p", { class: "empty" }, TEXT.loading));
  // The day by its date, today too: a page left open past midnight goes on showing its day.
  const path = `${base}boards/daily/${day}/`;
  const boardPath = `${path}?page_size=${BOARD_SIZE}`;
  try {
    const [first, mine, deal] = await Promise.all([
      fetchTagged(boardPath),
      get(`${path}?around=me&page_size=1`),
      get(`/api/daily/${day}/`).catch(() => null),
    ]);
    const final = deal ? deal.final : false;
    let place = mine.me;
    const draw = (board) => {
      $("board-meta").replaceChildren(TEXT.boardMeta(day === today ? TEXT.today : formatDay(day), board.count, board.members),
        place ? h("b", { "data-testid": "my-place" }, TEXT.yourPlace(place)) : "");
      showTable(box, boardTable(board, { replayable: (row) => final || row.player === user.username }));
    };
    draw(first.data);
    box.dataset.day = day;
    if (shown !== boardShown) return;
    // Live, without a reload (an unchanged board is a 304). The whole group is one page (at
    // most 100 members), so the caller's place is their row's: one poll, not two.
    boardWatch = watch(boardPath, (board) => {
      const row = board.results.find((each) => each.player === user.username);
      if (row && row.rank !== place) sayPlace(TEXT.placeNow(row.rank));
      place = row ? row.rank : null;
      draw(board);
    }, { tag: first.tag });
  } catch (exc) {
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

// -- standings --------------------------------------------------------------------------------

async function showMonth(month) {
  const box = $("standings");
  try {
    const data = await get(`${base}standings/?month=${month}`);
    $("points-note").textContent = TEXT.pointsNote(data.place_points, data.played_points);
    if (!data.days) {
      box.replaceChildren(h("p", { class: "empty" }, TEXT.noStandings));
      return;
    }
    const head = h("tr", {}, h("th", {}, "#"), h("th", { class: "player" }, TEXT.player), h("th", {}, TEXT.points),
      h("th", {}, TEXT.firsts), h("th", {}, TEXT.wonDays), h("th", {}, TEXT.played), h("th", {}, TEXT.averagePlace));
    const rows = data.results.map((row) => h("tr", { class: row.player === user.username ? "me" : null, "data-player": row.player },
      h("td", {}, row.rank),
      h("td", { class: "player" }, h("a", { href: `/players/${encodeURIComponent(row.player)}/` }, row.player)),
      h("td", { "data-testid": "standing-points" }, formatNumber(row.points)), h("td", {}, formatNumber(row.firsts)),
      h("td", {}, formatNumber(row.won)), h("td", {}, formatNumber(row.days_played)),
      h("td", {}, row.average_place === null ? "–" : formatNumber(row.average_place))));
    box.replaceChildren(h("table", { class: "board" }, h("thead", {}, head), h("tbody", {}, rows)));
  } catch (exc) {
    box.replaceChildren(h("p", { class: "form-error" }, exc.message));
  }
}

$("month-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const month = $("standings-month").value;
  if (!/^\d{4}-\d{2}$/.test(month)) return;
  setParam("month", month === today.slice(0, 7) ? null : month);
  showMonth(month);
});

// -- members, invite, the owner's tools --------------------------------------------------------

/** Run `work` (an API call), then show the group again; a refusal is shown, not thrown. */
async function act(work, after = showGroup) {
  $("group-error").textContent = "";
  try {
    await work();
    await after();
  } catch (exc) {
    failed(exc);
  }
}

function memberRow(member) {
  const tools = [];
  if (group.is_owner && !member.owner) {
    tools.push(
      h("button", { type: "button", "data-testid": "member-hand-on", onclick: () => {
        if (window.confirm(TEXT.confirmHandOn(member.player))) act(() => post(`${base}owner/`, { player: member.player }));
      } }, TEXT.handOn), " ",
      h("button", { type: "button", "data-testid": "member-remove", onclick: () => {
        if (window.confirm(TEXT.confirmRemove(member.player))) {
          act(() => api(`${base}members/${encodeURIComponent(member.player)}/`, { method: "DELETE" }));
        }
      } }, TEXT.remove));
  }
  return h("tr", { "data-player": member.player, class: member.player === user.username ? "me" : null },
    h("td", { class: "player" }, h("a", { href: `/players/${encodeURIComponent(member.player)}/` }, member.player),
      member.owner ? h("span", { class: "badge", "data-testid": "owner-badge" }, TEXT.owner) : null),
    h("td", { class: "muted" }, TEXT.joined(member.joined_at)), h("td", {}, tools));
}

function inviteTools() {
  const box = $("invite");
  if (!group.invite) {
    box.replaceChildren(h("p", { class: "muted" }, TEXT.revoked),
      h("button", { type: "button", "data-testid": "invite-rotate", onclick: () => act(() => post(`${base}invite/`)) },
        TEXT.makeLink));
    return;
  }
  const link = `${window.location.origin}${group.invite.url}`;
  const field = h("input", { readonly: true, value: link, size: 60, "aria-label": TEXT.inviteLabel, "data-testid": "invite-link" });
  const copy = h("button", { type: "button", "data-testid": "invite-copy", onclick: async () => {
    field.select();
    try { await navigator.clipboard.writeText(link); copy.textContent = TEXT.copied; } catch { /* selected: copy by hand */ }
  } }, TEXT.copy);
  box.replaceChildren(h("p", { class: "inline-form" }, field, copy,
    h("button", { type: "button", "data-testid": "invite-rotate", onclick: () => act(() => post(`${base}invite/`)) }, TEXT.newLink),
    h("button", { type: "button", "data-testid": "invite-revoke",
      onclick: () => act(() => api(`${base}invite/`, { method: "DELETE" })) }, TEXT.revoke)));
}

async function showGroup() {
  group = await get(base);
  $("group-title").textContent = group.name;
  document.title = `${group.name} · Easy Harp Daily`;
  $("group-meta").textContent = TEXT.meta(group.owner, group.members.length, group.created_at);
  $("members").replaceChildren(h("table", { class: "board members" }, h("tbody", {}, group.members.map(memberRow))));
  $("invite-block").hidden = !group.is_owner;
  if (group.is_owner) inviteTools();
  $("delete").hidden = !group.is_owner;
  for (const id of ["board-block", "standings-block", "members-block", "actions-block"]) $(id).hidden = false;
}

$("leave").addEventListener("click", () => {
  if (!window.confirm(TEXT.confirmLeave)) return;
  act(() => post(`${base}leave/`), () => window.location.assign("/groups/"));
});

$("delete").addEventListener("click", () => {
  if (!window.confirm(TEXT.confirmDelete)) return;
  act(() => api(base, { method: "DELETE" }), () => window.location.assign("/groups/"));
});

async function start() {
  try {
    today = (await get("/api/daily/")).date;
  } catch {
    today = new Date().toISOString().slice(0, 10);
  }
  try {
    await showGroup();
  } catch (exc) {
    failed(exc);
    document.body.dataset.ready = "true";
    return;
  }
  const input = $("board-date");
  input.max = today;
  const asked = params.get("date");
  const day = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked <= today ? asked : today;
  input.value = day;
  const askedMonth = params.get("month");
  const month = askedMonth && /^\d{4}-\d{2}$/.test(askedMonth) ? askedMonth : today.slice(0, 7);
  $("standings-month").value = month;
  await Promise.all([showDay(day), showMonth(month)]);
  document.body.dataset.ready = "true";
}

start();
