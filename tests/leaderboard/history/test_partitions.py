"""Attempts and submissions in monthly partitions (leaderboard/partitions.py, docs/partitions.md):
where rows land, the DEFAULT partition, the months created ahead, and the invariants the
database still holds (one submission per attempt, the attempt's start carried along)."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, times_within  # noqa: F401  (autouse, as in tests/service/)

from games import parse_code
from leaderboard.core import days
from leaderboard.history.services import partitions
from leaderboard.models import Attempt, BoardEntry, Submission
from leaderboard.play.services import intake, verification

pytestmark = pytest.mark.django_db


def stored_in(table: str, pk) -> str:
    """The partition PostgreSQL routed the row to."""
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT tableoid::regclass::text FROM "{table}" WHERE "id" = %s', [pk])
        return cursor.fetchone()[0].strip('"')


def attempt_at(player, started_at, deal: str) -> Attempt:
    return Attempt.objects.create(
        player=player, deal_code=deal, deal_number=parse_code(deal).number, started_at=started_at
    )


def test_a_submitted_game_lands_in_its_months_partitions_not_the_default(make_player, play, won_game):
    shown = play(make_player(), won_game["deal"], won_game["actions"], minutes=30)
    submission = Submission.objects.get(pk=shown["id"])
    month = partitions.month_of(submission.attempt.started_at)
    assert stored_in("leaderboard_attempt", submission.attempt_id) == f"leaderboard_attempt_p{month:%Y_%m}"
    assert stored_in("leaderboard_submission", submission.pk) == f"leaderboard_submission_p{month:%Y_%m}"
    assert submission.attempt_started_at == submission.attempt.started_at


def test_a_row_of_a_month_without_partition_is_kept_by_default_then_moved_to_its_month(make_player, won_game):
    player = make_player()
    far = timezone.now() + timedelta(days=400)  # beyond the months made ahead
    attempt = attempt_at(player, far, won_game["deal"])
    submission = intake.submission_create(attempt=attempt, player=player, actions=won_game["actions"])
    assert stored_in("leaderboard_attempt", attempt.pk) == "leaderboard_attempt_default"
    assert stored_in("leaderboard_submission", submission.pk) == "leaderboard_submission_default"

    month = partitions.month_of(far)
    created = partitions.month_ensure(month)
    assert created == [f"leaderboard_attempt_p{month:%Y_%m}", f"leaderboard_submission_p{month:%Y_%m}"]
    assert stored_in("leaderboard_attempt", attempt.pk) == created[0]
    assert stored_in("leaderboard_submission", submission.pk) == created[1]
    assert Submission.objects.get(attempt=attempt).actions == won_game["actions"]


def test_months_are_created_ahead_once(make_player):
    first = partitions.month_of(days.today())
    assert partitions.months_ensure(3) == []  # the migration made this month and 3 ahead
    created = partitions.months_ensure(5)
    assert created == [
        f"{table}_p{partitions.month_after(first, k):%Y_%m}"
        for k in (4, 5)
        for table in ("leaderboard_attempt", "leaderboard_submission")
    ]
    assert partitions.months_ensure(5) == []
    for table in partitions.TABLES:
        assert partitions.months(table) == [partitions.month_after(first, k) for k in range(6)]
        assert partitions.default_name(table) in partitions.partitions(table)


def test_the_partitions_command_creates_the_months_ahead_and_lists_them(capsys):
    call_command("partitions", "--ahead", "4")
    out = capsys.readouterr().out
    month = partitions.month_after(partitions.month_of(days.today()), 4)
    assert f"created leaderboard_attempt_p{month:%Y_%m}" in out
    assert "leaderboard_submission_default" in out
    call_command("partitions", "--ahead", "4")
    assert "created" not in capsys.readouterr().out


def test_one_submission_per_attempt_is_still_the_databases(make_player, won_game):
    player = make_player()
    attempt = attempt_at(player, timezone.now() - timedelta(minutes=30), won_game["deal"])
    fields = {
        "attempt": attempt,
        "player": player,
        "deal_number": 1,
        "actions": won_game["actions"],
        "submitted_at": timezone.now(),
    }
    Submission.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.create(**fields)


def test_a_submission_cannot_claim_another_start_of_its_attempt(make_player, won_game):
    """attempt_started_at is the attempt's: the composite foreign key refuses any other, so the
    unique (attempt, attempt_started_at) is one submission per attempt."""
    player = make_player()
    attempt = attempt_at(player, timezone.now() - timedelta(minutes=30), won_game["deal"])
    Submission.objects.create(
        attempt=attempt, player=player, deal_number=1, actions=won_game["actions"], submitted_at=timezone.now()
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f'SET CONSTRAINTS "{partitions.ATTEMPT_FK}" IMMEDIATE')
        Submission.objects.create(
            attempt=attempt,
            attempt_started_at=attempt.started_at - timedelta(days=40),
            player=player,
            deal_number=1,
            actions=won_game["actions"],
            submitted_at=timezone.now(),
        )


def test_a_moved_start_carries_the_submission_to_its_new_month(make_player, won_game):
    player = make_player()
    attempt = attempt_at(player, timezone.now() - timedelta(minutes=30), won_game["deal"])
    submission = intake.submission_create(attempt=attempt, player=player, actions=won_game["actions"])
    earlier = attempt.started_at - timedelta(days=400)  # a month without partition: the DEFAULT
    Attempt.objects.filter(pk=attempt.pk).update(started_at=earlier)
    submission.refresh_from_db()
    assert submission.attempt_started_at == earlier
    assert stored_in("leaderboard_submission", submission.pk) == "leaderboard_submission_default"


def test_deletes_cascade_from_attempts_to_submissions_and_board_entries(make_player, won_game):
    player = make_player()
    attempt = attempt_at(player, timezone.now() - timedelta(minutes=30), won_game["deal"])
    submission = intake.submission_create(
        attempt=attempt,
        player=player,
        actions=won_game["actions"],
        times=times_within(len(won_game["actions"]), 1_800_000),
    )
    with transaction.atomic():
        verification.submission_verify(submission.pk)
    assert BoardEntry.objects.filter(submission=submission).exists()
    bob = make_player("bob")
    copy = Submission.objects.create(
        attempt=attempt_at(bob, timezone.now(), won_game["deal"]),
        player=bob,
        deal_number=1,
        actions=won_game["actions"],
        submitted_at=timezone.now(),
        copy_of=submission,
    )
    attempt.delete()
    assert not Submission.objects.filter(pk=submission.pk).exists()
    assert not BoardEntry.objects.filter(submission_id=submission.pk).exists()
    copy.refresh_from_db()
    assert copy.copy_of_id is None  # on_delete=SET_NULL, by Django
