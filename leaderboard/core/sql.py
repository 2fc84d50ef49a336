"""Plain SQL for the hottest statements (intake, verification, board rows, token lookups).

Compiling the ORM's query cost about as much CPU as PostgreSQL spent running it, so these
statements are written out, in PostgreSQL's dialect (the only database).
"""

from collections.abc import Iterable
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
