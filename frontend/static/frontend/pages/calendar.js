// /calendar/ and /calendar/YYYY-MM/: a month of deals of the day, each day marked with the
// viewer's result (won, lost, practice only, not played) and linked to its board (whose games
// can be replayed once the day is final), to the viewer's own game, and to playing its deal
// again. The previous and next months load in place (history.pushState). Words: TEXT.
import { get, h, pageData } from "../lib/api.js";
import { formatCode, parseCode } from "../engine/deal.js";
import { firstWeekday, isMonth, longDay, monthName, weekdayNames, weeks } from "./calendar-grid.js";
import { formatNumber, gettext, interpolate, ngettext } from "../lib/i18n.js";

const page = pageData();
const $ = (id) => document.getElementById(id);

/** The texts a person reads, in the page's language (i18n.js). */
const TEXT = {
  result: {
    won: gettext("won"),
    lost: gettext("lost"),
    practice: gettext("practice only"),
    none: gettext("not played"),
  },
  wonIn: (n) => interpolate(ngettext("won in %(count)s move", "won in %(count)s moves", n), { count: formatNumber(n) }),
  lostIn: (n) => interpolate(ngettext("lost after %(count)s move", "lost after %(count)s moves", n), { count: formatNumber(n) }),
  unavailable: gettext("no deal of the day"),
  today: gettext("today"),
  board: gettext("board"),
  boardAndReplays: gettext("board and replays"),
  playToday: gettext("play today's deal"),
  practise: gettext("play it again for practice"),
  yourGame: gettext("replay your game"),
  previous: gettext("Previous month"),
  next: gettext("Next month"),
  loading: gettext("Loading…"),
};
const MARKS = { won: "✓", lost: "✗", practice: "↻", none: "·" };

/** What a day's main link says to a screen reader: the day, the viewer's result, where it leads. */
function dayLabel(day, isToday) {
  const parts = [longDay(day.date)];
  if (isToday) parts.push(TEXT.today);
  if (day.result === "won" && day.moves !== null) parts.push(TEXT.wonIn(day.moves));
  else if (day.result === "lost" && day.moves !== null) parts.push(TEXT.lostIn(day.moves));
  else if (day.result) parts.push(TEXT.result[day.result]);
  parts.push(day.final ? TEXT.boardAndReplays : TEXT.board);
  return parts.join(", ");
}

/** A small link of a day's cell: a symbol, with its words for screen readers and as a tooltip. */
function smallLink(href, mark, words, testid) {
  return h("a", { class: "cal-link", href, title: words, "data-testid": testid },
    h("span", { "aria-hidden": "true" }, mark), h("span", { class: "visually-hidden" }, words));
}

/** A final day's deal as a numbered deal (its N code): played again for practice, on its deal's board. */
function practiceCode(code) {
  return formatCode(parseCode(code).number, "N");
}

function dayCell(day, today) {
  if (!day.available) {
    return h("td", { class: "cal-day unavailable", "data-date": day.date },
      h("span", { class: "cal-num", title: TEXT.unavailable }, formatNumber(Number(day.date.slice(8)))),
      h("span", { class: "visually-hidden" }, `${longDay(day.date)}: ${TEXT.unavailable}`));
  }
  const isToday = day.date === today;
  const links = [];
  if (day.final && day.code) links.push(smallLink(`/play/${practiceCode(day.code)}/`, "▶", TEXT.practise, `cal-play-${day.date}`));
  else if (isToday) links.push(smallLink("/", "▶", TEXT.playToday, `cal-play-${day.date}`));
  if (day.submission) links.push(smallLink(`/replay/${day.submission}/`, "⟲", TEXT.yourGame, `cal-mine-${day.date}`));
  return h("td", {
    class: `cal-day ${day.result || ""}${isToday ? " today" : ""}`, "data-date": day.date,
    "data-result": day.result || null, "aria-current": isToday ? "date" : null,
  },
  h("a", { class: "cal-num", href: `/boards/?date=${day.date}`, "aria-label": dayLabel(day, isToday),
    "data-testid": `cal-day-${day.date}` }, formatNumber(Number(day.date.slice(8)))),
  day.result ? h("span", { class: `cal-mark ${day.result}`, "aria-hidden": "true", title: TEXT.result[day.result] },
    MARKS[day.result]) : "",
  links.length ? h("span", { class: "cal-links" }, links) : "");
}

function monthTable(data) {
  const firstDay = firstWeekday();
  const head = h("tr", {}, weekdayNames(firstDay).map((name) => h("th", { scope: "col", abbr: name.long }, name.short)));
  const rows = weeks(data.days, firstDay).map((week) => h("tr", {},
    week.map((day) => (day ? dayCell(day, data.today) : h("td", { class: "cal-day blank" })))));
  return h("table", { class: "cal-month", "data-testid": "cal-month", "data-month": data.month },
    h("caption", { class: "visually-hidden" }, monthName(data.month)), h("thead", {}, head), h("tbody", {}, rows));
}

/** The previous or next month's link: to its page, loaded in place when followed. */
function step(id, month, words) {
  const link = $(id);
  link.hidden = !month;
  if (!month) return;
  link.href = `/calendar/${month}/`;
  link.dataset.month = month;
  link.setAttribute("aria-label", `${words}: ${monthName(month)}`);
  $(`${id}-label`).textContent = monthName(month);
}

async function show(month) {
  const box = $("calendar");
  box.setAttribute("aria-busy", "true");
  try {
    const data = await get(month ? `/api/calendar/${month}/` : "/api/calendar/");
    $("cal-title").textContent = monthName(data.month);
    step("cal-prev", data.previous, TEXT.previous);
    step("cal-next", data.next, TEXT.next);
    box.replaceChildren(monthTable(data));
    document.title = `${monthName(data.month)} · ${document.title.split(" · ").slice(-2).join(" · ")}`;
  } catch (exc) {
    box.replaceChildren(h("p", { class: "form-error", "data-testid": "calendar-error" }, exc.message));
  } finally {
    box.removeAttribute("aria-busy");
  }
}

/** The months' links load in place; the address follows, and Back goes to the month before. */
function follow(event) {
  const link = event.currentTarget;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  window.history.pushState({ month: link.dataset.month }, "", link.href);
  show(link.dataset.month).then(() => $("cal-title").focus({ preventScroll: true }));
}

function monthOfAddress() {
  const found = /^\/calendar\/(\d{4}-\d{2})\/$/.exec(window.location.pathname);
  return found && isMonth(found[1]) ? found[1] : null;
}

async function start() {
  $("cal-prev").addEventListener("click", follow);
  $("cal-next").addEventListener("click", follow);
  $("cal-title").tabIndex = -1;  // focused after a step, so the reader hears the new month
  window.addEventListener("popstate", () => show(monthOfAddress()));
  await show(page.month && isMonth(page.month) ? page.month : null);
  document.body.dataset.ready = "true";
}

start();
