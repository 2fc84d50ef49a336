"""A production install, checked end to end: migrate, web, worker and beat started from a virtual
environment made from requirements.txt alone (what the Dockerfile installs, no development
package), with the commands and environment docker-compose.yml gives them, on the static files
the Dockerfile collects.

A player signs up, plays a known won deal, submits it; the worker verifies it and the deal's
board ranks it. Before requirements.txt named ``packaging``, the worker and beat of such an
install died at start (kombu's Redis transport imports it) while the web still answered 202.

Only the addresses differ from compose: PostgreSQL is this test's own database (created and
dropped here) on the test server (no password), Redis the test's Redis database, gunicorn listens
on a free port of 127.0.0.1, and the files under /tmp and /var/lib/easyharp go to a temporary folder.
"""

import atexit
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import dj_database_url
import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from tools.stack.process import free_port

from .compose import app_service

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
RUNTIME_LOCK = ROOT / "requirements.txt"
PRODUCTION_VENV = ROOT / ".venv-prod"
# The sha256 of the lock the venv was installed from: another lock, another venv.
VENV_STAMP = PRODUCTION_VENV / ".stamp-requirements-sha256"
WON_GAMES = ROOT / "tests" / "data" / "won_games.jsonl"
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# The operator's .env: compose's ${...} and, through env_file, every app container's environment.
COMPOSE_VALUES = {
    "DJANGO_SECRET_KEY": "smoke-test-secret-key-not-for-production-0123456789",
    "DAILY_DEAL_SECRET": "smoke-test-daily-deal-secret",
    "POSTGRES_PASSWORD": "smoke-test-password/#?",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_SECURE_COOKIES": "0",
    "ALLOWED_HOSTS": "127.0.0.1",
    "WEB_CONCURRENCY": "2",
}
# Beyond compose's environment: the test plays a whole game in a second, which the
# plausibility check (10 actions a second) and the tempo rules (its times, all 0: a numbered
# deal's result without times stays off its board) would keep off the board for staff review.
EXTRA_ENVIRONMENT = {"MAX_ACTIONS_PER_SECOND": "100000", "TEMPO_MIN_ACTIONS": "1000000"}
# The container's folders for files (beat's schedule and pid, the worker's liveness file).
CONTAINER_FOLDERS = re.compile(r"(?<![\w/])(?:/var/lib/easyharp|/tmp)/")
START_TIMEOUT = 90
VERIFY_TIMEOUT = 60
# Beat's first requeue of stale submissions is due 15 s after it starts.
BEAT_TIMEOUT = 60


# -- the runtime-only virtual environment ---------------------------------------------------


@contextmanager
def _exclusive(name: str):
    """One test session at a time builds the venv (engineers share the work tree)."""
    key = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    with open(Path(tempfile.gettempdir()) / f"easyharp-{name}-{key}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _build_production_venv(digest: str) -> None:
    if PRODUCTION_VENV.exists():
        shutil.rmtree(PRODUCTION_VENV)
    subprocess.run([sys.executable, "-m", "venv", str(PRODUCTION_VENV)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    install = subprocess.run(
        [
            str(PRODUCTION_VENV / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--require-hashes",
            "-r",
            str(RUNTIME_LOCK),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, f"pip install --require-hashes -r requirements.txt:\n{install.stderr[-5000:]}"
    VENV_STAMP.write_text(digest)


@pytest.fixture(scope="session")
def production_bin() -> Path:
    """The bin folder of .venv-prod, built from the runtime lock alone; kept while it matches."""
    digest = hashlib.sha256(RUNTIME_LOCK.read_bytes()).hexdigest()
    with _exclusive("venv-prod"):
        if not (VENV_STAMP.is_file() and VENV_STAMP.read_text() == digest):
            _build_production_venv(digest)
    return PRODUCTION_VENV / "bin"


# -- the test's own PostgreSQL database and Redis database ----------------------------------


@contextmanager
def fresh_database(suffix: str):
    """The URL of a new, empty database beside the configured one, dropped after."""
    config = dj_database_url.parse(settings.DATABASE_URL)
    if config["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the production stack runs on PostgreSQL")
    # Each xdist worker (tools/stack/parallel.py) its own, should two such tests overlap.
    name = "_".join(filter(None, [config["NAME"], suffix, os.environ.get("PYTEST_XDIST_WORKER")]))
    server = {
        "host": config["HOST"] or "127.0.0.1",
        "port": config["PORT"] or 5432,
        "user": config["USER"],
        "password": config["PASSWORD"] or None,
    }

    def run(statement):
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(statement)

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    run(drop)
    run(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    auth = server["user"] + (f":{server['password']}" if server["password"] else "")
    try:
        yield f"postgres://{auth}@{server['host']}:{server['port']}/{name}"
    finally:
        run(drop)


@pytest.fixture
def smoke_database_url():
    """A fresh database beside the configured one, dropped after: compose's migrate one-shot
    migrates it."""
    with fresh_database("smoke") as url:
        yield url


# -- the services ---------------------------------------------------------------------------


class Service:
    """One compose service's command as a process group, logging to a file."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path):
        self.name, self.command, self.env, self.log = name, command, env, log
        self.process: subprocess.Popen | None = None

    def start(self) -> "Service":
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        return self

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if not self.alive():
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


_STATIC_ROOTS: dict[Path, Path] = {}


def _static_root(bin_dir: Path) -> Path:
    """This session's folder of collected static files for the venv ``bin_dir``."""
    if bin_dir not in _STATIC_ROOTS:
        _STATIC_ROOTS[bin_dir] = Path(tempfile.mkdtemp(prefix="easyharp-static-"))
        atexit.register(shutil.rmtree, _STATIC_ROOTS[bin_dir], ignore_errors=True)
    return _STATIC_ROOTS[bin_dir]


class Stack:
    """migrate, web, worker and beat as docker-compose.yml runs them, on this machine's
    addresses, from static files collected as the Dockerfile collects them."""

    def __init__(
        self,
        bin_dir: Path,
        database_url: str,
        redis_url: str,
        folder: Path,
        extra_environment: dict[str, str] | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folder = folder
        self.static_root = _static_root(bin_dir)
        # The image's folders that compose's volumes and files name (the Dockerfile makes them).
        (folder / "metrics").mkdir(parents=True, exist_ok=True)
        self.extra_environment = {
            **EXTRA_ENVIRONMENT,
            "DJANGO_STATIC_ROOT": str(self.static_root),
            **(extra_environment or {}),
        }
        self.services = {
            name: self._service(name, bin_dir, database_url, redis_url, folder)
            for name in ("migrate", "web", "worker", "beat")
        }
        self.bin_dir = bin_dir

    def _service(self, name, bin_dir, database_url, redis_url, folder) -> Service:
        compose = app_service(name, COMPOSE_VALUES)
        for key in ("DATABASE_URL", "REDIS_URL"):
            assert key in compose.environment, f"docker-compose.yml's {name} has no {key}"
        environment = {
            key: self._local(value, folder) for key, value in compose.environment.items() if value is not None
        }
        # The test server's own password (none): compose's is for its own postgres service.
        environment.pop("DATABASE_PASSWORD")
        env = {
            # The image's own environment (Dockerfile ENV) and nothing from this test session.
            "PATH": f"{bin_dir}:{SYSTEM_PATH}",
            "HOME": str(folder),
            "LANG": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            # .env, the operator's file: compose's ${...} and every app container's env_file,
            # under the service's own environment.
            **COMPOSE_VALUES,
            **environment,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            **self.extra_environment,
        }
        return Service(name, [self._local(part, folder) for part in compose.command], env, folder / f"{name}.log")

    def _local(self, part: str, folder: Path) -> str:
        """A command argument with the container's addresses replaced by this machine's."""
        part = part.replace("0.0.0.0:8000", f"127.0.0.1:{self.port}")
        return CONTAINER_FOLDERS.sub(f"{folder}/", part)

    def collect_static(self) -> None:
        """The Dockerfile's collectstatic, with its build-time values: once a session for every
        stack of one venv, since the files depend on the code and the venv alone (as an image's
        do), and collecting them costs 19 s of CPU."""
        if (self.static_root / "staticfiles.json").is_file():
            return
        env = {
            **self.services["web"].env,
            "DJANGO_SECRET_KEY": "collectstatic-only",
            "DAILY_DEAL_SECRET": "collectstatic-only",
            "ALLOWED_HOSTS": "localhost",
        }
        result = subprocess.run(
            [str(self.bin_dir / "python"), "manage.py", "collectstatic", "--noinput"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr

    def start(self, *names: str) -> None:
        """compose's order: migrate to its end, then the others (web healthy before the test goes on)."""
        self.collect_static()
        migrate = self.services["migrate"].start()
        migrate.process.wait(START_TIMEOUT)
        assert migrate.process.returncode == 0, migrate.output()
        for name in names:
            self.services[name].start()
        if "web" in names:
            self.wait("healthy web (/healthz)", lambda: healthy(self.url), START_TIMEOUT)
        if "worker" in names:
            self.wait("ready worker", lambda: " ready." in self.services["worker"].output(), START_TIMEOUT)

    def logs(self) -> str:
        return "\n".join(f"----- {name} -----\n{service.output()[-6000:]}" for name, service in self.services.items())

    def wait(self, what: str, condition, timeout: float):
        """The condition's value once true; fails at once when a service has died."""
        deadline = time.monotonic() + timeout
        while True:
            dead = [
                name
                for name, service in self.services.items()
                if name != "migrate" and service.process and not service.alive()
            ]
            assert not dead, f"{', '.join(dead)} exited while waiting for {what}"
            value = condition()
            if value:
                return value
            assert time.monotonic() < deadline, f"no {what} within {timeout} s"
            time.sleep(0.2)

    def stop(self) -> None:
        for service in self.services.values():
            service.stop()


# -- HTTP -----------------------------------------------------------------------------------


def call(base: str, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, {"body": text.decode(errors="replace")[:2000]}


def healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def shortest_won_game() -> dict:
    games = [json.loads(line) for line in WON_GAMES.read_text().splitlines() if line.strip()]
    return min((g for g in games if g["deal"].startswith("EH1-N-")), key=lambda g: len(g["actions"]))


# -- the test -------------------------------------------------------------------------------


@pytest.fixture
def stack(production_bin, smoke_database_url, clean_redis, tmp_path):
    stack = Stack(production_bin, smoke_database_url, settings.REDIS_URL, tmp_path)
    yield stack
    stack.stop()


def test_a_won_game_is_verified_and_ranked_by_a_production_install(stack):
    try:
        play_a_won_game(stack)
    except BaseException:
        print(stack.logs())  # pytest shows it with the failure
        raise


def play_a_won_game(stack: Stack) -> None:
    worker = stack.services["worker"]
    # compose: web, worker and beat start once migrate has migrated the database.
    stack.start("web", "worker", "beat")

    game = shortest_won_game()
    status, account = call(
        stack.url, "POST", "/api/auth/signup/", {"username": "smoke_player", "password": "a-long-smoke-test-password-7"}
    )
    assert status == 201, account
    token = account["token"]
    status, attempt = call(stack.url, "POST", "/api/attempts/", {"deal": game["deal"]}, token)
    assert status == 201, attempt
    status, accepted = call(
        stack.url,
        "POST",
        f"/api/attempts/{attempt['id']}/submission",
        {"actions": game["actions"], "times": [0] * len(game["actions"]), "hints": 0},
        token,
    )
    assert status == 202, accepted

    def settled():
        status, submission = call(stack.url, "GET", f"/api/submissions/{accepted['id']}/", token=token)
        assert status == 200, submission
        return submission if submission["status"] not in ("pending", "verifying") else None

    submission = stack.wait("verification by the worker", settled, VERIFY_TIMEOUT)
    assert (submission["status"], submission["won"], submission["moves"]) == ("verified", True, game["moves"])
    assert not submission["flagged"], submission

    status, board = call(stack.url, "GET", f"/api/leaderboards/deals/{attempt['number']}/")
    assert status == 200, board
    assert [(row["rank"], row["player"], row["moves"], row["score"]) for row in board["results"]] == [
        (1, "smoke_player", game["moves"], game["score"])
    ]

    # beat reaches the broker, and its periodic task reaches the worker.
    def beat_task_done():
        return any("requeue_stale_submissions" in line and "succeeded" in line for line in worker.output().splitlines())

    stack.wait("a task sent by beat and run by the worker", beat_task_done, BEAT_TIMEOUT)
    assert all(service.alive() for name, service in stack.services.items() if name != "migrate")
