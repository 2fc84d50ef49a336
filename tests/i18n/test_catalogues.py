"""The translation catalogues (locale/) are complete and compiled, and plurals are right.

Complete: every string the code marks (what ``makemessages`` would extract, found without
xgettext by tools/catalogues.py) is in the Polish and German catalogues of its domain, with
a translation that is neither empty nor fuzzy, and no catalogue keeps a string the code no
longer marks. Compiled: each committed .mo holds exactly its .po (``python -m tools.catalogues
compile`` writes them; README, "Languages").
"""

import json
import re
import shutil
import subprocess

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from tools import catalogues

pytestmark = pytest.mark.django_db


def test_the_three_languages_are_served():
    from django.conf import settings

    assert [code for code, _name in settings.LANGUAGES] == ["en", "pl", "de"]
    assert catalogues.TRANSLATED == ("pl", "de")
    assert "config.middleware.LanguageMiddleware" in settings.MIDDLEWARE


def test_every_marked_string_is_translated_and_every_mo_is_compiled():
    found = catalogues.problems()
    assert not found, (
        "the catalogues are not complete: run `.venv/bin/python -m tools.catalogues update`, "
        "translate the new strings in locale/*/LC_MESSAGES/*.po, then `... -m tools.catalogues compile`:\n"
        + "\n".join(found)
    )


def test_the_extraction_finds_what_makemessages_would():
    """A few markers of each kind: Python (gettext_noop, gettext_lazy, ngettext), templates
    (translate, blocktranslate with count and context) and the ES modules (gettext, ngettext,
    pgettext, gettext_noop with + between literals)."""
    django = catalogues.extract("django")
    js = catalogues.extract("djangojs")
    assert (None, "Nothing to undo.") in django  # games/refusals.py
    assert (None, "%(count)d result hidden.") in django  # ngettext, admin.py
    assert (None, "Leaderboards") in django  # {% translate %}
    assert ("a deal", "Play") in django and ("replay: first step", "Start") in django
    plural = django[
        (
            None,
            "Your first try at the day's deal is the ranked one. The cards stay hidden until you "
            "press Start, and the server's clock starts then. Later tries are practice: verified, "
            "but never ranked.",
        )
    ]
    assert isinstance(plural.id, tuple)  # blocktranslate count
    assert (None, "closes at %(time)s") in js
    assert ("replay", "Play") in js
    assert (
        None,
        "No foundation takes {card}: the {suit} foundations ({first} and {second}) take only the "
        "next card of their suit, Ace first.",
    ) in js  # engine/refusals.js, "a" + "b"
    assert not any("stack" in name for entry in django.values() for name in entry.files)


@pytest.mark.parametrize(
    ("count", "form"),
    [
        (1, "Ukryto 1 wynik."),
        (2, "Ukryto 2 wyniki."),
        (4, "Ukryto 4 wyniki."),
        (5, "Ukryto 5 wyników."),
        (12, "Ukryto 12 wyników."),
        (14, "Ukryto 14 wyników."),
        (22, "Ukryto 22 wyniki."),
        (25, "Ukryto 25 wyników."),
    ],
)
def test_polish_has_three_plural_forms_in_python(count, form):
    with translation.override("pl"):
        assert ngettext("%(count)d result hidden.", "%(count)d results hidden.", count) % {"count": count} == form


def test_german_has_two_plural_forms_in_python():
    with translation.override("de"):
        words = [ngettext("%(count)d result hidden.", "%(count)d results hidden.", n) % {"count": n} for n in (1, 2)]
    assert words == ["1 Ergebnis ausgeblendet.", "2 Ergebnisse ausgeblendet."]


def _catalogue_script(language: str) -> str:
    response = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    return response.content.decode()


def _catalogue(script: str) -> dict:
    """The translations in Django's catalogue script ({} when it carries none)."""
    found = re.search(r"const newcatalog = (\{.*?\});\n", script, re.S)
    return json.loads(found.group(1)) if found else {}


@pytest.mark.parametrize("language", catalogues.TRANSLATED)
def test_the_javascript_catalogue_translates_every_string_of_the_modules(language):
    catalogue = _catalogue(_catalogue_script(language))
    untranslated = []
    for context, msgid in catalogues.extract("djangojs"):
        key = f"{context}\x04{msgid}" if context else msgid
        words = catalogue.get(key)
        forms = words if isinstance(words, list) else [words]
        if not words or not all(forms):
            untranslated.append(msgid)
        elif len(re.sub(r"%\(\w+\)s|\{\w+\}", "", msgid).split()) >= 3 and forms[0] == msgid:
            untranslated.append(msgid)
    assert not untranslated, f"/jsi18n/ in {language} lacks: {untranslated}"


def test_the_english_javascript_catalogue_is_empty():
    """English is the msgids: the modules' own words, no catalogue to load."""
    script = _catalogue_script("en")
    assert "django.gettext" in script and _catalogue(script) == {}


_PLURALS = """
const vm = require("node:vm");
const box = {};
vm.runInNewContext(process.argv[1], box);
const out = [1, 2, 3, 4, 5, 11, 12, 13, 21, 22, 25, 101, 102, 112].map(
  (n) => box.django.interpolate(box.django.ngettext("%(count)s move", "%(count)s moves", n), { count: n }, true));
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH (apt-get install nodejs)")
def test_polish_plurals_in_the_browser_catalogue():
    """The browser's ngettext (Django's catalogue script, run in Node) picks Polish forms:
    1 ruch, 2-4 ruchy (not 12-14), 5+ ruchów."""
    script = _catalogue_script("pl")
    out = subprocess.run(["node", "-e", _PLURALS, script], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [
        "1 ruch",
        "2 ruchy",
        "3 ruchy",
        "4 ruchy",
        "5 ruchów",
        "11 ruchów",
        "12 ruchów",
        "13 ruchów",
        "21 ruchów",
        "22 ruchy",
        "25 ruchów",
        "101 ruchów",
        "102 ruchy",
        "112 ruchów",
    ]
