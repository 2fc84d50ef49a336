"""Installable and offline (issue 14, item 7), as the server serves it: the web app manifest
and its icons, the service worker at the site's root with what it keeps and the version of its
cache (a hash of the static files it keeps), and the game page's shell it keeps."""

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from frontend import offline

pytestmark = pytest.mark.django_db


def worker_constants(body: str) -> dict:
    """The worker's JSON constants (VERSION, PRECACHE, ...) as Python values."""
    found = {}
    for name, value in re.findall(r"^const (VERSION|PRECACHE|SHELL|CATALOGUE|MANIFEST) = (.+?);$", body, re.M | re.S):
        found[name] = json.loads(value)
    return found


def test_the_worker_is_served_from_the_root_for_the_whole_site():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    # The site's policy lets the worker run and fetch: its own origin only, nothing inline.
    directives = [part.split() for part in response["Content-Security-Policy"].split(";") if part.strip()]
    policy = {name: values for name, *values in directives}
    assert policy["default-src"] == ["'self'"]
    assert not {"worker-src", "child-src", "script-src", "connect-src", "manifest-src"} & set(policy)


def test_the_worker_keeps_what_a_numbered_deal_needs_and_not_the_test_vectors():
    constants = worker_constants(Client().get("/sw.js").content.decode())
    kept = constants["PRECACHE"]
    assert constants["SHELL"] == "/play/offline/" and constants["CATALOGUE"] == "/jsi18n/"
    assert constants["MANIFEST"] == "/manifest.webmanifest"
    for path in (
        "/static/frontend/pages/play.js",
        "/static/frontend/engine/game.js",
        "/static/frontend/app.css",
        "/static/frontend/engine/refusals.js",
        "/static/frontend/pages/play/deal.js",
        "/static/frontend/lib/i18n.js",
        "/static/frontend/lib/offline.js",
        "/static/frontend/icons/icon-192.png",
        "/play/offline/",
        "/jsi18n/",
        "/manifest.webmanifest",
    ):
        assert path in kept, path
    assert not [path for path in kept if path.endswith(".json") or "swagger" in path]
    # Every static file it keeps is one the site serves.
    for path in kept:
        if path.startswith("/static/"):
            assert finders.find(path.removeprefix("/static/")), path
    # Every module play.html loads is kept.
    shell = Client().get("/play/EH1-N-AAAAAAF/").content.decode()
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', shell):
        assert src in kept, src
    assert constants["VERSION"] == offline.version()


def test_the_version_changes_with_any_kept_file_and_only_with_them(tmp_path, monkeypatch):
    copy = tmp_path / "static"
    shutil.copytree(offline.STATIC_DIR, copy)
    monkeypatch.setattr(offline, "STATIC_DIR", copy)
    first = offline.version()
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    assert offline.version() == first  # unchanged files: the same version

    vectors = copy / "frontend" / "engine" / "vectors.json"
    vectors.write_text(vectors.read_text() + " ")
    assert offline.version() == first  # not a kept file

    module = copy / "frontend" / "pages" / "play" / "deal.js"
    module.write_text(module.read_text() + "\n// a deploy\n")
    second = offline.version()
    assert second != first
    assert worker_constants(Client().get("/sw.js").content.decode())["VERSION"] == second


def test_the_shell_deals_the_deal_its_address_names():
    response = Client().get("/play/offline/")
    assert response.status_code == 200
    page = json.loads(
        re.search(
            r'<script id="page-data" type="application/json">(.+?)</script>', response.content.decode(), re.S
        ).group(1)
    )
    assert page["shell"] is True and page["code"] is None and page["daily"] is False


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_installs_the_site_as_an_app():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Easy Harp Daily" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    sizes = {}
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon
        if icon["type"] == "image/png":
            width, height = png_size(Path(path))
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes[icon.get("purpose", "any")] = max(sizes.get(icon.get("purpose", "any"), 0), width)
    assert sizes == {"any": 512, "maskable": 512}  # what browsers ask of an installable app


def test_the_manifest_speaks_the_readers_language():
    english = json.loads(Client().get("/manifest.webmanifest").content)
    polish = json.loads(Client(headers={"accept-language": "pl"}).get("/manifest.webmanifest").content)
    assert english["lang"] == "en" and polish["lang"] == "pl"
    assert polish["description"] != english["description"] and "Easy Harp" in polish["description"]


@pytest.mark.parametrize("path", ["/", "/play/EH1-N-AAAAAAF/", "/boards/", "/rules/", "/login/"])
def test_every_page_links_the_manifest_and_registers_the_worker(path):
    html = Client().get(path).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script type="module" src="/static/frontend/lib/offline.js"></script>' in html
