"""What an operator watches, at ``/metrics`` in Prometheus' text format (README, "Metrics").

- Counted where it happens: requests by view, method and status with their latency (the
  middleware below, in every web process), submissions accepted (the intake view's 202s, by the
  same middleware), verifications by outcome and the seconds from submission to ranked (the
  worker, from what the verification task returns: ``task_succeeded``, hooked in config/celery.py).
- Read from Redis when scraped: the queue's length, each periodic task's last success (a hash the
  worker writes) and the size of the open daily boards.

Several processes count (gunicorn's workers, Celery's pool): with PROMETHEUS_MULTIPROC_DIR set,
prometheus-client's multiprocess mode keeps each process's values in a file of that folder and
``/metrics`` sums them. The folder is shared by the processes of one host and emptied before
they start (``clear_multiprocess_dir``), not by each of them. Without it (runserver, tests)
each process serves its own values.

``/metrics`` is not public: it answers only a bearer token equal to METRICS_TOKEN, and 404 to
anyone else, or to everyone when METRICS_TOKEN is unset.
"""

import hmac
import logging
import os
import re
import socket
import sys
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, values
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

log = logging.getLogger(__name__)

#: The folder of the multiprocess mode (prometheus-client reads the same variable); "" when off.
MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")

# A process's files are named by its pid; the host's name goes in front, so that two containers
# sharing the folder (web and worker, each with its own pids from 1) never write the same file.
# Only letters, digits, dots and dashes: the collector splits file names on "_".
_HOST = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname()) or "host"


def process_name(pid: int) -> str:
    """The name of a process's files in the multiprocess folder."""
    return f"{_HOST}-{pid}"


# This process's name, renewed in a forked child: prometheus-client asks for it at every write
# (to notice a fork), and getpid() is a system call, the dearest part of a write.
_this_process = [process_name(os.getpid())]
os.register_at_fork(after_in_child=lambda: _this_process.__setitem__(0, process_name(os.getpid())))


def process_identifier() -> str:
    return _this_process[0]


if MULTIPROCESS_DIR:
    # Before any metric below is made: their values live in this process's files.
    values.ValueClass = values.MultiProcessValue(process_identifier)

# No *_created series: the multiprocess mode has none, so neither has a single process.
disable_created_metrics()

# In the multiprocess mode this registry is not read (the files are); it holds the metrics
# of a process that serves its own.
_PROCESS_REGISTRY = CollectorRegistry(auto_describe=False)

# Bounded labels: a view's name from the URL conf (never the raw path) and a known method.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: The view label of a request no URL pattern resolved (a static file served by a middleware).
UNRESOLVED = "unresolved"
#: The intake's URL name: its 202 is a submission accepted (leaderboard/urls.py).
SUBMISSION_VIEW = "submission-create"

REQUESTS = Counter(
    "easyharp_http_requests",
    "HTTP requests answered, by view, method and status.",
    ["view", "method", "status"],
    registry=_PROCESS_REGISTRY,
)
REQUEST_SECONDS = Histogram(
    "easyharp_http_request_duration_seconds",
    "Time to answer an HTTP request, by view and method.",
    ["view", "method"],
    registry=_PROCESS_REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SUBMISSIONS_ACCEPTED = Counter(
    "easyharp_submissions_accepted", "Submissions accepted for verification (202).", registry=_PROCESS_REGISTRY
)

#: A verification's outcome, in this order of precedence (``verification_outcome``).
OUTCOMES = ("rejected", "copy", "flagged", "verified")
VERIFICATIONS = Counter(
    "easyharp_verifications", "Submissions verified by the worker, by outcome.", ["outcome"], registry=_PROCESS_REGISTRY
)
SUBMISSION_TO_RANKED_SECONDS = Histogram(
    "easyharp_submission_to_ranked_seconds",
    "From a submission's arrival to its result on the boards.",
    registry=_PROCESS_REGISTRY,
    buckets=(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600),
)
# Every outcome shown from the start, at 0; its child kept (labels() is the dear part of a count).
_OUTCOME_COUNTS = {outcome: VERIFICATIONS.labels(outcome) for outcome in OUTCOMES}

#: The Redis hash of the periodic tasks' last success: task name -> unix time (the worker's).
BEAT_SUCCESS_KEY = "easyharp:metrics:beat-success"


# -- the web: requests --------------------------------------------------------------------------


class RequestMetricsMiddleware:
    """First in MIDDLEWARE: counts and times each request as the client sees it (the other
    middleware included), under its view's name."""

    def __init__(self, get_response):
        self.get_response = get_response
        # (view, method, status) -> its counter and histogram: labels() costs more than both
        # writes together, and the labels are bounded.
        self._children: dict[tuple[str, str, int], tuple] = {}

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        match = request.resolver_match
        view = match.view_name if match is not None else UNRESOLVED
        method = request.method if request.method in _METHODS else "other"
        status = response.status_code
        key = (view, method, status)
        children = self._children.get(key)
        if children is None:
            children = self._children[key] = (
                REQUESTS.labels(view, method, str(status)),
                REQUEST_SECONDS.labels(view, method),
            )
        children[0].inc()
        children[1].observe(elapsed)
        if status == 202 and view == SUBMISSION_VIEW:
            SUBMISSIONS_ACCEPTED.inc()
        return response


@never_cache
def metrics_view(request):
    """The metrics, to the bearer of METRICS_TOKEN; a 404 like any unknown address otherwise."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        raise Http404
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))  # what the scraper asks for
    return HttpResponse(encode(_scrape_registry()), content_type=content_type)


def _scrape_registry() -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    if MULTIPROCESS_DIR:
        MultiProcessCollector(registry)
    else:
        registry.register(_PROCESS_REGISTRY)
    registry.register(RedisCollector())
    return registry


class RedisCollector:
    """Gauges read from Redis at each scrape (a few round trips): the queue's length, each
    periodic task's last success and the open daily boards' sizes. Redis away: none of them,
    and the counters are still served."""

    def collect(self):
        from django_redis import get_redis_connection

        from leaderboard.boards import index, order
        from leaderboard.core import days

        queue = GaugeMetricFamily("easyharp_queue_length", "Tasks waiting in the broker's queue.", labels=["queue"])
        last_success = GaugeMetricFamily(
            "easyharp_beat_task_last_success_timestamp_seconds",
            "When each periodic task last succeeded (unix time).",
            labels=["task"],
        )
        boards = GaugeMetricFamily(
            "easyharp_board_entries", "Entries in an open daily board's index.", labels=["board"]
        )
        try:
            from celery import current_app

            # The broker, the cache and the index are one Redis (config/settings.py).
            client = get_redis_connection("default")
            name = current_app.conf.task_default_queue
            queue.add_metric([name], client.llen(name))
            for task, moment in sorted(client.hgetall(BEAT_SUCCESS_KEY).items()):
                last_success.add_metric([task.decode()], float(moment))
            ranks, today = index.board_index(), days.today()
            # Today's board, and yesterday's until it is final (then frozen, its index dropped).
            for day in (today - timedelta(days=1), today):
                if not days.day_final(day):
                    board = order.daily_board(day)
                    boards.add_metric([board], ranks.size(board))
        except Exception:  # Redis away or slow: the rest of the scrape still answers
            log.warning("metrics: Redis could not be read", exc_info=True)
            return
        yield from (queue, last_success, boards)


# -- the worker: tasks ---------------------------------------------------------------------------


def task_succeeded(task_name: str, result) -> None:
    """After a task succeeded in the worker (config/celery.py): a verification's outcome, or a
    periodic task's last success."""
    from leaderboard.play.services import intake

    if task_name == intake.VERIFY_TASK:
        if result is not None:  # None: a duplicate delivery, which changed nothing
            verification_recorded(result)
    elif task_name in _periodic_tasks():
        from django_redis import get_redis_connection

        try:
            get_redis_connection("default").hset(BEAT_SUCCESS_KEY, task_name, time.time())
        except Exception:
            log.warning("metrics: the success of %s could not be recorded", task_name, exc_info=True)


def verification_outcome(submission) -> str:
    """rejected, copy (of another player's log), flagged (for staff review) or verified."""
    if submission.status == submission.Status.REJECTED:
        return "rejected"
    if submission.copy_of_id is not None:
        return "copy"
    return "flagged" if submission.flagged else "verified"


def verification_recorded(submission) -> None:
    _OUTCOME_COUNTS[verification_outcome(submission)].inc()
    if submission.on_boards:
        SUBMISSION_TO_RANKED_SECONDS.observe((submission.verified_at - submission.submitted_at).total_seconds())


def _periodic_tasks() -> set[str]:
    return {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


# -- the multiprocess folder -----------------------------------------------------------------------


def clear_multiprocess_dir(folder: str | Path = MULTIPROCESS_DIR) -> int:
    """Empty the folder before the host's processes start (make run, compose): the values of
    processes gone since the last start are dropped, as after any restart. The files removed."""
    removed = 0
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for path in Path(folder).glob("*.db"):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def child_exit(server, worker) -> None:
    """gunicorn's hook when a worker exits (config: ``from config.metrics import child_exit``):
    its live gauges' files go. The counters it kept stay counted."""
    if MULTIPROCESS_DIR:
        mark_process_dead(process_name(worker.pid))


if __name__ == "__main__":  # python -m config.metrics clear: before the processes start
    if sys.argv[1:] != ["clear"]:
        sys.exit("usage: python -m config.metrics clear  (empties PROMETHEUS_MULTIPROC_DIR)")
    clear_multiprocess_dir()
