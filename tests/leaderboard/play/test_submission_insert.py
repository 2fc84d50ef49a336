"""The intake's INSERT outside any transaction (as a request runs it): one statement in a
transaction with the player's hints lock, the verification queued once it is stored, a second
log for the same attempt a conflict."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)
from worker import queued_tasks

from leaderboard.core.errors import Conflict
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import intake

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_submission_is_stored_by_one_statement_then_queued(make_player, won_game, clean_redis):
    player = make_player()
    attempt = Attempt.objects.create(
        player=player,
        deal_code=won_game["deal"],
        deal_number=2,
        daily_date=None,
        hints=3,
        started_at=timezone.now() - timedelta(minutes=5),
    )
    assert not connection.in_atomic_block
    with CaptureQueriesContext(connection) as queries:
        made = intake.submission_create(attempt=attempt, player=player, actions=won_game["actions"])
    # One INSERT, in a transaction with the player's hints lock before it (attempts.hints_lock).
    assert [query["sql"].split()[0] for query in queries] == ["BEGIN", "SELECT", "INSERT", "COMMIT"]
    assert "pg_advisory_xact_lock" in queries[1]["sql"]
    queued = [("leaderboard.tasks.verify_submission", repr((made.pk,)))]
    assert queued_tasks(clean_redis) == queued  # in the real broker, for a worker
    stored = Submission.objects.get()
    assert (stored.pk, stored.attempt_id, stored.player_id, stored.deal_number, stored.daily_date) == (
        made.pk,
        attempt.pk,
        player.pk,
        2,
        None,
    )
    assert (
        stored.actions,
        stored.hints,
        stored.status,
        stored.deliveries,
        stored.error,
        stored.hidden,
        stored.flagged,
        stored.submitted_at,
    ) == (won_game["actions"], 3, "pending", 0, "", False, False, made.submitted_at)

    with pytest.raises(Conflict):
        intake.submission_create(attempt=attempt, player=player, actions=["s"])
    assert queued_tasks(clean_redis) == queued and Submission.objects.get().actions == won_game["actions"]
