"""A deleted account erased from the archived months (GDPR art. 17, issue 24; docs/partitions.md).

``accounts.deletion.account_erase`` deletes the account and its live rows in the request. What
``archive.month_archive`` took out of the database is erased afterwards, by a task: rewriting
every month's file takes far longer than a request may.

- In the deletion's transaction, ``erasure_record`` keeps the erasure to do, an
  ``ArchiveErasure`` holding the account's id and nothing else, and queues its task by name
  after the commit. Beat queues it again while it is pending (``erasures_requeue``: a message
  the broker lost, a worker killed half-way).
- ``archives_erase``, the task's work, takes one archived month a step, oldest first: its
  file rewritten without the player's lines and checked as ``archive_month`` checks it (every
  log replayed), its ``ArchivedMonth`` given the new file's counts and sha256, the player's rows
  deleted from its ``..._archived`` tables; then it queues the step of the next month, to the
  back of the queue, so that a year of large files never holds a worker process for long and
  verifications take their turns between months. After the last month the pending row goes,
  and with it the last trace of the id. A month holding nothing of the player is left as it
  is: a repeated delivery, or a chain started again by beat, only reads the files again.

A line is the player's by its ``attempt.player_id``, never by its ``player`` name, which is the
name at archive time and may have changed since. Every file ``archive_month`` has written
carries the id (it has from the first), so no name is needed to match an old file and none is
kept. A line without an integer player id was not written here: the erasure stops with an
error and stays pending, rather than guess by name. Other players' lines are copied byte for
byte: one flagged as a copy of an erased result keeps the flag, and in ``copy_of`` the bare id
of a result no file holds any more.

The new file is written beside the old one (``.erasing``), fsynced, checked, and renamed over it
after the month's commit, one rewrite at a time: a session advisory lock is held across the
commit and the rename, so that no other erasure rewrites the old file meanwhile. A worker
killed between the two leaves the old file under a record of the new one; the erasure is still
pending, and its next run writes the month again.
"""

import gzip
import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

from celery import current_app
from django.db import transaction
from django.utils import timezone

from ...core import sql
from ...record.models import ArchivedMonth, ArchiveErasure
from . import archive, partitions

log = logging.getLogger(__name__)

ERASE_TASK = "leaderboard.tasks.erase_from_archives"
#: The task's limit, in seconds: one month's file read, rewritten and checked. A step stopped by
#: it is rolled back; beat starts the chain again (the months done are only read).
TIME_LIMIT = 3600
#: Beat starts a pending erasure's chain again once its last step was queued this long ago:
#: after a step's limit, so that it does not overlap a step still working (and if it does, the
#: lock takes them in turn and the second only reads).
REQUEUE_AFTER = timedelta(seconds=TIME_LIMIT + 600)
_LOCK = "hashtext('archive-erasure')"


class ErasureFailed(Exception):
    """An archived month could not be rewritten (the message says why): the erasure stays
    pending, and beat queues it again."""


def erasure_record(player_id: int) -> None:
    """In the deletion's transaction: ``player_id``'s erasure from the archives, kept until it
    is done, and its task queued once the deletion commits."""
    ArchiveErasure.objects.create(player_id=player_id, queued_at=timezone.now())
    transaction.on_commit(lambda: enqueue_erasure(player_id))


def enqueue_erasure(player_id: int, from_month: date | None = None) -> None:
    """Queue the task (its step from ``from_month``; None: the first month); a broker that is
    down only delays it (beat queues it again)."""
    args = (player_id,) if from_month is None else (player_id, from_month.isoformat())
    try:
        current_app.send_task(ERASE_TASK, args, ignore_result=True, retry=False)
    except Exception:  # the row is safe in the database; erasures_requeue picks it up
        log.warning("could not queue the archives' erasure of player %s; it stays pending", player_id, exc_info=True)


def erasures_requeue() -> int:
    """Beat: queue again each erasure whose task was queued REQUEUE_AFTER ago or more; how many."""
    now = timezone.now()
    stale = list(
        ArchiveErasure.objects.filter(queued_at__lte=now - REQUEUE_AFTER)
        .order_by("queued_at")
        .values_list("player_id", flat=True)[:1000]
    )
    ArchiveErasure.objects.filter(player_id__in=stale).update(queued_at=now)
    for player_id in stale:
        enqueue_erasure(player_id)
    return len(stale)


def archives_erase(player_id: int, from_month: date | None = None) -> int:
    """One step of the deleted ``player_id``'s erasure: the first archived month from
    ``from_month`` (None: the oldest) rid of the player, then the next month's step queued, or,
    after the last month, the pending erasure deleted. The months changed (0 or 1); nothing
    when no erasure of it is pending (done already)."""
    if not ArchiveErasure.objects.filter(player_id=player_id).exists():
        return 0
    months = ArchivedMonth.objects.order_by("month").values_list("month", flat=True)
    step = list(months.filter(month__gte=from_month)[:2] if from_month else months[:2])
    changed = bool(step) and _month_erase(step[0], player_id)
    if len(step) == 2:
        ArchiveErasure.objects.filter(player_id=player_id).update(queued_at=timezone.now())
        enqueue_erasure(player_id, step[1])
    else:
        ArchiveErasure.objects.filter(player_id=player_id).delete()
        log.info("erased player %s from the archives", player_id)
    return int(changed)


@contextmanager
def _archives_locked() -> Iterator[None]:
    """One rewrite of an archive at a time, from reading its file to renaming the new one (a
    session lock: a transaction's would end before the rename)."""
    sql.run(f"SELECT pg_advisory_lock({_LOCK})")
    try:
        yield
    finally:
        sql.run(f"SELECT pg_advisory_unlock({_LOCK})")


def _month_erase(month: date, player_id: int) -> bool:
    """One archived month rid of the player: whether anything of it changed."""
    with _archives_locked():
        with transaction.atomic():
            record = ArchivedMonth.objects.get(month=month)
            rows = _tables_erase(month, player_id)
            written = _file_rewrite(record, player_id)
        if written is not None:
            _rename(written, Path(record.path))
    return bool(rows) or written is not None


# -- the file -----------------------------------------------------------------------------------


def _file_rewrite(record: ArchivedMonth, player_id: int) -> Path | None:
    """The month's file without the player's lines, written beside it, fsynced and checked, and
    the record's counts and sha256 set to it: the new file, to rename over the old one once the
    record commits. None when the file holds no line of the player's."""
    path = Path(record.path)
    if all(player != player_id for _, player, _ in _lines(path)):
        return None
    written = path.with_name(path.name + ".erasing")
    lines = submissions = 0
    with open(written, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb") as out:
            for line, player, submitted in _lines(path):
                if player != player_id:
                    out.write(line)
                    lines += 1
                    submissions += submitted
        raw.flush()
        os.fsync(raw.fileno())
    report = archive.archive_check(written)
    if not report.ok or report.lines != lines or report.games != submissions:
        written.unlink()
        raise ErasureFailed(
            f"{path}: the rewritten file failed its check ({report.lines} lines of {lines}, {report.games} "
            f"games of {submissions}, {len(report.mismatches)} mismatches): left as it was"
        )
    record.attempts, record.submissions, record.sha256 = lines, submissions, archive.sha256_of(written)
    record.save(update_fields=["attempts", "submissions", "sha256"])
    return written


def _lines(path: Path) -> Iterator[tuple[bytes, int, bool]]:
    """Each line of an archive file as it is, with its player's id and whether it holds a
    submission; blank lines skipped."""
    with gzip.open(path, "rb") as source:
        for number, line in enumerate(source, start=1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                player = game["attempt"]["player_id"]
            except (ValueError, KeyError, TypeError):
                player = None
            if not isinstance(player, int) or isinstance(player, bool):
                raise ErasureFailed(f"{path}, line {number}: no player id (not a line of archive_month's)")
            yield line, player, game.get("submission") is not None


def _rename(written: Path, path: Path) -> None:
    """``written`` in the place of ``path``, the rename itself made durable."""
    os.replace(written, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


# -- the detached tables ------------------------------------------------------------------------


def _tables_erase(month: date, player_id: int) -> int:
    """The player's rows deleted from the month's ``..._archived`` tables, and another player's
    attempt linked to theirs unlinked (as ``on_delete=SET_NULL`` does in the live tables): the
    rows changed. None when the tables were dropped (``--drop``, or by hand)."""
    changed = 0
    for table in (partitions.SUBMISSIONS, partitions.ATTEMPTS):
        name = archive.archived_table(table, month)
        columns = _columns(name)
        if "player_id" in columns:
            changed += sql.run(f'DELETE FROM "{name}" WHERE "player_id" = %s', [player_id])
        if "linked_player_id" in columns:  # a table detached before the column came has none
            changed += sql.run(
                f'UPDATE "{name}" SET "linked_player_id" = NULL WHERE "linked_player_id" = %s', [player_id]
            )
    return changed


def _columns(table: str) -> set[str]:
    """The columns of ``table``: none when there is no such table."""
    return {
        name
        for (name,) in sql.run(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s",
            [table],
        )
    }
