"""`make run` from a fresh data folder: the launcher (tools/stack, the entry point `make run`
calls) starts its embedded PostgreSQL and Redis, the migrations, gunicorn, a Celery worker and
beat; a game won in the browser there is verified by that worker and ranked, and the sign-up's mail
is in the log stream. Ctrl-C stops
everything; what a killed launcher leaves is stopped by the next start; the data survives
restarts; one process dying stops all of them, non-zero.

Nothing here touches the test database: the launcher's servers are its own, in a temporary folder.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PASSWORD
from e2e.driver import BoardPlayer
from playwright.sync_api import expect, sync_playwright
from worker import wait_for

from games import parse_code
from tools.stack.process import ROOT, descendants, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

WON_GAMES = ROOT / "tests" / "data" / "won_games.jsonl"


class Launcher:
    """`python -m tools.stack run` with its own data folder and port, and no DATABASE_URL or
    REDIS_URL: the embedded servers start."""

    def __init__(self, data: Path, port: int, log: Path):
        self.data, self.port, self.log = data, port, log
        self.url = f"http://127.0.0.1:{port}"
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        # The browser plays faster than a person: not flagged (by the server's clock, nor by the
        # tempo of the action times it sends), so it is ranked at once.
        self.env.update(
            EASYHARP_DATA_DIR=str(data), PORT=str(port), MAX_ACTIONS_PER_SECOND="100000", TEMPO_MIN_ACTIONS="1000000"
        )
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 600) -> "Launcher":
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tools.stack", "run"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while f"Easy Harp Daily is up: {self.url}" not in self.output():
            assert self.process.poll() is None, f"the launcher exited early:\n{self.output()[-5000:]}"
            assert time.monotonic() < deadline, f"no address in {timeout} s:\n{self.output()[-5000:]}"
            time.sleep(0.2)
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def descendants(self) -> dict[int, str]:
        """Every process below the launcher: pid -> command line."""
        return {pid: command_line(pid) for pid in descendants(self.process.pid)[1:]}

    def stop(self, signum: int, timeout: float = 60) -> int:
        self.process.send_signal(signum)
        return self.process.wait(timeout)

    def kill(self) -> None:
        """Teardown of a failed test: nothing may outlive it."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def running(pids) -> dict[int, str]:
    """Those of ``pids`` still alive (zombies count as gone)."""
    alive = {}
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive[pid] = command_line(pid)
    return alive


def using(folder: Path) -> dict[int, str]:
    """Processes whose working directory or command line is in ``folder`` (the servers chdir
    into their data; beat names its schedule there)."""
    found = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cwd = os.readlink(proc / "cwd")
        except OSError:
            cwd = ""
        line = command_line(int(proc.name))
        if cwd.startswith(str(folder)) or str(folder) in line:
            found[int(proc.name)] = line
    return found


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def shortest_won_game() -> tuple[str, list[str]]:
    games = [json.loads(line) for line in WON_GAMES.read_text().splitlines() if line.strip()]
    game = min((g for g in games if g["deal"].startswith("EH1-N-")), key=lambda g: len(g["actions"]))
    return game["deal"], game["actions"]


@pytest.fixture
def data_dir():
    """make run's data folder, outside pytest's own (which every new pytest session on the
    machine sets back to 0700: run as root, PostgreSQL runs as the user pgserver and must
    reach its data)."""
    folder = Path(tempfile.mkdtemp(prefix="easyharp-stack-")) / "data"
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


@pytest.fixture
def launchers(tmp_path, data_dir):
    started: list[Launcher] = []

    def start(port: int) -> Launcher:
        launcher = Launcher(data_dir, port, tmp_path / f"launcher-{len(started)}.log")
        started.append(launcher)
        return launcher.start()

    yield start
    for launcher in started:
        launcher.kill()


def test_make_run_serves_a_browser_win_verified_by_its_worker_and_stops_everything(launchers, data_dir):
    code, actions = shortest_won_game()
    number = parse_code(code).number
    port = free_port()
    stack = launchers(port)
    processes = stack.descendants()
    names = " ".join(processes.values())
    for part in ("postgres", "redis-server", "gunicorn", "celery -A config worker", "celery -A config beat"):
        assert part in names, f"{part} is not running under the launcher: {processes}"

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000}, reduced_motion="reduce")
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        page.goto(f"{stack.url}/signup/?next=/play/{code}/")
        page.get_by_test_id("username").fill("harpist")
        page.get_by_test_id("password").fill(PASSWORD)
        page.get_by_test_id("signup-email").fill("harpist@example.org")
        page.get_by_test_id("auth-submit").click()
        page.wait_for_url(f"{stack.url}/play/{code}/")
        # With no mail server set, the worker writes each mail to the log stream, link and all.
        wait_for(lambda: re.search(r"/account/email/[\w:.-]+/", stack.output()))
        page.wait_for_selector("#table[data-ready=true]")
        # The board is drawn by play.js: gunicorn serves the static files (with DEBUG on), by
        # the hashed names the page gives them (only those are kept).
        stylesheet = page.locator("link[rel=stylesheet]").first.get_attribute("href")
        assert re.fullmatch(r"/static/frontend/app\.[0-9a-f]{12}\.css", stylesheet), stylesheet
        assert page.request.get(f"{stack.url}{stylesheet}").ok
        assert page.request.get(f"{stack.url}/static/frontend/app.css").status == 404

        BoardPlayer(page, number).play(actions)
        expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=30_000)
        expect(page.get_by_test_id("rank")).to_have_text("#1")
        page.get_by_test_id("board-link").click()
        page.wait_for_url(f"{stack.url}/boards/?deal={number}")
        row = page.locator("#deal-board tr[data-player='harpist']")
        expect(row.get_by_test_id("row-rank")).to_have_text("1")
        expect(row.get_by_test_id("row-moves")).to_have_text(str(len(actions)))

        # The one-liner the launcher prints makes a staff account while it runs.
        made = subprocess.run(
            [
                sys.executable,
                "-m",
                "tools.stack",
                "manage",
                "createsuperuser",
                "--noinput",
                "--username",
                "keeper",
                "--email",
                "keeper@example.com",
            ],
            cwd=ROOT,
            timeout=120,
            env={**stack.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD},
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, made.stdout + made.stderr
        page.goto(f"{stack.url}/admin/login/")
        page.locator("#id_username").fill("keeper")
        page.locator("#id_password").fill(PASSWORD)
        page.locator("input[type=submit]").click()
        expect(page.locator("#site-name")).to_be_visible()
        expect(page.locator("body")).to_contain_text("Submissions")
        browser.close()
    assert not errors, f"errors in the page's scripts: {errors}"

    # Ctrl-C: everything stops, and the launcher with it.
    processes = stack.descendants()
    assert stack.stop(signal.SIGINT) == 0, stack.output()[-5000:]
    assert not running(processes), f"left running after Ctrl-C: {running(processes)}"
    assert not using(data_dir), f"left running after Ctrl-C: {using(data_dir)}"

    # A launcher killed outright leaves its process groups behind: the next start stops them.
    stack = launchers(port)
    orphans = stack.descendants()
    stack.process.kill()
    stack.process.wait(10)
    assert running(orphans)
    stack = launchers(port)
    assert "stopping what a stopped launcher left running" in stack.output()
    # Nothing of the static files changed since the first start: they are not collected again.
    assert "the static files are as collected at the last start" in stack.output()
    assert not running(orphans), f"left running by the killed launcher: {running(orphans)}"

    # The player and the board are still there after those restarts.
    board = get_json(f"{stack.url}/api/leaderboards/deals/{number}/")
    assert [(row["rank"], row["player"]) for row in board["results"]] == [(1, "harpist")]

    # One process dying stops all the others, and the launcher exits non-zero.
    processes = stack.descendants()
    worker = next(pid for pid, line in processes.items() if "celery -A config worker" in line)
    os.kill(worker, signal.SIGKILL)
    assert stack.process.wait(60) == 1, stack.output()[-5000:]
    assert "worker exited with code -9: stopping everything" in stack.output()
    assert not running(processes), f"left running after the worker died: {running(processes)}"
    assert not using(data_dir), f"left running after the worker died: {using(data_dir)}"
