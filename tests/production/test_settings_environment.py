"""The settings this round added: the database password apart from the URL, the log format."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, logging.config; from django.conf import settings; "
    "logging.config.dictConfig(settings.LOGGING); "
    "print(json.dumps({'password': settings.DATABASES['default']['PASSWORD'], "
    "'name': settings.DATABASES['default']['NAME'], 'format': settings.LOG_FORMAT}))"
)


def run(**env) -> subprocess.CompletedProcess:
    environ = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_", "DJANGO_"))}
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        check=False,
    )


def test_the_database_password_is_taken_as_it_is():
    password = "p@ss/w#rd?:%41 $x"
    result = run(DATABASE_URL="postgres://easyharp@postgres:5432/easyharp", DATABASE_PASSWORD=password)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"password": password, "name": "easyharp", "format": "plain"}


def test_without_it_the_urls_password_stays():
    result = run(DATABASE_URL="postgres://u:from-url@db:5432/x")
    assert json.loads(result.stdout)["password"] == "from-url"


@pytest.mark.parametrize("value", ["json", "JSON", " json "])
def test_json_log_format(value):
    result = run(DJANGO_LOG_FORMAT=value)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["format"] == "json"


def test_an_unknown_log_format_is_refused():
    result = run(DJANGO_LOG_FORMAT="xml")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DJANGO_LOG_FORMAT" in result.stderr
