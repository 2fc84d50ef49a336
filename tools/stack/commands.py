"""The command lines of the project's own processes, one function each, so that `make run`,
the benchmarks and the tests start them with the same flags (docker-compose.yml's commands
are the deployed counterparts)."""

from __future__ import annotations

from pathlib import Path

from tools.stack.process import PYTHON, ROOT

# gunicorn's settings file, the one compose and the Dockerfile use: its logging (JSON lines with
# DJANGO_LOG_FORMAT=json, the request id), no control socket, the metrics' child_exit hook.
GUNICORN_CONFIG = ROOT / "config" / "gunicorn.conf.py"

# The worker talks to no other worker: no gossip, mingle or heartbeat traffic on the broker.
CELERY_QUIET = ["--without-gossip", "--without-mingle", "--without-heartbeat"]


def manage(*args: str) -> list[str]:
    return [PYTHON, "manage.py", *args]


def gunicorn(
    bind: str,
    workers: int | str,
    *,
    worker_class: str | None = None,
    threads: int | None = None,
    access_log: str | Path = "-",
    extra: tuple[str, ...] = (),
) -> list[str]:
    """gunicorn serving config.wsgi on ``bind`` (host:port); gunicorn's defaults where an
    argument is None."""
    argv = [
        PYTHON,
        "-m",
        "gunicorn",
        "-c",
        str(GUNICORN_CONFIG),
        "config.wsgi",
        "--bind",
        bind,
        "--workers",
        str(workers),
    ]
    if worker_class is not None:
        argv += ["--worker-class", worker_class]
    if threads is not None:
        argv += ["--threads", str(threads)]
    # Not one shared socket under $HOME for every gunicorn on the machine.
    argv += ["--access-logfile", str(access_log), "--error-logfile", "-", "--no-control-socket", *extra]
    return argv


def celery_worker(*, concurrency: int | None = None, pool: str | None = None, node: str | None = None) -> list[str]:
    """``celery -A config worker``: prefork with ``concurrency`` processes, or ``pool``; ``node``
    names it (-n) where several run against one broker."""
    argv = [PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
    if pool is not None:
        argv += ["--pool", pool]
    if concurrency is not None:
        argv += [f"--concurrency={concurrency}"]
    argv += CELERY_QUIET
    if node is not None:
        argv += ["-n", node]
    return argv


def celery_beat(schedule: Path, pidfile: Path) -> list[str]:
    return [
        PYTHON,
        "-m",
        "celery",
        "-A",
        "config",
        "beat",
        "--loglevel=INFO",
        f"--schedule={schedule}",
        f"--pidfile={pidfile}",
    ]


# The line a Celery worker logs once it consumes ("celery@host ready.").
WORKER_READY = " ready."
