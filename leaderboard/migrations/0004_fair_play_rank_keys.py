"""Existing results under the fair-play rules: the log hash that finds copies, practice copied
from the attempt, and the ranking key's new layout (leaderboard.boards.order.rank_key) for every
verified submission, then each player's best entry on each board again. The Redis index moved
to new keys (boards.index.KEY_PREFIX), so it is rebuilt from these entries when first read."""

import hashlib
import json

from django.db import migrations

# leaderboard.boards.order.rank_key as it is at this migration, over a submission's columns: the tier
# (won 0, lost 1, plus 2 with hints) in bits 51-52; a win: moves, 65535 - score, seconds (16, 16,
# 19 bits); a loss: 104 - foundation cards, moves, 65535 - score, seconds (7, 16, 16, 12 bits).
RANK_KEY_SQL = """
  (((CASE WHEN won THEN 0 ELSE 1 END) + (CASE WHEN hints > 0 THEN 2 ELSE 0 END))::bigint << 51)
  | CASE WHEN won THEN
      (LEAST(moves, 65535)::bigint << 35) | ((65535 - LEAST(score, 65535))::bigint << 19)
      | LEAST(duration_ms / 1000, 524287)::bigint
    ELSE
      ((104 - LEAST(GREATEST(COALESCE(foundation, 0), 0), 104))::bigint << 44)
      | (LEAST(moves, 65535)::bigint << 28) | ((65535 - LEAST(score, 65535))::bigint << 12)
      | LEAST(duration_ms / 1000, 4095)::bigint
    END"""

ENTRIES_SQL = """
INSERT INTO leaderboard_boardentry (board, player_id, submission_id, rank_key, submitted_at)
SELECT DISTINCT ON (board, player_id) board, player_id, id, rank_key, submitted_at
FROM (
  SELECT 'deal:' || deal_number AS board, player_id, id, rank_key, submitted_at FROM standing
  UNION ALL
  SELECT 'daily:' || to_char(daily_date, 'YYYY-MM-DD'), player_id, id, rank_key, submitted_at FROM standing
  WHERE daily_date IS NOT NULL
) AS results
ORDER BY board, player_id, rank_key, submitted_at, id
ON CONFLICT (board, player_id) DO UPDATE SET submission_id = EXCLUDED.submission_id,
  rank_key = EXCLUDED.rank_key, submitted_at = EXCLUDED.submitted_at"""


def forwards(apps, schema_editor):
    Submission = apps.get_model("leaderboard", "Submission")
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE leaderboard_submission s SET practice = true FROM leaderboard_attempt a "
            "WHERE a.id = s.attempt_id AND a.daily_date IS NOT NULL AND NOT a.ranked"
        )
        cursor.execute(f"UPDATE leaderboard_submission SET rank_key = {RANK_KEY_SQL} WHERE status = 'verified'")
        cursor.execute(
            "CREATE TEMPORARY TABLE standing AS SELECT id, player_id, deal_number, daily_date, "
            "rank_key, submitted_at FROM leaderboard_submission WHERE status = 'verified' AND NOT hidden "
            "AND NOT flagged AND NOT practice AND copy_of_id IS NULL"
        )
        cursor.execute(
            "DELETE FROM leaderboard_boardentry e WHERE NOT EXISTS "
            "(SELECT 1 FROM standing s WHERE s.id = e.submission_id)"
        )
        cursor.execute(ENTRIES_SQL)
        cursor.execute("DROP TABLE standing")
    rows = Submission.objects.filter(log_hash="").values_list("pk", "actions").iterator(chunk_size=2000)
    batch = []
    for pk, actions in rows:
        batch.append(Submission(pk=pk, log_hash=log_hash(actions)))
        if len(batch) == 2000:
            Submission.objects.bulk_update(batch, ["log_hash"])
            batch = []
    Submission.objects.bulk_update(batch, ["log_hash"])


def log_hash(actions) -> str:
    """leaderboard.submissions.intake.log_hash as it is at this migration."""
    return hashlib.sha256(json.dumps(actions, separators=(",", ":")).encode()).hexdigest()


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0003_submission_fair_play"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
