/**
 * What a player shares after a daily game, and how it leaves the page. Pure: the facts, the
 * language and the browser's navigator are parameters, so tests can fix them.
 *
 * The text is spoiler-free: the day, won or not, the moves and the time, a picture of the
 * cards home by suit (share-picture.js), a mark when hints were used, the rank of N, both
 * streaks (days played in a row, won or given up, and of them days won) and a link; never a move of the game, nor the deal's code, which stays secret
 * until the day is final (docs/fair-play.md). So the link is the page of the deal of the day,
 * the site's root, where a friend plays the same deal that day. Its words come from the
 * catalogue (lib/i18n.js): the counts choose their plural form (Polish has three).
 */

import { clock } from "../../lib/api.js";
import { formatDay, formatNumber, gettext, interpolate, ngettext } from "../../lib/i18n.js";
import { foundationPicture } from "./share-picture.js";

/** The site's name: a brand, the same in every language. */
export const BRAND = "Easy Harp Daily";

/**
 * The facts to share from a daily game's record (saved-game.js) once the server has verified
 * it: the server's figures (its replay, its clock), the rank on the day's board and the streak
 * when known. `origin` is the site's, e.g. "https://easyharp.example"; `foundations` the
 * eight piles' heights on the table (an engine Game's), for the picture.
 */
export function shareFacts(record, origin, foundations = null) {
  const sub = record.submission || {};
  const rank = record.rank && record.rank.me ? record.rank : null;
  return {
    date: sub.daily_date,
    won: sub.won !== false,
    moves: sub.moves ?? 0,
    durationMs: sub.duration_ms ?? null,
    practice: Boolean(sub.practice),
    hints: sub.hints ?? record.hints ?? 0,
    foundations: foundations ? [...foundations] : null,
    rank: rank ? rank.me : null,
    count: rank ? rank.count : null,
    streak: isStreak(record.streak) ? { ...record.streak } : null,
    url: `${origin}/`,
  };
}

/** Both streaks as the profile gives them: {played, won}, days in a row up to today. */
export function isStreak(streak) {
  return Boolean(streak) && Number.isInteger(streak.played) && Number.isInteger(streak.won);
}

/** "Streak: 4 days played, 3 won": the days played in a row (won or given up), and won. */
export function streakLine(streak, lang) {
  return interpolate(ngettext("Streak: %(count)s day played, %(won)s won", "Streak: %(count)s days played, %(won)s won",
    streak.played), { count: formatNumber(streak.played, lang), won: formatNumber(streak.won, lang) });
}

/** The text, one fact a line, in the page's language (or `lang`'s way of writing numbers). */
export function shareText(facts, lang) {
  const moves = formatNumber(facts.moves, lang);
  const time = clock(facts.durationMs);
  const lines = [`${BRAND} · ${formatDay(facts.date, lang)}`];
  lines.push(facts.won
    ? interpolate(ngettext("Won in %(moves)s move, %(time)s", "Won in %(moves)s moves, %(time)s", facts.moves), { moves, time })
    : interpolate(ngettext("Not won: %(moves)s move, %(time)s", "Not won: %(moves)s moves, %(time)s", facts.moves), { moves, time }));
  if (facts.foundations) lines.push(foundationPicture(facts.foundations));
  if (facts.hints > 0) {
    lines.push(`💡 ${interpolate(ngettext("%(count)s hint used", "%(count)s hints used", facts.hints),
      { count: formatNumber(facts.hints, lang) })}`);
  }
  if (facts.practice) {
    lines.push(gettext("A practice game: not ranked"));
  } else if (facts.rank) {
    lines.push(interpolate(ngettext("Rank #%(rank)s of %(count)s player", "Rank #%(rank)s of %(count)s players", facts.count),
      { rank: formatNumber(facts.rank, lang), count: formatNumber(facts.count, lang) }));
  }
  if (facts.streak !== null) lines.push(streakLine(facts.streak, lang));
  lines.push(facts.url);
  return lines.join("\n");
}

/**
 * Hand `text` on: the Web Share API where the browser has it (a phone's share sheet), else the
 * clipboard. Answers "shared", "cancelled" (the person closed the sheet) or "copied"; throws
 * when neither way is open (no API, or the browser refused the clipboard).
 */
export async function deliver(text, nav = globalThis.navigator) {
  const data = { text };
  if (nav && typeof nav.share === "function" && (typeof nav.canShare !== "function" || nav.canShare(data))) {
    try {
      await nav.share(data);
      return "shared";
    } catch (exc) {
      if (exc && exc.name === "AbortError") return "cancelled";
      // Refused (no user gesture left, a policy): the clipboard may still take it.
    }
  }
  if (!nav || !nav.clipboard || typeof nav.clipboard.writeText !== "function") {
    throw new Error("neither the Web Share API nor the clipboard is available");
  }
  await nav.clipboard.writeText(text);
  return "copied";
}
