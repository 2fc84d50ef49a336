/**
 * A small bar chart of moves in buckets ({low, high, count}, as the API sends them), drawn as
 * SVG, with a text alternative: the SVG is one image with a summary for screen readers, and a
 * table of every bucket follows it (visually hidden). One bar may be marked "you are here".
 * Used by the player's page (moves in won games) and the day's board (the winners' moves).
 */

import { h } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

const TEXT = {
  range: (b) => (b.low === b.high ? formatNumber(b.low) : `${formatNumber(b.low)}–${formatNumber(b.high)}`),
  moves: gettext("Moves"),
  games: gettext("Games"),
  here: gettext("you are here"),
  bar: (b, n) => interpolate(ngettext("Moves %(moves)s: %(count)s game", "Moves %(moves)s: %(count)s games", n),
    { moves: TEXT.range(b), count: formatNumber(n) }),
};

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** The widest slot of a bar: a few buckets make a few slim bars in the middle, not wide slabs. */
const MAX_SLOT = 72;

/** The bars' geometry in a `width` x `height` plot: pure, for the tests. */
export function bars(buckets, width, height) {
  const most = Math.max(1, ...buckets.map((b) => b.count));
  const slot = Math.min(width / Math.max(1, buckets.length), MAX_SLOT);
  const left = (width - slot * buckets.length) / 2;
  return buckets.map((b, i) => {
    const tall = (b.count / most) * height;
    return { x: left + i * slot + slot * 0.1, width: slot * 0.8, y: height - tall, height: tall };
  });
}

/**
 * A figure: the chart (`label` summarises it for screen readers) and its table.
 * `here`: the index of the bucket marked "you are here", or null. `testid` names the figure.
 */
export function barChart(buckets, { label, here = null, testid = "bar-chart" }) {
  const width = 640;
  const height = 180;
  const pad = { left: 36, right: 8, top: 22, bottom: 28 };
  const plot = { width: width - pad.left - pad.right, height: height - pad.top - pad.bottom };
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  const most = Math.max(0, ...buckets.map((b) => b.count));
  chart.append(
    svg("line", { class: "axis", x1: pad.left, y1: pad.top + plot.height, x2: width - pad.right, y2: pad.top + plot.height }),
    svg("text", { x: pad.left - 6, y: pad.top + 4, "text-anchor": "end" }, formatNumber(most)),
    svg("text", { x: pad.left - 6, y: pad.top + plot.height, "text-anchor": "end" }, "0"),
  );
  const every = Math.ceil(buckets.length / 8);  // labels under at most 8 bars
  bars(buckets, plot.width, plot.height).forEach((bar, i) => {
    const bucket = buckets[i];
    const mine = i === here;
    const rect = svg("rect", { class: mine ? "bar here" : "bar", x: (pad.left + bar.x).toFixed(1),
      y: (pad.top + bar.y).toFixed(1), width: bar.width.toFixed(1), height: Math.max(bar.height, 0).toFixed(1),
      "data-low": bucket.low, "data-count": bucket.count });
    rect.append(svg("title", {}, TEXT.bar(bucket, bucket.count)));
    chart.append(rect);
    const centre = (pad.left + bar.x + bar.width / 2).toFixed(1);
    if (i % every === 0 || mine) {
      chart.append(svg("text", { x: centre, y: height - 10, "text-anchor": "middle" }, TEXT.range(bucket)));
    }
    if (mine) {
      chart.append(svg("text", { class: "here-label", x: centre, y: Math.max(pad.top + bar.y - 6, 12).toFixed(1),
        "text-anchor": "middle", "data-testid": "you-are-here" }, `▼ ${TEXT.here}`));
    }
  });
  const rows = buckets.map((b, i) => h("tr", { class: i === here ? "here" : null },
    h("th", { scope: "row" }, TEXT.range(b)),
    h("td", {}, i === here ? `${formatNumber(b.count)} (${TEXT.here})` : formatNumber(b.count))));
  const table = h("table", { class: "visually-hidden" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, TEXT.moves), h("th", { scope: "col" }, TEXT.games))),
    h("tbody", {}, rows));
  return h("figure", { class: "chart bar-chart", "data-testid": testid }, chart, table);
}
