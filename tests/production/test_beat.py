"""One beat, however many are started: config.celery.SingleBeatScheduler runs the schedule only
while it holds a lock in Redis; a second beat waits, and takes over when the first one dies."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .compose import app_service
from .test_smoke import CONTAINER_FOLDERS

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
# Short, so that the second beat takes over within seconds of the first one's death.
LOCK_SECONDS = 6
SENT = "Scheduler: Sending due task"
# The schedule's shortest interval (requeue-stale-submissions) is 15 s: its first run is due then.
FIRST_RUN_TIMEOUT = 40


class Beat:
    def __init__(self, name: str, folder: Path, redis_url: str):
        command = app_service(
            "beat", {"DJANGO_SECRET_KEY": "k", "DAILY_DEAL_SECRET": "d", "POSTGRES_PASSWORD": "p"}
        ).command[2]
        # compose's beat command after its wait for the migrations, with this machine's files.
        beat = CONTAINER_FOLDERS.sub(f"{folder}/{name}-", command.split("exec ", 1)[1])
        self.argv = [sys.executable, "-m", *beat.split()]
        self.log = folder / f"{name}.log"
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "CELERY_BEAT_LOCK_SECONDS": str(LOCK_SECONDS),
            "PYTHONUNBUFFERED": "1",
        }
        self.process = None

    def start(self) -> "Beat":
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def sent(self) -> int:
        return self.output().count(SENT)

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(20)


def wait_for(what: str, condition, timeout: float, beats) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        for beat in beats:
            assert beat.process.poll() is None, f"a beat exited:\n{beat.output()[-3000:]}"
        assert time.monotonic() < deadline, f"no {what} within {timeout} s:\n" + "\n".join(
            beat.output()[-2000:] for beat in beats
        )
        time.sleep(0.2)


def test_two_beats_run_the_schedule_once(clean_redis, tmp_path):
    from django.conf import settings

    assert os.environ.get("REDIS_URL", settings.REDIS_URL) == settings.REDIS_URL
    beats = [Beat(name, tmp_path, settings.REDIS_URL).start() for name in ("first", "second")]
    try:
        wait_for("task sent by a beat", lambda: any(beat.sent() for beat in beats), FIRST_RUN_TIMEOUT, beats)
        time.sleep(LOCK_SECONDS)  # the other one had time to send too, if it were going to
        running = [beat for beat in beats if beat.sent()]
        assert len(running) == 1, [beat.output()[-2000:] for beat in beats]
        (holder,) = running
        (standby,) = [beat for beat in beats if beat is not holder]
        assert "another beat holds the lock" in standby.output()

        # The holder dies without releasing the lock: the standby takes over once it expires,
        # and sends what its own schedule has due.
        holder.stop(signal.SIGKILL)
        wait_for("task sent by the second beat", standby.sent, LOCK_SECONDS * 3 + 5, [standby])
        assert "holds the lock" in standby.output()
    finally:
        for beat in beats:
            beat.stop()
