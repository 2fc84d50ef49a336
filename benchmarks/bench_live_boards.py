#!/usr/bin/env python
"""Boards that update themselves: what open pages cost the server.

Each open board page polls every 6 to 9 s (frontend/static/frontend/live.js) with the ETag of
its last answer; while the board has not changed the answer is a 304 without a body
(leaderboard/boards/live.py). 10,000 open pages polling every 10 s are 1,000 requests a second
(at live.js's mean of 7.5 s, 1,333; a signed-in page polls its rank too: twice that).

Seeds N verified results for today (``_seed``, as bench_group_board.py does), loads the day's
Redis index with the project's rebuild, gives a sample of the players a session (a row in
django_session, as a browser's log-in leaves it), then drives gunicorn (as docker-compose runs
it) on 127.0.0.1 with wrk, paced at ``--rate``:

- page 304:   GET /api/leaderboards/daily/?page=1&page_size=25, anonymous, with the page's tag
- page 200:   the same without a tag: the cached top page, sent whole
- around 304: GET /api/leaderboards/daily/?around=me&page_size=1 with a session cookie and that
              session's own tag (a random one of the sample each request)
- around 200: the same without a tag: the session and its user read, then the index
- page live:  page 304's poll while the board changes ``--live-rate`` times a second (a
              result each, at a random rank, as bench_leaderboard.py's live runs), each poll
              sending the tag of its last answer (the top page's tag holds across changes
              below its ranks for a minute: live.COUNT_LAG_SECONDS)

Reported per run: the rate reached, p50/p95/p99, the answers' statuses, and the stack's CPU
(gunicorn, PostgreSQL, Redis) per request, and from it the cores 1,000 requests a second need.

    .venv/bin/python benchmarks/bench_live_boards.py --quick   # 20,000 results, 8 s runs
    .venv/bin/python benchmarks/bench_live_boards.py           # 1,000,000 results, 20 s runs
    .venv/bin/python benchmarks/bench_live_boards.py --reuse   # keep the seeded day if it is whole

Its database and Redis db are its own (eh_bench_live, db 10) unless BENCH_DATABASE_URL /
BENCH_REDIS_URL say otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.request

os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/eh_bench_live")
os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/10")

import _stack  # noqa: E402  (reads the two variables above)

SESSIONS = 500
PAGE = "/api/leaderboards/daily/?page=1&page_size=25"
AROUND = "/api/leaderboards/daily/?around=me&page_size=1"
RUNS = ("page 304", "page 200", "around 304", "around 200", "page live")
POLLS_PER_SECOND = 1000  # 10,000 pages polling every 10 s

# Counts the answers' statuses in every wrk thread (extra_report: _stack.wrk); a script that
# sets KEEP_TAG sends the tag of the last 200 it got (one URL per run: one tag per thread).
COUNTING = """
local threads = {}
setup = function(thread) table.insert(threads, thread) end
statuses = {}
response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if KEEP_TAG and status == 200 then tag = headers["ETag"] or tag end
end
extra_report = function()
  local total, parts = {}, {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  for status, n in pairs(total) do parts[#parts + 1] = string.format('"%d": %d', status, n) end
  return "{" .. table.concat(parts, ", ") .. "}"
end
"""


def seed(players: int, reuse: bool) -> dict:
    import time

    import _seed
    import redis
    from django.contrib.auth import get_user_model

    from leaderboard.boards import index, order
    from leaderboard.boards.services import entries
    from leaderboard.core import days
    from leaderboard.models import BoardEntry

    day = days.today()
    board = order.daily_board(day)
    client = redis.Redis.from_url(_stack.REDIS_URL)
    if (
        reuse
        and BoardEntry.objects.filter(board=board).count() == players
        and get_user_model().objects.count() == players
    ):
        redis_index = index.board_index()
        if not (redis_index.is_ready(board) and redis_index.size(board) == players):
            entries.board_rebuild(board)
        print(f"reusing the seeded day {board} ({players:,} entries)")
        return {"seeded": "reused"}
    game = _stack.won_games()[0]
    timings = {}
    t = time.perf_counter()
    _seed.reset(client)
    _seed.players(players, tokens_every=max(players // 20_000, 1))
    _seed.daily_deal(day, game)
    _seed.verified_results(players, day, game)
    timings["seed_s"] = round(time.perf_counter() - t, 1)
    _seed.analyze()
    t = time.perf_counter()
    timings["board_rebuild_entries"] = entries.board_rebuild(board)
    timings["board_rebuild_s"] = round(time.perf_counter() - t, 1)
    print(f"seeded {players:,} results: {timings}")
    return timings


def sessions(players: int, count: int) -> list[str]:
    """Session keys of ``count`` players spread over the board, each as a log-in leaves it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    step = max(players // count, 1)
    keys = []
    for user in get_user_model().objects.filter(pk__in=range(step, players + 1, step))[:count]:
        session = SessionStore()
        session.update(
            {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
        )
        session.save()
        keys.append(session.session_key)
    return keys


def get(url: str, headers: dict) -> tuple[int, str | None, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as answer:
            return answer.status, answer.headers.get("ETag"), answer.read()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers.get("ETag"), answer.read()


def tags(url: str, keys: list[str]) -> tuple[str, str]:
    """The page's tag, and a file of each session's key and own tag of its rank (checked: a 304
    with each)."""
    status, page_tag, body = get(url + PAGE, {})
    assert status == 200 and page_tag and json.loads(body)["results"], (status, body[:200])
    assert get(url + PAGE, {"If-None-Match": page_tag})[0] == 304
    lines = []
    for key in keys:
        cookie = {"Cookie": f"sessionid={key}"}
        status, tag, body = get(url + AROUND, cookie)
        assert status == 200 and json.loads(body)["me"], (status, body[:200])
        assert get(url + AROUND, {**cookie, "If-None-Match": tag})[0] == 304
        lines.append(f"{key}\t{tag}")
    path = _stack.LOG_DIR / "session-tags.txt"
    path.write_text("\n".join(lines) + "\n")
    return page_tag, str(path)


def scripts(page_tag: str, session_tags: str) -> dict[str, tuple[str, str]]:
    """name -> (url path, Lua script)."""
    around = """
local keys, tags = {{}}, {{}}
for line in io.lines({file}) do
  local key, tag = line:match("^([^\\t]+)\\t(.*)$")
  keys[#keys + 1], tags[#tags + 1] = key, tag
end
math.randomseed(os.time() + tonumber(tostring({{}}):sub(8), 16))
request = function()
  local i = math.random(#keys)
  local headers = {{["Cookie"] = "sessionid=" .. keys[i]}}
  if {tagged} then headers["If-None-Match"] = tags[i] end
  return wrk.format("GET", "{path}", headers)
end
"""
    quoted, tag = _stack.lua_quote(session_tags), _stack.lua_quote(page_tag)
    return {
        "page 304": (PAGE, COUNTING + f'wrk.headers["If-None-Match"] = {tag}\n'),
        "page 200": (PAGE, COUNTING),
        "around 304": (AROUND, COUNTING + around.format(file=quoted, tagged="true", path=AROUND)),
        "around 200": (AROUND, COUNTING + around.format(file=quoted, tagged="false", path=AROUND)),
        "page live": (
            PAGE,
            COUNTING + f"KEEP_TAG = true\ntag = {tag}\nrequest = function()\n"
            f'  return wrk.format("GET", "{PAGE}", {{["If-None-Match"] = tag}})\nend\n',
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20,000 results and 8 s runs")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--reuse", action="store_true", help="keep a whole seeded day from an earlier run")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--rate", type=float, default=300.0, help="requests per second of each run (paced)")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument(
        "--live-rate",
        type=float,
        default=12.0,
        help="board changes per second in the live run (12: a million results a day)",
    )
    parser.add_argument("--only", nargs="*", choices=RUNS, default=list(RUNS))
    args = parser.parse_args()
    players = args.players or (20_000 if args.quick else 1_000_000)
    seconds = args.seconds or (8 if args.quick else 20)

    _stack.django_setup()
    _stack.migrate()
    from bench_leaderboard import Bumper

    from leaderboard.boards import order
    from leaderboard.core import days

    results = {
        "machine": _stack.machine(),
        "players": players,
        "seconds": seconds,
        "rate": args.rate,
        "day": days.today().isoformat(),
    }
    results["seed"] = seed(players, args.reuse)
    keys = sessions(players, SESSIONS)
    server = _stack.Gunicorn(args.workers).start()
    results["gunicorn"] = server.config
    try:
        page_tag, session_tags = tags(server.url, keys)
        runs = scripts(page_tag, session_tags)
        for name in args.only:
            path, script = runs[name]
            warm = _stack.wrk(server.url + path, script, seconds=2, connections=8)  # every worker's connections
            bumper = Bumper(order.daily_board(days.today()), args.live_rate, players) if "live" in name else None
            if bumper:
                bumper.start()
            try:
                meter = _stack.CpuMeter(server).start()
                r = _stack.wrk(
                    server.url + path,
                    script,
                    seconds=seconds,
                    connections=args.connections,
                    rate=args.rate,
                    expected_ms=warm["p50_ms"],
                )
                r["cpu"] = meter.stop()
            finally:
                if bumper:
                    bumper.stop_event.set()
                    bumper.join()
                    r["board_changes"] = bumper.count
                    r["cpu"]["cpu_s"]["client"] = round(r["cpu"]["cpu_s"]["client"] - bumper.cpu_s, 2)
            r.update(_stack.cpu_summary(r["cpu"], r["requests"]))
            r["cores_for_1000_per_s"] = round(r["stack_cpu_ms_per_request"] * POLLS_PER_SECOND / 1000, 2)
            r["loadavg"] = _stack.loadavg()
            results[name] = r
            print(f"{name:11s} {_stack.fmt_wrk(r)}  statuses {r.get('extra')}", flush=True)
            print(
                f"{'':11s} stack CPU {r['stack_cpu_ms_per_request']:.2f} ms/req -> "
                f"{r['cores_for_1000_per_s']} cores for 1,000/s (10,000 pages every 10 s); wrk "
                f"{r['client_cpu_ms_per_request']:.2f} ms/req; other people's work used "
                f"{r['cpu']['others_cores']} cores (load {r['loadavg']})",
                flush=True,
            )
    finally:
        server.stop()
    _stack.save_results("live-boards-quick" if args.quick else "live-boards", results)


if __name__ == "__main__":
    main()
