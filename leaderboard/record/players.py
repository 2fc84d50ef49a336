"""The record of players beside their games: the statistics that the streaks keep, the
look-alike key of each name, and the hints asked on each day's deal."""

from django.conf import settings
from django.db import models


class DayHints(models.Model):
    """Hints a player asked on a day's deal, on any attempt of its number (the ranked try, a
    practice try, a numbered attempt) while the day was open: the ranked result carries them."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    hints = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "date"], name="one_day_hints_per_player")]


class PlayerStats(models.Model):
    """Daily wins and the two streaks of UTC days: days won in a row (a verified ranked daily
    win) and days played in a row (a verified ranked daily result, won or given up)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="stats"
    )
    daily_wins = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)
    #: The most recent run of consecutive winning days: its length and last day.
    last_streak = models.PositiveIntegerField(default=0)
    last_win_date = models.DateField(null=True, blank=True)
    best_played_streak = models.PositiveIntegerField(default=0)
    #: The most recent run of consecutive days played: its length and last day.
    last_played_streak = models.PositiveIntegerField(default=0)
    last_played_date = models.DateField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["-daily_wins", "-best_streak"], name="stats_order")]


class PlayerName(models.Model):
    """The look-alike key of a player's name (``accounts.names.name_key``, TR39's skeleton
    case aside). Unique: a sign-up whose name looks like an existing one fails on this index,
    whatever other sign-up runs at the same time."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="name_key"
    )
    key = models.TextField(unique=True)
    #: When the player last chose a new name (``accounts.rename``: once in RENAME_DAYS).
    renamed_at = models.DateTimeField(null=True, blank=True)
