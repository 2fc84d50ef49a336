#!/usr/bin/env python
"""A group's board of a day at scale: a group of 100 members on a day of a million results.

Seeds N verified results for today by bulk load (``_seed``, as bench_leaderboard.py does),
loads the day's Redis index with the project's own rebuild, makes a group of 100 players spread
over the board (``GROUP_SIZE``, each with an API token), then drives gunicorn on 127.0.0.1 with
wrk, each request as a random member (token auth):

- board:  GET /api/groups/<id>/boards/daily/<day>/?page_size=100   the whole group's board
- around: GET /api/groups/<id>/boards/daily/<day>/?around=me       the member's place and 50 around

Each is measured closed-loop (8 connections) and paced at the target rate (32 connections, each
pausing after an answer so that the total is about the target). The read takes each member's
entry, rank and row from the day's index in one script call: its cost grows with the group,
not with the day (the --quick day of 20,000 results and the full million answer alike).

    .venv/bin/python benchmarks/bench_group_board.py --quick   # 20,000 results, 8 s runs
    .venv/bin/python benchmarks/bench_group_board.py           # 1,000,000 results, 20 s runs
    .venv/bin/python benchmarks/bench_group_board.py --reuse   # keep the seeded day if it is whole

Its database and Redis db are its own unless BENCH_DATABASE_URL / BENCH_REDIS_URL say otherwise
(eh_bench_groups, db 12): it never disturbs another benchmark's seeded board.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from datetime import date

os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/eh_bench_groups")
os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")

import _stack  # noqa: E402  (reads the two variables above)

TARGETS = {"board": (300, 20.0), "around": (300, 20.0)}
GROUP_SIZE = 100
GROUP_NAME = "Benchmark harpists"
DAY: date  # today, by the server's clock (set in main): the open day, served by its index


def rebuild(board: str) -> int:
    from leaderboard.boards.services import entries

    return entries.board_rebuild(board)


def seed(players: int, reuse: bool) -> dict:
    import _seed
    import redis
    from django.contrib.auth import get_user_model
    from django.db import connection

    from leaderboard.boards import index, order
    from leaderboard.models import BoardEntry, Group

    board = order.daily_board(DAY)
    client = redis.Redis.from_url(_stack.REDIS_URL)
    if (
        reuse
        and BoardEntry.objects.filter(board=board).count() == players
        and get_user_model().objects.count() == players
        and Group.objects.filter(name=GROUP_NAME).exists()
    ):
        redis_index = index.board_index()
        if not (redis_index.is_ready(board) and redis_index.size(board) == players):
            t = time.perf_counter()
            rebuild(board)
            print(f"rebuilt the Redis index of {board} in {time.perf_counter() - t:.1f} s")
        print(f"reusing the seeded day {board} ({players:,} entries)")
        return {"seeded": "reused"}
    game = _stack.won_games()[0]
    timings = {}
    t = time.perf_counter()
    _seed.reset(client)
    tokens_every = max(players // 20_000, 1)
    _seed.players(players, tokens_every=tokens_every)
    timings["players_s"] = time.perf_counter() - t
    t = time.perf_counter()
    _seed.daily_deal(DAY, game)
    _seed.verified_results(players, DAY, game)
    timings["results_s"] = time.perf_counter() - t
    timings["group_members"] = make_group(players, tokens_every)
    t = time.perf_counter()
    _seed.analyze()
    timings["analyze_s"] = time.perf_counter() - t
    timings["rank_keys_checked"] = _seed.check_rank_keys()
    t = time.perf_counter()
    timings["board_rebuild_entries"] = rebuild(board)
    timings["board_rebuild_s"] = time.perf_counter() - t
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        timings["database_size"] = cursor.fetchone()[0]
    timings["redis_used_memory"] = client.info("memory")["used_memory_human"] + " (whole Redis server)"
    print(f"seeded {players:,} results: {timings}")
    return timings


def make_group(players: int, tokens_every: int) -> int:
    """A group of ``GROUP_SIZE`` players with tokens, drawn over the whole board (a fixed seed)."""
    from django.contrib.auth import get_user_model

    from leaderboard.models import Group, Membership

    with_tokens = range(tokens_every, players + 1, tokens_every)
    chosen = sorted(random.Random(7).sample(with_tokens, min(GROUP_SIZE, len(with_tokens))))
    users = get_user_model().objects.in_bulk(chosen)
    group = Group.objects.create(name=GROUP_NAME, owner=users[chosen[0]], invite_code="benchmark-invite")
    Membership.objects.bulk_create([Membership(group=group, player=users[pid]) for pid in chosen])
    return len(chosen)


def members_tokens_file() -> tuple[int, str]:
    from rest_framework.authtoken.models import Token

    from leaderboard.models import Group

    group = Group.objects.get(name=GROUP_NAME)
    keys = list(Token.objects.filter(user__memberships__group=group).values_list("key", flat=True))
    assert len(keys) == GROUP_SIZE, len(keys)
    path = _stack.LOG_DIR / "group-tokens.txt"
    path.write_text("\n".join(keys) + "\n")
    return group.pk, str(path)


def scripts(path: str, tokens: str) -> dict[str, tuple[str, str]]:
    """name -> (url path, Lua script): each request as a random member."""
    template = """
local tokens = {{}}
for line in io.lines({file}) do tokens[#tokens + 1] = line end
math.randomseed(os.time() + tonumber(tostring({{}}):sub(8), 16))
request = function()
  return wrk.format("GET", "{path}", {{["Authorization"] = "Token " .. tokens[math.random(#tokens)]}})
end
"""
    quoted = _stack.lua_quote(tokens)
    return {
        name: (path + query, template.format(file=quoted, path=path + query))
        for name, query in (("board", "?page_size=100"), ("around", "?around=me"))
    }


def sanity(url: str, path: str, day_path: str, token: str) -> dict:
    """The group's board is the day's board filtered to the members, before any load goes in."""
    import json
    import urllib.request

    def get(target):
        request = urllib.request.Request(url + target, headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    board = get(f"{path}?page_size=100")
    assert board["members"] == GROUP_SIZE and board["count"] == GROUP_SIZE, board["count"]
    assert [r["rank"] for r in board["results"]] == list(range(1, GROUP_SIZE + 1))
    day_ranks = [r["day_rank"] for r in board["results"]]
    assert day_ranks == sorted(day_ranks) and len(set(day_ranks)) == GROUP_SIZE
    mine = get(f"{path}?around=me")
    on_day = get(f"{day_path}?around=me&page_size=1")
    row = next(r for r in mine["results"] if r["rank"] == mine["me"])
    assert row["day_rank"] == on_day["me"] and on_day["results"][0]["submission"] == row["submission"]
    return {"day_ranks": [day_ranks[0], day_ranks[len(day_ranks) // 2], day_ranks[-1]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20,000 results and 8 s runs")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--reuse", action="store_true", help="keep a whole seeded day from an earlier run")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--no-paced", action="store_true", help="skip the paced runs")
    parser.add_argument("--only", nargs="*", choices=list(TARGETS), default=list(TARGETS))
    args = parser.parse_args()
    players = args.players or (20_000 if args.quick else 1_000_000)
    seconds = args.seconds or (8 if args.quick else 20)

    _stack.django_setup()
    _stack.migrate()
    global DAY
    from leaderboard.core import days

    DAY = days.today()
    results = {
        "machine": _stack.machine(),
        "players": players,
        "group": GROUP_SIZE,
        "day": DAY.isoformat(),
        "seconds": seconds,
    }
    results["seed"] = seed(players, args.reuse)
    group_id, tokens = members_tokens_file()
    path = f"/api/groups/{group_id}/boards/daily/{DAY.isoformat()}/"
    server = _stack.Gunicorn(args.workers, args.worker_class, args.threads).start()
    results["gunicorn"] = server.config
    try:
        results["sanity"] = sanity(
            server.url, path, f"/api/leaderboards/daily/{DAY.isoformat()}/", open(tokens).readline().strip()
        )
        runs = scripts(path, tokens)
        for name in args.only:
            url_path, script = runs[name]
            rate, p95 = TARGETS[name]
            _stack.wrk(server.url + url_path, script, seconds=2, connections=args.connections)  # warm up
            for paced in (None,) if args.no_paced else (None, rate):
                label = f"{name} {'paced' if paced else 'max'}"
                results[label] = _stack.target_run(
                    server,
                    server.url + url_path,
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
    _stack.save_results("group-board-quick" if args.quick else "group-board", results)


if __name__ == "__main__":
    main()
