# Closed days frozen in PostgreSQL (leaderboard/boards/freeze.py): a final rank per board entry,
# read through a partial index on (board, rank), and the boards frozen. New columns are null: no
# board is frozen until beat (or manage.py freeze_days) freezes the final days.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0008_compact_logs"),
    ]

    operations = [
        migrations.CreateModel(
            name="FrozenBoard",
            fields=[
                ("board", models.CharField(max_length=24, primary_key=True, serialize=False)),
                ("frozen_at", models.DateTimeField()),
                ("entries", models.PositiveIntegerField()),
            ],
        ),
        migrations.AddField(
            model_name="boardentry",
            name="rank",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="boardentry",
            index=models.Index(
                condition=models.Q(("rank__isnull", False)), fields=["board", "rank"], name="frozen_rank"
            ),
        ),
    ]
