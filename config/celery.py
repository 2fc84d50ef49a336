"""The Celery application. Its settings are the CELERY_* names in config/settings.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds tasks.py in every installed Django app (leaderboard.tasks, ...).
app.autodiscover_tasks()
