"""A board row as the API shows it, rendered once as JSON and kept beside the ranks in the Redis
index (``index``), so that a page is one Redis call and no PostgreSQL read.

A row is stored without its rank, which changes whenever a result lands above it: as the JSON
object's text after the opening brace (``"player":"alice",...}``); a page writes
``{"rank":N,`` before each. Everything else in a row is fixed once the submission is verified,
except the player's name (a rename rewrites their rows, ``entries.player_rows_refresh``).
"""

from django.contrib.auth import get_user_model

from ..core import sql
from ..core.rendering import json_bytes
from ..record.models import Submission

User = get_user_model()

# The row's values in order, as Submission (ORM) paths, and from a BoardEntry (the rebuild of
# a board's index); the first is the submission id.
FIELDS = ("pk", "player__username", "won", "moves", "score", "duration_ms", "clean", "hints", "submitted_at")
ENTRY_FIELDS = tuple(f"submission__{path}" for path in FIELDS)
NAMES = ("submission", "player", "won", "moves", "score", "duration_ms", "clean", "hints", "submitted_at")
SHOWN = ("player", "won", "moves", "score", "duration_ms", "clean", "hints", "submission", "submitted_at")

# The same values in plain SQL over submissions ``s`` joined to users ``u``, ``submitted_at`` as
# ``datetime.isoformat()`` writes a UTC time, made by PostgreSQL (loading a timestamptz into a
# datetime runs Django's Python loader per row).
SQL_COLUMNS = (
    's."id", u."username", s."won", s."moves", s."score", s."duration_ms", s."clean", s."hints", '
    """to_char(s."submitted_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') """
    """|| CASE WHEN date_trunc('second', s."submitted_at") = s."submitted_at" THEN '' """
    """ELSE to_char(s."submitted_at" AT TIME ZONE 'UTC', '.US') END || '+00:00'"""
)
SQL_JOIN = f'"{Submission._meta.db_table}" s INNER JOIN "{User._meta.db_table}" u ON s."player_id" = u."id"'


def render(values) -> bytes:
    """A row's stored text from ``FIELDS``' values (``submitted_at`` a datetime or its ISO text)."""
    row = dict(zip(NAMES, values))
    if not isinstance(row["submitted_at"], str):
        row["submitted_at"] = row["submitted_at"].isoformat()
    return json_bytes({name: row[name] for name in SHOWN})[1:]


def of_submissions(submission_ids) -> dict[int, bytes]:
    """``{submission id: row}`` read from the record: one plain statement with the ids as one
    array parameter (compiling the ORM query cost as much as running it)."""
    if not submission_ids:
        return {}
    values = sql.run(
        f'SELECT {SQL_COLUMNS} FROM {SQL_JOIN} WHERE s."id" = ANY(%s::bigint[])',
        [sql.bigint_array(submission_ids)],
    )
    return {row[0]: render(row) for row in values}


def page_json(head: dict, first_rank: int, rows) -> bytes:
    """The API's JSON of ``head`` and then ``"results"``: the rows, ranked from ``first_rank``
    (a None row, removed while the page was read, is left out and its rank with it). The same
    bytes as ``json_bytes`` of the whole answer."""
    start = json_bytes({**head, "results": []})  # ends with '[]}'
    ranked = [b'{"rank":%d,%s' % (first_rank + i, row) for i, row in enumerate(rows) if row is not None]
    return start[:-2] + b",".join(ranked) + b"]}"
