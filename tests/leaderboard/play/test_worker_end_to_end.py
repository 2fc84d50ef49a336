"""The whole pipeline: API in this process, a real Celery worker, real Redis and PostgreSQL."""

from datetime import timedelta

import pytest
from django.db.models import F
from leaderboard_fixtures.people import MOVE_RULES_OFF
from leaderboard_fixtures.timing import human_times
from rest_framework.test import APIClient
from worker import wait_for

from games import replay, solver
from leaderboard.models import Attempt, Submission

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery staple"


def signed_up(name: str) -> APIClient:
    client = APIClient()
    assert client.post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json").status_code == 201
    return client


def start_attempt(client, code: str, minutes_ago: float = 20) -> str:
    attempt = client.post("/api/attempts/", {"deal": code}, format="json").json()["id"]
    # The player took this long to play: keeps the result plausible at a human pace.
    Attempt.objects.filter(pk=attempt).update(
        started_at=Attempt.objects.get(pk=attempt).started_at - timedelta(minutes=minutes_ago)
    )
    return attempt


def verified(client, url: str) -> dict:
    return wait_for(lambda: (lambda s: s if s["status"] in ("verified", "rejected") else None)(client.get(url).json()))


@pytest.fixture
def pipeline_worker(monkeypatch, request):
    """The real worker with the move rules off: this test sends the solver's line of the day (the
    only won line it has for a deal the service picks), which the engine match rightly holds
    (tests/leaderboard/play/test_engine_match.py)."""
    for name, value in MOVE_RULES_OFF.items():
        monkeypatch.setenv(name, str(value))
    return request.getfixturevalue("worker")


def test_a_player_plays_the_daily_deal_and_is_ranked(pipeline_worker):
    alice = signed_up("alice")
    attempt = start_attempt(alice, "daily", minutes_ago=0)  # the ranked try: only its attempt names the cards
    daily = alice.get(f"/api/attempts/{attempt}/").json()
    line = solver.solve(daily["number"])
    assert line.won
    times = human_times(daily["deal"], line.actions, seed=1)  # played at a person's pace, that long ago
    Attempt.objects.filter(pk=attempt).update(started_at=F("started_at") - timedelta(milliseconds=times[-1] + 5000))
    played = {"actions": line.actions, "times": times}
    sent = alice.post(f"/api/attempts/{attempt}/submission", played, format="json")
    assert sent.status_code == 202 and sent.json()["status"] == "pending"
    result = verified(alice, sent.json()["url"])
    assert result["status"] == "verified" and result["won"] is True
    expected = replay(daily["deal"], line.actions)
    assert (result["moves"], result["score"]) == (expected.moves, expected.score)

    board = alice.get("/api/leaderboards/daily/?around=me").json()
    assert board["me"] == 1
    assert board["results"][0] | {"submitted_at": None} == {
        "rank": 1,
        "player": "alice",
        "won": True,
        "moves": expected.moves,
        "score": expected.score,
        "duration_ms": result["duration_ms"],
        "clean": True,
        "hints": 0,
        "submission": result["id"],
        "submitted_at": None,
    }

    again = alice.post(f"/api/attempts/{attempt}/submission", played, format="json")
    assert again.status_code == 409

    mallory = signed_up("mallory")
    assert mallory.post(f"/api/attempts/{attempt}/submission", {"actions": ["s"]}, format="json").status_code == 403
    assert mallory.get(sent.json()["url"]).json()["actions"] is None
    assert Submission.objects.get().deliveries == 1


def test_an_illegal_log_is_rejected_by_the_worker_with_its_index(worker):
    bob = signed_up("bob")
    attempt = start_attempt(bob, "EH1-N-AAAAAAF")
    sent = bob.post(f"/api/attempts/{attempt}/submission", {"actions": ["s", "8>7", "1>2"]}, format="json")
    result = verified(bob, sent.json()["url"])
    assert result["status"] == "rejected" and result["error_index"] == 2
    assert "KC cannot go on" in result["error"]
    assert bob.get("/api/leaderboards/deals/5/").json()["count"] == 0


def test_the_worker_keeps_no_copy_of_the_message_it_works_on(worker, settings):
    """ack_emulation off: no unacked copy in Redis (two round trips a task); beat's requeue_stale
    is what finds a task a killed worker held (tests/reliability/test_worker_faults.py)."""
    import redis
    from django.utils import timezone

    from leaderboard.accounts import services as accounts
    from leaderboard.play.services import intake

    settings.SUBMISSION_MAX_ACTIONS = 800_000
    player = accounts.user_signup(username="carol", password=PASSWORD)
    attempt = Attempt.objects.create(
        player=player, deal_code="EH1-N-AAAAAAF", deal_number=5, started_at=timezone.now() - timedelta(days=2)
    )
    long_log = ["s", "u"] * 400_000  # a replay of a few seconds
    submission = intake.submission_create(attempt=attempt, player=player, actions=long_log)
    wait_for(lambda: Submission.objects.filter(pk=submission.pk, status="verifying").exists(), interval=0.01)
    broker = redis.Redis.from_url(settings.REDIS_URL)
    assert broker.llen("celery") == 0 and not broker.exists("unacked", "unacked_index")
    wait_for(lambda: Submission.objects.filter(pk=submission.pk, status="verified").exists())
