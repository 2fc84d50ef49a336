"""When a player last took a new name (leaderboard/accounts/rename.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0015_who_and_day_hints")]

    operations = [
        migrations.AddField(
            model_name="playername",
            name="renamed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
