"""A closed month out of the record (docs/partitions.md). ``month_archive`` writes the month's
attempts and submissions to a gzip JSON Lines file under ARCHIVE_DIR, checks the file (reads it
back and replays every log offline against the server's result: ``games.lines.check_archive``,
as ``manage.py replay --archive`` does), then detaches the month's partitions and drops them, or
keeps them as plain tables named ``..._archived``.

The boards keep what they show. The month's results that are board entries stay in a new
partition of the month, without their logs (and their attempts with them): frozen days' pages,
the players' ranked history and stats, and the numbered deals' boards read as before. The rest
of the month (the logs, practice games, results off the boards, attempts never submitted) is
in the file only.
"""

import gzip
import hashlib
import json
import logging
import os
from datetime import date, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from games import compact
from games.lines import ArchiveCheck, check_archive

from ...boards import order
from ...boards.models import FrozenBoard
from ...core import days, sql
from ...record.models import (
    UNFINISHED,
    ArchivedMonth,
    BoardEntry,
    DailyDeal,
    Submission,
)
from . import partitions

log = logging.getLogger(__name__)

_USERS, _ENTRIES = get_user_model()._meta.db_table, BoardEntry._meta.db_table
ATTEMPTS, SUBMISSIONS = partitions.ATTEMPTS, partitions.SUBMISSIONS

# A line's columns: the submission's (null for an attempt never submitted), its attempt's, and
# the player's name.
_SUBMISSION_COLUMNS = (
    "id",
    "submitted_at",
    "status",
    "claimed_at",
    "verified_at",
    "deliveries",
    "hints",
    "duration_ms",
    "clean",
    "rank_key",
    "hidden",
    "flagged",
    "flag_reasons",
    "practice",
    "copy_of_id",
    "log_hash",
    "tempo",
    "error",
    "error_index",
    "refusal",
    "won",
    "score",
    "moves",
    "foundation",
    "undos",
    "take_backs",
    "stock_passes",
    "waste_to_column",
    "actions",
    "times",
)
_ATTEMPT_COLUMNS = ("id", "player_id", "deal_code", "deal_number", "daily_date", "started_at", "ranked", "hints")
_RESULT = ("won", "score", "moves", "foundation", "undos", "take_backs", "stock_passes", "waste_to_column")


class ArchiveRefused(Exception):
    """The month cannot be archived (now): the message says why."""


def archive_path(month: date, directory: Path | str | None = None) -> Path:
    return Path(directory or settings.ARCHIVE_DIR) / f"easyharp-{month:%Y-%m}.jsonl.gz"


def archived_table(table: str, month: date) -> str:
    """The name a month's detached partition of ``table`` keeps when it is not dropped."""
    return f"{partitions.partition_name(table, month)}_archived"


def month_archive(month: date, *, drop: bool = False, directory: Path | str | None = None) -> ArchivedMonth:
    """Archive a closed month (every day of it final, its boards frozen, nothing of it being
    verified): the file written and checked, then the partitions detached (``drop``: dropped).
    The month's record; ArchiveRefused says why not."""
    month = partitions.month_of(month)
    _refuse_open(month)
    partitions.month_ensure(month)  # a month beat never made a partition for: out of the DEFAULT
    _refuse_unfinished(month)
    path = archive_path(month, directory)
    lines, submissions, fingerprint = _write(month, path)
    report = archive_check(path)
    if not report.ok or report.lines != lines or report.games != submissions:
        raise ArchiveRefused(
            f"{path}: the check failed ({report.lines} lines of {lines}, {report.games} games "
            f"of {submissions}, {len(report.mismatches)} mismatches): nothing detached"
        )
    with transaction.atomic():
        kept = _detach(month, fingerprint, drop)
        record = ArchivedMonth.objects.create(
            month=month,
            path=str(path),
            sha256=sha256_of(path),
            submissions=submissions,
            attempts=lines,
            kept=kept,
            dropped=drop,
            archived_at=timezone.now(),
        )
    log.info("archived %s to %s: %d attempts, %d submissions, %d results kept", month, path, lines, submissions, kept)
    return record


def archive_check(path: Path | str) -> ArchiveCheck:
    """The file read back: every log replayed against its recorded result."""
    with gzip.open(path, "rb") as source:
        return check_archive(source)


# -- the refusals -------------------------------------------------------------------------------


def _refuse_open(month: date) -> None:
    done = ArchivedMonth.objects.filter(month=month).first()
    if done is not None:
        raise ArchiveRefused(f"{month:%Y-%m} was archived already, on {done.archived_at:%Y-%m-%d}, to {done.path}")
    last = partitions.month_after(month) - timedelta(days=1)
    if not days.day_final(last):
        raise ArchiveRefused(
            f"{month:%Y-%m} is not closed: its last day is final at {days.day_accepts_until(last).isoformat()}"
        )
    boards = [
        order.daily_board(day)
        for day in DailyDeal.objects.filter(date__gte=month, date__lte=last)
        .order_by("date")
        .values_list("date", flat=True)
    ]
    frozen = set(FrozenBoard.objects.filter(board__in=boards).values_list("board", flat=True))
    open_boards = [board for board in boards if board not in frozen]
    if open_boards:
        raise ArchiveRefused(
            f"{month:%Y-%m} has {len(open_boards)} day boards not frozen yet (the first: "
            f"{open_boards[0]}): run manage.py freeze_days first"
        )


def _refuse_unfinished(month: date) -> None:
    waiting = sql.run(
        f'SELECT count(*) FROM "{partitions.partition_name(SUBMISSIONS, month)}" WHERE "status" IN (%s, %s)',
        [*UNFINISHED],
    )[0][0]
    if waiting:
        raise ArchiveRefused(f"{month:%Y-%m} has {waiting} submissions waiting for their verification")


# -- the file -----------------------------------------------------------------------------------


def _write(month: date, path: Path) -> tuple[int, int, tuple]:
    """The month's attempts, each with its submission, one JSON line each, into ``path`` (gzip;
    written beside it, then renamed), from one snapshot of the record: the lines, the
    submissions among them, and the month's fingerprint in that snapshot (``_fingerprint``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    attempts, submission_part = (
        partitions.partition_name(ATTEMPTS, month),
        partitions.partition_name(SUBMISSIONS, month),
    )
    columns = ", ".join(
        [
            *(f's."{name}"' for name in _SUBMISSION_COLUMNS),
            *(f'a."{name}"' for name in _ATTEMPT_COLUMNS),
            'u."username"',
        ]
    )
    lines = submissions = 0
    outer = connection.in_atomic_block
    with transaction.atomic():
        if not outer:  # one snapshot for the lines and the fingerprint
            sql.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        fingerprint = _fingerprint(month)
        with gzip.open(partial, "wt", encoding="utf-8") as out, connection.chunked_cursor() as cursor:
            cursor.execute(
                f'SELECT {columns} FROM "{attempts}" a LEFT JOIN "{submission_part}" s '
                f'ON s."attempt_id" = a."id" INNER JOIN "{_USERS}" u ON u."id" = a."player_id" '
                f'ORDER BY a."started_at", a."id"'
            )
            while rows := cursor.fetchmany(2000):
                for row in rows:
                    line = _line(row)
                    out.write(json.dumps(line, separators=(",", ":"), default=_json_default) + "\n")
                    lines += 1
                    submissions += line["submission"] is not None
    os.replace(partial, path)
    return lines, submissions, fingerprint


def _line(row) -> dict:
    """One attempt and its submission as an archive line: its deal and log as ``manage.py
    replay`` reads them, the server's result as ``ReplayResult.to_dict`` names it, the rest as
    stored."""
    submission = dict(zip(_SUBMISSION_COLUMNS, row))
    attempt = dict(zip(_ATTEMPT_COLUMNS, row[len(_SUBMISSION_COLUMNS) :]))
    line = {"deal": attempt.pop("deal_code"), "player": row[-1], "attempt": attempt}
    if submission["id"] is None:
        return line | {"submission": None}
    line["actions"] = compact.decode_log(submission.pop("actions"))
    times = submission.pop("times")
    line["times"] = None if times is None else compact.decode_times(times)
    if submission["status"] == Submission.Status.VERIFIED:
        line["result"] = {"ok": True, **{name: submission[name] for name in _RESULT}}
    elif submission["status"] == Submission.Status.REJECTED:
        line["result"] = {"ok": False, "index": submission["error_index"]}
    submission["copy_of"] = submission.pop("copy_of_id")
    for name in ("flag_reasons", "tempo", "refusal"):  # jsonb: Django's connection loads it as its text
        if isinstance(submission[name], str):
            submission[name] = json.loads(submission[name])
    return line | {"submission": submission}


def _json_default(value):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value)  # a uuid


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# -- the detach ---------------------------------------------------------------------------------


def _fingerprint(month: date) -> tuple:
    """What may still change in a closed month, summed: its rows and their moderation, so that a
    change between the file and the detach is seen."""
    attempts, submission_part = (
        partitions.partition_name(ATTEMPTS, month),
        partitions.partition_name(SUBMISSIONS, month),
    )
    return tuple(
        sql.run(
            f'SELECT (SELECT count(*) FROM "{attempts}"), '
            f'(SELECT coalesce(sum(hashtext(concat_ws(\':\', "id", "hints", "started_at"))::bigint), 0) '
            f'FROM "{attempts}"), (SELECT count(*) FROM "{submission_part}"), '
            f'(SELECT coalesce(sum(hashtext(concat_ws(\':\', "id", "status", "hidden", "flagged", "verified_at", '
            f'"copy_of_id", "rank_key", "flag_reasons"::text))::bigint), 0) FROM "{submission_part}")'
        )[0]
    )


def _detach(month: date, fingerprint: tuple, drop: bool) -> int:
    """In the caller's transaction: the month's partitions detached (dropped, or kept as
    ``..._archived`` without their foreign keys, and their attempts without the fair-play
    hashes, which are kept ORIGIN_KEEP_DAYS at most), new ones made in their place holding the
    month's board entries' results without their logs, and those results' attempts. The
    results kept."""
    attempts, submission_part = (
        partitions.partition_name(ATTEMPTS, month),
        partitions.partition_name(SUBMISSIONS, month),
    )
    sql.run("SET LOCAL lock_timeout = '60s'")
    sql.run("SET CONSTRAINTS ALL IMMEDIATE")  # as partitions.month_ensure
    sql.run(f'LOCK TABLE "{submission_part}", "{attempts}" IN SHARE MODE')  # the month's writers wait
    if _fingerprint(month) != fingerprint:
        raise ArchiveRefused(f"{month:%Y-%m} changed while it was written: run archive_month again")
    sql.run(
        f'CREATE TEMPORARY TABLE "kept_submissions" ON COMMIT DROP AS SELECT * FROM "{submission_part}" '
        f'WHERE "id" IN (SELECT "submission_id" FROM "{_ENTRIES}")'
    )
    kept = sql.run(
        'UPDATE "kept_submissions" SET "actions" = %s, "times" = NULL, "tempo" = NULL', [compact.encode_log([])]
    )
    sql.run(
        f'CREATE TEMPORARY TABLE "kept_attempts" ON COMMIT DROP AS SELECT * FROM "{attempts}" '
        f'WHERE "id" IN (SELECT "attempt_id" FROM "kept_submissions")'
    )
    for table, name in ((SUBMISSIONS, submission_part), (ATTEMPTS, attempts)):  # submissions name attempts
        sql.run(f'ALTER TABLE "{table}" DETACH PARTITION "{name}"')
        if drop:
            sql.run(f'DROP TABLE "{name}"')
        else:
            _foreign_keys_drop(name)
            sql.run(f'ALTER TABLE "{name}" RENAME TO "{archived_table(table, month)}"')
    if not drop:  # beat's origins_forget reaches only the live partitions: the hashes go now
        sql.run(
            f'UPDATE "{archived_table(ATTEMPTS, month)}" SET "address_hash" = NULL, "device_hash" = NULL '
            'WHERE "address_hash" IS NOT NULL OR "device_hash" IS NOT NULL'
        )
    low, high = partitions.month_bounds(month)
    for table, name, holding in (
        (ATTEMPTS, attempts, "kept_attempts"),
        (SUBMISSIONS, submission_part, "kept_submissions"),
    ):
        sql.run(
            f'CREATE TABLE "{name}" PARTITION OF "{table}" '
            f"FOR VALUES FROM ('{low.isoformat()}') TO ('{high.isoformat()}')"
        )
        sql.run(f'INSERT INTO "{table}" SELECT * FROM "{holding}"')
    sql.run('DROP TABLE "kept_submissions", "kept_attempts"')
    return kept


def _foreign_keys_drop(table: str) -> None:
    """A detached table kept as an archive refers to nothing: its rows would otherwise hold up
    the detach of its attempts, or a player's deletion."""
    # The top-level ones: the clones towards each partition of attempts go with theirs.
    for (name,) in sql.run(
        "SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'f' AND conparentid = 0",
        [f'"{table}"'],
    ):
        sql.run(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
