"""What the running `make run` of a data folder tells later commands (make createsuperuser,
make reset, the next make run), in stack.json there."""

from __future__ import annotations

import json
import os
import signal
import time
from gettext import gettext as _  # the settings may not be importable yet: not Django's
from pathlib import Path

from tools.stack.process import STOP_TIMEOUT, Child, alive, say, start_time


class State:
    """The launcher's pid, its children (each the leader of its process group, with its start
    time: who it is), and once up its address and servers."""

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
        self.fields.update(
            more, pid=os.getpid(), groups=[[c.process.pid, start_time(c.process.pid)] for c in children if c.process]
        )
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
