"""Submission.actions and .times are stored compact (bytea, games.compact) and read as lists:
the intake's INSERT, the ORM, the worker's claim and the API agree; the log hash keeps its
meaning (the canonical JSON's sha256); migration 0008 converts existing jsonb rows and back."""

import hashlib
import json
import uuid
from datetime import timedelta

import pytest
from django.core import serializers
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from leaderboard_fixtures.service import (  # noqa: F401  (autouse, as in tests/service/)
    _fresh_redis,
    _tempo_rules_off,
    daily_code,
    times_within,
)

from games import compact
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import intake, verification


def _stored(submission_id: int) -> tuple:
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT "actions", "times", pg_typeof("actions")::text, pg_typeof("times")::text '
            'FROM "leaderboard_submission" WHERE "id" = %s',
            [submission_id],
        )
        return cursor.fetchone()


def _submit(player, game: dict, times=None) -> Submission:
    attempt = Attempt.objects.create(
        player=player,
        deal_code=game["deal"],
        deal_number=2,
        daily_date=None,
        started_at=timezone.now() - timedelta(minutes=30),
    )
    return intake.submission_create(attempt=attempt, player=player, actions=game["actions"], times=times)


@pytest.mark.django_db
def test_intake_stores_the_compact_bytes_and_the_orm_reads_lists(make_player, won_game):
    times = times_within(len(won_game["actions"]), 20 * 60_000)
    made = _submit(make_player(), won_game, times)
    actions, stored_times, kind, times_kind = _stored(made.pk)
    assert (kind, times_kind) == ("bytea", "bytea")
    assert bytes(actions) == compact.encode_log(won_game["actions"])
    assert bytes(stored_times) == compact.encode_times(times)
    assert len(actions) < len(won_game["actions"]) * 1.05 + 1
    loaded = Submission.objects.get(pk=made.pk)
    assert (loaded.actions, loaded.times) == (won_game["actions"], times)
    assert Submission.objects.values_list("actions", flat=True).get(pk=made.pk) == won_game["actions"]
    canonical = json.dumps(won_game["actions"], separators=(",", ":")).encode()
    assert loaded.log_hash == hashlib.sha256(canonical).hexdigest()


@pytest.mark.django_db
def test_no_times_is_null_and_the_orm_writes_the_same_bytes(make_player, won_game):
    made = _submit(make_player(), won_game)
    assert _stored(made.pk)[1] is None and Submission.objects.get(pk=made.pk).times is None
    Submission.objects.filter(pk=made.pk).update(actions=["s", "u"], times=[0, 5])  # through the fields
    actions, times, _, _ = _stored(made.pk)
    assert (bytes(actions), bytes(times)) == (compact.encode_log(["s", "u"]), compact.encode_times([0, 5]))
    assert Submission.objects.filter(actions=["s", "u"]).count() == 1  # equal logs, equal bytes


@pytest.mark.django_db
def test_the_worker_claims_and_verifies_the_compact_log(make_player, won_game):
    times = times_within(len(won_game["actions"]), 20 * 60_000)
    made = _submit(make_player(), won_game, times)
    claimed = verification._claim(made.pk, uuid.uuid4())
    assert (claimed.actions, claimed.times) == (won_game["actions"], times)


@pytest.mark.django_db
def test_the_api_answers_the_json_notation(make_player, client_for, today_deal, won_game, play):
    alice = make_player()
    shown = play(alice, daily_code(today_deal), won_game["actions"])
    assert shown["status"] == "verified" and shown["actions"] == won_game["actions"]
    assert shown["times"] == Submission.objects.get(pk=shown["id"]).times
    assert all(type(time) is int for time in shown["times"])


@pytest.mark.django_db
def test_dumpdata_writes_the_lists(make_player, won_game):
    made = _submit(make_player(), won_game, [0] * len(won_game["actions"]))
    [dumped] = json.loads(serializers.serialize("json", Submission.objects.filter(pk=made.pk)))
    assert dumped["fields"]["actions"] == won_game["actions"]
    assert dumped["fields"]["times"] == [0] * len(won_game["actions"])
    [loaded] = serializers.deserialize("json", json.dumps([dumped]))
    assert loaded.object.actions == won_game["actions"]


BEFORE, COMPACT = ("leaderboard", "0007_groups"), ("leaderboard", "0008_compact_logs")


@pytest.mark.django_db(transaction=True)
def test_migration_converts_existing_rows_both_ways(make_player, won_games):
    """Rows stored as jsonb before 0008 read the same after it, and again after going back."""
    player = make_player()
    logs = [
        (game["actions"], None if i % 2 else list(range(0, 700 * len(game["actions"]), 700)))
        for i, game in enumerate(won_games[:6])
    ]
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        # The attempts' model as it was then: today's has columns that later migrations add.
        then = executor.loader.project_state([BEFORE]).apps.get_model("leaderboard", "Attempt")
        with connection.cursor() as cursor:
            for i, (actions, times) in enumerate(logs):
                attempt = then.objects.create(
                    player_id=player.pk, deal_code=won_games[i]["deal"], deal_number=2, started_at=timezone.now()
                )
                cursor.execute(
                    'INSERT INTO "leaderboard_submission" ("attempt_id", "player_id", "deal_number", "actions", '
                    '"times", "submitted_at", "status", "deliveries", "hints", "error", "hidden", "flagged", '
                    '"practice", "log_hash") VALUES (%s, %s, 2, %s::jsonb, %s::jsonb, now(), \'pending\', 0, 0, '
                    "'', false, false, false, '')",
                    [attempt.pk, player.pk, json.dumps(actions), None if times is None else json.dumps(times)],
                )
        executor.loader.build_graph()
        executor.migrate([COMPACT])
        # Only these columns: the model's later ones (0010's attempt_started_at) are not there yet.
        stored = [(s.actions, s.times) for s in Submission.objects.only("actions", "times").order_by("pk")]
        assert stored == logs
        executor.loader.build_graph()
        executor.migrate([BEFORE])
        with connection.cursor() as cursor:
            cursor.execute('SELECT "actions"::text, "times"::text FROM "leaderboard_submission" ORDER BY "id"')
            assert [(json.loads(a), t and json.loads(t)) for a, t in cursor.fetchall()] == logs
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert [(s.actions, s.times) for s in Submission.objects.order_by("pk")] == logs
