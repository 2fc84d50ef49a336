#!/usr/bin/env python
"""Leaderboard reads at scale: a million verified results on one day's board.

Seeds N verified results for one day by bulk load (INSERT ... SELECT in PostgreSQL into
users, attempts, submissions and board entries; tokens for a sample of players), loads the
Redis index with the project's own ``leaderboard.boards.entries.board_rebuild``, then drives gunicorn
on 127.0.0.1 with wrk:

- top:    GET /api/leaderboards/daily/<day>/?page=1&page_size=100           (anonymous)
- around: GET /api/leaderboards/daily/<day>/?around=me                      (token auth, a random
          player of the sample each request: their rank among the N and the 50 rows around it)
- deep:   GET /api/leaderboards/daily/<day>/?page=<random 2..N/100>&page_size=100 (each run
          starts with no page cached; in an idle run a page asked twice is served from the
          cache the second time: about 20% of the requests of a 20 s run at 250/s)

Each is measured closed-loop (8 connections: the most the stack serves) and paced at the target
rate (32 connections, each pausing after an answer so that the total is about the target). "live"
runs also bump the board's cache version ``--live-rate`` times a second with the project's
``leaderboard.cache.board_changed`` (what verified results do to the board), each at a rank
drawn uniformly over the board (as the index reports it for a new result), so cached pages
keep expiring as they would on the day itself: every page below the top ones at every change,
the top ones (the first 1,000 ranks) when a change lands among them or their count is a second
old.

    .venv/bin/python benchmarks/bench_leaderboard.py --quick     # 100,000 players, 8 s runs
    .venv/bin/python benchmarks/bench_leaderboard.py             # 1,000,000 players, 20 s runs
    .venv/bin/python benchmarks/bench_leaderboard.py --reuse     # keep the seeded board if it is whole
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from datetime import date

import _stack

TARGETS = {"top": (500, 15.0), "around": (300, 20.0), "deep": (300, 20.0), "around-absent": (300, 20.0)}
ABSENT = 2_000  # players with a token who have not played the day (yet): around=me finds no rank
DAY = date(2026, 11, 1)


def seed(players: int, reuse: bool) -> dict:
    import _seed
    import redis
    from django.db import connection

    from leaderboard.boards import index, order
    from leaderboard.boards.services import entries
    from leaderboard.models import BoardEntry

    board = order.daily_board(DAY)
    client = redis.Redis.from_url(_stack.REDIS_URL)
    redis_index = index.board_index()
    from django.contrib.auth import get_user_model

    if (
        reuse
        and BoardEntry.objects.filter(board=board).count() == players
        and get_user_model().objects.count() == players + ABSENT
    ):
        if not (redis_index.is_ready(board) and redis_index.size(board) == players):
            t = time.perf_counter()
            entries.board_rebuild(board)
            print(f"rebuilt the Redis index of {board} in {time.perf_counter() - t:.1f} s")
        print(f"reusing the seeded board {board} ({players:,} entries)")
        return {"seeded": "reused"}
    game = _stack.won_games()[0]
    timings = {}
    t = time.perf_counter()
    _seed.reset(client)
    _seed.players(players, tokens_every=max(players // 20_000, 1))
    _seed.players(ABSENT, first=players + 1)
    timings["players_s"] = time.perf_counter() - t
    t = time.perf_counter()
    _seed.daily_deal(DAY, game)
    _seed.verified_results(players, DAY, game)
    timings["results_s"] = time.perf_counter() - t
    t = time.perf_counter()
    _seed.analyze()
    timings["analyze_s"] = time.perf_counter() - t
    timings["rank_keys_checked"] = _seed.check_rank_keys()
    timings["game"] = {"deal": game["deal"], "actions": len(game["actions"])}
    t = time.perf_counter()
    count = entries.board_rebuild(board)
    timings["board_rebuild_s"] = time.perf_counter() - t
    timings["board_rebuild_entries"] = count
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        timings["database_size"] = cursor.fetchone()[0]
    timings["redis_used_memory"] = client.info("memory")["used_memory_human"] + " (whole Redis server)"
    print(f"seeded {players:,} results: {timings}")
    return timings


def tokens_file(players: int, absent: bool = False) -> str:
    """The tokens of the sampled players on the board (or of the players not on it)."""
    from rest_framework.authtoken.models import Token

    tokens = Token.objects.filter(user_id__gt=players) if absent else Token.objects.filter(user_id__lte=players)
    keys = list(tokens.values_list("key", flat=True))
    assert keys
    path = _stack.LOG_DIR / ("tokens-absent.txt" if absent else "tokens.txt")
    path.write_text("\n".join(keys) + "\n")
    return str(path)


def scripts(board_path: str, players: int, tokens: str, absent_tokens: str) -> dict[str, tuple[str, str]]:
    """name -> (url path, Lua script)."""
    deepest = max(players // 100, 3)
    around = """
local tokens = {{}}
for line in io.lines({file}) do tokens[#tokens + 1] = line end
math.randomseed(os.time() + tonumber(tostring({{}}):sub(8), 16))
request = function()
  return wrk.format("GET", "{path}?around=me", {{["Authorization"] = "Token " .. tokens[math.random(#tokens)]}})
end
"""
    deep = f"""
math.randomseed(os.time() + tonumber(tostring({{}}):sub(8), 16))
request = function()
  return wrk.format("GET", "{board_path}?page_size=100&page=" .. math.random(2, {deepest}))
end
"""
    return {
        "top": (f"{board_path}?page=1&page_size=100", ""),
        "around": (board_path, around.format(file=_stack.lua_quote(tokens), path=board_path)),
        "deep": (board_path, deep),
        "around-absent": (board_path, around.format(file=_stack.lua_quote(absent_tokens), path=board_path)),
    }


def sanity(url: str, board_path: str, players: int, token: str, absent_token: str) -> None:
    """The answers are what the API promises before any load goes in."""
    import json
    import urllib.request

    def get(path, headers=None):
        with urllib.request.urlopen(urllib.request.Request(url + path, headers=headers or {}), timeout=10) as r:
            return json.loads(r.read())

    top = get(f"{board_path}?page=1&page_size=100")
    assert top["count"] == players and [r["rank"] for r in top["results"]] == list(range(1, 101)), top["count"]
    deep = get(f"{board_path}?page={players // 200}&page_size=100")
    assert deep["results"][0]["rank"] == (players // 200 - 1) * 100 + 1
    me = get(f"{board_path}?around=me", {"Authorization": f"Token {token}"})
    assert me["me"] and any(r["rank"] == me["me"] for r in me["results"]), me
    nobody = get(f"{board_path}?around=me", {"Authorization": f"Token {absent_token}"})
    assert nobody == {"board": nobody["board"], "count": players, "me": None, "results": []}, nobody


def table_reads() -> dict:
    from django.db import connection

    with connection.cursor() as cursor:
        # this process's own statistics (the seed's checks) are reported now, not during the runs
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        # the submissions' monthly partitions summed under their table's name (docs/partitions.md)
        cursor.execute(
            "SELECT coalesce(i.inhparent::regclass::text, s.relname), sum(s.seq_scan)::bigint, "
            "sum(s.seq_tup_read)::bigint, sum(coalesce(s.idx_tup_fetch, 0))::bigint "
            "FROM pg_stat_user_tables s LEFT JOIN pg_inherits i ON i.inhrelid = s.relid "
            "WHERE s.relname = 'leaderboard_boardentry' "
            "OR i.inhparent = 'leaderboard_submission'::regclass GROUP BY 1"
        )
        return {name: {"seq_scan": s, "seq_tup_read": r, "idx_tup_fetch": f} for name, s, r, f in cursor.fetchall()}


def rows_read_since(before: dict) -> dict:
    """What the runs read of the tables since ``table_reads()`` gave ``before``, printed."""
    time.sleep(1)  # the server's backends report their table statistics when they exit
    after = table_reads()
    read = {table: {k: after[table][k] - before[table][k] for k in after[table]} for table in after}
    print("rows read by the runs (pg_stat_user_tables deltas):", read)
    return read


class Bumper(threading.Thread):
    """Marks the board changed ``rate`` times a second, as verified results do, each at a
    random rank among the board's ``size`` (a fixed seed: the same ranks every run)."""

    def __init__(self, board: str, rate: float, size: int):
        super().__init__(daemon=True)
        self.board, self.rate, self.stop_event, self.count = board, rate, threading.Event(), 0
        self.ranks = random.Random(5).choices(range(size), k=1 << 16)
        self.cpu_s = 0.0

    def take_off_client(self, r: dict, since_s: float) -> None:
        """The board changes are not the load generator's work: move this thread's CPU since
        ``since_s`` out of the client's share of run ``r``."""
        r["cpu"]["bumper_s"] = round(self.cpu_s - since_s, 2)
        r["cpu"]["cpu_s"]["client"] = round(r["cpu"]["cpu_s"]["client"] - r["cpu"]["bumper_s"], 2)

    def run(self):
        from leaderboard.core import cache

        start = time.monotonic()
        cpu = time.thread_time()
        while not self.stop_event.is_set():
            self.cpu_s = time.thread_time() - cpu
            cache.board_changed(self.board, self.ranks[self.count % len(self.ranks)])
            self.count += 1
            wait = start + self.count / self.rate - time.monotonic()
            if wait > 0:
                self.stop_event.wait(wait)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="100,000 players and 8 s runs")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--reuse", action="store_true", help="keep a whole seeded board from an earlier run")
    parser.add_argument("--seed-only", action="store_true")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--live-rate", type=float, default=100.0, help="board changes per second in live runs")
    parser.add_argument("--no-live", action="store_true", help="skip the runs with board changes")
    parser.add_argument("--no-paced", action="store_true", help="skip the paced runs")
    parser.add_argument("--only", nargs="*", choices=list(TARGETS), default=list(TARGETS))
    args = parser.parse_args()
    players = args.players or (100_000 if args.quick else 1_000_000)
    seconds = args.seconds or (8 if args.quick else 20)

    _stack.django_setup()
    _stack.migrate()
    from leaderboard.boards import order

    results = {"machine": _stack.machine(), "players": players, "day": DAY.isoformat(), "seconds": seconds}
    results["seed"] = seed(players, args.reuse)
    if args.seed_only:
        _stack.save_results("leaderboard-seed", results)
        return
    board = order.daily_board(DAY)
    board_path = f"/api/leaderboards/daily/{DAY.isoformat()}/"
    tokens, absent_tokens = tokens_file(players), tokens_file(players, absent=True)
    server = _stack.Gunicorn(args.workers, args.worker_class, args.threads).start()
    results["gunicorn"] = server.config
    try:
        sanity(server.url, board_path, players, open(tokens).readline().strip(), open(absent_tokens).readline().strip())
        runs = scripts(board_path, players, tokens, absent_tokens)
        reads_before = table_reads()
        for name in args.only:
            path, script = runs[name]
            rate, p95 = TARGETS[name]
            # warm every gunicorn worker's connections and the page cache
            _stack.wrk(server.url + path, script, seconds=2, connections=args.connections)
            for live in (False,) if args.no_live else (False, True):
                bumper = Bumper(board, args.live_rate, players) if live else None
                if bumper:
                    bumper.start()
                try:
                    for paced in (None,) if args.no_paced else (None, rate):
                        label = f"{name} {'live' if live else 'idle'} {'paced' if paced else 'max'}"
                        if name == "deep":  # start cold: no page cached by an earlier run
                            from leaderboard.core import cache as page_cache

                            page_cache.board_changed(board)
                        bumped = bumper.cpu_s if bumper else 0.0
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
                            width=26,
                            expected_ms=results[label.replace("paced", "max")]["p50_ms"] if paced else 0,
                            adjust=(lambda r: bumper.take_off_client(r, bumped)) if bumper else None,
                        )
                finally:
                    if bumper:
                        bumper.stop_event.set()
                        bumper.join()
                        results[f"{name} board changes"] = bumper.count
    finally:
        server.stop()
    results["rows read by the runs"] = rows_read_since(reads_before)
    _stack.save_results("leaderboard-quick" if args.quick else "leaderboard", results)


if __name__ == "__main__":
    main()
