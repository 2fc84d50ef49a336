"""A child process the way every tool here runs one: in its own process group, its output
relayed line by line with its name in front (or written to a log file), ready when a check
says so, stopped with its own signal and then SIGKILL for whatever is left of its group.

Only the standard library: the launcher decides DATABASE_URL before any Django process starts.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from gettext import gettext as _  # the settings may not be importable yet: not Django's
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
# Seconds a process gets to stop after its stop signal, before SIGKILL.
STOP_TIMEOUT = 20

_PRINT_LOCK = threading.Lock()


def say(text: str, name: str = "stack") -> None:
    """One line of the shared log stream, prefixed with who says it."""
    with _PRINT_LOCK:
        print(f"{name:<8}| {text}", flush=True)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
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


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


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


def descendants(pid: int) -> list[int]:
    """The process and all of its descendants, the process first."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


class Child:
    """A process in its own process group (the terminal's Ctrl-C reaches only the launcher,
    which stops everything in order). Its output goes to the shared stream, each line
    prefixed with ``name``, or to ``log_path``. ``ready_text``: the line of output that says
    it is ready (``said_ready``). ``stop_last``: a server the others use, stopped after them."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        *,
        env: dict | None = None,
        stop_signal=signal.SIGTERM,
        log_path: Path | None = None,
        cwd: Path = ROOT,
        ready_text: str | None = None,
        stop_last: bool = False,
        **popen,
    ):
        self.name, self.argv, self.stop_signal = name, argv, stop_signal
        self.env = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
        self.log_path, self.cwd = log_path, cwd
        self.ready_text, self.stop_last = ready_text, stop_last
        self.popen_kwargs = popen
        self.process: subprocess.Popen | None = None
        self._log_start = 0
        self._ready = threading.Event()

    def start(self) -> Child:
        log = self.log_path.open("ab") if self.log_path else None
        if log is not None:
            self._log_start = log.tell()
        self.process = subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if log is None else log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            **self.popen_kwargs,
        )
        if log is not None:
            log.close()
        else:
            threading.Thread(target=self._relay, daemon=True).start()
        return self

    def _relay(self) -> None:
        assert self.process is not None and self.process.stdout is not None, "started with a pipe"
        for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            say(line, self.name)
            if self.ready_text and self.ready_text in line:
                self._ready.set()

    def said_ready(self) -> bool:
        """A line of output since the start contained ``ready_text``."""
        if self.log_path and self.ready_text and not self._ready.is_set():
            with self.log_path.open("rb") as log:
                log.seek(self._log_start)
                if self.ready_text.encode() in log.read():
                    self._ready.set()
        return self._ready.is_set()

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path else ""

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    @property
    def exit_code(self) -> int | None:
        return self.process.poll() if self.process else None

    def wait_ready(
        self, ready: Callable[[], object], what: str, stop: threading.Event | None = None, timeout: float = 60
    ) -> bool:
        """``wait_until(ready)`` for this process; the error carries the end of its log."""
        try:
            return wait_until(ready, what, self, stop or threading.Event(), timeout)
        except RuntimeError as exc:
            tail = self.log_tail()
            raise RuntimeError(f"{exc}\n{tail}" if tail else str(exc)) from None

    def signal(self) -> None:
        if self.process is not None and self.exit_code is None:
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
        self.kill()

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """The stop signal, then SIGKILL for the group after ``timeout`` seconds at most."""
        self.signal()
        self.reap(time.monotonic() + timeout)

    def kill(self) -> None:
        """SIGKILL to the whole group, as a crash or the OOM killer would: no chance to clean up."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()


def stop_all(children: list[Child], timeout: float = STOP_TIMEOUT) -> None:
    """The application's processes first (together), then the servers they use."""
    for group in ([c for c in children if not c.stop_last], [c for c in children if c.stop_last]):
        for child in group:
            child.signal()
        deadline = time.monotonic() + timeout
        for child in group:
            child.reap(deadline)


def wait_until(
    ready: Callable[[], object], what: str, child: Child, stop: threading.Event, timeout: float = 60
) -> bool:
    """Poll ``ready()`` until true. False when a stop was asked; an error when ``child``
    exits or the time runs out."""
    deadline = time.monotonic() + timeout
    while not stop.is_set():
        if ready():
            return True
        if child.exit_code is not None:
            raise RuntimeError(
                _("{name} exited with code {code} before {what}").format(
                    name=child.name, code=child.exit_code, what=what
                )
            )
        if time.monotonic() > deadline:
            raise RuntimeError(_("{what}: no answer in {seconds} s").format(what=what, seconds=timeout))
        stop.wait(0.1)
    return False
