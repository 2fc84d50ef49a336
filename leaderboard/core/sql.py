"""Plain SQL for the hottest statements (intake, verification, board rows, token lookups).

Compiling the ORM's query cost about as much CPU as PostgreSQL spent running it, so these
statements are written out, in PostgreSQL's dialect (the only database).
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import connection


def run(statement: str, params=()) -> Any:
    """The rows ``statement`` returns (a list of tuples), or the number of rows it changed when it
    returns none: which of the two the statement decides, so the caller knows it (Any)."""
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else cursor.rowcount


def bigint_array(ids: Iterable[int]) -> str:
    """PostgreSQL's literal of a bigint array, for ``= ANY(%s::bigint[])``: one parameter
    however many ids (a list of parameters would make every length a statement of its own)."""
    return "{" + ",".join(str(int(i)) for i in ids) + "}"


def within(column: str, months: tuple[datetime, datetime]) -> str:
    """``column`` in a range of times (``days.month_range``) with the bounds written as literals,
    not parameters: PostgreSQL then prunes the partitions as it plans the prepared statement, and
    keeps its generic plan. With parameters it planned every execution anew (a custom plan each
    time; planning cost more than running). The text changes once a month."""
    # datetime.isoformat refuses anything but a datetime: only its digits reach the text.
    start, end = (f"'{datetime.isoformat(bound)}'::timestamptz" for bound in months)
    return f"{column} >= {start} AND {column} < {end}"
