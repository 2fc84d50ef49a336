"""docker-compose.yml cannot be run here (no Docker engine), so check its shape, and run the
commands it gives where they run without Docker (health checks, the wait for the migrations)."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from .compose import MissingVariable, app_service, interpolate

ROOT = Path(__file__).resolve().parents[2]
SERVICES = {"migrate", "web", "worker", "beat", "postgres", "redis"}
APP_SERVICES = ("web", "worker", "beat")
LONG_RUNNING = SERVICES - {"migrate"}
VALUES = {"DJANGO_SECRET_KEY": "k", "DAILY_DEAL_SECRET": "d", "POSTGRES_PASSWORD": "p"}
# A version number, not a moving tag: 15.13, 7.4.2, 3.11.13, with the Debian release named.
PINNED = re.compile(r":\d+\.\d+(\.\d+)?-([a-z]+-)?[a-z]+$")


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _command(service):
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def _check(service) -> str:
    return " ".join(service["healthcheck"]["test"][1:])


def test_the_services(compose):
    assert set(compose["services"]) == SERVICES


def test_images(compose):
    services = compose["services"]
    assert services["postgres"]["image"].startswith("postgres:15.")
    assert services["redis"]["image"].startswith("redis:7.")
    for name in ("postgres", "redis"):
        assert PINNED.search(services[name]["image"]), services[name]["image"]


def test_one_build_for_every_app_service(compose):
    services = compose["services"]
    built = [name for name, service in services.items() if "build" in service]
    assert built == ["migrate"] and services["migrate"]["build"] == "."
    image = services["migrate"]["image"]
    for name in APP_SERVICES:
        # The image migrate built, never pulled from a registry.
        assert services[name]["image"] == image, name
        assert services[name]["pull_policy"] == "never", name


def test_commands(compose):
    services = compose["services"]
    assert re.search(r"\bgunicorn -c config/gunicorn\.conf\.py config\.wsgi\b", _command(services["web"]))
    # The metrics' folder emptied, then the migrations, once, before anything else starts.
    assert re.fullmatch(
        r"python -m config\.metrics clear && exec python manage\.py migrate --noinput",
        _command(services["migrate"]).removeprefix("sh -c ").strip(),
    )
    assert re.search(r"\bcelery -A config worker\b", _command(services["worker"]))
    assert re.search(r"\bcelery -A config beat\b", _command(services["beat"]))


def test_web_has_no_control_socket(compose):
    """gunicorn's control socket would go under /app/.gunicorn, which the user cannot write:
    an [ERROR] at every start."""
    assert "--no-control-socket" in app_service("web", VALUES).command[2]
    assert re.search(r'^CMD \[.*"--no-control-socket"', (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert re.search(
        r"^control_socket_disable = True$", (ROOT / "config" / "gunicorn.conf.py").read_text(), re.MULTILINE
    )


def test_only_migrate_migrates_and_the_others_wait_for_it(compose):
    services = compose["services"]
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for name in APP_SERVICES:
        command = _command(services[name])
        assert "migrate --noinput" not in command, name
        # After a host restart the daemon starts them without migrate: they wait themselves.
        assert command.startswith("sh -c until python manage.py migrate --check"), name
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name


@pytest.mark.parametrize("name", sorted(LONG_RUNNING))
def test_every_long_running_service_has_a_health_check(compose, name):
    check = compose["services"][name]["healthcheck"]
    test = check["test"]
    assert isinstance(test, list) and test[0] in {"CMD", "CMD-SHELL"} and len(test) > 1
    for key in ("interval", "timeout", "retries"):
        assert key in check, f"{name}: healthcheck lacks {key}"


def test_health_check_commands(compose):
    services = compose["services"]
    # TCP, not the unix socket initdb's temporary server answers on before the real one starts.
    assert "pg_isready" in _check(services["postgres"]) and "-h 127.0.0.1" in _check(services["postgres"])
    assert "redis-cli -h 127.0.0.1 -p 6379 ping" in _check(services["redis"])
    assert "/healthz" in _check(services["web"])
    # Cheap: no Python process that loads Django and asks the worker over the broker.
    assert not re.search(r"\b(python|celery) ", _check(services["worker"])), _check(services["worker"])
    assert "/tmp/celery-worker.alive" in _check(services["worker"])
    assert services["worker"]["environment"]["CELERY_WORKER_ALIVE_FILE"] == "/tmp/celery-worker.alive"
    assert "celerybeat.pid" in _check(services["beat"]) and "--pidfile=/tmp/celerybeat.pid" in _command(
        services["beat"]
    )


def test_web_health_check_is_valid_python(compose):
    test = compose["services"]["web"]["healthcheck"]["test"]
    assert test[1:3] == ["python", "-c"]
    compile(test[3], "<healthcheck>", "exec")


def _shell_check(compose, name: str) -> str:
    """The CMD-SHELL health check as the container's shell gets it ($$ is compose's $)."""
    test = compose["services"][name]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    return interpolate(test[1], {})


def test_worker_health_check_reads_the_liveness_files_age(compose, tmp_path):
    check = _shell_check(compose, "worker").replace("/tmp/celery-worker.alive", str(tmp_path / "alive"))

    def healthy() -> bool:
        return subprocess.run(["sh", "-c", check], capture_output=True, check=False).returncode == 0

    assert not healthy()  # no file: not started, or stopped
    (tmp_path / "alive").touch()
    assert healthy()
    old = time.time() - 120
    os.utime(tmp_path / "alive", (old, old))
    assert not healthy()  # not touched for two minutes: stuck or disconnected


def test_beat_health_check_finds_its_process(compose, tmp_path):
    check = _shell_check(compose, "beat").replace("/tmp/celerybeat.pid", str(tmp_path / "beat.pid"))
    (tmp_path / "beat.pid").write_text(f"{os.getpid()}\n")
    assert subprocess.run(["sh", "-c", check], capture_output=True, check=False).returncode == 0
    gone = subprocess.Popen(["true"])
    gone.wait()
    (tmp_path / "beat.pid").write_text(f"{gone.pid}\n")
    assert subprocess.run(["sh", "-c", check], capture_output=True, check=False).returncode != 0


def test_depends_on_waits_for_healthy(compose):
    services = compose["services"]
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert isinstance(depends, dict), f"{name}: depends_on needs conditions"
        assert depends["redis"] == {"condition": "service_healthy"}, name
        assert depends["postgres"] == {"condition": "service_healthy"}, name


def test_web_port_is_published_on_the_loopback_only(compose):
    """Clients reach web through the TLS proxy: published on every interface, a direct client
    forges X-Forwarded-For past DJANGO_NUM_PROXIES=1."""
    (port,) = compose["services"]["web"]["ports"]
    assert interpolate(port, {}) == "127.0.0.1:8000:8000"
    assert interpolate(port, {"WEB_BIND": "0.0.0.0", "WEB_PORT": "8000-8001"}) == "0.0.0.0:8000-8001:8000"
    for name in SERVICES - {"web"}:
        assert "ports" not in compose["services"][name], name


def test_app_environment(compose):
    for name in (*APP_SERVICES, "migrate"):
        service = compose["services"][name]
        # Every other setting of the README's table from the operator's .env.
        assert service["env_file"] == [{"path": ".env", "required": True}], name
        env = service["environment"]
        assert str(env["DJANGO_DEBUG"]) == "0", name
        for key in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DAILY_DEAL_SECRET", "ALLOWED_HOSTS"):
            assert env.get(key), f"{name}: {key} missing"
        # No password in the URL: it would have to be URL-encoded (a /, # or ? breaks it).
        assert env["DATABASE_URL"] == "postgres://easyharp@postgres:5432/easyharp"
        assert env["REDIS_URL"].startswith("redis://redis:6379/")
        # secrets must come from the operator, never a default baked into the file
        for key in ("DJANGO_SECRET_KEY", "DAILY_DEAL_SECRET", "DATABASE_PASSWORD"):
            assert ":?" in env[key], f"{name}: {key}"


def test_the_database_password_is_required_and_passed_as_it_is(compose):
    password = "p@ss/w#rd?:%41 $x"
    for name in (*APP_SERVICES, "migrate"):
        assert app_service(name, {**VALUES, "POSTGRES_PASSWORD": password}).environment["DATABASE_PASSWORD"] == password
        with pytest.raises(MissingVariable, match="POSTGRES_PASSWORD"):
            app_service(name, {**VALUES, "POSTGRES_PASSWORD": ""})
    postgres = compose["services"]["postgres"]
    with pytest.raises(MissingVariable, match="POSTGRES_PASSWORD"):
        interpolate(postgres["environment"]["POSTGRES_PASSWORD"], {})


def test_postgres_sets_the_password_again_at_every_start(compose):
    """The image applies POSTGRES_PASSWORD at initdb only: changed in .env later, it would lock
    web out. The start sets it again over the socket, passed to psql as a variable (quoted by
    psql, never pasted into SQL), and is healthy only once that is done."""
    postgres = compose["services"]["postgres"]
    assert postgres["command"][:2] == ["sh", "-c"]
    script = interpolate(postgres["command"][2], {})
    assert "docker-entrypoint.sh postgres &" in script
    assert """ALTER ROLE easyharp PASSWORD :'password'""" in script
    assert '-v password="$POSTGRES_PASSWORD"' in script
    assert "trap 'kill -TERM $server" in script  # docker stop reaches the server
    result = subprocess.run(["sh", "-n", "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "test -f /tmp/password-set" in _check(postgres) and "rm -f /tmp/password-set" in script


def test_logs_are_rotated(compose):
    for name, service in compose["services"].items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        assert logging["options"]["max-size"] and int(logging["options"]["max-file"]) >= 1, name


def test_beat_keeps_its_schedule_on_a_volume(compose):
    beat = compose["services"]["beat"]
    assert "--schedule=/var/lib/easyharp/celerybeat-schedule" in _command(beat)
    assert "beat-schedule:/var/lib/easyharp" in beat["volumes"]
    assert "beat-schedule" in compose["volumes"]
    assert "chown easyharp /var/lib/easyharp" in (ROOT / "Dockerfile").read_text()


def test_dockerfile():
    text = (ROOT / "Dockerfile").read_text()
    (base,) = re.findall(r"^FROM (\S+)", text, re.MULTILINE)
    assert base.startswith("python:3.11.") and base.endswith("-slim-bookworm") and PINNED.search(base), base
    assert "pip install --require-hashes -r requirements.txt" in text
    assert "collectstatic --noinput" in text


def test_the_image_has_no_tests_benchmarks_or_docs():
    patterns = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {"tests", "benchmarks", "docs", ".env"} <= patterns


def _readme_variables() -> set[str]:
    text = (ROOT / "README.md").read_text()
    table = text.split("## Environment variables", 1)[1].split("\n## ", 1)[0]
    return {
        name
        for line in table.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1])
    }


def test_env_example_documents_every_variable_of_the_readme():
    documented = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE))
    readme = _readme_variables()
    assert len(readme) > 40
    assert readme - documented == set()


def test_env_example_leaves_the_secrets_empty():
    """Copied as it is, compose refuses to start (${...:?}) instead of running on known secrets."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    for name in ("DJANGO_SECRET_KEY", "DAILY_DEAL_SECRET", "POSTGRES_PASSWORD"):
        assert f"{name}=" in lines, name


@pytest.mark.django_db
def test_app_commands_wait_for_the_migrations(compose, tmp_path):
    """Run web's start as compose gives it, with gunicorn replaced by an echo: on a database
    without the migrations it waits; migrated, it goes on at once."""
    from django.conf import settings

    from tests.production.test_smoke import fresh_database

    command = app_service("web", VALUES).command
    assert command[:2] == ["sh", "-c"]
    script = command[2].replace("exec gunicorn", "exec echo started gunicorn").replace("sleep 3", "sleep 0.2")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    with fresh_database("wait") as url:
        waiting = subprocess.Popen(
            ["sh", "-c", script],
            cwd=ROOT,
            env={**env, "DATABASE_URL": url},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            # Its first round of `migrate --check` ends, and it says that it waits (no fixed wait:
            # a busy machine takes longer to start Python and Django).
            said = waiting.stdout.readline()
            assert said.strip() == "web: waiting for the migrations", said
            assert waiting.poll() is None, "it went on without the migrations"
        finally:
            os.killpg(waiting.pid, signal.SIGKILL)
            waiting.communicate(timeout=30)
    done = subprocess.run(
        ["sh", "-c", script],
        cwd=ROOT,
        env={**env, "DATABASE_URL": _test_database_url(settings)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("started gunicorn"), done.stdout + done.stderr


def _test_database_url(settings) -> str:
    """The test session's database, migrated by pytest-django."""
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
