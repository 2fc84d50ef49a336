"""Migration 0010 converts attempts and submissions with their rows, both ways: the rows, their
keys, one submission per attempt and the id sequence survive going back to plain tables and
forward again into monthly partitions (docs/partitions.md)."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)

from leaderboard.history.services import partitions
from leaderboard.models import Attempt, Submission

BEFORE, PARTITIONED = ("leaderboard", "0009_frozen_boards"), ("leaderboard", "0010_monthly_partitions")


def rows() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT s."id", s."attempt_id", a."started_at", s."deal_number" FROM "leaderboard_submission" s '
            'JOIN "leaderboard_attempt" a ON a."id" = s."attempt_id" ORDER BY s."id"'
        )
        return cursor.fetchall()


def partitioned(table: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = %s::regclass", [f'"{table}"'])
        return cursor.fetchone()[0] == "p"


@pytest.mark.django_db(transaction=True)
def test_the_tables_go_back_to_plain_and_forward_to_partitions_with_their_rows(make_player, won_game):
    player = make_player()
    now = timezone.now()
    for days_ago in (0, 45, 400):  # this month, an earlier one, one before the partitions' first
        attempt = Attempt.objects.create(
            player=player, deal_code=won_game["deal"], deal_number=7, started_at=now - timedelta(days=days_ago)
        )
        Submission.objects.create(
            attempt=attempt, player=player, deal_number=7, actions=won_game["actions"], submitted_at=now
        )
    stored = rows()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        assert not partitioned("leaderboard_submission") and not partitioned("leaderboard_attempt")
        assert rows() == stored
        with connection.cursor() as cursor, pytest.raises(IntegrityError), transaction.atomic():
            cursor.execute(
                'INSERT INTO "leaderboard_submission" ("attempt_id", "player_id", "deal_number", '
                '"actions", "submitted_at", "status", "deliveries", "hints", "error", "hidden", '
                '"flagged", "practice", "log_hash") SELECT "attempt_id", "player_id", 7, "actions", now(), '
                "'pending', 0, 0, '', false, false, false, '' FROM \"leaderboard_submission\" LIMIT 1"
            )
        executor.loader.build_graph()
        executor.migrate([PARTITIONED])
        assert partitioned("leaderboard_submission") and partitioned("leaderboard_attempt")
        assert rows() == stored
        # The months of the rows were made, from the oldest: the row of 400 days ago is in its own.
        oldest = partitions.month_of(now - timedelta(days=400))
        assert partitions.months("leaderboard_submission")[0] == oldest
        assert "leaderboard_submission_default" in partitions.partitions("leaderboard_submission")
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    # The sequence goes on after the copied ids, and one submission per attempt still holds.
    attempt = Attempt.objects.create(player=player, deal_code=won_game["deal"], deal_number=7, started_at=now)
    made = Submission.objects.create(
        attempt=attempt, player=player, deal_number=7, actions=won_game["actions"], submitted_at=now
    )
    assert made.pk > max(row[0] for row in stored)
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.create(attempt=attempt, player=player, deal_number=7, actions=[], submitted_at=now)
