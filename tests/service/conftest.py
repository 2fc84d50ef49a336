"""Fixtures for the service tests: real PostgreSQL (pytest-django) and real Redis."""

import json
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from rest_framework.test import APIClient

from games import format_code
from leaderboard import ranking, services, tasks
from leaderboard.models import Attempt, DailyDeal, Submission

WON_GAMES = Path(__file__).resolve().parent.parent / "data" / "won_games.jsonl"
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _fresh_redis(clean_redis):
    """Each test starts with an empty Redis database (the index and the cache)."""
    yield clean_redis


@pytest.fixture
def verify_queued(django_capture_on_commit_callbacks):
    """``with verify_queued():`` around a request that submits. There is no worker here: what
    the block queues at commit is captured and not run (nothing is sent to the broker); then
    each submission left pending is verified by calling the task function in-process, as a
    worker would, and what that verification does at commit (the Redis index) runs."""
    @contextmanager
    def verifying():
        with django_capture_on_commit_callbacks(execute=False):
            yield
        for submission_id in Submission.objects.filter(status=Submission.Status.PENDING).values_list("pk", flat=True):
            with django_capture_on_commit_callbacks(execute=True):
                tasks.verify_submission(submission_id)
    return verifying


@pytest.fixture
def won_games() -> list[dict]:
    return [json.loads(line) for line in WON_GAMES.read_text().splitlines() if line.strip()]


@pytest.fixture
def won_game(won_games) -> dict:
    return won_games[0]


@pytest.fixture
def today_deal(won_game) -> DailyDeal:
    """Today's deal of the day, stored as the service stores it, from a known won game."""
    from games import parse_code

    number = parse_code(won_game["deal"]).number
    return DailyDeal.objects.create(date=services.utc_today(), number=number, solution=won_game["actions"])


@pytest.fixture
def make_player(db):
    def make(name: str = "alice"):
        return services.user_signup(username=name, password=PASSWORD)
    return make


@pytest.fixture
def client_for():
    def make(player=None) -> APIClient:
        client = APIClient()
        if player is not None:
            client.force_authenticate(player)
        return client
    return make


@pytest.fixture
def play(client_for, verify_queued):
    """A player starts ``deal`` ``minutes`` ago (server clock), asks ``hints`` hints on the
    attempt (the server counts them) and submits ``actions``; the submission is verified by the
    task, in-process. Returns the submission as the API shows it."""
    def run(player, deal: str, actions: list, minutes: float = 30, hints: int = 0) -> dict:
        client = client_for(player)
        attempt = client.post("/api/attempts/", {"deal": deal}, format="json")
        assert attempt.status_code == 201, attempt.json()
        Attempt.objects.filter(pk=attempt.json()["id"]).update(
            started_at=Attempt.objects.get(pk=attempt.json()["id"]).started_at - timedelta(minutes=minutes))
        for _ in range(hints):
            asked = client.post("/api/hints/", {"attempt": attempt.json()["id"], "actions": []}, format="json")
            assert asked.status_code == 200, asked.json()
        with verify_queued():
            sent = client.post(f"/api/attempts/{attempt.json()['id']}/submission",
                               {"actions": actions}, format="json")
        assert sent.status_code == 202, sent.json()
        return client.get(sent.json()["url"]).json()
    return run


def unreachable_index() -> ranking.RedisRanking:
    """A ranking index whose Redis cannot be reached (nothing listens on port 1), as in an
    outage: patched in for ``ranking.redis_ranking``, reads rank from PostgreSQL."""
    return ranking.RedisRanking(redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2))


def daily_code(deal: DailyDeal) -> str:
    return format_code(deal.number, "D")


def board_key(deal: DailyDeal) -> str:
    return ranking.daily_board(deal.date)
