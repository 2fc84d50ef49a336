"""Static files on the production-shaped stack (tests/production/test_smoke.py's Stack): WhiteNoise
serves collectstatic's hashed, compressed copies with a year's immutable Cache-Control, the ES
modules import each other by their hashed names, and a repeat visit of the game page asks the
server for no static file at all (counted in gunicorn's access log, the server's own account).

    pytest tests/production/test_static_files.py -s   # prints the cold and warm figures
"""

import json
import os
import posixpath
import re
import time
import urllib.request

import pytest
from django.conf import settings

from .test_smoke import Stack, production_bin, shortest_won_game  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
A_YEAR = "max-age=31536000, public, immutable"
RELATIVE_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")
# gunicorn's access line (config/gunicorn.conf.py): address "request line" status bytes ...
ACCESS_LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/[\d.]+" (?P<status>\d{3}) (?P<bytes>\d+|-) ')


@pytest.fixture(scope="module")
def web(production_bin, tmp_path_factory):  # noqa: F811 (test_smoke's fixture)
    from .test_smoke import fresh_database

    folder = tmp_path_factory.mktemp("static")
    with fresh_database("static") as database_url:
        stack = Stack(production_bin, database_url, settings.REDIS_URL, folder)
        try:
            stack.start("web")
            yield stack
        except BaseException:
            print(stack.logs())
            raise
        finally:
            stack.stop()


def manifest(stack: Stack) -> dict[str, str]:
    return json.loads((stack.static_root / "staticfiles.json").read_text())["paths"]


def get(url: str, **headers) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_hashed_files_are_compressed_and_cached_a_year(web):
    paths = manifest(web)
    hashed = paths["frontend/pages/play.js"]
    assert re.fullmatch(r"frontend/pages/play\.[0-9a-f]{12}\.js", hashed)
    url = f"{web.url}/static/{hashed}"
    for encoding in ("br", "gzip"):
        status, headers, body = get(url, **{"Accept-Encoding": encoding})
        assert status == 200 and headers["content-encoding"] == encoding
        assert headers["cache-control"] == A_YEAR
        assert "accept-encoding" in headers["vary"].lower()
    status, headers, plain = get(url)
    assert "content-encoding" not in headers and len(body) < len(plain)
    assert headers["content-type"].startswith("text/javascript")


def test_the_modules_import_each_other_by_their_hashed_names(web):
    paths = manifest(web)
    hashed_names = set(paths.values())
    modules = [name for name in paths.values() if name.endswith(".js") and name.startswith("frontend/")]
    assert len(modules) > 20
    imports = 0
    for module in modules:
        text = (web.static_root / module).read_text()
        for specifier in RELATIVE_IMPORT.findall(text):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(module), specifier))
            assert target in hashed_names, f"{module} imports {specifier}, not a hashed file"
            imports += 1
    assert imports > 50


def test_the_service_worker_caches_the_hashed_names(web):
    paths = manifest(web)
    status, _headers, body = get(f"{web.url}/sw.js")
    assert status == 200
    assert f'"/static/{paths["frontend/pages/play.js"]}"' in body.decode()
    assert '"/static/frontend/pages/play.js"' not in body.decode()


def access_lines(stack: Stack) -> list[dict]:
    return [
        match.groupdict() for match in map(ACCESS_LINE.search, stack.services["web"].output().splitlines()) if match
    ]


def settled_lines(stack: Stack) -> list[dict]:
    """The access lines once no new one has come for a second (the service worker's precache too)."""
    lines, quiet_since = access_lines(stack), time.monotonic()
    while time.monotonic() - quiet_since < 1.0:
        time.sleep(0.2)
        now = access_lines(stack)
        if len(now) != len(lines):
            lines, quiet_since = now, time.monotonic()
    return lines


def figures(lines: list[dict]) -> dict[str, int]:
    static = [line for line in lines if line["path"].startswith("/static/")]
    size = sum(int(line["bytes"]) for line in lines if line["bytes"] != "-")
    return {
        "requests": len(lines),
        "static requests": len(static),
        "bytes": size,
        "static bytes": sum(int(line["bytes"]) for line in static if line["bytes"] != "-"),
    }


def test_a_repeat_visit_of_the_game_page_requests_no_static_file(web):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium.")
    from playwright.sync_api import sync_playwright

    url = f"{web.url}/play/{shortest_won_game()['deal']}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            errors: list[str] = []

            def visit():
                page = context.new_page()
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(url)
                page.wait_for_selector("#table[data-ready=true]")
                page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true")
                return page

            before = len(settled_lines(web))
            first = visit()
            cold = settled_lines(web)[before:]
            first.close()
            warm_page = visit()
            warm = settled_lines(web)[before + len(cold) :]
            warm_page.close()
            assert not errors, errors
        finally:
            browser.close()
    cold_figures, warm_figures = figures(cold), figures(warm)
    print(f"\ngame page, cold: {cold_figures}\ngame page, warm: {warm_figures}")
    assert cold_figures["static requests"] > 10
    assert warm_figures["static requests"] == 0, [line["path"] for line in warm]
