"""Faults around the real Celery worker: killed in the middle of a verification, the broker
(our own Redis) stopped when a player submits, a task delivered twice. Nothing is lost and
nothing is verified twice."""

import re
import time
from datetime import timedelta

import pytest
import redis
from django.utils import timezone
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, times_within  # noqa: F401  (autouse, as in tests/reliability/)
from leaderboard_fixtures.timing import human_times
from rest_framework.test import APIClient
from worker import wait_for

from config.celery import app as celery_app
from games import parse_code
from leaderboard.accounts import services as accounts
from leaderboard.boards import index
from leaderboard.models import Attempt, BoardEntry, Submission
from leaderboard.play.services import attempts, intake

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.reliability]

#: A legal log whose replay takes the worker a few seconds: draw a card, take it back.
LONG_LOG = ["s", "u"] * 400_000


def token_client(player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(player)}")
    return client


def task_done(worker, task_id: str, timeout: float = 120) -> None:
    """Wait for the worker's log to report the task finished."""
    wait_for(
        lambda: re.search(rf"\[{task_id}\] (succeeded|raised)", worker.log_path.read_text(errors="replace")),
        timeout=timeout,
    )


def status_of(submission_id: int) -> str:
    return Submission.objects.values_list("status", flat=True).get(pk=submission_id)


def test_a_worker_killed_mid_verification_is_recovered_by_beat_and_verified_once(workers, make_player, settings):
    settings.SUBMISSION_MAX_ACTIONS = len(LONG_LOG)
    first = workers(TEMPO_MIN_ACTIONS=str(10**9))  # the log's times are even: no tempo rule here
    player = make_player("alice")
    # Played over two days: 800,000 actions at a human pace, so the result is plausible.
    attempt = Attempt.objects.create(
        player=player, deal_code="EH1-N-AAAAAAF", deal_number=5, started_at=timezone.now() - timedelta(days=2)
    )
    times = times_within(len(LONG_LOG), 2 * 86_400_000 - 60_000)
    submission = intake.submission_create(attempt=attempt, player=player, actions=LONG_LOG, times=times)  # queued

    wait_for(lambda: status_of(submission.pk) == "verifying", interval=0.01)
    first.kill()  # SIGKILL while the log is being replayed
    killed = Submission.objects.get(pk=submission.pk)
    assert killed.status == "verifying" and killed.deliveries == 1 and killed.verified_at is None
    assert not BoardEntry.objects.exists()

    # A new worker; beat's task re-queues the claim once it is older than STALE_VERIFYING_SECONDS.
    second = workers(STALE_VERIFYING_SECONDS=1, STALE_PENDING_SECONDS=1, TEMPO_MIN_ACTIONS=str(10**9))
    wait_for(lambda: timezone.now() - killed.claimed_at > timedelta(seconds=1.5))
    beat = celery_app.send_task("leaderboard.tasks.requeue_stale_submissions")
    task_done(second, beat.id)
    wait_for(lambda: status_of(submission.pk) == "verified", interval=0.1)

    done = Submission.objects.get(pk=submission.pk)
    assert done.deliveries == 2  # the killed claim and the one that finished
    assert (done.won, done.moves, done.flagged) == (False, 400_000, False)
    assert BoardEntry.objects.filter(board="deal:5").count() == 1
    board = APIClient().get("/api/leaderboards/deals/5/").json()
    assert board["count"] == 1 and board["results"][0]["submission"] == submission.pk

    # Delivered twice more (a duplicate message, and beat again): nothing changes.
    duplicate = celery_app.send_task("leaderboard.tasks.verify_submission", args=[submission.pk])
    beat_again = celery_app.send_task("leaderboard.tasks.requeue_stale_submissions")
    task_done(second, duplicate.id)
    task_done(second, beat_again.id)
    again = Submission.objects.get(pk=submission.pk)
    assert (again.deliveries, again.verified_at, again.status) == (2, done.verified_at, "verified")
    assert re.search(rf"\[{beat_again.id}\] succeeded in [0-9.]+s: 0", second.log_path.read_text())


def test_a_task_delivered_twice_verifies_once(workers, make_player, won_game):
    player = make_player("alice")
    worker = workers()
    attempt = attempts.attempt_start(player=player, deal_code=won_game["deal"])
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    attempt.refresh_from_db()
    times = human_times(won_game["deal"], won_game["actions"], seed=1)  # a person's tempo
    submission = intake.submission_create(attempt=attempt, player=player, actions=won_game["actions"], times=times)
    duplicates = [celery_app.send_task("leaderboard.tasks.verify_submission", args=[submission.pk]) for _ in range(2)]
    for task in duplicates:
        task_done(worker, task.id)
    wait_for(lambda: status_of(submission.pk) == "verified")
    done = Submission.objects.get(pk=submission.pk)
    assert done.deliveries == 1 and done.won is True
    assert BoardEntry.objects.filter(submission=done).count() == 1


def test_redis_stopped_when_a_player_submits_nothing_is_lost(
    redis_server, app_on_redis, workers, make_player, won_game
):
    """The broker is our own redis-server: it is stopped while the player submits, then
    started again (empty, as after a crash without persistence)."""
    app_on_redis(redis_server.url)
    worker = workers(REDIS_URL=redis_server.url, STALE_PENDING_SECONDS=1)
    player = make_player("alice")
    client = token_client(player)
    attempt = client.post("/api/attempts/", {"deal": won_game["deal"]}, format="json").json()["id"]
    Attempt.objects.filter(pk=attempt).update(
        started_at=Attempt.objects.get(pk=attempt).started_at - timedelta(minutes=30)
    )
    number = parse_code(won_game["deal"]).number

    redis_server.stop()
    started = time.monotonic()
    body = {"actions": won_game["actions"], "times": human_times(won_game["deal"], won_game["actions"], seed=1)}
    sent = client.post(f"/api/attempts/{attempt}/submission", body, format="json")
    assert sent.status_code == 202, sent.content
    assert time.monotonic() - started < 3  # the request is not held while the broker is away
    stored = Submission.objects.get()
    assert stored.status == "pending" and stored.actions == won_game["actions"]
    # Reads go on from PostgreSQL meanwhile.
    assert client.get(sent.json()["url"]).json()["status"] == "pending"
    assert client.get(f"/api/leaderboards/deals/{number}/").json()["count"] == 0

    redis_server.start()  # back, and empty: whatever was queued before is gone
    wait_for(lambda: worker.log_path.read_text().count("Connected to redis://") >= 2)
    beat = celery_app.send_task(
        "leaderboard.tasks.requeue_stale_submissions",
        retry=True,
        retry_policy={"max_retries": 10, "interval_start": 0.2},
    )
    task_done(worker, beat.id)
    wait_for(lambda: status_of(stored.pk) == "verified", interval=0.1)

    done = Submission.objects.get()
    assert done.deliveries == 1 and done.won is True and done.actions == won_game["actions"]
    board = client.get(f"/api/leaderboards/deals/{number}/?around=me").json()
    assert board["me"] == 1 and board["results"][0]["submission"] == done.pk
    assert redis.Redis.from_url(redis_server.url).zcard(f"{index.KEY_PREFIX}:deal:{number}:z") == 1
