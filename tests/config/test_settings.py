"""Smoke tests for the project frame: typed env helpers, settings per environment, checks."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from config.settings import env_bool, env_float, env_int, env_list, env_str

ROOT = Path(__file__).resolve().parents[2]


# ---- env_str ---------------------------------------------------------------------------


def test_env_str_reads_value_default_and_empty():
    assert env_str("X", "d", environ={"X": "value"}) == "value"
    assert env_str("X", "d", environ={}) == "d"
    assert env_str("X", "d", environ={"X": ""}) == ""


def test_env_str_without_default_is_required():
    with pytest.raises(ImproperlyConfigured, match="X"):
        env_str("X", environ={})


def test_helpers_read_os_environ_by_default(monkeypatch):
    monkeypatch.setenv("EASYHARP_TEST_VAR", "42")
    assert env_str("EASYHARP_TEST_VAR") == "42"
    assert env_int("EASYHARP_TEST_VAR", 0) == 42


# ---- env_bool --------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["1", "true", "TRUE", "Yes", "on", " on "])
def test_env_bool_true(raw):
    assert env_bool("B", False, environ={"B": raw}) is True


@pytest.mark.parametrize("raw", ["0", "false", "False", "no", "OFF"])
def test_env_bool_false(raw):
    assert env_bool("B", True, environ={"B": raw}) is False


@pytest.mark.parametrize("environ", [{}, {"B": ""}, {"B": "  "}])
def test_env_bool_default_when_unset_or_empty(environ):
    assert env_bool("B", True, environ=environ) is True
    assert env_bool("B", False, environ=environ) is False


@pytest.mark.parametrize("raw", ["2", "maybe", "tru", "yes please", "-1"])
def test_env_bool_refuses_garbage(raw):
    with pytest.raises(ImproperlyConfigured, match="B"):
        env_bool("B", False, environ={"B": raw})


# ---- env_int ---------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "expected"), [("0", 0), ("17", 17), (" 8 ", 8), ("-3", -3)])
def test_env_int_parses(raw, expected):
    assert env_int("I", 99, environ={"I": raw}) == expected


def test_env_int_default_when_unset_or_empty():
    assert env_int("I", 5, environ={}) == 5
    assert env_int("I", 5, environ={"I": ""}) == 5


@pytest.mark.parametrize("raw", ["ten", "1.5", "0x10", "1e3", "12abc"])
def test_env_int_refuses_garbage(raw):
    with pytest.raises(ImproperlyConfigured, match="I"):
        env_int("I", 0, environ={"I": raw})


def test_env_int_bounds():
    assert env_int("I", 0, min_value=1, max_value=3, environ={"I": "3"}) == 3
    with pytest.raises(ImproperlyConfigured, match="below"):
        env_int("I", 0, min_value=1, environ={"I": "0"})
    with pytest.raises(ImproperlyConfigured, match="above"):
        env_int("I", 0, max_value=3, environ={"I": "4"})
    with pytest.raises(ImproperlyConfigured, match="below"):
        env_int("I", -1, min_value=0, environ={})


# ---- env_float -------------------------------------------------------------------------


def test_env_float_reads_value_and_default():
    assert env_float("F", 0.25, environ={"F": " 0.5 "}) == 0.5
    assert env_float("F", 0.25, environ={"F": "2"}) == 2.0
    assert env_float("F", 150, environ={}) == 150.0 and env_float("F", 1.5, environ={"F": ""}) == 1.5


@pytest.mark.parametrize("raw", ["half", "1,5", "nan", "inf", "-inf"])
def test_env_float_refuses_what_is_not_a_finite_number(raw):
    with pytest.raises(ImproperlyConfigured, match="F"):
        env_float("F", 1.0, environ={"F": raw})


def test_env_float_bound():
    with pytest.raises(ImproperlyConfigured, match="below"):
        env_float("F", 1.0, min_value=0, environ={"F": "-0.1"})


# ---- env_list --------------------------------------------------------------------------


def test_env_list_parses_and_strips():
    assert env_list("L", [], environ={"L": "a.example, b.example ,c"}) == [
        "a.example",
        "b.example",
        "c",
    ]
    assert env_list("L", [], environ={"L": "one"}) == ["one"]


def test_env_list_default_and_empty():
    assert env_list("L", ["d"], environ={}) == ["d"]
    assert env_list("L", ["d"], environ={"L": ""}) == []


@pytest.mark.parametrize("raw", ["a,,b", "a,", ",a", " , "])
def test_env_list_refuses_empty_items(raw):
    with pytest.raises(ImproperlyConfigured, match="L"):
        env_list("L", [], environ={"L": raw})


# ---- the project as configured for this run --------------------------------------------


def test_manage_py_check_passes():
    call_command("check")


def test_engine_app_has_no_django_config():
    """games/ is a plain package: Django gives it a default AppConfig."""
    from django.apps import apps

    assert apps.get_app_config("games").name == "games"
    assert not (ROOT / "games" / "apps.py").exists()


def test_celery_follows_redis_url():
    from config import celery_app

    conf = celery_app.conf
    assert conf.task_serializer == "json"
    assert conf.result_serializer == "json"
    assert list(conf.accept_content) == ["json"]
    assert conf.task_acks_late is True
    assert conf.worker_prefetch_multiplier == 1
    assert 0 < conf.task_soft_time_limit < conf.task_time_limit
    assert conf.broker_url == settings.REDIS_URL
    assert conf.task_always_eager is False  # tasks always go to a worker


@pytest.mark.django_db
def test_database_answers():
    from django.db import connection

    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_cache_round_trip():
    from django.core.cache import caches
    from django_redis.cache import RedisCache

    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    cache.set("easyharp-smoke", {"ok": 1}, 30)
    try:
        assert cache.get("easyharp-smoke") == {"ok": 1}
    finally:
        cache.delete("easyharp-smoke")


# ---- other environments, each in a fresh interpreter -----------------------------------

_PROBE = """
import json, django
django.setup()
from django.conf import settings as s
from django.core.cache import caches
from django_redis.cache import RedisCache
from config import celery_app as c
print(json.dumps({
    "redis_cache": isinstance(caches["default"], RedisCache),
    "cache_at": s.CACHES["default"]["LOCATION"],
    "debug": s.DEBUG,
    "db": s.DATABASES["default"]["ENGINE"],
    "db_at": [s.DATABASES["default"][k] for k in ("USER", "HOST", "PORT", "NAME")],
    "broker": c.conf.broker_url,
    "eager": c.conf.task_always_eager,
    "secure_cookies": s.SESSION_COOKIE_SECURE,
    "hsts": s.SECURE_HSTS_SECONDS,
    "proxy_header": s.SECURE_PROXY_SSL_HEADER,
    "hosts": s.ALLOWED_HOSTS,
}))
"""

_SCRUBBED = (
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DAILY_DEAL_SECRET",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
)

_PROD = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
    "DAILY_DEAL_SECRET": "prod-daily-secret",
    "ALLOWED_HOSTS": "harp.example.com",
}


def _run(args, **env):
    environ = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    environ.update(env)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)


def _probe(**env):
    result = _run(["-c", _PROBE], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_local_defaults_need_no_environment():
    got = _probe()
    assert got["debug"] is True
    assert got["db"] == "django.db.backends.postgresql"
    assert got["db_at"] == ["postgres", "127.0.0.1", 5432, "easyharp"]
    assert got["redis_cache"] is True and got["cache_at"] == "redis://127.0.0.1:6379/0"
    assert got["broker"] == "redis://127.0.0.1:6379/0"
    assert got["eager"] is False


def test_redis_url_switches_broker_and_cache():
    got = _probe(REDIS_URL="redis://127.0.0.1:6379/15")
    assert got["broker"] == "redis://127.0.0.1:6379/15"
    assert got["redis_cache"] is True and got["cache_at"] == "redis://127.0.0.1:6379/15"
    assert got["eager"] is False


def test_production_settings_are_secure():
    got = _probe(**_PROD, DATABASE_URL="postgres://u:p@db.internal:5432/easyharp")
    assert got["debug"] is False
    assert got["db"] == "django.db.backends.postgresql"
    assert got["secure_cookies"] is True
    assert got["hsts"] > 0
    assert got["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert got["hosts"] == ["harp.example.com"]


def test_production_passes_deploy_checks():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **_PROD)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({**_PROD, "DJANGO_SECRET_KEY": ""}, "DJANGO_SECRET_KEY"),
        ({**_PROD, "DAILY_DEAL_SECRET": ""}, "DAILY_DEAL_SECRET"),
        ({**_PROD, "ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS"),
        ({"DJANGO_DEBUG": "perhaps"}, "DJANGO_DEBUG"),
        ({"REDIS_URL": "localhost:6379"}, "REDIS_URL"),
        ({"DATABASE_URL": "nosuchdb://x/y"}, "DATABASE_URL"),
        ({"DATABASE_URL": "mysql://u@db.internal/easyharp"}, "DATABASE_URL"),
        ({"CELERY_TASK_SOFT_TIME_LIMIT": "90", "CELERY_TASK_TIME_LIMIT": "60"}, "TIME_LIMIT"),
    ],
)
def test_bad_environment_fails_loudly(env, message):
    result = _run(["manage.py", "check"], **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr
