#!/usr/bin/env python
"""How often and how fast games/solver.py wins random deals, with its default node budget.

    .venv/bin/python benchmarks/solver_stats.py                 # 100 deals, seed 2026, one process
    .venv/bin/python benchmarks/solver_stats.py --count 300 --jobs 2 --seed 7

Deal numbers are drawn with a fixed seed, so the figures other than times are the same on
every machine. Prints the win rate, median and 90th percentile time, median nodes and log
length, and the deals not won. Results also go to benchmarks/results/solver.json.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import solver  # noqa: E402


def run(job: tuple[int, int, bool]) -> dict:
    number, nodes, take_backs = job
    found = solver.solve(number, node_limit=nodes, take_backs=take_backs)
    return {
        "deal": number,
        "won": found.won,
        "nodes": found.nodes,
        "seconds": found.seconds,
        "actions": len(found.actions),
        "reason": found.reason,
    }


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="deals to solve (default 100)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deal numbers (default 2026)")
    parser.add_argument(
        "--nodes",
        type=int,
        default=solver.DEFAULT_NODE_LIMIT,
        help=f"node budget per deal (default {solver.DEFAULT_NODE_LIMIT:,})",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1: honest times)")
    parser.add_argument("--no-take-backs", action="store_true", help="solve without take-backs")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    numbers = [rng.randint(1, 999_999) for _ in range(args.count)]
    jobs = [(number, args.nodes, not args.no_take_backs) for number in numbers]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(run, jobs, chunksize=1)
    else:
        results = [run(job) for job in jobs]

    won = [r for r in results if r["won"]]
    seconds = [r["seconds"] for r in results]
    summary = {
        "deals": len(results),
        "seed": args.seed,
        "node_limit": args.nodes,
        "take_backs": not args.no_take_backs,
        "jobs": args.jobs,
        "won": len(won),
        "win_rate": len(won) / len(results),
        "median_seconds": statistics.median(seconds),
        "p90_seconds": percentile(seconds, 90),
        "max_seconds": max(seconds),
        "median_seconds_won": statistics.median(r["seconds"] for r in won) if won else None,
        "median_nodes": statistics.median(r["nodes"] for r in results),
        "median_nodes_won": statistics.median(r["nodes"] for r in won) if won else None,
        "median_actions_won": statistics.median(r["actions"] for r in won) if won else None,
        "not_won": [r["deal"] for r in results if not r["won"]],
    }
    print(
        f"Solver on {len(results)} random deals (seed {args.seed}), node budget {args.nodes:,}, "
        f"take-backs {'allowed' if summary['take_backs'] else 'off'}, {args.jobs} process(es)"
    )
    print(f"  won            {len(won)}/{len(results)} ({100 * summary['win_rate']:.0f}%)")
    print(
        f"  time           median {summary['median_seconds']:.2f} s, p90 {summary['p90_seconds']:.2f} s, "
        f"max {summary['max_seconds']:.2f} s (won only: median {summary['median_seconds_won'] or 0:.2f} s)"
    )
    print(f"  nodes          median {summary['median_nodes']:,.0f} (won only: {summary['median_nodes_won'] or 0:,.0f})")
    print(f"  log length     median {summary['median_actions_won'] or 0:,.0f} actions (won deals)")
    print(f"  not won        {summary['not_won']}")

    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "solver.json").write_text(json.dumps({"summary": summary, "deals": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
