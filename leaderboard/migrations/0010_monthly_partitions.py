# Attempts and submissions partitioned by month (docs/partitions.md): attempts by their
# started_at, submissions by their attempt's (attempt_started_at, copied at intake), so that a
# month's games can be archived and detached together (manage.py archive_month).
#
# PostgreSQL wants the partition column in every primary key and unique constraint of a
# partitioned table: the keys become (id, started_at) and (id, attempt_started_at), while Django
# keeps ``id`` (unique: ids come from a uuid and one sequence). "One submission per attempt" is
# unique (attempt_id, attempt_started_at), and the submission's attempt a composite foreign key
# (attempt_id, attempt_started_at) -> (id, started_at) that cascades a change of started_at. The
# foreign keys to submissions (board entries, copy_of) are Django's only (db_constraint=False).
#
# The tables are converted in place: renamed, a partitioned table made LIKE each (DEFAULT
# partition, the months of the rows and 3 ahead), the secondary indexes moved under their names,
# the rows copied, the keys and the id sequence made again. Reversible the same way. On an empty
# database (the test suite migrates from zero) it is a few dozen statements.

from django.db import migrations, models

AHEAD = 3  # months created ahead of the current one; beat keeps it so (leaderboard.partitions)


def _move_indexes(source: str, target: str) -> str:
    """The non-unique indexes of ``source`` made again on ``target`` under the same names."""
    return f"""
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
           WHERE x.indrelid = '"{source}"'::regclass AND NOT x.indisunique
  LOOP
    EXECUTE format('DROP INDEX %I', r.name);
    EXECUTE regexp_replace(r.def, ' ON (ONLY )?\\S+ USING ', ' ON "{target}" USING ');
  END LOOP;
END $$"""


def _months(source: str) -> str:
    """The DEFAULT partitions, and one per UTC month from the oldest attempt to AHEAD months on."""
    return f"""
DO $$
DECLARE m timestamp;
BEGIN
  CREATE TABLE "leaderboard_attempt_default" PARTITION OF "leaderboard_attempt" DEFAULT;
  CREATE TABLE "leaderboard_submission_default" PARTITION OF "leaderboard_submission" DEFAULT;
  FOR m IN SELECT generate_series(
      date_trunc('month', LEAST(COALESCE((SELECT min("started_at") FROM "{source}"), now()), now()) AT TIME ZONE 'UTC'),
      date_trunc('month', now() AT TIME ZONE 'UTC') + interval '{AHEAD} months', interval '1 month')
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "leaderboard_attempt" FOR VALUES FROM (%L) TO (%L)',
                   'leaderboard_attempt_p' || to_char(m, 'YYYY_MM'), to_char(m, 'YYYY-MM-DD "00:00:00+00"'),
                   to_char(m + interval '1 month', 'YYYY-MM-DD "00:00:00+00"'));
    EXECUTE format('CREATE TABLE %I PARTITION OF "leaderboard_submission" FOR VALUES FROM (%L) TO (%L)',
                   'leaderboard_submission_p' || to_char(m, 'YYYY_MM'), to_char(m, 'YYYY-MM-DD "00:00:00+00"'),
                   to_char(m + interval '1 month', 'YYYY-MM-DD "00:00:00+00"'));
  END LOOP;
END $$"""


FORWARD = [
    'ALTER TABLE "leaderboard_attempt" RENAME TO "leaderboard_attempt_unpartitioned"',
    'ALTER TABLE "leaderboard_submission" RENAME TO "leaderboard_submission_unpartitioned"',
    'CREATE TABLE "leaderboard_attempt" (LIKE "leaderboard_attempt_unpartitioned" INCLUDING DEFAULTS '
    'INCLUDING CONSTRAINTS) PARTITION BY RANGE ("started_at")',
    'CREATE TABLE "leaderboard_submission" (LIKE "leaderboard_submission_unpartitioned" INCLUDING DEFAULTS '
    'INCLUDING CONSTRAINTS, "attempt_started_at" timestamp with time zone NOT NULL) '
    'PARTITION BY RANGE ("attempt_started_at")',
    _months("leaderboard_attempt_unpartitioned"),
    _move_indexes("leaderboard_attempt_unpartitioned", "leaderboard_attempt"),
    _move_indexes("leaderboard_submission_unpartitioned", "leaderboard_submission"),
    'INSERT INTO "leaderboard_attempt" SELECT * FROM "leaderboard_attempt_unpartitioned"',
    'INSERT INTO "leaderboard_submission" SELECT s.*, a."started_at" FROM "leaderboard_submission_unpartitioned" s '
    'INNER JOIN "leaderboard_attempt_unpartitioned" a ON a."id" = s."attempt_id"',
    # CASCADE: also the board entries' foreign key to the old submissions (Django's only from now).
    'DROP TABLE "leaderboard_submission_unpartitioned" CASCADE',
    'DROP TABLE "leaderboard_attempt_unpartitioned" CASCADE',
    'ALTER TABLE "leaderboard_attempt" ADD CONSTRAINT "leaderboard_attempt_pkey" PRIMARY KEY ("id", "started_at")',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "leaderboard_submission_pkey" '
    'PRIMARY KEY ("id", "attempt_started_at")',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "one_submission_per_attempt" '
    'UNIQUE ("attempt_id", "attempt_started_at")',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "submission_attempt_fk" '
    'FOREIGN KEY ("attempt_id", "attempt_started_at") REFERENCES "leaderboard_attempt" ("id", "started_at") '
    "ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED",
    'ALTER TABLE "leaderboard_attempt" ADD CONSTRAINT "attempt_player_fk" FOREIGN KEY ("player_id") '
    'REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "submission_player_fk" FOREIGN KEY ("player_id") '
    'REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED',
    'CREATE SEQUENCE "leaderboard_submission_id_seq" OWNED BY "leaderboard_submission"."id"',
    'ALTER TABLE "leaderboard_submission" ALTER COLUMN "id" SET DEFAULT nextval(\'"leaderboard_submission_id_seq"\')',
    'SELECT setval(\'"leaderboard_submission_id_seq"\', COALESCE(max("id"), 0) + 1, false) '
    'FROM "leaderboard_submission"',
]

BACKWARD = [
    'ALTER TABLE "leaderboard_attempt" RENAME TO "leaderboard_attempt_partitioned"',
    'ALTER TABLE "leaderboard_submission" RENAME TO "leaderboard_submission_partitioned"',
    'CREATE TABLE "leaderboard_attempt" (LIKE "leaderboard_attempt_partitioned" INCLUDING DEFAULTS '
    "INCLUDING CONSTRAINTS)",
    'CREATE TABLE "leaderboard_submission" (LIKE "leaderboard_submission_partitioned" INCLUDING DEFAULTS '
    "INCLUDING CONSTRAINTS)",
    'ALTER TABLE "leaderboard_submission" DROP COLUMN "attempt_started_at"',
    'ALTER TABLE "leaderboard_submission" ALTER COLUMN "id" DROP DEFAULT',
    _move_indexes("leaderboard_attempt_partitioned", "leaderboard_attempt"),
    _move_indexes("leaderboard_submission_partitioned", "leaderboard_submission"),
    'INSERT INTO "leaderboard_attempt" SELECT * FROM "leaderboard_attempt_partitioned"',
    """
DO $$
DECLARE columns text;
BEGIN
  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO columns FROM pg_attribute
  WHERE attrelid = '"leaderboard_submission"'::regclass AND attnum > 0 AND NOT attisdropped;
  EXECUTE format('INSERT INTO "leaderboard_submission" (%s) SELECT %s FROM "leaderboard_submission_partitioned"',
                 columns, columns);
END $$""",
    'DROP TABLE "leaderboard_submission_partitioned" CASCADE',
    'DROP TABLE "leaderboard_attempt_partitioned" CASCADE',
    'ALTER TABLE "leaderboard_attempt" ADD CONSTRAINT "leaderboard_attempt_pkey" PRIMARY KEY ("id")',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "leaderboard_submission_pkey" PRIMARY KEY ("id")',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "leaderboard_submission_attempt_id_key" UNIQUE ("attempt_id")',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "submission_attempt_fk" FOREIGN KEY ("attempt_id") '
    'REFERENCES "leaderboard_attempt" ("id") DEFERRABLE INITIALLY DEFERRED',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "submission_copy_of_fk" FOREIGN KEY ("copy_of_id") '
    'REFERENCES "leaderboard_submission" ("id") DEFERRABLE INITIALLY DEFERRED',
    'ALTER TABLE "leaderboard_boardentry" ADD CONSTRAINT "boardentry_submission_fk" FOREIGN KEY ("submission_id") '
    'REFERENCES "leaderboard_submission" ("id") DEFERRABLE INITIALLY DEFERRED',
    'ALTER TABLE "leaderboard_attempt" ADD CONSTRAINT "attempt_player_fk" FOREIGN KEY ("player_id") '
    'REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED',
    'ALTER TABLE "leaderboard_submission" ADD CONSTRAINT "submission_player_fk" FOREIGN KEY ("player_id") '
    'REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED',
    'ALTER TABLE "leaderboard_submission" ALTER COLUMN "id" ADD GENERATED BY DEFAULT AS IDENTITY',
    "SELECT setval(pg_get_serial_sequence('\"leaderboard_submission\"', 'id'), COALESCE(max(\"id\"), 0) + 1, false) "
    'FROM "leaderboard_submission"',
]


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0009_frozen_boards"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FORWARD, BACKWARD)],
            state_operations=[
                migrations.AddField(
                    model_name="submission",
                    name="attempt_started_at",
                    field=models.DateTimeField(editable=False),
                    preserve_default=False,
                ),
                migrations.AlterField(
                    model_name="submission",
                    name="attempt",
                    field=models.OneToOneField(
                        db_constraint=False,
                        on_delete=models.deletion.CASCADE,
                        related_name="submission",
                        to="leaderboard.attempt",
                    ),
                ),
                migrations.AlterField(
                    model_name="submission",
                    name="copy_of",
                    field=models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=models.deletion.SET_NULL,
                        related_name="copies",
                        to="leaderboard.submission",
                    ),
                ),
                migrations.AlterField(
                    model_name="boardentry",
                    name="submission",
                    field=models.ForeignKey(
                        db_constraint=False,
                        on_delete=models.deletion.CASCADE,
                        related_name="board_entries",
                        to="leaderboard.submission",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="submission",
                    constraint=models.UniqueConstraint(
                        fields=("attempt", "attempt_started_at"), name="one_submission_per_attempt"
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="ArchivedMonth",
            fields=[
                ("month", models.DateField(primary_key=True, serialize=False)),
                ("path", models.CharField(max_length=500)),
                ("sha256", models.CharField(max_length=64)),
                ("submissions", models.PositiveIntegerField()),
                ("attempts", models.PositiveIntegerField()),
                ("kept", models.PositiveIntegerField()),
                ("dropped", models.BooleanField()),
                ("archived_at", models.DateTimeField()),
            ],
        ),
    ]
