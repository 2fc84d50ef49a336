"""A deleted account out of the archived months (leaderboard/history/services/erasure.py,
docs/partitions.md): its lines leave every file, which still passes its check under a record
true to it; its rows leave the ``_archived`` tables; nothing of it stays pending; a repeated
delivery changes nothing; beat queues again an erasure whose task was lost."""

import gzip
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from leaderboard_fixtures.archive import month, month_played  # noqa: F401  (fixtures)
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from worker import queued_tasks

from leaderboard import tasks
from leaderboard.accounts import deletion
from leaderboard.history.services import erasure, partitions
from leaderboard.history.services.archive import archive_check, archived_table, month_archive, sha256_of
from leaderboard.models import ArchivedMonth, ArchiveErasure, Attempt

pytestmark = pytest.mark.django_db
User = get_user_model()


def lines_of(path) -> list[dict]:
    with gzip.open(path, "rt") as source:
        return [json.loads(line) for line in source]


def archived_rows(month, player_id: int) -> dict[str, int]:
    """The rows of ``player_id`` in the month's ``_archived`` tables, by table, and the other
    players' attempts linked to it."""
    found = {}
    with connection.cursor() as cursor:
        for table in partitions.TABLES:
            name = archived_table(table, month)
            cursor.execute(f'SELECT count(*) FROM "{name}" WHERE "player_id" = %s', [player_id])
            found[name] = cursor.fetchone()[0]
        cursor.execute(
            f'SELECT count(*) FROM "{archived_table(partitions.ATTEMPTS, month)}" WHERE "linked_player_id" = %s',
            [player_id],
        )
        found["linked"] = cursor.fetchone()[0]
    return found


def test_a_deleted_players_lines_leave_the_archive_and_the_archived_tables(
    month, month_played, tmp_path, clean_redis, django_capture_on_commit_callbacks
):
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    Attempt.objects.filter(player=bob).update(linked_player=alice)  # bob's try, linked to alice's
    record = month_archive(month, directory=tmp_path)
    before = lines_of(record.path)
    assert sum(line["attempt"]["player_id"] == alice.pk for line in before) == 2  # her daily, her practice
    assert archived_rows(month, alice.pk) == {
        archived_table(partitions.SUBMISSIONS, month): 2,
        archived_table(partitions.ATTEMPTS, month): 2,
        "linked": 1,
    }

    with django_capture_on_commit_callbacks(execute=True):
        deletion.account_erase(alice)
    # Pending, durably, and queued by name at the commit: the archives are not touched yet.
    assert ArchiveErasure.objects.filter(player_id=alice.pk).exists()
    assert queued_tasks(clean_redis) == [(erasure.ERASE_TASK, repr((alice.pk,)))]
    assert lines_of(record.path) == before

    assert tasks.erase_from_archives(alice.pk) == 1  # as the worker runs the queued task

    after = lines_of(record.path)
    assert after == [line for line in before if line["attempt"]["player_id"] != alice.pk]
    assert sorted(line["player"] for line in after) == ["bob", "carol", "dave"]
    report = archive_check(record.path)
    record.refresh_from_db()
    assert report.ok and (report.lines, report.games) == (record.attempts, record.submissions) == (3, 2)
    assert record.sha256 == sha256_of(record.path)
    assert set(archived_rows(month, alice.pk).values()) == {0}
    assert archived_rows(month, bob.pk)[archived_table(partitions.ATTEMPTS, month)] == 1
    assert not ArchiveErasure.objects.exists()
    assert [path.name for path in tmp_path.iterdir()] == [f"easyharp-{month:%Y-%m}.jsonl.gz"]

    # A second delivery, once done or while its row is still there: nothing changes.
    written = record.path, sha256_of(record.path), Path(record.path).stat().st_mtime_ns
    assert tasks.erase_from_archives(alice.pk) == 0
    ArchiveErasure.objects.create(player_id=alice.pk, queued_at=timezone.now())
    assert tasks.erase_from_archives(alice.pk) == 0
    assert (record.path, sha256_of(record.path), Path(record.path).stat().st_mtime_ns) == written
    assert ArchivedMonth.objects.get(month=month).sha256 == record.sha256
    assert not ArchiveErasure.objects.exists()


def test_each_month_is_a_step_of_its_own_queued_after_the_one_before(month, month_played, tmp_path, clean_redis):
    alice = User.objects.get(username="alice")
    later = partitions.month_after(month)  # alice's numbered game of the next month
    first, second = month_archive(month, directory=tmp_path), month_archive(later, directory=tmp_path)
    deletion.account_erase(alice)
    clean_redis.flushdb()  # what the commit queued: this test runs the steps itself

    assert tasks.erase_from_archives(alice.pk) == 1  # the first month only
    assert queued_tasks(clean_redis) == [(erasure.ERASE_TASK, repr((alice.pk, later.isoformat())))]
    assert "alice" not in {line["player"] for line in lines_of(first.path)}
    assert "alice" in {line["player"] for line in lines_of(second.path)}
    assert ArchiveErasure.objects.filter(player_id=alice.pk).exists()

    assert tasks.erase_from_archives(alice.pk, later.isoformat()) == 1  # as the worker runs it
    assert "alice" not in {line["player"] for line in lines_of(second.path)}
    assert not ArchiveErasure.objects.exists() and clean_redis.llen("celery") == 1  # no third step


def test_a_month_archived_with_drop_has_only_its_file_to_rewrite(month, month_played, tmp_path):
    carol = User.objects.get(username="carol")
    record = month_archive(month, drop=True, directory=tmp_path)
    deletion.account_erase(carol)
    assert tasks.erase_from_archives(carol.pk) == 1
    record.refresh_from_db()
    assert sorted(line["player"] for line in lines_of(record.path)) == ["alice", "alice", "bob", "dave"]
    assert (record.attempts, record.submissions, record.sha256) == (4, 3, sha256_of(record.path))
    assert not ArchiveErasure.objects.exists()


def test_a_line_without_a_player_id_stops_the_erasure_which_stays_pending(month, month_played, tmp_path):
    dave = User.objects.get(username="dave")
    record = month_archive(month, directory=tmp_path)
    lines = lines_of(record.path)
    del lines[0]["attempt"]["player_id"]  # a file not written by archive_month: matched by name?
    with gzip.open(record.path, "wt") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)
    deletion.account_erase(dave)
    with pytest.raises(erasure.ErasureFailed, match="line 1: no player id"):
        tasks.erase_from_archives(dave.pk)
    assert ArchiveErasure.objects.filter(player_id=dave.pk).exists()
    assert lines_of(record.path) == lines


def test_beat_queues_again_an_erasure_whose_task_was_lost(clean_redis):
    now = timezone.now()
    ArchiveErasure.objects.create(player_id=41, queued_at=now - erasure.REQUEUE_AFTER - timedelta(minutes=1))
    ArchiveErasure.objects.create(player_id=42, queued_at=now)  # its task was just queued
    assert tasks.requeue_archive_erasures() == 1
    assert queued_tasks(clean_redis) == [(erasure.ERASE_TASK, repr((41,)))]
    assert ArchiveErasure.objects.get(player_id=41).queued_at >= now
    assert tasks.requeue_archive_erasures() == 0  # queued again just now: left to that task
