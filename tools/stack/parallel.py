"""The test suite on several processes: what make test adds for pytest-xdist (``cli.pytest_arguments``)
and what each xdist worker needs of its own.

pytest-django gives each worker its own PostgreSQL test database (``test_<name>_gw0``,
``test_<name>_gw1``, ...); tests/conftest.py gives each its own Redis database with
``worker_environment``: worker ``gwN`` uses database ``TEST_REDIS_WORKER_DB + N`` (8 unless set)
of REDIS_URL's server, so that one worker's ``flushdb`` never empties another's queue or index.
The environment is set in the worker process before its pytest starts (and so before Django
reads its settings); the processes the tests start (Celery workers, gunicorn) inherit it.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

# Redis' default number of databases ("databases 16"): 0..15.
REDIS_DATABASES = 16
DEFAULT_FIRST_DB = 8
FALLBACK_REDIS_URL = "redis://127.0.0.1:6379/0"  # config/settings.py's default


def worker_number(worker: str) -> int:
    """``gw3`` -> 3."""
    if not worker.startswith("gw") or not worker[2:].isdigit():
        raise ValueError(f"unexpected xdist worker id {worker!r}")
    return int(worker[2:])


def redis_url_for_worker(url: str, worker: str, first_db: int = DEFAULT_FIRST_DB) -> str:
    """``url`` with the database number of xdist worker ``worker`` (``gwN``: ``first_db + N``)."""
    db = first_db + worker_number(worker)
    if db >= REDIS_DATABASES:
        raise ValueError(
            f"xdist worker {worker} would use Redis database {db}; Redis has {REDIS_DATABASES} "
            f"(0..{REDIS_DATABASES - 1}): run fewer workers (-n) or set TEST_REDIS_WORKER_DB lower"
        )
    parts = urlsplit(url)
    if parts.scheme == "unix":  # unix:///path/redis.sock?db=N
        query = "&".join(p for p in parts.query.split("&") if p and not p.startswith("db="))
        return f"unix://{parts.netloc}{parts.path}?" + "&".join(filter(None, [query, f"db={db}"]))
    return parts._replace(path=f"/{db}").geturl()


def worker_environment(worker: str, environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """What xdist worker ``worker`` (``gwN``) sets in its environment, from the controller's."""
    first = int(environ.get("TEST_REDIS_WORKER_DB") or DEFAULT_FIRST_DB)
    return {"REDIS_URL": redis_url_for_worker(environ.get("REDIS_URL") or FALLBACK_REDIS_URL, worker, first)}
