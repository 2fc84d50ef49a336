"""Plain SQL for the hottest statements (intake, verification, board rows, token lookups).

On PostgreSQL, compiling the ORM's query cost about as much CPU as PostgreSQL spent running
it, so these statements are written out; other databases (SQLite, which ``make run`` uses)
keep the ORM, and ``make test`` runs the service tests on both.
"""

from django.db import connection


def on_postgresql() -> bool:
    return connection.vendor == "postgresql"


def run(statement: str, params=()) -> list[tuple] | int:
    """The rows ``statement`` returns, or the number of rows it changed when it returns none."""
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else cursor.rowcount
