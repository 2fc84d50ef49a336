"""Production settings (DJANGO_DEBUG=0 and the required secrets), each run in a fresh
interpreter: ``manage.py check --deploy`` is clean (and notices when secure cookies are
switched off), and real responses carry what the checks promise: the HTTPS redirect, HSTS,
secure and HTTP-only cookies, no debug pages."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/reliability/)

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
# This run's PostgreSQL server, under a database name of its own: the probe below makes and
# drops a scratch test_<name> there, apart from every test session's database.
_SERVER = urlsplit(os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/easyharp")
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DAILY_DEAL_SECRET": secrets.token_urlsafe(24),
    "ALLOWED_HOSTS": "harp.example.com",
    "DATABASE_URL": _SERVER._replace(path=f"/eh_production_probe_{os.getpid()}").geturl(),
}
_OURS = ("DJANGO_", "DAILY_DEAL_SECRET", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_", "REDIS_URL", "CELERY_")


def run(args: list[str], **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(_OURS)}
    environ.update({"DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION, **env})
    # A bound for a hang, not a speed check: collectstatic and a migrated scratch database took
    # 45 s, and more than 120 s at a load average of 16 (make test's workers beside other runs).
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600)


def test_check_deploy_is_clean_with_the_docker_compose_environment():
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DATABASE_URL="postgres://easyharp:pw@postgres:5432/easyharp",
        REDIS_URL="redis://redis:6379/0",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout + result.stderr


def test_check_deploy_notices_insecure_cookies():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], DJANGO_SECURE_COOKIES="0")
    assert result.returncode != 0
    assert "security.W012" in result.stderr and "security.W016" in result.stderr


PROBE = r"""
import atexit, json, django
django.setup()
from django.conf import settings
from django.db import connection
from django.core.management import call_command
from django.test import Client

# As the image does at build time: the hashed static files and their manifest, which pages name.
call_command("collectstatic", interactive=False, verbosity=0)
name = connection.settings_dict["NAME"]
connection.creation.create_test_db(verbosity=0, autoclobber=True)  # a scratch database, migrated
atexit.register(connection.creation.destroy_test_db, name, verbosity=0)
out = {"debug": settings.DEBUG, "num_proxies": settings.REST_FRAMEWORK["NUM_PROXIES"]}
plain = Client(HTTP_HOST="harp.example.com")
r = plain.get("/api/auth/me/")
out["http"] = [r.status_code, r.get("Location")]
out["healthz_http"] = plain.get("/healthz").status_code
out["other_host"] = Client(HTTP_HOST="evil.example", HTTP_X_FORWARDED_PROTO="https").get("/api/auth/me/").status_code

browser = Client(HTTP_HOST="harp.example.com", HTTP_X_FORWARDED_PROTO="https")
page = browser.get("/")
r = browser.post("/api/auth/signup/", json.dumps({"username": "alice", "password": "correct horse battery staple"}),
                 content_type="application/json")
out["signup"] = r.status_code
out["cookies"] = {name: {"secure": bool(m["secure"]), "httponly": bool(m["httponly"]), "samesite": m["samesite"]}
                  for name, m in {**page.cookies, **r.cookies}.items()}
out["headers"] = {h: r.get(h) for h in ("Strict-Transport-Security", "X-Frame-Options", "X-Content-Type-Options",
                                         "Referrer-Policy", "Cross-Origin-Opener-Policy")}
missing = browser.get("/no/such/page/")
text = missing.content.decode()
out["not_found"] = [missing.status_code, "URLconf" in text or "Traceback" in text]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_production_responses_are_secure(tmp_path):
    result = run(["-c", PROBE], DJANGO_STATIC_ROOT=str(tmp_path / "static"))
    assert result.returncode == 0, result.stderr[-3000:]
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["debug"] is False and got["num_proxies"] == 1
    assert got["http"] == [301, "https://harp.example.com/api/auth/me/"]  # HTTPS only
    assert got["healthz_http"] == 200  # the container's health check over plain HTTP
    assert got["other_host"] == 400  # ALLOWED_HOSTS
    assert got["signup"] == 201
    assert got["cookies"]["sessionid"] == {"secure": True, "httponly": True, "samesite": "Lax"}
    assert got["cookies"]["csrftoken"]["secure"] is True and got["cookies"]["csrftoken"]["samesite"] == "Lax"
    headers = got["headers"]
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert (headers["X-Frame-Options"], headers["X-Content-Type-Options"], headers["Referrer-Policy"]) == (
        "DENY",
        "nosniff",
        "same-origin",
    )
    assert got["not_found"] == [404, False]  # Django's plain page, no debug information
