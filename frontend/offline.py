"""The site offline: what the service worker (``/sw.js``, templates/frontend/sw.js) keeps in its
cache, and the version of that cache.

It keeps the static files a game page runs on (the ES modules, the style sheet, the icons), the
game page's shell (``/play/offline/``: the play page that deals the numbered deal named in its
address), the JavaScript catalogue and the manifest; with them a numbered deal's page opens and
plays offline, the engine being in the browser, and so does the start page (the installed app's),
where the shell deals a practice deal and says that today's deal needs a connection. The
version is a hash of those static files and of the worker's own template, so a deploy that
changes any of them changes ``/sw.js``, which the browser then installs afresh (a new cache, the old one deleted).

Reads only: files of this app, never the database.
"""

import hashlib
import json
import threading
from pathlib import Path

from django.templatetags.static import static
from django.urls import reverse

APP_DIR = Path(__file__).resolve().parent
STATIC_DIR = APP_DIR / "static"
WORKER_TEMPLATE = APP_DIR / "templates" / "frontend" / "sw.js"
#: What a game page loads: its modules, its style sheet, the icons. Not the engine's test
#: vectors (.json) nor the API docs' style sheet.
KEPT_SUFFIXES = (".js", ".css", ".svg", ".png")
LEFT_OUT = {"frontend/swagger.css"}

_lock = threading.Lock()
_hashed: dict = {"signature": None, "version": None}


def static_files() -> list[str]:
    """The kept static files' paths under STATIC_URL ("frontend/pages/play.js"), sorted."""
    found = []
    for path in (STATIC_DIR / "frontend").rglob("*"):
        name = path.relative_to(STATIC_DIR).as_posix()
        if path.is_file() and path.suffix in KEPT_SUFFIXES and name not in LEFT_OUT:
            found.append(name)
    return sorted(found)


def version(names: list[str] | None = None) -> str:
    """A hash of the kept files' contents and of the worker's template (16 hex digits).
    Hashed again only when a file's size or modification time changed: the browser asks for
    /sw.js on every visit, and a stat of each file is cheap where reading them all is not."""
    names = static_files() if names is None else names
    files = [(name, STATIC_DIR / name) for name in names] + [("sw.js", WORKER_TEMPLATE)]
    signature = tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for _name, path in files)
    with _lock:
        if _hashed["signature"] != signature:
            digest = hashlib.sha256()
            for name, path in files:
                digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
            _hashed.update(signature=signature, version=digest.hexdigest()[:16])
        return _hashed["version"]


def worker_context() -> dict:
    """The worker template's values, as JavaScript literals (JSON)."""
    names = static_files()
    shell = reverse("frontend:play-offline")
    catalogue = reverse("javascript-catalog")
    manifest = reverse("frontend:manifest")
    assets = [static(name) for name in names]
    return {
        "version": json.dumps(version(names)),
        "precache": json.dumps(assets + [shell, catalogue, manifest], indent=1),
        "shell": json.dumps(shell),
        "catalogue": json.dumps(catalogue),
        "manifest": json.dumps(manifest),
    }
