"""The worker keeps its database connection from one task to the next (CELERY_DB_REUSE_MAX,
DATABASE_CONN_MAX_AGE), and a kept connection that PostgreSQL dropped in between is replaced
before the next task instead of failing it."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from leaderboard_fixtures.reliability import TcpProxy
from worker import Worker, database_url, wait_for

from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import intake

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def submit(player) -> int:
    """A one-action log (a legal, lost game), queued for the worker at commit."""
    attempt = Attempt.objects.create(
        player=player, deal_code="EH1-N-AAAAAAF", deal_number=5, started_at=timezone.now() - timedelta(minutes=5)
    )
    return intake.submission_create(attempt=attempt, player=player, actions=["s"]).pk


def verified(submission_id: int, worker: Worker, tasks: int) -> None:
    wait_for(lambda: Submission.objects.filter(pk=submission_id, status="verified").exists())
    wait_for(lambda: len(re.findall(r"verify_submission\[.*\] succeeded", worker.log_path.read_text())) == tasks)


def worker_backends() -> set[tuple]:
    """The other sessions on the test database: the worker's (this process has one)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return set(cursor.fetchall())


@pytest.fixture
def start_worker(tmp_path, transactional_db, clean_redis):
    started = []

    def start(**env) -> Worker:
        started.append(Worker(tmp_path / f"worker-{len(started)}.log", **{k: str(v) for k, v in env.items()}))
        return started[-1].start()

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def player(db):
    return accounts.user_signup(username="alice", password="correct horse battery staple")


def test_the_worker_verifies_every_task_on_one_kept_connection(start_worker, player):
    worker = start_worker(DATABASE_CONN_MAX_AGE=60)
    seen = []
    for done in range(1, 4):
        verified(submit(player), worker, done)
        seen.append(worker_backends())
    assert len(seen[0]) == 1 and seen[0] == seen[1] == seen[2]  # the same backend, never reconnected


def test_without_reuse_the_worker_closes_its_connection_after_each_task(start_worker, player):
    worker = start_worker(DATABASE_CONN_MAX_AGE=60, CELERY_DB_REUSE_MAX=0)
    verified(submit(player), worker, 1)
    wait_for(lambda: not worker_backends())


def test_a_kept_connection_dropped_between_tasks_does_not_fail_the_next_task(start_worker, player):
    db = connection.settings_dict
    proxy = TcpProxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    proxy.up()
    try:
        worker = start_worker(
            DATABASE_CONN_MAX_AGE=60, DATABASE_URL=database_url().replace(f":{db['PORT'] or 5432}/", f":{proxy.port}/")
        )
        first = submit(player)
        verified(first, worker, 1)
        before = worker_backends()
        proxy.down()  # PostgreSQL restarted, a network cut: the worker's idle connection is gone
        proxy.up()
        wait_for(lambda: not worker_backends() & before)
        second = submit(player)
        verified(second, worker, 2)  # on a new connection, at the first delivery
    finally:
        proxy.down()
    assert "raised" not in worker.log_path.read_text()
    assert Submission.objects.get(pk=second).deliveries == 1
