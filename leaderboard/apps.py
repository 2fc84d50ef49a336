from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"

    def ready(self):
        from .accounts import signals  # noqa: F401  (connects what keeps the caches true to the record)
