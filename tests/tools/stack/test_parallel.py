"""make test on several pytest-xdist workers: the arguments tools/stack adds (unless told
otherwise), and each worker's own Redis database (tools/stack/parallel.py)."""

import importlib.util
import os
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from tools.stack.cli import pytest_arguments
from tools.stack.parallel import redis_url_for_worker, worker_environment
from tools.stack.process import ROOT


def test_make_test_runs_on_workers_unless_the_arguments_or_test_workers_say_otherwise():
    assert pytest_arguments(["-q", "tests/games"], workers="3") == [
        "-n",
        "3",
        "--dist",
        "loadgroup",
        "-q",
        "tests/games",
    ]
    assert pytest_arguments([], workers="auto")[:2] == ["-n", "auto"]
    for own in (["-n", "2"], ["-n2"], ["-nauto"], ["--numprocesses=4"], ["--dist", "load"], ["-p", "no:xdist"]):
        assert pytest_arguments(["-q", *own], workers="3") == ["-q", *own]
    for serial in ("0", "1"):
        assert pytest_arguments(["-x"], workers=serial) == ["-x"]
    assert pytest_arguments(["--no-header"], workers="2")[:2] == ["-n", "2"]  # not -n


def test_each_worker_has_its_own_redis_database_on_the_same_server():
    assert redis_url_for_worker("redis://127.0.0.1:6379/1", "gw0") == "redis://127.0.0.1:6379/8"
    assert redis_url_for_worker("redis://:pw@cache:6380/15", "gw3") == "redis://:pw@cache:6380/11"
    assert redis_url_for_worker("redis://127.0.0.1:6379", "gw1", first_db=2) == "redis://127.0.0.1:6379/3"
    assert redis_url_for_worker("unix:///run/redis.sock?db=4&x=1", "gw2") == "unix:///run/redis.sock?x=1&db=10"
    with pytest.raises(ValueError, match="run fewer workers"):
        redis_url_for_worker("redis://127.0.0.1:6379/0", "gw8")


def test_a_worker_sets_its_redis_url_from_the_controllers_environment():
    assert worker_environment("gw2", {"REDIS_URL": "redis://127.0.0.1:6379/1", "TEST_REDIS_WORKER_DB": "9"}) == {
        "REDIS_URL": "redis://127.0.0.1:6379/11"
    }
    assert worker_environment("gw0", {}) == {"REDIS_URL": "redis://127.0.0.1:6379/8"}


def test_each_xdist_worker_runs_on_its_own_redis_and_postgresql_databases(tmp_path):
    """A real `pytest -n 2` with tests/conftest.py: each worker's Django settings, and the
    environment its subprocesses inherit, name that worker's own databases."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "import os, pytest\n"
        "from pathlib import Path\n"
        "from django.conf import settings\n"
        "from django.db import connection\n"
        "@pytest.mark.django_db\n"
        "@pytest.mark.parametrize('n', range(4))\n"
        "def test_where(n, tmp_path_factory):\n"
        "    worker = os.environ['PYTEST_XDIST_WORKER']\n"
        "    seen = [worker, settings.REDIS_URL, os.environ['REDIS_URL'], connection.settings_dict['NAME']]\n"
        f"    (Path({str(tmp_path)!r}) / f'{{worker}}-{{n}}.seen').write_text(' '.join(seen))\n"
    )
    # A database name of its own: the workers' test databases are not this run's.
    database = urlsplit(os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/easyharp")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(
        DATABASE_URL=database._replace(path=f"/eh_xdist_probe_{os.getpid()}").geturl(),
        REDIS_URL="redis://127.0.0.1:6379/1",
        TEST_REDIS_WORKER_DB="12",
        PYTHONPATH=str(ROOT / "tests"),  # tests/conftest.py as a plugin (-p conftest)
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider", "-p", "conftest"]
        + ["--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"), str(probe)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    seen = [path.read_text().split() for path in tmp_path.glob("*.seen")]
    assert len(seen) == 4, run.stdout[-3000:]
    for worker, settings_url, environ_url, name in seen:
        expected = f"redis://127.0.0.1:6379/{12 + int(worker[2:])}"
        assert settings_url == environ_url == expected
        assert name == f"test_eh_xdist_probe_{os.getpid()}_{worker}"


class _Options:
    """The two options xdist's schedulers read, as make test sets them."""

    def __init__(self, dist: str):
        self.values = {"dist": dist, "tx": ["3*popen"]}

    def getvalue(self, name: str):
        return self.values[name]


def test_the_serial_units_of_work_and_every_other_test_its_own():
    spec = importlib.util.spec_from_file_location("suite_conftest", ROOT / "tests" / "conftest.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    assert suite.pytest_xdist_make_scheduler(config=_Options("load"), log=None) is None
    scheduler = suite.pytest_xdist_make_scheduler(config=_Options("loadgroup"), log=None)
    units = {
        nodeid: scheduler._split_scope(nodeid)
        for nodeid in (
            "tests/production/test_smoke.py::test_a_won_game",
            "tests/production/test_compose.py::test_images",
            "tests/tools/stack/test_make_run.py::test_make_run_serves",
            "tests/tools/stack/test_process.py::test_a_child",
            "tests/e2e/test_play.py::test_sign_up[1]",
            "tests/e2e/test_play.py::test_sign_up[2]",
        )
    }
    assert list(units.values())[:3] == ["production", "production", "make-run"]
    assert list(units.values())[3:] == list(units)[3:]
