"""PostgreSQL unreachable: every answer is a 503 in the error shape (never a 500), and a
request cut at any of its queries leaves whole rows or none.

The app's connection goes through a TCP proxy of this test (``pg_proxy``); cutting it is what
a crashed or unreachable server looks like from the app. The machine's PostgreSQL never stops.
"""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone
from leaderboard_fixtures.reliability import PASSWORD
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, times_within  # noqa: F401  (autouse, as in tests/reliability/)
from worker import queued_tasks

from leaderboard import tasks
from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, BoardEntry, PlayerStats, Submission
from leaderboard.play.services import attempts, intake, verification

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.reliability]
User = get_user_model()


def api(method: str, path: str, body=None, token: str | None = None):
    """One request through the whole Django stack; an exception is answered, not raised."""
    client = Client(raise_request_exception=False)
    extra = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    if body is None:
        return getattr(client, method)(path, **extra)
    return getattr(client, method)(path, json.dumps(body), content_type="application/json", **extra)


def assert_unavailable(response, path: str) -> None:
    assert response.status_code == 503, (path, response.status_code, response.content[:300])
    assert response.json() == {
        "error": {"code": "unavailable", "message": response.json()["error"]["message"], "detail": None}
    }, path
    assert response["Retry-After"], path


class CutAt:
    """An execute wrapper that takes the database away just before query number ``at``
    (1-based) of whatever runs inside it, and counts the queries."""

    def __init__(self, proxy, at: int | None):
        self.proxy, self.at, self.count = proxy, at, 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        if self.count == self.at:
            self.proxy.down()
        return execute(sql, params, many, context)


def cut_at(proxy, at, run):
    """Run ``run()`` with the database cut at query ``at``, then bring it back."""
    cut = CutAt(proxy, at)
    try:
        with connection.execute_wrapper(cut):
            result = run()
    finally:
        proxy.down()  # drop the connection the request may still hold
        proxy.up()
        connection.close()
    return result, cut.count


def test_every_endpoint_answers_503_in_the_error_shape_while_postgresql_is_unreachable(pg_proxy, make_player):
    player = make_player("alice")
    token = accounts.user_token(player)
    attempt = attempts.attempt_start(player=player, deal_code="EH1-N-AAAAAAF")
    users_before = User.objects.count()
    pg_proxy.down()
    connection.close()

    requests = [
        ("get", "/api/daily/", None, None),
        ("get", "/api/daily/2026-01-01/", None, None),
        ("get", "/api/leaderboards/daily/", None, None),
        ("get", "/api/leaderboards/deals/5/", None, None),
        ("get", "/api/leaderboards/players/", None, None),
        ("get", "/api/players/alice/", None, None),
        ("get", "/api/submissions/1/", None, None),
        ("get", "/api/auth/me/", None, token),
        ("post", "/api/auth/signup/", {"username": "bob", "password": PASSWORD}, None),
        ("post", "/api/auth/login/", {"username": "alice", "password": PASSWORD}, None),
        ("post", "/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, token),
        ("get", f"/api/attempts/{attempt.pk}/", None, token),
        ("post", f"/api/attempts/{attempt.pk}/submission", {"actions": ["s"]}, token),
        ("post", "/api/hints/", {"attempt": str(attempt.pk), "actions": ["s"]}, token),
        ("get", "/healthz", None, None),
    ]
    for method, path, body, auth in requests:
        assert_unavailable(api(method, path, body, auth), path)
        connection.close()

    # Outside the API: HTML pages and the admin are a 503 too, never a 500.
    for path in ("/admin/", "/admin/leaderboard/submission/"):
        client = Client(raise_request_exception=False)
        client.cookies["sessionid"] = "x" * 32
        response = client.get(path)
        assert response.status_code == 503 and response["Retry-After"], (path, response.status_code)
        connection.close()

    pg_proxy.up()
    assert api("get", "/healthz").status_code == 200
    assert api("get", "/api/auth/me/", token=token).json()["username"] == "alice"
    assert User.objects.count() == users_before
    assert Attempt.objects.count() == 1 and not Submission.objects.exists()


def test_a_signup_cut_at_any_query_leaves_a_whole_account_or_none(pg_proxy, settings):
    # One sign-up per query of a sign-up, all from this address: more than the window lets in.
    settings.SIGNUPS_PER_HOUR = settings.SIGNUPS_PER_DAY = 1000
    _, queries = cut_at(
        pg_proxy, None, lambda: api("post", "/api/auth/signup/", {"username": "whole", "password": PASSWORD})
    )
    assert queries >= 4
    for at in range(1, queries + 1):
        name = f"cut{at}"
        response, _ = cut_at(
            pg_proxy, at, lambda: api("post", "/api/auth/signup/", {"username": name, "password": PASSWORD})
        )
        assert response.status_code in (201, 503), (at, response.status_code, response.content[:300])
        if response.status_code == 503:
            assert_unavailable(response, f"signup cut at query {at}")
        user = User.objects.filter(username=name).first()
        if user is not None:  # the account was written: all of it, and it can log in
            assert PlayerStats.objects.filter(player=user).exists(), f"a user without stats (cut at query {at})"
            login = api("post", "/api/auth/login/", {"username": name, "password": PASSWORD})
            assert login.status_code == 200, at
        else:  # nothing was written: signing up again works
            assert api("post", "/api/auth/signup/", {"username": name, "password": PASSWORD}).status_code == 201


def test_a_submission_cut_at_any_query_is_stored_whole_or_not_and_never_lost(pg_proxy, make_player):
    player = make_player("alice")
    token = accounts.user_token(player)
    actions = ["s", "s", "s"]

    def submit(attempt):
        return api("post", f"/api/attempts/{attempt.pk}/submission", {"actions": actions}, token)

    first = attempts.attempt_start(player=player, deal_code="EH1-N-AAAAAAF")
    _, queries = cut_at(pg_proxy, None, lambda: submit(first))
    for at in range(1, queries + 1):
        attempt = attempts.attempt_start(player=player, deal_code="EH1-N-AAAAAAF")
        response, _ = cut_at(pg_proxy, at, lambda: submit(attempt))
        assert response.status_code in (202, 503), (at, response.status_code, response.content[:300])
        stored = list(Submission.objects.filter(attempt=attempt))
        if response.status_code == 202:
            assert len(stored) == 1
        else:
            assert_unavailable(response, f"submission cut at query {at}")
        assert all(s.actions == actions and s.status == "pending" for s in stored)
        # The player sends it again once the database is back: exactly one log is kept.
        again = submit(attempt)
        assert again.status_code == (409 if stored else 202), at
        assert Submission.objects.filter(attempt=attempt).count() == 1


def test_a_verification_cut_at_any_query_is_whole_or_rolled_back_and_recovered_by_beat(
    pg_proxy, make_player, won_game, settings, clean_redis
):
    settings.STALE_PENDING_SECONDS = settings.STALE_VERIFYING_SECONDS = 1
    player = make_player("alice")
    attempt = attempts.attempt_start(player=player, deal_code=won_game["deal"])
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    attempt.refresh_from_db()
    # With times: a numbered deal's result without them stays off its board (``no_times``).
    times = times_within(len(won_game["actions"]), 20 * 60_000)
    submission = intake.submission_create(attempt=attempt, player=player, actions=won_game["actions"], times=times)
    board, board_url = f"deal:{attempt.deal_number}", f"/api/leaderboards/deals/{attempt.deal_number}/"
    _, queries = cut_at(pg_proxy, None, lambda: verification.submission_verify(submission.pk))
    assert queries >= 5

    for at in range(1, queries + 1):
        # Back to a fresh, queued submission (as staff's "verify again" leaves it), and a board
        # that readers have loaded into the Redis index.
        Submission.objects.filter(pk=submission.pk).update(
            status="pending", claim=None, claimed_at=None, verified_at=None, won=None, rank_key=None
        )
        BoardEntry.objects.all().delete()
        clean_redis.flushdb()
        assert api("get", board_url).json()["count"] == 0

        try:
            cut_at(pg_proxy, at, lambda: verification.submission_verify(submission.pk))
        except OperationalError:
            pass  # the task fails; acks_late and beat take it from here
        row = Submission.objects.get(pk=submission.pk)
        entries = BoardEntry.objects.filter(board=board).count()
        # Whole or nothing: a result always has its board entry, and no entry lacks a result.
        if row.status == "verified":
            assert row.won is True and entries == 1, at
        else:
            assert row.status in ("pending", "verifying") and row.won is None and row.rank_key is None, at
            assert entries == 0, at
            # Beat finds it (a claim older than STALE_VERIFYING_SECONDS, or still pending) and queues it.
            Submission.objects.filter(pk=submission.pk).update(
                claimed_at=timezone.now() - timedelta(seconds=5), submitted_at=timezone.now() - timedelta(seconds=5)
            )
            assert verification.requeue_stale() == 1
            assert queued_tasks(clean_redis) == [("leaderboard.tasks.verify_submission", repr((submission.pk,)))]
            tasks.verify_submission(submission.pk)  # as the worker runs the queued task
            row.refresh_from_db()
            assert row.status == "verified" and BoardEntry.objects.filter(board=board).count() == 1, at
        # The board readers see (the Redis index) agrees with PostgreSQL.
        shown = api("get", board_url).json()
        assert shown["count"] == 1 and shown["results"][0]["submission"] == submission.pk, (at, shown)
