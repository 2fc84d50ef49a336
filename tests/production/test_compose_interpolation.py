"""The smoke test starts what docker-compose.yml says, interpolated the way compose does it."""

import pytest

from .compose import MissingVariable, app_service, interpolate

SECRETS = {"DJANGO_SECRET_KEY": "k", "DAILY_DEAL_SECRET": "d", "POSTGRES_PASSWORD": "p"}


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("${A:-x}", {}, "x"),
        ("${A:-x}", {"A": ""}, "x"),
        ("${A-x}", {"A": ""}, ""),
        ("${A-x}", {}, "x"),
        ("${A:-x}", {"A": "set"}, "set"),
        ("${A}/$A", {"A": "a"}, "a/a"),
        ("${A}", {}, ""),
        ("a:${A:-}b", {}, "a:b"),
        ("--destination celery@$$HOSTNAME", {"HOSTNAME": "h"}, "--destination celery@$HOSTNAME"),
        ("postgres://u:${P:-easy}@db:5432/x", {}, "postgres://u:easy@db:5432/x"),
    ],
)
def test_interpolate(text, values, expected):
    assert interpolate(text, values) == expected


@pytest.mark.parametrize("values", [{}, {"A": ""}])
def test_required_variable_without_a_value_refuses(values):
    with pytest.raises(MissingVariable, match="A: set A"):
        interpolate("${A:?set A}", values)


def test_app_services_from_the_compose_file():
    web = app_service("web", {**SECRETS, "WEB_CONCURRENCY": "5"})
    assert web.command[:2] == ["sh", "-c"] and "--workers 5" in web.command[2]
    assert web.environment["DJANGO_SECRET_KEY"] == "k"
    assert web.environment["ALLOWED_HOSTS"] == "localhost,127.0.0.1"  # compose's default
    worker = app_service("worker", SECRETS).command
    assert worker[:2] == ["sh", "-c"] and "exec celery -A config worker " in worker[2]
    with pytest.raises(MissingVariable, match="DAILY_DEAL_SECRET"):
        app_service("beat", {"DJANGO_SECRET_KEY": "k"})
