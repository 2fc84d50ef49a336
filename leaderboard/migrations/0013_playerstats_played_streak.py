"""The streak of days played (won or given up) beside the streak of days won, backfilled from
the verified ranked daily results already held."""

from datetime import timedelta

from django.db import migrations, models


def backfill_played_streaks(apps, schema_editor):
    Submission = apps.get_model("leaderboard", "Submission")
    PlayerStats = apps.get_model("leaderboard", "PlayerStats")
    on_boards = Submission.objects.filter(
        status="verified", hidden=False, flagged=False, practice=False, copy_of__isnull=True, daily_date__isnull=False
    )
    days_by_player: dict[int, list] = {}
    for player_id, day in (
        on_boards.values_list("player_id", "daily_date").distinct().order_by("player_id", "daily_date")
    ):
        days_by_player.setdefault(player_id, []).append(day)
    for player_id, played in days_by_player.items():
        best = run = 0
        previous = None
        for day in played:
            run = run + 1 if previous and day - previous == timedelta(days=1) else 1
            best = max(best, run)
            previous = day
        PlayerStats.objects.update_or_create(
            player_id=player_id,
            defaults={"best_played_streak": best, "last_played_streak": run, "last_played_date": previous},
        )


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0012_player_name_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerstats",
            name="best_played_streak",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerstats",
            name="last_played_streak",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerstats",
            name="last_played_date",
            field=models.DateField(blank=True, null=True),
        ),
        # Backwards the fields go, and their values with them: nothing to undo.
        migrations.RunPython(backfill_played_streaks, migrations.RunPython.noop),
    ]
