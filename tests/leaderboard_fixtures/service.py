"""Fixtures for the service tests: real PostgreSQL (pytest-django) and real Redis."""

import json
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.test import Client
from redis.backoff import NoBackoff
from redis.retry import Retry
from rest_framework.test import APIClient

from games import format_code, parse_code, replay, solver
from leaderboard import tasks
from leaderboard.accounts import services as accounts
from leaderboard.boards import index, order
from leaderboard.core import days
from leaderboard.models import Attempt, DailyDeal, Submission
from leaderboard.play.services import intake
from leaderboard_fixtures.people import MOVE_RULES_OFF
from leaderboard_fixtures.timing import even_times

WON_GAMES = Path(__file__).resolve().parent.parent / "data" / "won_games.jsonl"
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _fresh_redis(clean_redis):
    """Each test starts with an empty Redis database (the index and the cache)."""
    yield clean_redis


@pytest.fixture(autouse=True)
def _tempo_rules_off(request, settings):
    """These games are timed evenly over a server clock moved back (``times_within``), which
    the tempo rules rightly flag; tests/fairplay tests them. The server-clock speed rule stays.
    The rules that read the moves (near-copies, engine match: ``MOVE_RULES_OFF``) are off too:
    these tests send one known log for several players, and today's deal's proof is that log;
    a test marked ``move_rules`` keeps them on (test_copies.py, test_engine_match.py)."""
    settings.TEMPO_MIN_ACTIONS = 10**9
    if request.node.get_closest_marker("move_rules") is None:
        for name, value in MOVE_RULES_OFF.items():
            setattr(settings, name, value)


def times_within(count: int, duration_ms: float) -> list[int]:
    """The browser's times of ``count`` actions spread evenly over ``duration_ms``."""
    return even_times(count, count * 1000 / duration_ms) if count and duration_ms > 0 else [0] * count


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
    """Today's deal of the day, stored as the service stores it (the solver's line its proof),
    the deal of a known won game."""
    from games import parse_code

    number = parse_code(won_game["deal"]).number
    # Not create(): a browser test's page may still be asking /api/daily/ after its test ended,
    # and the session-wide live server then stores the real deal of today after the flush.
    line = solver.solve(number).actions  # the proof the service stores: the solver's line
    deal, _ = DailyDeal.objects.update_or_create(
        date=days.today(), defaults={"number": number, "solution": line, "solution_moves": len(line)}
    )
    return deal


@pytest.fixture
def make_player(db):
    def make(name: str = "alice"):
        return accounts.user_signup(username=name, password=PASSWORD)

    return make


@pytest.fixture
def staff_client(make_player):
    """A browser logged in as a superuser (the Django admin's staff)."""
    staff = make_player("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


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
    task, in-process. Returns the submission as the API shows it. A log another player already
    sent on the deal would be a copy (off the boards): it is sent in another order with the
    same result (``not_a_copy``)."""

    def run(player, deal: str, actions: list, minutes: float = 30, hints: int = 0) -> dict:
        client = client_for(player)
        attempt = client.post("/api/attempts/", {"deal": deal}, format="json")
        assert attempt.status_code == 201, attempt.json()
        actions = not_a_copy(player, attempt.json()["deal"], actions)
        Attempt.objects.filter(pk=attempt.json()["id"]).update(
            started_at=Attempt.objects.get(pk=attempt.json()["id"]).started_at - timedelta(minutes=minutes)
        )
        for _ in range(hints):
            asked = client.post("/api/hints/", {"attempt": attempt.json()["id"], "actions": []}, format="json")
            assert asked.status_code == 200, asked.json()
        with verify_queued():
            sent = client.post(
                f"/api/attempts/{attempt.json()['id']}/submission",
                {"actions": actions, "times": times_within(len(actions), minutes * 60_000)},
                format="json",
            )
        assert sent.status_code == 202, sent.json()
        return client.get(sent.json()["url"]).json()

    return run


def not_a_copy(player, code: str, actions: list) -> list:
    """``actions``, or when another player sent that log on the deal, the same game with two
    neighbouring actions swapped where that keeps the result (a different log, not a copy)."""
    number = parse_code(code).number
    taken = set(Submission.objects.filter(deal_number=number).exclude(player=player).values_list("log_hash", flat=True))
    if intake.log_hash(actions) not in taken:
        return actions
    result = replay(code, actions)
    assert result.ok, "a rejected log is never a copy's original"
    outcome = (result.won, result.moves, result.score, result.foundation)
    for i in range(len(actions) - 1):
        swapped = [*actions[:i], actions[i + 1], actions[i], *actions[i + 2 :]]
        if intake.log_hash(swapped) in taken:
            continue
        again = replay(code, swapped)
        if again.ok and (again.won, again.moves, again.score, again.foundation) == outcome:
            return swapped
    raise AssertionError("no other order of this log keeps its result")


def unreachable_index() -> index.BoardIndex:
    """A ranking index whose Redis cannot be reached (nothing listens on port 1), as in an
    outage: patched in for ``index.board_index``, reads rank from PostgreSQL. Each call fails at
    once: redis-py's default of three retries with backoff (about 4 s a call against a closed
    port) would end the same way, only later."""
    return index.BoardIndex(
        redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    )


def daily_code(deal: DailyDeal) -> str:
    return format_code(deal.number, "D")


def board_key(deal: DailyDeal) -> str:
    return order.daily_board(deal.date)
