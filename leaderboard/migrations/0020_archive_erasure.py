"""The deleted accounts still to be erased from the archived months (``ArchiveErasure``): a new,
empty table."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0019_outgoing_mail")]

    operations = [
        migrations.CreateModel(
            name="ArchiveErasure",
            fields=[
                ("player_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("queued_at", models.DateTimeField()),
            ],
        ),
    ]
