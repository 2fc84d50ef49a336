"""Backup and restore as docs/operations.md gives them: pg_dump of the record, pg_restore into a
fresh database, an empty Redis; the service started on what was restored rebuilds the boards'
Redis index from PostgreSQL and shows the same boards."""

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import redis
from django.conf import settings
from leaderboard_fixtures.reliability import submitted
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts
from tools.stack.process import free_port

from .test_smoke import fresh_database, healthy

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-backup-test-password-7"
WON_GAMES = ROOT / "tests" / "data" / "won_games.jsonl"
# docs/operations.md's commands, with the database as a URL instead of compose's service.
BACKUP = ["pg_dump", "--format=custom", "--no-owner", "--file={file}", "--dbname={url}"]
RESTORE = ["pg_restore", "--no-owner", "--exit-on-error", "--dbname={url}", "{file}"]


def database_url(name: str) -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def run(template: list[str], **values) -> None:
    result = subprocess.run([part.format(**values) for part in template], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def boards(base_get, numbers) -> dict:
    return {number: base_get(f"/api/leaderboards/deals/{number}/") for number in numbers}


@pytest.mark.django_db(transaction=True)
def test_a_restored_dump_shows_the_same_boards(clean_redis, tmp_path, settings):
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore (PostgreSQL's client) are not installed")
    # The games are played in no time: neither the plausibility check nor the tempo rules flag them.
    settings.MAX_ACTIONS_PER_SECOND, settings.TEMPO_MIN_ACTIONS = 100_000, 1_000_000
    games = [json.loads(line) for line in WON_GAMES.read_text().splitlines() if line.strip()]
    # One won log per deal (a log two players share is a copy, kept off the boards).
    numbered = sorted((g for g in games if g["deal"].startswith("EH1-N-")), key=lambda g: len(g["actions"]))[:4]
    numbers = set()
    players = {name: accounts.user_signup(username=name, password=PASSWORD) for name in ("ada", "bea", "cy")}
    for name, game in zip(("ada", "bea", "cy", "ada"), numbered, strict=True):
        submission = submitted(players[name], game["deal"], game["actions"])
        assert (submission.status, submission.flagged) == ("verified", False), submission.flag_reasons
        numbers.add(submission.deal_number)
    client = APIClient()
    before = boards(lambda path: client.get(path).json(), numbers)
    assert [len(board["results"]) for board in before.values()] == [1, 1, 1, 1], before

    dump = tmp_path / "easyharp.dump"
    run(BACKUP, file=dump, url=database_url(settings.DATABASES["default"]["NAME"]))
    assert dump.stat().st_size > 0
    with fresh_database("restored") as restored_url:
        run(RESTORE, file=dump, url=restored_url)
        # The restore's Redis: empty, as after a FLUSHDB or on a new server.
        redis.Redis.from_url(settings.REDIS_URL).flushdb()
        after = boards_from_a_server_on(restored_url, numbers, tmp_path)
    assert after == before


def boards_from_a_server_on(database: str, numbers, folder: Path) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": settings.REDIS_URL, "PYTHONUNBUFFERED": "1"}
    log = folder / "web.log"
    with log.open("wb") as out:
        web = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "config/gunicorn.conf.py",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = 60
        while not healthy(base):
            assert web.poll() is None and deadline > 0, log.read_text()
            deadline -= 0.2
            time.sleep(0.2)

        def get(path: str) -> dict:
            with urllib.request.urlopen(
                urllib.request.Request(base + path, headers={"Accept": "application/json"}), timeout=10
            ) as response:
                return json.loads(response.read())

        return boards(get, numbers)
    finally:
        os.killpg(web.pid, 15)
        web.wait(20)
