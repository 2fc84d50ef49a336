"""/metrics (config/metrics.py): hidden without its bearer token, and, on the production-shaped
stack, moved by a game.

The stack: gunicorn with two workers and DEBUG off, a Celery worker with a pool of two, all of
them writing into one PROMETHEUS_MULTIPROC_DIR (prometheus-client's multiprocess mode), so the
verification counted in a pool process of the worker shows in the web's /metrics.
"""

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime

import pytest
from prometheus_client.parser import text_string_to_metric_families

from config.metrics import clear_multiprocess_dir, verification_outcome
from tools.stack.process import free_port

from .test_smoke import (
    ROOT,
    Service,
    healthy,
    shortest_won_game,
    smoke_database_url,  # noqa: F401 (a fixture)
)

TOKEN = "metrics-test-token-0123456789abcdef"
START_TIMEOUT = 90
VERIFY_TIMEOUT = 60
BEAT_TASK = "leaderboard.tasks.requeue_stale_submissions"


# -- hidden ----------------------------------------------------------------------------------------


def test_metrics_answer_404_when_no_token_is_set(client, settings):
    settings.METRICS_TOKEN = ""
    unknown = client.get("/no-such-page")
    for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer anything"}):
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code == 404
        assert answer.content == unknown.content  # nothing tells it apart from an unknown address


def test_metrics_answer_404_to_a_missing_or_wrong_bearer(client, settings):
    settings.METRICS_TOKEN = TOKEN
    for headers in (
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Bearer {TOKEN}x"},
        {"Authorization": f"Token {TOKEN}"},
        {"Authorization": TOKEN},
    ):
        assert client.get("/metrics", headers=headers).status_code == 404, headers
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain; version=0.0.4")
    assert "no-store" in answer["Cache-Control"]
    assert "easyharp_http_requests_total" in answer.content.decode()


def test_a_forked_process_writes_files_of_its_own():
    """gunicorn's workers and Celery's pool are forked: each child names its files anew (the host's
    name and its pid), or two processes would write one file."""
    from config.metrics import process_identifier, process_name

    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(write, process_identifier().encode())
        os._exit(0)
    os.waitpid(child, 0)
    written = os.read(read, 200).decode()
    os.close(read)
    os.close(write)
    assert written == process_name(child) != process_identifier()


def test_metrics_still_answer_when_redis_does_not(client, settings, monkeypatch):
    """Redis away: the counters are served, the gauges read from Redis are left out."""
    import django_redis
    import redis

    class Away:
        def __getattr__(self, name):
            def refused(*args, **kwargs):
                raise redis.ConnectionError("Redis is away")

            return refused

    monkeypatch.setattr(django_redis, "get_redis_connection", lambda alias: Away())
    settings.METRICS_TOKEN = TOKEN
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "easyharp_verifications_total" in text and "easyharp_queue_length" not in text


@pytest.mark.parametrize(
    "fields, outcome",
    [
        ({"status": "rejected"}, "rejected"),
        ({"status": "verified", "copy_of_id": 7, "flagged": True}, "copy"),
        ({"status": "verified", "flagged": True}, "flagged"),
        ({"status": "verified"}, "verified"),
        ({"status": "verified", "practice": True}, "verified"),
    ],
)
def test_a_verification_is_counted_under_its_outcome(fields, outcome):
    from leaderboard.models import Submission

    assert verification_outcome(Submission(**fields)) == outcome


# -- moved by a game, on the production-shaped stack -----------------------------------------------


def scrape(base: str, token: str | None = TOKEN) -> tuple[int, dict]:
    """The status, and ``{(sample name, sorted labels): value}`` of a scrape over plain HTTP, as
    Prometheus makes it from inside the network (no X-Forwarded-Proto: /metrics is exempt from
    the HTTPS redirect)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(f"{base}/metrics", headers=headers), timeout=10) as answer:
            text = answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, {}
    return 200, {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


class MeteredStack:
    """web and worker as compose runs them (DEBUG off, HTTPS redirect on behind a proxy),
    sharing one multiprocess folder emptied before they start."""

    def __init__(self, database_url: str, redis_url: str, folder):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.metrics_dir = metrics_dir = folder / "metrics"
        metrics_dir.mkdir()
        (metrics_dir / "counter_gone-1.db").write_bytes(b"")  # a process of an earlier start
        clear_multiprocess_dir(metrics_dir)
        assert not list(metrics_dir.iterdir())
        # gunicorn's hook for its exited workers (config.metrics.child_exit).
        hooks = folder / "gunicorn.conf.py"
        hooks.write_text("from config.metrics import child_exit  # noqa: F401\n")
        self.env = {
            **{key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "PROMETHEUS_"))},
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "metrics-test-secret-key-not-for-production-0123456789",
            "DAILY_DEAL_SECRET": "metrics-test-daily-deal-secret",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_COOKIES": "0",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "METRICS_TOKEN": TOKEN,
            "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
            # A whole game sent within a second stays plausible (tests/production/test_smoke.py).
            "MAX_ACTIONS_PER_SECOND": "100000",
            "TEMPO_MIN_ACTIONS": "1000000",  # its times are all 0 (a numbered deal's: test_smoke.py)
        }
        python = sys.executable
        self.web = Service(
            "web",
            [
                python,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-c",
                str(hooks),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--no-control-socket",
                "--access-logfile",
                "-",
                "--error-logfile",
                "-",
            ],
            self.env,
            folder / "web.log",
        )
        self.worker = Service(
            "worker",
            [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel=INFO",
                "--concurrency=2",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"metrics-{os.getpid()}@%h",
            ],
            self.env,
            folder / "worker.log",
        )

    def start(self) -> None:
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert migrate.returncode == 0, migrate.stdout[-3000:] + migrate.stderr[-3000:]
        self.web.start()
        self.wait("healthy web", lambda: healthy(self.url), START_TIMEOUT)
        self.worker.start()
        self.wait("ready worker", lambda: " ready." in self.worker.output(), START_TIMEOUT)

    def wait(self, what: str, condition, timeout: float):
        deadline = time.monotonic() + timeout
        while True:
            for service in (self.web, self.worker):
                assert service.process is None or service.alive(), f"{service.name} exited while waiting for {what}"
            found = condition()
            if found:
                return found
            assert time.monotonic() < deadline, f"no {what} within {timeout} s"
            time.sleep(0.2)

    def api(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
        """A player's call, through the TLS proxy (its X-Forwarded-Proto)."""
        headers = {"Accept": "application/json", "Content-Type": "application/json", "X-Forwarded-Proto": "https"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, {"body": error.read().decode(errors="replace")[:2000]}

    def logs(self) -> str:
        return "\n".join(
            f"----- {service.name} -----\n{service.output()[-6000:]}" for service in (self.web, self.worker)
        )

    def stop(self) -> None:
        self.worker.stop()
        self.web.stop()


@pytest.fixture
def metered_stack(smoke_database_url, clean_redis, tmp_path):  # noqa: F811 (the fixture imported above)
    from django.conf import settings

    stack = MeteredStack(smoke_database_url, settings.REDIS_URL, tmp_path)
    try:
        stack.start()
        yield stack
    except BaseException:
        print(stack.logs())  # pytest shows it with the failure
        raise
    finally:
        stack.stop()


@pytest.mark.slow
def test_a_game_moves_the_metrics_of_web_and_worker(metered_stack):
    stack = metered_stack
    assert scrape(stack.url, token=None)[0] == 404
    assert scrape(stack.url, token="wrong")[0] == 404
    status, before = scrape(stack.url)
    assert status == 200

    game = shortest_won_game()
    status, account = stack.api("POST", "/api/auth/signup/", {"username": "metered", "password": "a-long-password-73"})
    assert status == 201, account
    token = account["token"]
    sent = []
    for deal, actions in ((game["deal"], game["actions"]), ("EH1-N-AAAAAAF", ["s", "8>7", "1>2"])):
        status, attempt = stack.api("POST", "/api/attempts/", {"deal": deal}, token)
        assert status == 201, attempt
        status, accepted = stack.api(
            "POST",
            f"/api/attempts/{attempt['id']}/submission",
            {"actions": actions, "times": [0] * len(actions), "hints": 0},
            token,
        )
        assert status == 202, accepted
        sent.append(accepted["id"])

    def settled(submission_id):
        status, submission = stack.api("GET", f"/api/submissions/{submission_id}/", token=token)
        assert status == 200, submission
        return submission["status"] if submission["status"] not in ("pending", "verifying") else None

    outcomes = [stack.wait("a verification", lambda i=i: settled(i), VERIFY_TIMEOUT) for i in sent]
    assert outcomes == ["verified", "rejected"]
    # A periodic task, as beat sends it: its success is recorded by the worker.
    from config.celery import app

    app.send_task(BEAT_TASK)

    def beat_recorded():
        samples = scrape(stack.url)[1]
        return samples if value(samples, "easyharp_beat_task_last_success_timestamp_seconds", task=BEAT_TASK) else None

    after = stack.wait("the periodic task's success in /metrics", beat_recorded, VERIFY_TIMEOUT)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("easyharp_submissions_accepted_total") == 2
    assert moved("easyharp_http_requests_total", view="submission-create", method="POST", status="202") == 2
    assert moved("easyharp_http_request_duration_seconds_count", view="submission-create", method="POST") == 2
    assert moved("easyharp_verifications_total", outcome="verified") == 1
    assert moved("easyharp_verifications_total", outcome="rejected") == 1
    assert (
        moved("easyharp_verifications_total", outcome="flagged")
        == moved("easyharp_verifications_total", outcome="copy")
        == 0
    )
    # Only the won game ranks (the rejected one never does).
    assert moved("easyharp_submission_to_ranked_seconds_count") == 1
    assert 0 < moved("easyharp_submission_to_ranked_seconds_sum") < VERIFY_TIMEOUT
    assert moved("easyharp_beat_task_last_success_timestamp_seconds", task=BEAT_TASK) > 0
    assert ("easyharp_queue_length", (("queue", "celery"),)) in after
    # Files of several processes summed: gunicorn's master and a worker of it, a pool process of Celery's.
    assert len({path.stem.split("_", 1)[1] for path in stack.metrics_dir.glob("*.db")}) >= 3
    today = datetime.now(UTC).date()
    assert ("easyharp_board_entries", (("board", f"daily:{today.isoformat()}"),)) in after
