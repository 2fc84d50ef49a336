"""Races in tests: threads released together, each with its own database connection."""

import threading

from django.db import connections


def together(count: int, work) -> list:
    """Run ``work(i)`` in ``count`` threads released at the same instant; their results (or
    the exception each raised), in order."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(10)
            results[i] = work(i)
        except Exception as exc:  # reported to the test, never swallowed
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    return results
