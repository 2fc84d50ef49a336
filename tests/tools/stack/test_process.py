"""The one supervisor's child process (tools/stack/process.py): ready when its output says so,
whether relayed to the shared stream or written to a log file; stopped with its own signal,
and SIGKILLed with everything left in its group when that signal is ignored."""

import signal
import sys
import textwrap
import time

from tools.stack import commands
from tools.stack.process import Child, alive, descendants, stop_all

# A parent that ignores SIGTERM with a child of its own (a pool process), saying when it is up.
STUBBORN = textwrap.dedent("""
    import signal, subprocess, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                      "time.sleep(600)"])
    print("stubborn ready.", flush=True)
    time.sleep(600)
""")


def test_a_child_logging_to_a_file_is_ready_on_its_line_and_a_stop_ends_it(tmp_path):
    log = tmp_path / "child.log"
    log.write_text("an old run: ready.\n")  # what an earlier process wrote does not count
    child = Child(
        "sleeper",
        [sys.executable, "-c", "import time; time.sleep(0.3); print('ready.'); time.sleep(600)"],
        log_path=log,
        ready_text="ready.",
    )
    child.start()
    assert not child.said_ready()
    assert child.wait_ready(child.said_ready, "the sleeper was ready", timeout=20)
    child.stop(timeout=10)
    assert child.exit_code == -signal.SIGTERM


def test_a_relayed_child_is_ready_on_its_line_with_its_name_in_front(capfd):
    # It stays up after its line, as a server does: a child that exits at once races the relay
    # thread (wait_ready sees the exit before the thread has read the line, on a loaded machine).
    argv = [sys.executable, "-c", "import time; print('one'); print('up and ready.'); time.sleep(600)"]
    child = Child("echo", argv, ready_text=" ready.")
    child.start()
    try:
        assert child.wait_ready(child.said_ready, "echo was ready", timeout=20)
        out = capfd.readouterr().out  # the relay thread prints each line before it notes the ready one
    finally:
        child.stop(timeout=10)
    assert "echo    | one\n" in out and "echo    | up and ready.\n" in out


def test_a_child_ignoring_its_stop_signal_is_killed_with_its_whole_group_after_the_timeout(tmp_path):
    child = Child(
        "stubborn", [sys.executable, "-c", STUBBORN], log_path=tmp_path / "stubborn.log", ready_text="stubborn ready."
    )
    child.start()
    child.wait_ready(child.said_ready, "stubborn was ready", timeout=20)
    group = descendants(child.pid)
    assert len(group) == 2
    started = time.monotonic()
    stop_all([child], timeout=1)
    assert 1 <= time.monotonic() - started < 10
    assert child.exit_code == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in group) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in group)


def test_a_failed_start_says_why_with_the_end_of_the_log(tmp_path):
    child = Child(
        "broken",
        [sys.executable, "-c", "raise SystemExit('no config here')"],
        log_path=tmp_path / "broken.log",
        ready_text="ready.",
    )
    child.start()
    try:
        child.wait_ready(child.said_ready, "broken was ready", timeout=20)
    except RuntimeError as exc:
        assert "broken exited with code 1 before broken was ready" in str(exc)
        assert "no config here" in str(exc)
    else:
        raise AssertionError("no error for a process that exited")


def test_make_run_the_benchmarks_and_the_tests_start_celery_and_gunicorn_with_the_same_flags():
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    for argv in (commands.celery_worker(concurrency=2), commands.celery_worker(pool="solo", node="t@%h")):
        assert argv[1:6] == ["-m", "celery", "-A", "config", "worker"] and "--loglevel=INFO" in argv
        assert all(flag in argv for flag in quiet)
    web = commands.gunicorn("127.0.0.1:1", 2)
    assert web[1:3] == ["-m", "gunicorn"] and "--no-control-socket" in web
    # compose's and the Dockerfile's settings file: the same logging, hooks and no control socket.
    assert web[3:6] == ["-c", str(commands.GUNICORN_CONFIG), "config.wsgi"] and web[6] == "--bind"
    assert "--worker-class" not in web  # gunicorn's own default unless asked
