"""What the boards keep in PostgreSQL beside ``BoardEntry``: the closed days frozen there.
Imported by ``leaderboard.models`` (the app's models)."""

from django.db import models


class FrozenBoard(models.Model):
    """A final day's board whose ranks are written into its entries (``BoardEntry.rank``) and
    read from PostgreSQL from then on; its Redis index is dropped (``boards.freeze``)."""

    board = models.CharField(max_length=24, primary_key=True)
    frozen_at = models.DateTimeField()
    #: The number of ranked entries, the board's size as a page shows it (kept by a re-rank).
    entries = models.PositiveIntegerField()

    class Meta:
        app_label = "leaderboard"

    def __str__(self) -> str:
        return self.board
