"""A real Celery worker process against the real Redis broker and the test database, for the
tests that need a task's effect the way production gets it (pipeline, reliability, e2e)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """The URL of the database this test session really uses (pytest-django's test_ copy)."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """``celery -A config worker`` in its own process group, logging to a file."""

    def __init__(self, log_path: Path, **env):
        self.log_path = log_path
        self.env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL, **env}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "Worker":
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "INFO",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"test-{os.getpid()}@%h"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "ready." in self.log_path.read_text(errors="replace"):
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"the worker did not start:\n{self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: no chance to clean up."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_for(predicate, timeout: float = 30, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")


def queued_tasks(client) -> list[tuple[str, str]]:
    """``(task name, repr of its args)`` of the messages waiting in the broker's default queue
    (Redis ``client``), oldest first: what a worker would run next."""
    headers = [json.loads(message)["headers"] for message in reversed(client.lrange("celery", 0, -1))]
    return [(h["task"], h["argsrepr"]) for h in headers]
