# Submission.actions and .times from jsonb to bytea in the compact encoding of games.compact
# (docs/compact-logs.md). Existing rows are converted in batches by the same Python functions
# the application uses, through new columns that then take the old ones' names; backwards, the
# same way from bytea to jsonb. A log or times that cannot be encoded (never accepted at intake)
# stops the migration with the submission's id and the reason.
#
# The dropped jsonb columns' bytes stay in the table's pages until its rows are rewritten
# (VACUUM FULL leaderboard_submission, or pg_repack without the lock).

import json

from django.db import migrations

import leaderboard.core.fields
from games import compact

TABLE = "leaderboard_submission"
BATCH = 2000


def _convert(schema_editor, source: tuple[str, str], target: tuple[str, str], cast: str, change) -> None:
    """Fill the ``target`` columns (of type ``cast``) from the ``source`` ones, row by row with
    ``change``, in batches of BATCH rows by id."""
    last = 0
    with schema_editor.connection.cursor() as cursor:
        while True:
            cursor.execute(
                f'SELECT "id", "{source[0]}", "{source[1]}" FROM "{TABLE}" WHERE "id" > %s ORDER BY "id" LIMIT {BATCH}',
                [last],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            ids, actions, times = [], [], []
            for submission_id, log, stamps in rows:
                try:
                    new_log, new_times = change(log), None if stamps is None else change(stamps, times=True)
                except ValueError as exc:  # compact.CompactError, or JSON that is not
                    raise RuntimeError(f"submission {submission_id}: {exc}") from exc
                ids.append(submission_id)
                actions.append(new_log)
                times.append(new_times)
            cursor.execute(
                f'UPDATE "{TABLE}" s SET "{target[0]}" = v.log, "{target[1]}" = v.times '
                f'FROM unnest(%s::bigint[], %s::{cast}[], %s::{cast}[]) AS v(id, log, times) WHERE s."id" = v.id',
                [ids, actions, times],
            )
            last = ids[-1]


def _to_compact(value, times=False) -> bytes:
    if isinstance(value, str):  # jsonb as text, as Django's backend loads it
        value = json.loads(value)
    return compact.encode_times(value) if times else compact.encode_log(value)


def _to_json(value, times=False) -> str:
    return json.dumps(compact.decode_times(value) if times else compact.decode_log(value))


def forwards(apps, schema_editor):
    _convert(schema_editor, ("actions", "times"), ("actions_compact", "times_compact"), "bytea", _to_compact)


def backwards(apps, schema_editor):
    _convert(schema_editor, ("actions_compact", "times_compact"), ("actions", "times"), "jsonb", _to_json)


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0007_groups"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'ALTER TABLE "{TABLE}" ADD COLUMN "actions_compact" bytea, ADD COLUMN "times_compact" bytea',
                    f'ALTER TABLE "{TABLE}" ALTER COLUMN "actions" SET NOT NULL, '
                    f'DROP COLUMN "actions_compact", DROP COLUMN "times_compact"',
                ),
                migrations.RunPython(forwards, backwards),
                migrations.RunSQL(
                    [
                        f'ALTER TABLE "{TABLE}" ALTER COLUMN "actions_compact" SET NOT NULL, '
                        f'DROP COLUMN "actions", DROP COLUMN "times"',
                        f'ALTER TABLE "{TABLE}" RENAME COLUMN "actions_compact" TO "actions"',
                        f'ALTER TABLE "{TABLE}" RENAME COLUMN "times_compact" TO "times"',
                    ],
                    [
                        f'ALTER TABLE "{TABLE}" RENAME COLUMN "actions" TO "actions_compact"',
                        f'ALTER TABLE "{TABLE}" RENAME COLUMN "times" TO "times_compact"',
                        f'ALTER TABLE "{TABLE}" ALTER COLUMN "actions_compact" DROP NOT NULL, '
                        f'ADD COLUMN "actions" jsonb, ADD COLUMN "times" jsonb',
                    ],
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="submission",
                    name="actions",
                    field=leaderboard.core.fields.CompactLogField(),
                ),
                migrations.AlterField(
                    model_name="submission",
                    name="times",
                    field=leaderboard.core.fields.CompactTimesField(blank=True, null=True),
                ),
            ],
        ),
    ]
