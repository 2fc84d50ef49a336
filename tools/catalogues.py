"""The translation catalogues, in pure Python: what ``makemessages`` and ``compilemessages`` do,
without GNU gettext (xgettext, msgfmt), which a machine with only python3 lacks.

- ``extract(domain)``: every marked string of the project, as ``makemessages`` finds them:
  domain ``django`` from the apps' ``.py`` files (Django's keywords: gettext, gettext_lazy,
  gettext_noop, ngettext, pgettext, ``_``, ...) and templates (``.html``/``.txt``, through
  Django's own ``templatize``, which is what makemessages hands xgettext); ``djangojs`` from
  the ES modules (``gettext``, ``ngettext``, ``gettext_noop``, ... in ``.js``).
- ``update()``: merges them into ``locale/<lang>/LC_MESSAGES/<domain>.po`` (new strings
  untranslated, vanished ones dropped, translations kept).
- ``compile()``: writes each ``.po`` as its ``.mo`` (fuzzy entries left out, as msgfmt does),
  ``locale/packages``' too (Polish for installed packages that ship none, written by hand).
- ``problems()``: what keeps the catalogues from being complete: a string not in a catalogue,
  one left untranslated or fuzzy, a ``.mo`` that is not its ``.po`` compiled.

The ``.mo`` files are committed, so ``make run`` needs none of this; Babel (the extractor and
the .po/.mo reader and writer) is a test and tool dependency (requirements-dev.in).
``python -m tools.catalogues update|compile|check`` runs these (it sets Django up itself: the
settings name the languages); tests/i18n checks ``problems()`` is empty.
"""

from __future__ import annotations

import argparse
import gettext as stdlib_gettext
import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import django
from django.conf import settings

if __name__ == "__main__":  # run as a tool, not imported by a test that has set Django up
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
# Ours for installed packages that ship no Polish (on LOCALE_PATHS too): written by hand, compiled here.
PACKAGES = LOCALE / "packages"
#: The apps whose strings are translated (makemessages run from the root finds no others:
#: tests/ and benchmarks/ mark nothing).
SOURCE_ROOTS = ("config", "games", "leaderboard", "frontend")
DOMAINS = {"django": (".py", ".html", ".txt"), "djangojs": (".js",)}
#: The languages with catalogues: every language but the one the msgids are written in.
TRANSLATED = tuple(code for code, _name in settings.LANGUAGES if code != "en")
SKIP_DIRS = {"__pycache__", "tests", "node_modules", "staticfiles"}
PROJECT = "Easy Harp Daily"

# xgettext's keywords for Python and JavaScript plus the ones makemessages adds (in Babel's
# spelling: None is the first argument, a tuple the singular and plural, (n, "c") a context).
_KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_noop": None,
    "gettext_lazy": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
#: Header dates are fixed: a catalogue changes only when its strings do.
_FIXED_DATE = datetime(2026, 12, 2, tzinfo=UTC)


@dataclass
class Entry:
    """One marked string: its msgid (a (singular, plural) pair for ngettext), context and
    the files it is in."""

    id: str | tuple[str, ...]
    context: str | None
    files: set[str] = field(default_factory=set)

    @property
    def key(self) -> str:
        return self.id[0] if isinstance(self.id, tuple) else self.id


def source_files(domain: str) -> Iterator[Path]:
    suffixes = DOMAINS[domain]
    for top in SOURCE_ROOTS:
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT)
            if path.suffix in suffixes and path.is_file() and not SKIP_DIRS & set(relative.parts):
                yield path


def _messages(path: Path) -> Iterator[tuple[str | tuple[str, ...], str | None]]:
    from babel.messages.extract import extract
    from django.utils.translation.template import templatize

    text = path.read_text(encoding="utf-8")
    if path.suffix == ".js":
        method, source = "javascript", text
    elif path.suffix == ".py":
        method, source = "python", text
    else:
        method, source = "python", templatize(text, origin=str(path))
    found = extract(
        method,
        io.BytesIO(source.encode("utf-8")),
        keywords=_KEYWORDS,
        comment_tags=(),
        options={"encoding": "utf-8", "parse_template_string": "true"},
    )
    for _line, message, _comments, context in found:
        parts = message if isinstance(message, tuple) else (message,)
        if all(parts) and len(parts) <= 2:  # a literal (not a variable): what xgettext takes
            yield message, context


def extract(domain: str) -> dict[tuple[str | None, str], Entry]:
    """Every marked string of ``domain``, keyed by (context, msgid), in order of first use."""
    entries: dict[tuple[str | None, str], Entry] = {}
    for path in source_files(domain):
        for message, context in _messages(path):
            entry = Entry(message, context)
            entry = entries.setdefault((context, entry.key), entry)
            entry.files.add(str(path.relative_to(ROOT)))
    return entries


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def read_po(path: Path):
    from babel.messages.pofile import read_po as babel_read_po

    with path.open("rb") as handle:
        return babel_read_po(handle, abort_invalid=True)


def _template(domain: str):
    from babel.messages.catalog import Catalog

    catalog = Catalog(project=PROJECT, charset="utf-8", creation_date=_FIXED_DATE)
    for entry in extract(domain).values():
        # No line numbers (None), which Babel takes though it annotates an int.
        locations = [(name, None) for name in sorted(entry.files)]
        catalog.add(entry.id, context=entry.context, locations=locations)  # type: ignore[arg-type]
    return catalog


def _content(catalog) -> list[tuple]:
    return [(m.id, m.context, m.string, sorted(m.flags), sorted(m.locations)) for m in catalog if m.id]


def update() -> list[Path]:
    """Merge the marked strings into every catalogue; returns the .po files that changed."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    changed = []
    for domain in DOMAINS:
        template = _template(domain)
        for language in TRANSLATED:
            path = po_path(language, domain)
            if path.exists():
                catalog = read_po(path)
            else:
                catalog = Catalog(
                    locale=language,
                    domain=domain,
                    project=PROJECT,
                    charset="utf-8",
                    creation_date=_FIXED_DATE,
                    revision_date=_FIXED_DATE,
                )
            before = _content(catalog)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            if _content(catalog) == before and path.exists():
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            buffer = io.BytesIO()
            write_po(buffer, catalog, width=100, include_lineno=False, omit_header=False)
            path.write_bytes(buffer.getvalue())
            changed.append(path)
    return changed


def compiled(path: Path) -> bytes:
    """The .mo of the .po at ``path``, as ``compilemessages`` would write it."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, read_po(path), use_fuzzy=False)
    return buffer.getvalue()


def compile() -> list[Path]:  # noqa: A001 - the name of the job
    """Write every .po as its .mo; returns the .mo files written."""
    written = []
    for po in sorted([*LOCALE.glob("*/LC_MESSAGES/*.po"), *PACKAGES.glob("*/LC_MESSAGES/*.po")]):
        mo = po.with_suffix(".mo")
        data = compiled(po)
        if not mo.exists() or not _same_mo(mo.read_bytes(), data):
            mo.write_bytes(data)
            written.append(mo)
    return written


def _mo_catalog(data: bytes) -> dict:
    # The parsed messages have no public accessor: gettext keeps them in _catalog.
    return dict(stdlib_gettext.GNUTranslations(io.BytesIO(data))._catalog)  # type: ignore[attr-defined]


def _same_mo(a: bytes, b: bytes) -> bool:
    """Whether two .mo files hold the same translations (whoever wrote them: msgfmt or Babel)."""
    return _mo_catalog(a) == _mo_catalog(b)


def problems() -> list[str]:
    """Why the catalogues are not complete and compiled, one line each; [] when they are."""
    found = []
    for domain in DOMAINS:
        wanted = extract(domain)
        for language in TRANSLATED:
            path = po_path(language, domain)
            rel = path.relative_to(ROOT)
            if not path.exists():
                found.append(f"{rel} is missing")
                continue
            catalog = read_po(path)
            for (context, msgid), entry in wanted.items():
                message = catalog.get(entry.id, context=context)
                if message is None:
                    found.append(f"{rel}: not in the catalogue: {msgid!r} ({', '.join(sorted(entry.files))})")
                elif isinstance(entry.id, tuple) != isinstance(message.id, tuple):
                    found.append(f"{rel}: {msgid!r} is plural in one and not in the other")
            for message in catalog:
                if not message.id:
                    continue
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if message.fuzzy:
                    found.append(f"{rel}: fuzzy: {message.id!r}")
                elif not all(strings) or len(strings) != catalog.num_plurals and message.pluralizable:
                    found.append(f"{rel}: untranslated: {message.id!r}")
                elif (message.context, message.id[0] if message.pluralizable else message.id) not in wanted:
                    found.append(f"{rel}: no longer marked in the code: {message.id!r}")
            mo = path.with_suffix(".mo")
            if not mo.exists() or not _same_mo(mo.read_bytes(), compiled(path)):
                found.append(f"{mo.relative_to(ROOT)} is not {path.name} compiled")
    return found


def msgids(domain: str) -> list[str]:
    """The English strings of ``domain`` (singular and plural), for tests that look for them."""
    ids: list[str] = []
    for entry in extract(domain).values():
        ids.extend(entry.id if isinstance(entry.id, tuple) else (entry.id,))
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.catalogues",
        description="The translation catalogues (locale/) without GNU gettext: `update` merges the "
        "strings marked in the code into every .po (as makemessages), `compile` writes each "
        ".po as its .mo (as compilemessages), `check` fails when a string is missing, "
        "untranslated or fuzzy, or a .mo is stale. Needs Babel (requirements-dev.txt).",
    )
    parser.add_argument("job", choices=["update", "compile", "check"])
    job = parser.parse_args(argv).job
    if job == "update":
        for path in update():
            print(f"updated {path.relative_to(ROOT)}")
        return 0
    if job == "compile":
        for path in compile():
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    found = problems()
    if found:
        print("\n".join(found), file=sys.stderr)
        return 1
    print("the catalogues are complete and compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
