"""Fixtures for the service tests: real PostgreSQL (pytest-django) and real Redis."""

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from config.celery import app as celery_app
from games import format_code
from leaderboard import ranking, services
from leaderboard.models import Attempt, DailyDeal

WON_GAMES = Path(__file__).resolve().parent.parent / "data" / "won_games.jsonl"
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _fresh_redis(clean_redis):
    """Each test starts with an empty Redis database (the index and the cache)."""
    yield clean_redis


@pytest.fixture
def eager_tasks(django_capture_on_commit_callbacks):
    """Run tasks in-process, as the embedded setup does; ``with eager_tasks():`` runs what a
    block queued at commit (the test's transaction never commits by itself)."""
    celery_app.conf.task_always_eager = True
    yield lambda: django_capture_on_commit_callbacks(execute=True)
    celery_app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER


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
def play(client_for, eager_tasks):
    """A player starts ``deal`` ``minutes`` ago (server clock) and submits ``actions``; the
    submission is verified in-process at commit. Returns the submission as the API shows it."""
    def run(player, deal: str, actions: list, minutes: float = 30, hints: int = 0) -> dict:
        client = client_for(player)
        attempt = client.post("/api/attempts/", {"deal": deal}, format="json")
        assert attempt.status_code == 201, attempt.json()
        Attempt.objects.filter(pk=attempt.json()["id"]).update(
            started_at=Attempt.objects.get(pk=attempt.json()["id"]).started_at - timedelta(minutes=minutes))
        with eager_tasks():
            sent = client.post(f"/api/attempts/{attempt.json()['id']}/submission",
                               {"actions": actions, "hints": hints}, format="json")
        assert sent.status_code == 202, sent.json()
        return client.get(sent.json()["url"]).json()
    return run


def daily_code(deal: DailyDeal) -> str:
    return format_code(deal.number, "D")


def board_key(deal: DailyDeal) -> str:
    return ranking.daily_board(deal.date)
