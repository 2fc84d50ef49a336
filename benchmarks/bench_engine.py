#!/usr/bin/env python
"""Engine speed and memory: how fast the pure-Python engine verifies move logs.

    .venv/bin/python benchmarks/bench_engine.py            # pinned to one core
    .venv/bin/python benchmarks/bench_engine.py --repeat 15

(a) replay throughput over the won games of tests/data/won_games.jsonl (actions per second,
    microseconds per action, milliseconds per 1,000-action game);
(b) 3,000-action games: legal logs built deterministically by seeded random play (no undo,
    and none of them wins, so every action is legal where it stands), time per replay;
(c) peak memory (tracemalloc) of parsing a 20,000-action log from its JSON line and replaying it.

Timings are the best of ``--repeat`` runs (the median, in brackets, shows the noise). Prints
a table of target, measured and pass; exits 1 when a target is missed. Results also go to
benchmarks/results/engine.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import ACTIONS, Game, format_code, replay  # noqa: E402
from games.lines import verify_line  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "won_games.jsonl"
LONG_DEALS = (11, 222, 3_333, 44_444, 555_555)  # the 3,000-action games
MEMORY_DEAL = 777_777  # the 20,000-action log
TARGET_RATE = 500_000  # actions per second, one core
TARGET_3000_MS = 6.0  # one 3,000-action game
TARGET_MEMORY_MB = 20.0  # parsing and replaying a 20,000-action log


def random_log(number: int, length: int, seed: int) -> list[str]:
    """A legal log of ``length`` actions, no undo: a tap about half the time, otherwise a
    random legal action (take-backs only when nothing else is legal). Raises if it wins."""
    rng = random.Random(seed)
    game = Game.new(number)
    log = []
    while len(log) < length:
        if rng.random() < 0.5 and game.refusal(ACTIONS["s"]) is None:
            text = "s"
        else:
            legal = [t for t in game.legal_actions() if t != "u"]
            plain = [t for t in legal if not t.startswith("f")]
            text = rng.choice(plain or legal)
        game.play(ACTIONS[text])
        log.append(text)
        if game.won:
            raise RuntimeError(f"random play won deal {number}: pick another seed")
    return log


def timed(func, repeat: int) -> tuple[float, float]:
    """(best, median) seconds of ``repeat`` runs. The best is the engine's own speed (other
    processes only ever add time), the median shows how noisy the machine was."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def bench_corpus(repeat: int) -> dict:
    games = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    if not games:
        raise SystemExit(f"{CORPUS} has no games: run `python manage.py solve --write-corpus {CORPUS}`")
    actions = sum(len(game["actions"]) for game in games)

    def run():
        for game in games:
            result = replay(game["deal"], game["actions"])
            assert result.won

    best, median = timed(run, repeat)
    rate = actions / best
    return {
        "games": len(games),
        "actions": actions,
        "seconds": best,
        "median_seconds": median,
        "actions_per_second": rate,
        "median_actions_per_second": actions / median,
        "us_per_action": 1e6 / rate,
        "ms_per_1000_actions": 1e6 / rate,
    }


def bench_long_games(repeat: int) -> dict:
    best, median = [], []
    for i, number in enumerate(LONG_DEALS):
        log = random_log(number, 3_000, seed=i)
        code = format_code(number)
        assert replay(code, log).ok
        fastest, middle = timed(lambda: replay(code, log), repeat)
        best.append(fastest * 1e3)
        median.append(middle * 1e3)
    return {
        "games": len(best),
        "actions": 3_000,
        "ms_each": best,
        "median_ms_each": median,
        "ms_worst": max(best),
        "median_ms_worst": max(median),
    }


def bench_memory() -> dict:
    log = random_log(MEMORY_DEAL, 20_000, seed=99)
    line = json.dumps({"deal": format_code(MEMORY_DEAL), "actions": log})
    start = time.perf_counter()
    verify_line(line)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    result = verify_line(line)  # json.loads + replay, as `manage.py replay` does per line
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.ok and result.moves == 20_000
    return {"actions": 20_000, "json_bytes": len(line), "peak_bytes": peak, "peak_mb": peak / 2**20, "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed runs per measure (best and median)")
    parser.add_argument("--any-core", action="store_true", help="do not pin the process to one core")
    args = parser.parse_args()
    if not args.any_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    corpus = bench_corpus(args.repeat)
    long_games = bench_long_games(args.repeat)
    memory = bench_memory()
    rows = [
        (
            "replay, won games: actions per second",
            f">= {TARGET_RATE:,}",
            f"{corpus['actions_per_second']:,.0f} ({corpus['median_actions_per_second']:,.0f})",
            corpus["actions_per_second"] >= TARGET_RATE,
        ),
        (
            "  microseconds per action",
            f"<= {1e6 / TARGET_RATE:.1f}",
            f"{corpus['us_per_action']:.2f}",
            corpus["us_per_action"] <= 1e6 / TARGET_RATE,
        ),
        (
            "  ms per 1,000-action game",
            f"<= {1e3 * 1e3 / TARGET_RATE:.1f}",
            f"{corpus['ms_per_1000_actions']:.2f}",
            corpus["ms_per_1000_actions"] <= 1e6 / TARGET_RATE,
        ),
        (
            "3,000-action game (worst of 5), ms",
            f"< {TARGET_3000_MS:g}",
            f"{long_games['ms_worst']:.2f} ({long_games['median_ms_worst']:.2f})",
            long_games["ms_worst"] < TARGET_3000_MS,
        ),
        (
            "20,000-action log from JSON, peak MB",
            f"< {TARGET_MEMORY_MB:g}",
            f"{memory['peak_mb']:.2f}",
            memory["peak_mb"] < TARGET_MEMORY_MB,
        ),
    ]
    print(
        f"Engine benchmark: {corpus['games']} won games ({corpus['actions']:,} actions), "
        f"best (median) of {args.repeat} runs, Python {sys.version.split()[0]}, "
        f"{'one core' if not args.any_core else 'any core'}"
    )
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'target':>12}  {'measured':>20}  pass")
    for name, target, measured, ok in rows:
        print(f"{name:<{width}}  {target:>12}  {measured:>20}  {'yes' if ok else 'NO'}")
    print(f"(20,000-action log: {memory['json_bytes']:,} bytes of JSON, verified in {memory['seconds'] * 1e3:.1f} ms)")

    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "engine.json").write_text(
        json.dumps(
            {"corpus": corpus, "long_games": long_games, "memory": memory, "passed": all(row[3] for row in rows)},
            indent=2,
        )
        + "\n"
    )
    return 0 if all(row[3] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
