"""The play folder's own record: the last log the page saved of a ranked daily attempt still
being played (``services.drafts``), which becomes its result when the day is final if the
player never sent one."""

from django.conf import settings
from django.db import models

from ..core.fields import CompactLogField, CompactTimesField
from ..record.models import Attempt


class AttemptDraft(models.Model):
    """The last log saved of one unfinished ranked daily attempt: one row per attempt, each save
    replacing the last. ``saved_at`` is the server's clock when it arrived."""

    # No database constraint: attempts are partitioned, their key in PostgreSQL is (id,
    # started_at) (docs/partitions.md); Django cascades a deleted attempt or player.
    attempt = models.OneToOneField(
        Attempt, on_delete=models.CASCADE, primary_key=True, related_name="draft", db_constraint=False
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts")
    daily_date = models.DateField()
    actions = CompactLogField()
    times = CompactTimesField()
    saved_at = models.DateTimeField()

    class Meta:
        app_label = "leaderboard"
        indexes = [models.Index(fields=["daily_date"], name="draft_day")]

    def __str__(self) -> str:
        return f"draft of {self.attempt_id} ({len(self.actions)} actions)"
