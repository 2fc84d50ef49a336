"""The project's Celery app with CELERY_DB_REUSE_MAX set from BENCH_DB_REUSE_MAX.

An experiment only (``--db-reuse`` of bench_pipeline.py): Celery's Django fixup closes the
database connection before and after every task unless CELERY_DB_REUSE_MAX is set, so each
verification otherwise opens a new PostgreSQL connection. This measures what setting it in
config/settings.py would change; the project's worker does not use this module.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402

settings.CELERY_DB_REUSE_MAX = int(os.environ.get("BENCH_DB_REUSE_MAX", "1000"))

from config.celery import app  # noqa: E402,F401
