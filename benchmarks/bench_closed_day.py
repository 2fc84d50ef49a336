#!/usr/bin/env python
"""A closed day's board read from PostgreSQL: a million verified results on a final day, frozen.

Seeds N verified results for one past day by bulk load (``_seed``, as bench_leaderboard.py),
freezes the day with the project's own ``leaderboard.boards.freeze.board_freeze`` (the final
ranks written in one statement, the Redis index dropped), then drives gunicorn on 127.0.0.1
with wrk, no Redis index behind the board:

- top:    GET /api/leaderboards/daily/<day>/?page=1&page_size=100       (anonymous; cached page)
- around: GET /api/leaderboards/daily/<day>/?around=me                  (token auth, a random
          player of the sample each request: their rank by (board, player), then the range)
- deep:   GET /api/leaderboards/daily/<day>/?page=<random 2..N/100>&page_size=100 (a range of
          the (board, rank) index, never an OFFSET)

Each is measured closed-loop (8 connections) and paced at the target rate (32 connections).

    .venv/bin/python benchmarks/bench_closed_day.py --quick     # 20,000 players, 8 s runs
    .venv/bin/python benchmarks/bench_closed_day.py             # 1,000,000 players, 20 s runs
    .venv/bin/python benchmarks/bench_closed_day.py --reuse     # keep a frozen board of that size
"""

from __future__ import annotations

import argparse
import time
from datetime import date

import _stack
import bench_leaderboard

TARGETS = {"top": (300, 20.0), "around": (300, 20.0), "deep": (300, 20.0)}
ABSENT = bench_leaderboard.ABSENT
DAY = date(2026, 10, 1)


def seed(players: int, reuse: bool) -> dict:
    import _seed
    import redis
    from django.contrib.auth import get_user_model
    from django.db import connection

    from leaderboard.boards import freeze, index, order
    from leaderboard.models import FrozenBoard

    board = order.daily_board(DAY)
    if (
        reuse
        and FrozenBoard.objects.filter(board=board, entries=players).exists()
        and get_user_model().objects.count() == players + ABSENT
    ):
        print(f"reusing the frozen board {board} ({players:,} entries)")
        return {"seeded": "reused"}
    client = redis.Redis.from_url(_stack.REDIS_URL)
    game = _stack.won_games()[0]
    timings = {}
    t = time.perf_counter()
    _seed.reset(client)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE leaderboard_frozenboard")
    _seed.players(players, tokens_every=max(players // 20_000, 1))
    _seed.players(ABSENT, first=players + 1)
    _seed.daily_deal(DAY, game)
    _seed.verified_results(players, DAY, game)
    _seed.analyze()
    timings["seed_s"] = round(time.perf_counter() - t, 1)
    timings["rank_keys_checked"] = _seed.check_rank_keys()
    t = time.perf_counter()
    frozen = freeze.board_freeze(board)
    timings["freeze_s"] = round(time.perf_counter() - t, 2)
    assert frozen is not None and frozen.entries == players, frozen
    assert not index.board_index().is_ready(board)
    _seed.analyze()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_size_pretty(pg_database_size(current_database())), "
            "pg_size_pretty(pg_relation_size('frozen_rank'))"
        )
        timings["database_size"], timings["frozen_rank_index_size"] = cursor.fetchone()
    print(f"seeded and froze {players:,} results: {timings}")
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20,000 players and 8 s runs")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--reuse", action="store_true", help="keep a frozen board of that size from an earlier run")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--only", nargs="*", choices=list(TARGETS), default=list(TARGETS))
    args = parser.parse_args()
    players = args.players or (20_000 if args.quick else 1_000_000)
    seconds = args.seconds or (8 if args.quick else 20)

    _stack.django_setup()
    _stack.migrate()
    results = {"machine": _stack.machine(), "players": players, "day": DAY.isoformat(), "seconds": seconds}
    results["seed"] = seed(players, args.reuse)
    board_path = f"/api/leaderboards/daily/{DAY.isoformat()}/"
    tokens = bench_leaderboard.tokens_file(players)
    absent_tokens = bench_leaderboard.tokens_file(players, absent=True)
    server = _stack.Gunicorn(args.workers).start()
    results["gunicorn"] = server.config
    try:
        bench_leaderboard.sanity(
            server.url, board_path, players, open(tokens).readline().strip(), open(absent_tokens).readline().strip()
        )
        runs = bench_leaderboard.scripts(board_path, players, tokens, absent_tokens)
        reads_before = bench_leaderboard.table_reads()
        for name in args.only:
            path, script = runs[name]
            rate, p95 = TARGETS[name]
            _stack.wrk(server.url + path, script, seconds=2, connections=args.connections)  # warm up
            for paced in (None, rate):
                label = f"{name} {'paced' if paced else 'max'}"
                results[label] = _stack.target_run(
                    server,
                    server.url + path,
                    script,
                    label,
                    rate=rate,
                    p95=p95,
                    seconds=seconds,
                    connections=args.connections,
                    paced=paced,
                    expected_ms=results[f"{name} max"]["p50_ms"] if paced else 0,
                )
    finally:
        server.stop()
    results["rows read by the runs"] = bench_leaderboard.rows_read_since(reads_before)
    from leaderboard.boards import index, order

    assert not index.board_index().is_ready(order.daily_board(DAY)), "a read rebuilt the frozen board's index"
    _stack.save_results("closed-day-quick" if args.quick else "closed-day", results)


if __name__ == "__main__":
    main()
