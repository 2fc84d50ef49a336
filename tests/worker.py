"""A real Celery worker process against the real Redis broker and the test database, for the
tests that need a task's effect the way production gets it (pipeline, reliability, e2e)."""

import json
import os
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

from tools.stack import commands
from tools.stack.process import Child

# Seconds a worker gets to finish its task after SIGTERM, before SIGKILL.
STOP_TIMEOUT = 15


def database_url() -> str:
    """The URL of the database this test session really uses (pytest-django's test_ copy)."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker(Child):
    """``celery -A config worker`` (one process: the solo pool) in its own process group,
    logging to a file (tools/stack's Child: ``kill()`` is SIGKILL, as a crash would be)."""

    def __init__(self, log_path: Path, **env):
        super().__init__(
            "worker",
            commands.celery_worker(pool="solo", node=f"test-{os.getpid()}@%h"),
            env={"DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL, **env},
            log_path=log_path,
            ready_text=commands.WORKER_READY,
        )

    def start(self, timeout: float = 30) -> "Worker":
        super().start()
        self.wait_ready(self.said_ready, "the worker was ready", timeout=timeout)
        return self

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        super().stop(timeout)


def wait_for(predicate, timeout: float = 120, interval: float = 0.05):
    """``predicate()``'s value once it is true. ``timeout`` bounds a hang, it checks no speed:
    generous, since a loaded 2-core machine ran past 30 s where an idle one takes one."""
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
