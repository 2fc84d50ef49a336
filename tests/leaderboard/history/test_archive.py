"""manage.py archive_month (leaderboard/archive.py, docs/partitions.md): a closed month written to
a gzip JSON Lines file, checked, and detached; the boards and the players' pages show what they
showed; manage.py replay --archive verifies the file offline and catches a tampered one."""

import gzip
import importlib
import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from leaderboard_fixtures.archive import month, month_played  # noqa: F401  (fixtures)
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)

from games import parse_code
from leaderboard.boards.services.stats import stats_refresh
from leaderboard.core import days
from leaderboard.history.services import partitions
from leaderboard.history.services.archive import ArchiveRefused, month_archive
from leaderboard.models import (
    ArchivedMonth,
    Attempt,
    DailyDeal,
    PlayerStats,
    Submission,
)

pytestmark = pytest.mark.django_db


def shown(client_for, day, numbered_deal: str) -> dict:
    client = client_for()
    return {
        "day": client.get(f"/api/leaderboards/daily/{day.isoformat()}/").json(),
        "deal": client.get(f"/api/leaderboards/deals/{parse_code(numbered_deal).number}/").json(),
        "alice": client.get("/api/players/alice/").json(),
    }


def lines_of(path) -> list[dict]:
    with gzip.open(path, "rt") as source:
        return [json.loads(line) for line in source]


def rows_of(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT count(*) FROM "{table}"')
        return cursor.fetchone()[0]


def test_a_closed_month_is_archived_checked_and_detached(
    month, month_played, client_for, won_games, tmp_path, capsys, clean_redis
):
    before = shown(client_for, month_played, won_games[1]["deal"])
    assert [row["player"] for row in before["day"]["results"]] == ["alice"]
    assert [row["player"] for row in before["deal"]["results"]] == ["carol"]
    wins = PlayerStats.objects.get(player__username="alice").daily_wins

    call_command("archive_month", f"{month:%Y-%m}", "--dir", str(tmp_path))

    record = ArchivedMonth.objects.get(month=month)
    assert (record.attempts, record.submissions, record.kept, record.dropped) == (5, 4, 2, False)
    lines = lines_of(record.path)
    assert sorted(line["player"] for line in lines) == ["alice", "alice", "bob", "carol", "dave"]
    won = next(line for line in lines if line["player"] == "alice" and not line["submission"]["practice"])
    assert won["actions"] == won_games[0]["actions"] and won["result"]["ok"] and won["result"]["won"]
    assert next(line for line in lines if line["player"] == "bob")["result"] == {"ok": False, "index": 0}
    assert next(line for line in lines if line["player"] == "dave")["submission"] is None

    # The month's partitions were detached and kept; new ones hold the board entries' results only.
    name = partitions.partition_name("leaderboard_submission", month)
    assert rows_of(f"{name}_archived") == 4
    assert name in partitions.partitions("leaderboard_submission")
    assert f"{name}_archived" not in partitions.partitions("leaderboard_submission")
    kept = Submission.objects.filter(attempt_started_at__lt=partitions.month_bounds(month)[1])
    assert sorted(kept.values_list("player__username", flat=True)) == ["alice", "carol"]
    assert all(submission.actions == [] for submission in kept)
    assert not Attempt.objects.filter(player__username="dave").exists()
    assert Submission.objects.filter(player__username="alice").count() == 2  # the later month's stays

    # The boards and alice's page show what they showed (but her practice game); her stats stay.
    # Redis forgets everything: the pages are read again, the numbered deal's index rebuilt.
    clean_redis.flushdb()
    after = shown(client_for, month_played, won_games[1]["deal"])
    assert after["day"] == before["day"] and after["deal"] == before["deal"]
    assert [row for row in before["alice"]["history"] if not row["practice"]] == after["alice"]["history"]
    stats_refresh(Submission.objects.filter(player__username="alice").first().player_id)
    assert PlayerStats.objects.get(player__username="alice").daily_wins == wins == 1

    # Its replay is gone from the site (in the file): the API says so; a later month's is there.
    alice = Submission.objects.filter(player__username="alice").first().player
    for submission in Submission.objects.filter(player=alice):
        answer = client_for(alice).get(f"/api/submissions/{submission.pk}/").json()
        archived = submission in kept
        assert answer["archived"] is archived and (answer["actions"] is None) is archived
        assert answer["won"] is True

    capsys.readouterr()
    call_command("replay", "--archive", record.path)
    assert "5 lines, 4 games replayed, 0 mismatches" in capsys.readouterr().out

    with pytest.raises(CommandError, match="archived already"):
        call_command("archive_month", f"{month:%Y-%m}", "--dir", str(tmp_path))


def test_a_tampered_archive_fails_its_check(month, month_played, tmp_path, capsys):
    record = month_archive(month, directory=tmp_path)
    lines = lines_of(record.path)
    won = next(line for line in lines if line.get("result", {}).get("won"))
    won["result"]["moves"] -= 1
    tampered = tmp_path / "tampered.jsonl.gz"
    with gzip.open(tampered, "wt") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)
    with pytest.raises(CommandError, match="1 games differ"):
        call_command("replay", "--archive", str(tampered))
    assert f"(submission {won['submission']['id']}): moves" in capsys.readouterr().out


def test_drop_removes_the_detached_partitions(month, month_played, tmp_path):
    record = month_archive(month, drop=True, directory=tmp_path)
    assert record.dropped
    for table in partitions.TABLES:
        name = partitions.partition_name(table, month)
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s)", [f'"{name}_archived"'])
            assert cursor.fetchone()[0] is None
        assert name in partitions.partitions(table)  # the new one, with the results kept


def test_the_kept_tables_hold_no_fair_play_hashes(month, month_played, tmp_path):
    Attempt.objects.update(address_hash="a" * 32, device_hash="d" * 32)
    month_archive(month, directory=tmp_path)
    kept = f"{partitions.partition_name(partitions.ATTEMPTS, month)}_archived"
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT count(*), count("address_hash"), count("device_hash") FROM "{kept}"')
        attempts, addresses, devices = cursor.fetchone()
    assert attempts == 5 and addresses == devices == 0


def test_the_migration_clears_the_hashes_of_tables_kept_before(month, month_played, tmp_path):
    month_archive(month, directory=tmp_path)
    kept = f"{partitions.partition_name(partitions.ATTEMPTS, month)}_archived"
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{kept}" SET "address_hash" = %s, "device_hash" = %s', ["a" * 32, "d" * 32])
        cursor.execute(importlib.import_module("leaderboard.migrations.0021_archived_hashes_cleared").CLEAR_SQL)
        cursor.execute(f'SELECT count(*), count("address_hash"), count("device_hash") FROM "{kept}"')
        assert cursor.fetchone() == (5, 0, 0)


def test_an_open_month_or_unfrozen_days_are_refused(month, make_player, tmp_path, won_games):
    with pytest.raises(CommandError, match="is not closed"):
        call_command("archive_month", f"{partitions.month_of(days.today()):%Y-%m}", "--dir", str(tmp_path))
    day = month + timedelta(days=1)
    DailyDeal.objects.create(date=day, number=parse_code(won_games[0]["deal"]).number, solution=won_games[0]["actions"])
    with pytest.raises(ArchiveRefused, match="not frozen yet"):
        month_archive(month, directory=tmp_path)
    assert not ArchivedMonth.objects.exists() and not list(tmp_path.iterdir())
