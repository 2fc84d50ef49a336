#!/usr/bin/env python
"""CPU of this process for the Redis calls of one intake and one verified submission.

    BENCH_REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python benchmarks/bench_cache.py [--count 20000]

Each round makes the calls the pipeline makes per submission, through the project's own
functions: the token lookup (``cache.get``) and the submission throttle (one window count)
of the intake; the index update of a verified result on two boards (one script call) and the
board-version bumps (one pipeline); and a cached top page read (``cache.get_many``). Figures:
microseconds of ``time.process_time()`` per call, the median of ``--repeat`` runs, beside a
verified submission's whole budget (about 10 ms of CPU end to end, benchmarks/README.md).
Needs only Redis (no database); empties the Redis db first.

Measured 2026-11-30 on the shared 2-core machine (load average about 6), 20,000 rounds, three
runs each: 569, 570 and 586 us per round with django-redis (one pool for the cache and the
index) against 525, 554 and 604 us with the former custom backend (config/cache.py, its
throttle call then ``throttling._count``): under 0.5% of a verified submission's CPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _stack  # noqa: E402

PIPELINE_CPU_US = 10_000  # one verified submission, end to end (benchmarks/README.md)


def rounds(count: int) -> dict[str, float]:
    """Microseconds of CPU per call of each step, over ``count`` rounds."""
    from django.core.cache import cache

    from leaderboard.api import throttling
    from leaderboard.boards import index, order
    from leaderboard.core import cache as page_cache

    redis_index = index.board_index()
    at = datetime(2026, 1, 1, tzinfo=UTC)
    boards = ["daily:2026-01-01", "deal:1"]
    cache.set("auth-token:bench", (1, "bench", True, False, False), 600)
    page_cache.cached("deal:1", "top", lambda: b"x" * 2000, last_rank=50)
    steps = {
        "token cache.get": lambda i: cache.get("auth-token:bench"),
        "throttle window": lambda i: throttling.incr_window(f"throttle-count:submission:{i % 500}", 60),
        "index set_entries": lambda i: redis_index.set_entries(
            i, {b: (i, order.member(at, i), b"row") for b in boards}
        ),
        "boards_changed": lambda i: page_cache.boards_changed({boards[0]: 5000, boards[1]: 5000}),
        "page get_many": lambda i: page_cache.cached("deal:1", "top", lambda: b"", last_rank=50),
    }
    spent = {}
    for name, step in steps.items():
        started = time.process_time()
        for i in range(count):
            step(i)
        spent[name] = (time.process_time() - started) * 1e6 / count
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    _stack.django_setup()
    import redis
    from django.conf import settings

    redis.Redis.from_url(_stack.REDIS_URL).flushdb()
    runs = [rounds(args.count) for _ in range(args.repeat)]
    print(f"cache backend: {settings.CACHES['default']['BACKEND']}; {args.count} rounds, median of {args.repeat}")
    total = 0.0
    for name in runs[0]:
        median = statistics.median(run[name] for run in runs)
        total += median
        print(f"  {name:<18} {median:7.1f} us CPU per call")
    print(
        f"  {'all, per round':<18} {total:7.1f} us = {100 * total / PIPELINE_CPU_US:.2f}% of "
        f"a verified submission's {PIPELINE_CPU_US / 1000:.0f} ms"
    )
    redis.Redis.from_url(_stack.REDIS_URL).flushdb()


if __name__ == "__main__":
    main()
