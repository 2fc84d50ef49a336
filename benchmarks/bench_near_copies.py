#!/usr/bin/env python
"""Near-copies at a million results of one day: the cost per submission of the index
(leaderboard/play/copies.py) and its size in Redis.

The day is one deal. Its index is filled first with the bands of ``--results`` lines (a million;
``--quick``: 20,000): random signatures, each cut into bands exactly as a real line's, written as
the claim script writes them (the index's size and spread depend only on how many lines it
holds, and a random signature is what a line unlike every other gives). Then ``--probes``
submissions of the modelled person (tests/leaderboard_fixtures/people.py: real legal games of the
deal, each different), and for every tenth of them a planted near-copy (two pairs of neighbouring
actions swapped, one draw taken back), go through what the verifier does for each: the canonical
line, its shingles, the MinHash signature (numpy) and the claim script, one round trip. Each
is timed (CPU of this process, and wall time with the round trip); the planted copies must find
their originals and the others nothing they are not close to.

    BENCH_REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python benchmarks/bench_near_copies.py --quick
    BENCH_REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python benchmarks/bench_near_copies.py

The keys it made are deleted at the end. Not measured here: the exact comparison of a candidate
(one PostgreSQL read of its log by id, then a set intersection), which runs only for the lines
the index finds, nearly none but the copies.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import _stack

DEAL = 1  # the day's deal: the index keys of one deal, as a daily fills them
# What the claim script writes for a line, for many lines at once (the fill only).
_FILL = """
for i, key in ipairs(KEYS) do
  redis.call('HSETNX', key, ARGV[2 * i], ARGV[2 * i + 1])
  redis.call('EXPIRE', key, ARGV[1], 'NX')
end
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20,000 results and 100 probes")
    parser.add_argument("--results", type=int, default=None)
    parser.add_argument("--probes", type=int, default=None)
    args = parser.parse_args()
    results = args.results or (20_000 if args.quick else 1_000_000)
    probes = args.probes or (100 if args.quick else 400)

    _stack.django_setup()
    sys.path.insert(0, str(_stack.ROOT / "tests"))
    import redis
    from django.conf import settings
    from leaderboard_fixtures.people import person_line

    from games import canonical
    from leaderboard.play import copies

    client = redis.Redis.from_url(_stack.REDIS_URL)
    prefix = f"nearcopy:{DEAL}:"
    _delete(client, prefix)
    claim = client.register_script(copies._CLAIM)
    ttl = settings.NEAR_COPY_INDEX_SECONDS

    started = time.perf_counter()
    rng = random.Random(26)
    fill = client.register_script(_FILL)
    keys_, args_ = [], []
    for index in range(results):
        for key, field in copies.band_slots(DEAL, rng.randbytes(copies.SIGNATURE_BYTES)):
            keys_.append(key)
            args_ += [field, 10_000_000 + index]
        if index % 500 == 499 or index == results - 1:
            fill(keys=keys_, args=[ttl, *args_])
            keys_, args_ = [], []
    fill_s = time.perf_counter() - started

    keys, sampled, encodings = 0, [], {}
    for key in client.scan_iter(match=f"{prefix}*", count=5000):
        keys += 1
        if keys % 50 == 1:
            sampled.append(client.memory_usage(key, samples=0) or 0)
            encoding = client.object("encoding", key).decode()
            encodings[encoding] = encodings.get(encoding, 0) + 1
    index_bytes = statistics.mean(sampled) * keys

    lines = [canonical.canonical_line(person_line(DEAL, seed)) for seed in range(probes)]
    cpu, wall, found, planted_found, planted = [], [], 0, 0, 0
    for number, log in enumerate(lines):
        submissions = [(number + 1, log, None)]
        if number % 10 == 0:
            swapped = list(log)
            for i in (len(log) // 3, 2 * len(log) // 3):
                swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            submissions.append((number + 1 + probes, ["s", "u", *swapped], number + 1))
        for sid, actions, original in submissions:
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            line = canonical.canonical_line(actions)
            slots = copies.band_slots(DEAL, copies.signature(copies.line_shingles(line)))
            holders = claim(keys=[k for k, _f in slots], args=[f for _k, f in slots] + [sid, ttl])
            cpu.append((time.process_time() - cpu_start) * 1000)
            wall.append((time.perf_counter() - wall_start) * 1000)
            holders = {int(h) for h in holders} - {sid}
            if original is None:
                found += bool(holders)
            else:
                planted += 1
                planted_found += original in holders

    _delete(client, prefix)
    cpu.sort()
    wall.sort()
    print(f"index: {results:,} results of one deal in {fill_s:.0f} s")
    print(
        f"  {keys:,} keys ({encodings}), about {index_bytes / 2**20:,.0f} MiB, {index_bytes / results:,.0f} B a result"
    )
    print(f"per submission ({len(cpu)}: {probes} modelled people, {planted} planted near-copies):")
    print(f"  CPU ms  median {statistics.median(cpu):.2f}  p95 {cpu[int(len(cpu) * 0.95)]:.2f}")
    print(
        f"  wall ms median {statistics.median(wall):.2f}  p95 {wall[int(len(wall) * 0.95)]:.2f} (with the round trip)"
    )
    print(f"  planted near-copies found: {planted_found}/{planted}; other probes with a candidate: {found}/{probes}")
    print(f"  machine: {os.cpu_count()} cores")


def _delete(client, prefix: str) -> None:
    batch = []
    for key in client.scan_iter(match=f"{prefix}*", count=5000):
        batch.append(key)
        if len(batch) == 5000:
            client.unlink(*batch)
            batch = []
    if batch:
        client.unlink(*batch)


if __name__ == "__main__":
    main()
