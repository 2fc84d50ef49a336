"""The fair-play hashes out of the ``..._archived`` attempts tables kept before archive_month
cleared them itself (history/services/archive.py ``_detach``): beat's forget_origins reaches
only the live partitions, so those tables would keep them for good. Undone, nothing comes back."""

from django.db import migrations

CLEAR_SQL = r"""
DO $$
DECLARE kept text;
BEGIN
  FOR kept IN
    SELECT table_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'address_hash'
      AND table_name LIKE 'leaderboard\_attempt\_p%\_archived'
  LOOP
    EXECUTE format(
      'UPDATE %I SET address_hash = NULL, device_hash = NULL '
      'WHERE address_hash IS NOT NULL OR device_hash IS NOT NULL', kept);
  END LOOP;
END $$;
"""


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0020_archive_erasure")]

    operations = [migrations.RunSQL(CLEAR_SQL, reverse_sql=migrations.RunSQL.noop)]
