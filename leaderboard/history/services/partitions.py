"""The record's monthly partitions (docs/partitions.md): attempts by the UTC month of their
``started_at``, submissions by their attempt's (``attempt_started_at``), so that a month's
attempts and submissions sit in one pair of tables, archived and detached together
(``leaderboard.archive``).

Each table has a DEFAULT partition, which takes any row whose month has no partition yet: an
accepted submission is never refused for want of one. Beat creates the partitions of the
current month and PARTITION_MONTHS_AHEAD months after it (``months_ensure``), and so does
``manage.py partitions``; a month whose rows already sit in the DEFAULT partition (beat was
away for months) gets them moved into its new partition.
"""

import logging
import re
from datetime import date, datetime

from django.conf import settings
from django.db import transaction

from ...core import days, sql
from ...record.models import Attempt, Submission

log = logging.getLogger(__name__)

ATTEMPTS, SUBMISSIONS = Attempt._meta.db_table, Submission._meta.db_table
#: Each partitioned table and its partition column; attempts first (a submission's composite
#: foreign key names its attempt).
TABLES = {ATTEMPTS: "started_at", SUBMISSIONS: "attempt_started_at"}
#: The submissions' foreign key to their attempt, (attempt_id, attempt_started_at).
ATTEMPT_FK = "submission_attempt_fk"

_MONTHLY = re.compile(r"_p(\d{4})_(\d{2})$")


def month_of(moment: datetime | date) -> date:
    """The first day of the UTC month of ``moment`` (a date is taken as a UTC date)."""
    if isinstance(moment, datetime):
        moment = days.day_of(moment)
    return moment.replace(day=1)


def month_after(month: date, months: int = 1) -> date:
    """The first day of the month ``months`` after ``month``'s."""
    index = month.year * 12 + month.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def month_bounds(month: date) -> tuple[datetime, datetime]:
    """A month's range of times, from its first midnight UTC up to the next month's."""
    return days.as_utc_datetime(month_of(month)), days.as_utc_datetime(month_after(month_of(month)))


def partition_name(table: str, month: date) -> str:
    return f"{table}_p{month:%Y_%m}"


def default_name(table: str) -> str:
    return f"{table}_default"


def partitions(table: str) -> list[str]:
    """The names of ``table``'s partitions, the DEFAULT one included."""
    return [
        name
        for (name,) in sql.run(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = %s::regclass ORDER BY 1",
            [f'"{table}"'],
        )
    ]


def months(table: str) -> list[date]:
    """The months that have a partition of ``table``, in order."""
    found = (_MONTHLY.search(name) for name in partitions(table))
    return [date(int(match[1]), int(match[2]), 1) for match in found if match]


def months_ensure(ahead: int | None = None, today: date | None = None) -> list[str]:
    """Create the partitions of the current month and of ``ahead`` months after it
    (PARTITION_MONTHS_AHEAD), of both tables: the names created; none when they exist
    (idempotent, and safe beside another run: one at a time, by an advisory lock)."""
    ahead = settings.PARTITION_MONTHS_AHEAD if ahead is None else ahead
    first = month_of(today or days.today())
    created = []
    for k in range(ahead + 1):
        created += month_ensure(month_after(first, k))
    return created


def month_ensure(month: date) -> list[str]:
    """The partitions of ``month`` for both tables, created if missing, in one transaction; the
    month's rows in the DEFAULT partitions moved into them. The names created."""
    month = month_of(month)
    with transaction.atomic():
        # Creating a partition locks the parent table: never queue behind a long statement
        # (and every submission behind this): give up, beat tries again at its next run.
        sql.run("SET LOCAL lock_timeout = '5s'")
        sql.run("SELECT pg_advisory_xact_lock(hashtext('partitions'))")
        missing = [table for table in TABLES if partition_name(table, month) not in partitions(table)]
        if not missing:
            return []
        if len(missing) != len(TABLES) and _in_default(month):
            raise RuntimeError(f"{month:%Y-%m}: rows in the DEFAULT partitions and only {missing} missing")
        # The foreign keys checked at each statement (and what the transaction left pending, which
        # would forbid the DDL): the month's submissions leave the DEFAULT partition before their
        # attempts, and come back after them.
        sql.run("SET CONSTRAINTS ALL IMMEDIATE")
        moved = {table: _out_of_default(table, month) for table in reversed(missing)}
        for table in missing:
            low, high = month_bounds(month)
            sql.run(
                f'CREATE TABLE "{partition_name(table, month)}" PARTITION OF "{table}" '
                f"FOR VALUES FROM ('{low.isoformat()}') TO ('{high.isoformat()}')"
            )
            if moved[table]:
                sql.run(f'INSERT INTO "{table}" SELECT * FROM "{moved[table]}"')
                sql.run(f'DROP TABLE "{moved[table]}"')
    names = [partition_name(table, month) for table in missing]
    log.info("created partitions %s", names)
    return names


def _in_default(month: date) -> bool:
    low, high = month_bounds(month)
    return any(
        sql.run(
            f'SELECT 1 FROM "{default_name(table)}" WHERE "{column}" >= %s AND "{column}" < %s LIMIT 1', [low, high]
        )
        for table, column in TABLES.items()
    )


def _out_of_default(table: str, month: date) -> str | None:
    """Move ``month``'s rows of ``table`` out of its DEFAULT partition into a temporary table
    (its name), or None when there were none."""
    column, (low, high) = TABLES[table], month_bounds(month)
    holding = f"moving_{partition_name(table, month)}"
    sql.run(f'CREATE TEMPORARY TABLE "{holding}" (LIKE "{table}") ON COMMIT DROP')
    count = sql.run(
        f'WITH moved AS (DELETE FROM "{default_name(table)}" WHERE "{column}" >= %s AND "{column}" < %s '
        f'RETURNING *) INSERT INTO "{holding}" SELECT * FROM moved',
        [low, high],
    )
    if not count:
        sql.run(f'DROP TABLE "{holding}"')
        return None
    log.warning("moving %d rows of %s out of the DEFAULT partition", count, table)
    return holding
