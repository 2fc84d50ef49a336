// A day's winners' moves as a bar chart (charts.js), the viewer's own bar marked "you are
// here": on the boards page under the day's board. Its words are in TEXT, translated.
import { get, h } from "../lib/api.js";
import { barChart } from "../lib/charts.js";
import { formatNumber, gettext, interpolate, ngettext } from "../lib/i18n.js";

const TEXT = {
  title: gettext("Winners' moves"),
  label: (n) => interpolate(ngettext("Moves of %(count)s winner of the day", "Moves of %(count)s winners of the day", n),
    { count: formatNumber(n) }),
  nobody: gettext("Nobody has won this day's deal yet."),
  youWon: (n) => interpolate(ngettext("You won in %(count)s move.", "You won in %(count)s moves.", n),
    { count: formatNumber(n) }),
  youLost: gettext("Your result of the day is not a win."),
};

/** The histogram of `day` ("YYYY-MM-DD") into `box`; nothing shown when it cannot be read. */
export async function showHistogram(box, day) {
  if (!box) return;
  let data;
  try {
    data = await get(`/api/leaderboards/daily/${day}/histogram/`);
  } catch {
    box.replaceChildren();
    return;
  }
  const mine = data.me ? (data.me.won ? TEXT.youWon(data.me.moves) : TEXT.youLost) : null;
  if (!data.winners) {
    box.replaceChildren(h("h3", {}, TEXT.title), h("p", { class: "empty" }, TEXT.nobody), mine ? h("p", {}, mine) : "");
    return;
  }
  const here = data.me && data.me.won ? data.me.bucket : null;
  box.replaceChildren(
    h("h3", {}, TEXT.title),
    barChart(data.buckets, { label: [TEXT.label(data.winners), mine].filter(Boolean).join(" "), here, testid: "day-histogram" }),
    mine ? h("p", { class: "muted", "data-testid": "histogram-mine" }, mine) : "",
  );
  box.dataset.day = day;
}
