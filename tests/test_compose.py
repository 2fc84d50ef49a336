"""docker-compose.yml cannot be run here (no Docker engine), so check its shape instead."""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SERVICES = {"web", "worker", "beat", "postgres", "redis"}
APP_SERVICES = ("web", "worker", "beat")


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _command(service):
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def test_the_five_services(compose):
    assert set(compose["services"]) == SERVICES


def test_images(compose):
    services = compose["services"]
    assert services["postgres"]["image"] == "postgres:15"
    assert services["redis"]["image"] == "redis:7"
    for name in APP_SERVICES:
        assert services[name]["build"] == ".", name


def test_commands(compose):
    services = compose["services"]
    assert re.search(r"\bgunicorn config\.wsgi\b", _command(services["web"]))
    assert "manage.py migrate" in _command(services["web"])
    assert re.search(r"\bcelery -A config worker\b", _command(services["worker"]))
    assert re.search(r"\bcelery -A config beat\b", _command(services["beat"]))


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_every_service_has_a_health_check(compose, name):
    check = compose["services"][name]["healthcheck"]
    test = check["test"]
    assert isinstance(test, list) and test[0] in {"CMD", "CMD-SHELL"} and len(test) > 1
    for key in ("interval", "timeout", "retries"):
        assert key in check, f"{name}: healthcheck lacks {key}"


def test_health_check_commands(compose):
    services = compose["services"]

    def text(name):
        return " ".join(services[name]["healthcheck"]["test"][1:])

    assert "pg_isready" in text("postgres")
    assert "redis-cli ping" in text("redis")
    assert "/healthz" in text("web")
    assert "inspect ping" in text("worker")
    assert "celerybeat.pid" in text("beat") and "--pidfile=/tmp/celerybeat.pid" in _command(
        services["beat"]
    )


def test_web_health_check_is_valid_python(compose):
    test = compose["services"]["web"]["healthcheck"]["test"]
    assert test[1:3] == ["python", "-c"]
    compile(test[3], "<healthcheck>", "exec")


def test_depends_on_waits_for_healthy(compose):
    services = compose["services"]
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert isinstance(depends, dict), f"{name}: depends_on needs conditions"
        assert depends["redis"] == {"condition": "service_healthy"}, name
        for condition in depends.values():
            assert condition["condition"] == "service_healthy", name
    assert services["web"]["depends_on"]["postgres"] == {"condition": "service_healthy"}
    # worker and beat start after web has migrated the database
    assert "web" in services["worker"]["depends_on"]
    assert "web" in services["beat"]["depends_on"]


def test_app_environment(compose):
    for name in APP_SERVICES:
        env = compose["services"][name]["environment"]
        assert str(env["DJANGO_DEBUG"]) == "0", name
        for key in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DAILY_DEAL_SECRET", "ALLOWED_HOSTS"):
            assert env.get(key), f"{name}: {key} missing"
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:6379/")
        # secrets must come from the operator, never a default baked into the file
        assert ":?" in env["DJANGO_SECRET_KEY"] and ":?" in env["DAILY_DEAL_SECRET"]


def test_dockerfile():
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert "pip install --require-hashes -r requirements.txt" in text
    assert "collectstatic --noinput" in text
