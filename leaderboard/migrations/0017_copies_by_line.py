"""Copies by what was played: the log hash becomes the canonical line's, the near-copy and the
engine match's fields, and the daily deal's solver move count.

Existing rows get the canonical line's hash (the same as before for a log without undo or
alias); their copy marks are not judged again."""

import django.db.models.deletion
from django.db import migrations, models

from games.canonical import line_hash


def forwards(apps, schema_editor):
    Submission = apps.get_model("leaderboard", "Submission")
    DailyDeal = apps.get_model("leaderboard", "DailyDeal")
    for deal in DailyDeal.objects.filter(solution_moves__isnull=True).iterator():
        deal.solution_moves = len(deal.solution)
        deal.save(update_fields=["solution_moves"])
    rows = Submission.objects.exclude(log_hash="").values_list("pk", "actions", "log_hash").iterator(chunk_size=2000)
    batch = []
    for pk, actions, old in rows:
        new = line_hash(actions) if actions else old
        if new != old:
            batch.append(Submission(pk=pk, log_hash=new))
        if len(batch) == 2000:
            Submission.objects.bulk_update(batch, ["log_hash"])
            batch = []
    Submission.objects.bulk_update(batch, ["log_hash"])


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0016_accounts_rename"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailydeal",
            name="solution_moves",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="submission",
            name="near_copy_of",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="near_copies",
                to="leaderboard.submission",
            ),
        ),
        migrations.AddField(
            model_name="submission",
            name="signals",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True),
    ]
