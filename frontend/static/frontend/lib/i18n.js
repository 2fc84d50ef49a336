/**
 * Translation for the ES modules: Django's JavaScript catalogue in one import.
 *
 * base.html loads /jsi18n/ (Django's JavaScriptCatalog over locale/<lang>/djangojs.po) as a
 * classic script before any module runs; it defines `django.gettext` and friends for the page's
 * language. Without it (Node's tests, a failed load) every text stays English: the msgids are
 * the English words. `makemessages` (and tools/catalogues.py) find the strings by these
 * functions' names: call them with plain string literals.
 *
 * Placeholders are named, %(name)s, so a translation may put them in any order:
 *   interpolate(ngettext("%(count)s move", "%(count)s moves", n), { count: formatNumber(n) })
 *
 * Also the page's language (<html lang>) for Intl: numbers and dates the reader's way.
 */

/** Django's catalogue functions, when /jsi18n/ has run (read at each call: tests swap it). */
function catalogue() {
  return globalThis.django && typeof globalThis.django.gettext === "function" ? globalThis.django : null;
}

/** The text of `msgid` in the page's language. */
export function gettext(msgid) {
  const django = catalogue();
  return django ? django.gettext(msgid) : msgid;
}

/** The form of `singular`/`plural` for `count` (Polish has three: 1, 2-4, 5+). */
export function ngettext(singular, plural, count) {
  const django = catalogue();
  if (django) return django.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** The text of `msgid` in `context`, for words that translate differently by use. */
export function pgettext(context, msgid) {
  const django = catalogue();
  return django ? django.pgettext(context, msgid) : msgid;
}

/** Marks `msgid` for the catalogue without translating it (translate later, by value). */
export function gettext_noop(msgid) {
  return msgid;
}

/** `text` with each %(name)s replaced by `values[name]` (a missing name is left as it is). */
export function interpolate(text, values = {}) {
  return text.replace(/%\((\w+)\)s/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** The page's language ("en", "pl", "de"), from <html lang>; "en" without a page. */
export function language() {
  const lang = globalThis.document && globalThis.document.documentElement.lang;
  return lang || "en";
}

/** An integer or decimal the reader's way: 1,234 / 1 234 / 1.234. */
export function formatNumber(n, lang = language()) {
  return new Intl.NumberFormat(lang).format(n);
}

/** A UTC calendar day ("2026-12-01") the reader's way: "1 Dec 2026", "1 gru 2026", "01.12.2026". */
export function formatDay(isoDay, lang = language()) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(isoDay))) return String(isoDay);
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${isoDay}T00:00:00Z`));
}
