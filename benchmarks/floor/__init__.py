"""The floor: what Django, gunicorn, Celery, PostgreSQL and Redis cost for a submission of the
project's shape, with nothing of the project's own (bench_floor.py measures the two in turns).

Started by the benchmarks' own ``_stack.Gunicorn`` and ``_stack.CeleryWorker``, with their argv
unchanged (``config.wsgi``, ``celery -A config worker``: the project's entry points, a few lines
that load whatever DJANGO_SETTINGS_MODULE names) and DJANGO_SETTINGS_MODULE=floor.settings, so
the servers' flags are the project's by construction.
"""
