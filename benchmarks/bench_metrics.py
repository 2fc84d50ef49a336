#!/usr/bin/env python
"""Metrics: what config/metrics.py costs a request, and what a scrape costs.

Per request, the request middleware's own work (a counter, a histogram, the intake's 202
counter), and per verified submission the worker's (a counter, a histogram), timed
in-process around a stub view: the middleware's call minus the stub's alone, in the mode of
one process and in prometheus-client's multiprocess mode (values in mmapped files,
PROMETHEUS_MULTIPROC_DIR: how gunicorn and Celery run). Per scrape, /metrics built from the
files of several processes (the multiprocess mode), Redis's gauges included.

    .venv/bin/python benchmarks/bench_metrics.py            # 200,000 requests a mode
    .venv/bin/python benchmarks/bench_metrics.py --quick    # 20,000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROCESSES = 6  # gunicorn's 3 workers and master, Celery's main process and a pool child
VIEWS = ("submission-create", "attempts", "board-daily-today", "board-deal", "daily-today", "me")


def per_request(count: int) -> tuple[float, float]:
    """(µs of the stub view alone, µs of the middleware's own work) per request, best of 5."""
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.urls import resolve

    from config.metrics import RequestMetricsMiddleware

    request = RequestFactory().post("/api/attempts/00000000-0000-0000-0000-000000000001/submission")
    request.resolver_match = resolve(request.path)
    answer = HttpResponse(status=202)

    def view(request):
        return answer

    metered = RequestMetricsMiddleware(view)

    def best(call) -> float:
        timings = []
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(count):
                call(request)
            timings.append((time.perf_counter() - started) / count * 1e6)
        return min(timings)

    bare = best(view)
    return bare, best(metered) - bare


def per_verification(count: int) -> float:
    """µs of the worker's metrics per verified submission (``task_succeeded``), best of 5."""
    from datetime import timedelta

    from django.utils import timezone

    from config.metrics import task_succeeded
    from leaderboard.models import Submission
    from leaderboard.submissions.intake import VERIFY_TASK

    now = timezone.now()
    submission = Submission(status="verified", submitted_at=now - timedelta(seconds=2), verified_at=now)
    timings = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(count):
            task_succeeded(VERIFY_TASK, submission)
        timings.append((time.perf_counter() - started) / count * 1e6)
    return min(timings)


def per_scrape(count: int) -> tuple[int, float, int]:
    """(files, ms per scrape, bytes) of /metrics over the files of PROCESSES processes that each
    answered every view with a few statuses."""
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.urls import resolve

    from config import metrics

    for _ in range(PROCESSES):
        pid = os.fork()
        if pid == 0:
            factory = RequestFactory()
            for name in VIEWS:
                request = factory.get("/")
                request.resolver_match = resolve("/healthz")
                request.resolver_match.view_name = name
                for status in (200, 202, 400, 404, 429):
                    metrics.RequestMetricsMiddleware(lambda r, s=status: HttpResponse(status=s))(request)
            os._exit(0)
        os.waitpid(pid, 0)
    files = len(list(Path(metrics.MULTIPROCESS_DIR).glob("*.db")))
    request = RequestFactory().get("/metrics", headers={"Authorization": "Bearer bench"})
    metrics.settings.METRICS_TOKEN = "bench"
    started = time.perf_counter()
    for _ in range(count):
        body = metrics.metrics_view(request).content
    return files, (time.perf_counter() - started) / count * 1e3, len(body)


def measure(count: int) -> None:
    """In this process: one mode, as the environment sets it."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from config import metrics

    mode = "multiprocess" if metrics.MULTIPROCESS_DIR else "one process"
    bare, cost = per_request(count)
    print(f"{mode:>12}: middleware {cost:.2f} µs a request (the stub view alone: {bare:.2f} µs)")
    print(f"{mode:>12}: worker {per_verification(count // 10):.2f} µs a verified submission")
    if metrics.MULTIPROCESS_DIR:
        files, ms, size = per_scrape(max(count // 1000, 20))
        print(
            f"{mode:>12}: /metrics over {files} files of {PROCESSES + 1} processes: {ms:.1f} ms a scrape, "
            f"{size:,} bytes"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20,000 requests a mode")
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)  # the child's run of one mode
    args = parser.parse_args()
    if args.measure:
        measure(args.measure)
        return
    count = 20_000 if args.quick else 200_000
    # The mode is chosen when prometheus-client is imported: one child process per mode.
    base = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    with tempfile.TemporaryDirectory(prefix="easyharp-metrics-") as folder:
        for env in (base, {**base, "PROMETHEUS_MULTIPROC_DIR": folder}):
            subprocess.run([sys.executable, __file__, "--measure", str(count)], cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
