"""The Celery application. Its settings are the CELERY_* names in config/settings.py.

Also here, because they are about running the processes rather than the game: the request id a
task carries from the web request that queued it (config/requestid.py), Django's logging in the
worker with DJANGO_LOG_FORMAT=json, the worker's liveness file (compose's cheap health check) and
beat's scheduler that runs the schedule in one beat only, however many are started.
"""

import logging
import os
import socket
import uuid
from pathlib import Path
from typing import ClassVar

from celery import Celery, bootsteps
from celery.beat import PersistentScheduler
from celery.signals import before_task_publish, setup_logging, task_postrun, task_prerun, task_success
from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis
from redis import Redis, RedisError

from config import requestid

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
app.conf.beat_scheduler = "config.celery:SingleBeatScheduler"

logger = logging.getLogger(__name__)


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


# -- the request id, from the web request to the tasks it queues -------------------------------


@before_task_publish.connect
def _request_id_sent(headers=None, **kwargs) -> None:
    request_id = requestid.current()
    if request_id and headers is not None:
        headers.setdefault(requestid.TASK_HEADER, request_id)


_request_id_tokens: dict[str, object] = {}


@task_prerun.connect
def _request_id_received(task_id=None, task=None, **kwargs) -> None:
    request_id = requestid.accepted(task.request.get(requestid.TASK_HEADER)) if task else None
    _request_id_tokens[task_id] = requestid.activate(request_id)


@task_postrun.connect
def _request_id_done(task_id=None, **kwargs) -> None:
    token = _request_id_tokens.pop(task_id, None)
    if token is not None:
        requestid.deactivate(token)


# With JSON logs, the worker and beat log through Django's LOGGING (config/settings.py), as web
# does; a receiver of setup_logging keeps Celery from installing its own handlers. Plain text keeps
# Celery's own format. Read from the environment: Django's settings are not loaded yet here.
if os.environ.get("DJANGO_LOG_FORMAT", "").strip().lower() == "json":

    @setup_logging.connect
    def _django_logging(**kwargs) -> None:
        import logging.config

        from django.conf import settings

        logging.config.dictConfig(settings.LOGGING)


# -- the worker's liveness file -----------------------------------------------------------------


class AliveFile(bootsteps.StartStopStep):
    """Touches CELERY_WORKER_ALIVE_FILE every ALIVE_SECONDS while the worker's consumer is
    connected to the broker (a consumer step: stopped while it reconnects). compose's health check
    reads the file's age: a shell ``stat``, not a Python process that loads Django and asks the
    worker over the broker (``celery inspect ping``, seconds on a busy host)."""

    requires: ClassVar = {"celery.worker.consumer.tasks:Tasks"}
    ALIVE_SECONDS = 10.0

    def __init__(self, parent, **kwargs):
        super().__init__(parent, **kwargs)
        path = os.environ.get("CELERY_WORKER_ALIVE_FILE", "")
        self.path = Path(path) if path else None
        self.timer = None

    def start(self, consumer):
        if self.path:
            self.touch()
            self.timer = consumer.timer.call_repeatedly(self.ALIVE_SECONDS, self.touch)

    def stop(self, consumer):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.path:
            self.path.unlink(missing_ok=True)

    shutdown = stop

    def touch(self):
        self.path.touch()


app.steps["consumer"].add(AliveFile)


# -- one beat -------------------------------------------------------------------------------------

# Take the lock if free, or extend it if this beat holds it (KEYS: lock; ARGV: token, ms).
_HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
elseif holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class SingleBeatScheduler(PersistentScheduler):
    """beat's schedule (its file, as Celery's default scheduler keeps it), run only while this
    beat holds a lock in Redis. The lock expires CELERY_BEAT_LOCK_SECONDS after its last renewal
    (every third of that, while beat lives): a second beat waits, and takes over within that time
    when the first one dies. Without Redis there is no broker either: nothing to send."""

    LOCK_KEY = "easyharp:beat:lock"

    def __init__(self, *args, **kwargs):
        self.lock_seconds = float(os.environ.get("CELERY_BEAT_LOCK_SECONDS", "60"))
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.holding = None  # unknown until the first tick: that one says which it is
        self._redis = None
        super().__init__(*args, **kwargs)

    @property
    def redis(self):
        if self._redis is None:
            self._redis = Redis.from_url(self.app.conf.broker_url, socket_timeout=5, socket_connect_timeout=2)
        return self._redis

    def _hold(self) -> bool:
        try:
            held = bool(self.redis.eval(_HOLD, 1, self.LOCK_KEY, self.token, int(self.lock_seconds * 1000)))
        except RedisError as exc:
            logger.warning("beat: the lock in Redis could not be checked (%s)", exc)
            held = False
        if held != self.holding:
            if held:
                logger.info("beat: holds the lock %s (%s): runs the schedule", self.LOCK_KEY, self.token)
            else:
                logger.warning("beat: another beat holds the lock %s: waits", self.LOCK_KEY)
            self.holding = held
        return held

    def tick(self, *args, **kwargs):
        renew = self.lock_seconds / 3
        if not self._hold():
            return renew
        return min(super().tick(*args, **kwargs), renew)

    def close(self):
        super().close()
        if self.holding:
            try:
                self.redis.eval(_RELEASE, 1, self.LOCK_KEY, self.token)
            except RedisError as exc:
                logger.warning("beat: the lock in Redis could not be released, it expires (%s)", exc)
            self.holding = False
