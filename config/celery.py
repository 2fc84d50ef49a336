"""The Celery application. Its settings are the CELERY_* names in config/settings.py."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, task_success
from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class KeptClientChannel(kombu_redis.Channel):
    """kombu's Redis channel, keeping its client: kombu builds a new ``redis.Redis`` on the
    channel's connection pool for every message it publishes, and building one (its table of
    reply callbacks) was 0.08 of a publish's 0.55 ms of CPU. The client is rebuilt when the
    channel gets a new pool."""

    _kept_client = None

    def _create_client(self, asynchronous=False):
        if asynchronous:  # the worker's consuming client: kombu keeps that one already
            return super()._create_client(asynchronous=True)
        kept = self._kept_client
        if kept is None or kept.connection_pool is not self.pool:
            kept = self._kept_client = super()._create_client()
        return kept


class KeptClientTransport(kombu_redis.Transport):
    """The Redis transport with :class:`KeptClientChannel`."""

    Channel = KeptClientChannel


# What a redis:// or rediss:// broker URL names: so the URL still chooses the transport and the
# worker's log still says "Connected to redis://..." (CELERY_BROKER_TRANSPORT would print this path).
TRANSPORT_ALIASES["redis"] = TRANSPORT_ALIASES["rediss"] = "config.celery:KeptClientTransport"


app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds tasks.py in every installed Django app (leaderboard.tasks, ...).
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _database_connections_checked(**kwargs) -> None:
    """Around each task, what Django does around each request: close a connection that has
    had an error or outlived DATABASE_CONN_MAX_AGE, and have the next query check that a kept
    one still works (CONN_HEALTH_CHECKS). So a connection PostgreSQL dropped between tasks is
    replaced instead of failing the next task (CELERY_DB_REUSE_MAX keeps connections open)."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()


@task_success.connect
def _task_measured(sender=None, result=None, **kwargs) -> None:
    """A finished task's metrics (config/metrics.py): a verification's outcome, a periodic task's
    last success. Imported here, not above: only a process that runs tasks writes them."""
    from config import metrics

    metrics.task_succeeded(sender.name, result)
