"""A daily result ranks on its day's board only (leaderboard.boards.entries.boards_of): on its
deal's board it told anyone polling every numbered board which deal was today's before the day
was final. Entries on deal boards that point to daily results go; the player's best
numbered-deal result on that deal, if any, takes the entry. The Redis index of each board
touched is dropped (and its cached pages staled), so the next read rebuilds it from these
entries."""

from django.db import migrations, transaction

AFFECTED_SQL = """
CREATE TEMPORARY TABLE affected AS
SELECT e.board, e.player_id FROM leaderboard_boardentry e
JOIN leaderboard_submission s ON s.id = e.submission_id
WHERE e.board LIKE 'deal:%' AND s.daily_date IS NOT NULL"""

DELETE_SQL = """
DELETE FROM leaderboard_boardentry e USING affected a
WHERE e.board = a.board AND e.player_id = a.player_id"""

# The player's best standing numbered-deal result on the deal, as
# boards.entries._entry_recompute picks it.
REPLACE_SQL = """
INSERT INTO leaderboard_boardentry (board, player_id, submission_id, rank_key, submitted_at)
SELECT DISTINCT ON (a.board, a.player_id) a.board, a.player_id, s.id, s.rank_key, s.submitted_at
FROM affected a JOIN leaderboard_submission s
  ON s.player_id = a.player_id AND s.deal_number = substring(a.board FROM 6)::integer
WHERE s.daily_date IS NULL AND s.status = 'verified' AND NOT s.hidden AND NOT s.flagged
  AND NOT s.practice AND s.copy_of_id IS NULL
ORDER BY a.board, a.player_id, s.rank_key, s.submitted_at, s.id"""


def forwards(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(AFFECTED_SQL)
        cursor.execute("SELECT DISTINCT board FROM affected ORDER BY board")
        boards = [board for (board,) in cursor.fetchall()]
        cursor.execute(DELETE_SQL)
        cursor.execute(REPLACE_SQL)
        cursor.execute("DROP TABLE affected")
    if boards:
        # Before commit, so that an unreachable Redis stops the migration instead of leaving the
        # old members in a ready index; after commit again, for a reader that rebuilt the index
        # from the entries not yet committed.
        drop_indexes(boards)
        transaction.on_commit(lambda: drop_indexes(boards), using=schema_editor.connection.alias)


def drop_indexes(boards: list[str]) -> None:
    from leaderboard.boards import index
    from leaderboard.core import cache

    ranks = index.board_index()
    for board in boards:
        ranks.drop(board)
    cache.boards_changed(dict.fromkeys(boards))


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0005_flaggedsubmission"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
