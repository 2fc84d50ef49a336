"""Shared pytest configuration. pytest-django reads DJANGO_SETTINGS_MODULE from pytest.ini."""

import os

import pytest
import redis
from django.conf import settings as django_settings
from worker import Worker

from tools.stack.parallel import worker_environment

# Tests that need the machine to themselves when make test runs them on several xdist workers
# (tools/stack/parallel.py), in units of work run one test after another on one worker:
# the production-shaped stacks (gunicorn, Celery, beat, network namespaces, a pip-built venv;
# their scratch databases and module-wide stacks), and make run's launcher (its own embedded
# servers) beside them on another worker, so that neither unit waits for the other. Every other
# test is a unit of its own. The biggest units are handed out first.
SERIAL_UNITS = {"tests/production/": "production", "tests/tools/stack/test_make_run.py": "make-run"}


def pytest_collection_modifyitems(items):
    """The tests of SERIAL_UNITS first: xdist hands out units by size, biggest first, and in
    this order among equals, so make run's one test starts at once instead of last."""
    items.sort(key=lambda item: not item.nodeid.startswith(tuple(SERIAL_UNITS)))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_newgateway(gateway):
    """An xdist worker process, before its pytest starts: its own Redis database."""
    environment = worker_environment(gateway.id, os.environ)
    gateway.remote_exec(f"import os; os.environ.update({environment!r})").waitclose()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (make test's): the units of SERIAL_UNITS, every other test a unit of
    its own. (xdist's own loadgroup reads ``xdist_group`` marks into the test's id,
    which pytest 9.2 no longer lets it rewrite: its groups are split like ``load``.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class MachineGroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((unit for where, unit in SERIAL_UNITS.items() if nodeid.startswith(where)), nodeid)

    return MachineGroupScheduling(config, log)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many accounts: a fast hasher keeps them quick (production keeps PBKDF2)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def clean_redis():
    """The ranking index and the cache live in Redis: an empty database before and after."""
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def worker_env() -> dict[str, str]:
    """Environment of the test's worker beyond its database and Redis (a module that needs
    more, a mail server's address, overrides this fixture)."""
    return {}


@pytest.fixture
def worker(tmp_path, transactional_db, worker_env):
    """A started Celery worker (tests/worker.py) on committed data; stopped after the test.
    Its queue and the Redis index start empty."""
    redis.Redis.from_url(django_settings.REDIS_URL).flushdb()
    process = Worker(tmp_path / "worker.log", **worker_env).start()
    yield process
    # The test is over: SIGKILL, not a warm shutdown (SIGTERM waits out the broker's blocking
    # read, about 2 s a test, 7 s on a loaded machine). A test that needs the graceful stop
    # calls worker.stop() itself.
    process.kill()
