#!/usr/bin/env python
"""The project against its floor, in turns in one run: CPU per verified submission and per read.

The floor (benchmarks/floor/) is what the stack costs anyway for work of the same shape: a plain
Django view that parses the same 7.5 kB body, inserts a row of the same size (the log and times
compacted as the project stores them) and sends one task; a Celery task that selects the row,
replays it with ``games``, updates it and adds it to a sorted set; and a read view that returns a
cached board page's bytes from Redis. It runs on the same servers started the same way
(``_stack.Gunicorn`` and ``_stack.CeleryWorker``, the same argv and settings: only
DJANGO_SETTINGS_MODULE differs), on the same PostgreSQL server (its own database,
``<benchmark database>_floor``) and the same Redis db, driven by the same client with the same
bodies and headers, metered by the same meter (``_meter``: every process of the stack, exited
ones included; not the client).

Each round runs both sides, the project first in odd rounds and the floor first in even ones:

- writes: N players each send their own won log (``bench_pipeline``'s players, bodies and senders)
  at a fixed rate, until every one is verified and ranked (the project: in its board's Redis
  index; the floor: in its sorted set);
- reads, paced with wrk at the same rate on both sides: the project's top page (page 1, 100 rows,
  anonymous) and ``around=me`` (a token of a player of the board each request), against the floor
  returning the same bytes (the project's own answer, stored in Redis) with the same requests.

It prints each side's stack CPU per request (all rounds together, and per round), the ratios, the
ratio of a verified submission to the replay of the same logs alone (in this process, one core),
and the targets (issue 23): a verified submission at most 1.5 times its floor, a top page at most
1.5 times its read floor, ``around=me`` at most 2 times. Exit 1 when a check of the work fails
(not when a target is missed).

    .venv/bin/python benchmarks/bench_floor.py --quick     # 1 round: 400 submissions, 4 s reads (~80 s)
    .venv/bin/python benchmarks/bench_floor.py             # 2 rounds: 3,000 submissions, 15 s reads (~9 min)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import _stack
import bench_pipeline

TARGETS = {"write": 1.5, "top": 1.5, "around": 2.0}
FLOOR_DATABASE_URL = _stack.DATABASE_URL + "_floor"
FLOOR_ENV = {
    "DJANGO_SETTINGS_MODULE": "floor.settings",
    "PYTHONPATH": str(_stack.BENCH),
    "FLOOR_DATABASE_URL": FLOOR_DATABASE_URL,
}


def floor_database() -> None:
    """The floor's database on the same server, and its one table (created when missing)."""
    import psycopg

    sys.path.insert(0, str(_stack.BENCH))
    from floor.schema import TABLE_SQL

    name = FLOOR_DATABASE_URL.rsplit("/", 1)[1]
    with psycopg.connect(_stack.DATABASE_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(FLOOR_DATABASE_URL, autocommit=True) as conn:
        conn.execute(TABLE_SQL)


def floor_reset(client) -> None:
    import psycopg

    with psycopg.connect(FLOOR_DATABASE_URL, autocommit=True) as conn:
        conn.execute("TRUNCATE floor_submission RESTART IDENTITY")
    client.delete("floor:board")


def replay_ms(game: dict, logs, samples: int = 40) -> float:
    """CPU milliseconds of one replay of the players' logs with ``games`` (this process, one core)."""
    import games
    from games import format_code, parse_code

    code = format_code(parse_code(game["deal"]).number, "D")
    variants = [logs.variant(i)[0] for i in range(samples)]
    games.replay(code, variants[0])
    t = time.process_time()
    for actions in variants:
        assert games.replay(code, actions).won
    return 1000 * (time.process_time() - t) / samples


def send_all(port: int, jobs: list[tuple[str, bytes, str]], rate: float, senders: int) -> dict[str, int]:
    """POST each (path, body, token) at ``rate`` a second from ``senders`` threads: the statuses."""
    statuses: dict[str, int] = {}

    def send(path: str, body: bytes, token: str) -> None:
        statuses[path] = bench_pipeline.post(port, path, body, token)[0]

    t0 = time.monotonic()
    with ThreadPoolExecutor(senders) as pool:
        for i, job in enumerate(jobs):
            wait = t0 + i / rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            pool.submit(send, *job)
    return statuses


def wait_until(done, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.05)
    return False


def read_run(server, url: str, script: str, args, label: str, databases: set[str]) -> dict:
    """One paced wrk run, the stack's CPU metered over it."""
    meter = _stack.CpuMeter(server, databases=databases).start()
    r = _stack.wrk(url, script, seconds=args.read_seconds, connections=args.connections, rate=args.read_rate)
    r["cpu"] = meter.stop()
    r.update(_stack.cpu_summary(r["cpu"], r["requests"]))
    print(
        f"  {label:14s} {_stack.fmt_wrk(r)}; stack CPU {r['stack_cpu_ms_per_request']:.2f} ms/req "
        f"({_parts(r['stack_cpu_ms_by_part'])}); others {r['cpu']['others_cores']} cores",
        flush=True,
    )
    return r


def _parts(parts: dict) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in parts.items())


def token_script(tokens_path: str, path: str) -> str:
    return f"""
local tokens = {{}}
for line in io.lines({_stack.lua_quote(tokens_path)}) do tokens[#tokens + 1] = line end
math.randomseed(os.time() + tonumber(tostring({{}}):sub(8), 16))
request = function()
  return wrk.format("GET", "{path}", {{["Authorization"] = "Token " .. tokens[math.random(#tokens)]}})
end
"""


def project_round(args, answers: dict) -> dict:
    """The project: seed, submissions through the API to ranked, then its top page and around=me."""
    import _seed

    from games import format_code
    from leaderboard.boards import order
    from leaderboard.models import Attempt, Submission

    results: dict = {}
    _, number, today, _, attempts, logs = bench_pipeline.seed_day(args.count, results, tokens=True)
    owner = {str(a): p for a, p in Attempt.objects.values_list("id", "player_id")}
    jobs = [(f"/api/attempts/{a}/submission", logs.body(i), _seed.token_key(owner[a])) for i, a in enumerate(attempts)]
    answers["floor_jobs"] = [
        (f"/submit/{a}/{format_code(number, 'D')}", body, token) for (_, body, token), a in zip(jobs, attempts)
    ]
    board = order.daily_board(today)
    web = _stack.Gunicorn(args.workers).start()
    worker = _stack.CeleryWorker(args.concurrency).start()
    out = {}
    try:
        poller = bench_pipeline.Poller(board)
        for a in attempts:
            poller.expect(owner[a])
        poller.start()
        meter = _stack.CpuMeter(web, worker).start()
        statuses = send_all(web.port, jobs, args.rate, args.senders)
        ranked = wait_until(lambda: not poller.waiting, args.drain_timeout)
        out["write"] = {"cpu": meter.stop(), "requests": args.count}
        poller.stop_event.set()
        poller.join()
        verified = Submission.objects.filter(status="verified").count()
        out["write"]["checks"] = {
            "accepted": sum(1 for s in statuses.values() if s == 202),
            "verified": verified,
            "all ranked": ranked,
        }
        out["write"]["ok"] = verified == args.count and ranked and len(statuses) == args.count
        worker.stop()  # reads alone (the floor's reads run without its worker too)
        board_path = f"/api/leaderboards/daily/{today.isoformat()}/"
        top_path = f"{board_path}?page=1&page_size=100"
        tokens = _stack.LOG_DIR / "floor-tokens.txt"
        tokens.write_text("\n".join(_seed.token_key(owner[a]) for a in attempts) + "\n")
        answers["tokens"] = str(tokens)
        with urllib.request.urlopen(web.url + top_path, timeout=10) as r:
            answers["top"] = r.read()
        request = urllib.request.Request(
            web.url + board_path + "?around=me",
            headers={"Authorization": f"Token {_seed.token_key(owner[attempts[0]])}"},
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            answers["around"] = r.read()
        assert json.loads(answers["top"])["count"] == args.count, answers["top"][:200]
        databases = {_stack.DATABASE_URL.rsplit("/", 1)[1]}
        out["top"] = read_run(web, web.url + top_path, "", args, "project top", databases)
        out["around"] = read_run(
            web,
            web.url + board_path,
            token_script(str(tokens), board_path + "?around=me"),
            args,
            "project around",
            databases,
        )
    finally:
        worker.stop()
        web.stop()
    w = out["write"]
    w.update(_stack.cpu_summary(w["cpu"], w["requests"]))
    print(
        f"  project write  {args.count:,} at {args.rate:g}/s: stack CPU {w['stack_cpu_ms_per_request']:.2f} ms per "
        f"verified ({_parts(w['stack_cpu_ms_by_part'])}); others {w['cpu']['others_cores']} cores; "
        f"checks {w['checks']}",
        flush=True,
    )
    return out


def floor_round(args, answers: dict) -> dict:
    """The floor: the same bodies through its view and task, then the same reads of the same bytes."""
    import psycopg
    import redis

    client = redis.Redis.from_url(_stack.REDIS_URL)
    floor_reset(client)
    client.delete("celery")
    databases = {FLOOR_DATABASE_URL.rsplit("/", 1)[1]}
    web = _stack.Gunicorn(args.workers, env=FLOOR_ENV).start()
    worker = _stack.CeleryWorker(args.concurrency, env=FLOOR_ENV).start()
    out = {}
    try:
        meter = _stack.CpuMeter(web, worker, databases=databases).start()
        statuses = send_all(web.port, answers["floor_jobs"], args.rate, args.senders)
        ranked = wait_until(lambda: client.zcard("floor:board") >= args.count, args.drain_timeout)
        out["write"] = {"cpu": meter.stop(), "requests": args.count}
        with psycopg.connect(FLOOR_DATABASE_URL) as conn:
            verified = conn.execute("SELECT count(*) FROM floor_submission WHERE status = 'verified' AND won")
            verified = verified.fetchone()[0]
        out["write"]["checks"] = {
            "accepted": sum(1 for s in statuses.values() if s == 202),
            "verified": verified,
            "all ranked": ranked,
        }
        out["write"]["ok"] = verified == args.count and ranked
        worker.stop()
        client.set("floor:page:top", answers["top"])
        client.set("floor:page:around", answers["around"])
        for name in ("top", "around"):
            with urllib.request.urlopen(f"{web.url}/page/{name}", timeout=10) as r:
                assert r.read() == answers[name]
        out["top"] = read_run(web, web.url + "/page/top", "", args, "floor top", databases)
        out["around"] = read_run(
            web,
            web.url + "/page/around",
            token_script(answers["tokens"], "/page/around"),
            args,
            "floor around",
            databases,
        )
    finally:
        worker.stop()
        web.stop()
    w = out["write"]
    w.update(_stack.cpu_summary(w["cpu"], w["requests"]))
    print(
        f"  floor write    {args.count:,} at {args.rate:g}/s: stack CPU {w['stack_cpu_ms_per_request']:.2f} ms per "
        f"verified ({_parts(w['stack_cpu_ms_by_part'])}); others {w['cpu']['others_cores']} cores; "
        f"checks {w['checks']}",
        flush=True,
    )
    return out


def per_request(runs: list[dict], kind: str) -> dict:
    """All rounds together: stack CPU ms per request, overall and by part."""
    requests = sum(r[kind]["requests"] for r in runs)
    parts: dict[str, float] = {}
    for r in runs:
        for name, seconds in r[kind]["cpu"]["cpu_s"].items():
            if name != "client":
                parts[name] = parts.get(name, 0.0) + seconds
    live_only = sum(r[kind]["cpu"]["live_only_stack_s"] for r in runs)
    return {
        "ms": round(1000 * sum(parts.values()) / requests, 3),
        "live_only_ms": round(1000 * live_only / requests, 3),
        "requests": requests,
        "by_part": {k: round(1000 * v / requests, 3) for k, v in parts.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1 round of 400 submissions and 4 s reads")
    parser.add_argument("--rounds", type=int, help="rounds (each: the project and the floor); default 2, quick 1")
    parser.add_argument("--count", type=int, help="submissions a side a round; default 3,000, quick 400")
    parser.add_argument("--rate", type=float, default=40.0, help="submissions per second, both sides")
    parser.add_argument("--read-rate", type=float, default=150.0, help="reads per second, both sides")
    parser.add_argument("--read-seconds", type=int, help="seconds of each read run; default 15, quick 4")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections of the paced reads")
    parser.add_argument("--senders", type=int, default=32, help="client threads of the writes")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes (docker-compose: 2)")
    parser.add_argument("--drain-timeout", type=float, default=120.0)
    args = parser.parse_args()
    args.rounds = args.rounds or (1 if args.quick else 2)
    args.count = args.count or (400 if args.quick else 3_000)
    args.read_seconds = args.read_seconds or (4 if args.quick else 15)

    _stack.django_setup()
    _stack.migrate()
    floor_database()
    results = {
        "machine": _stack.machine(),
        "rounds": args.rounds,
        "count": args.count,
        "rate": args.rate,
        "read_rate": args.read_rate,
        "read_seconds": args.read_seconds,
        "project": [],
        "floor": [],
    }
    game = _stack.won_games()[0]
    logs = _stack.PlayerGames(game)
    results["replay_ms"] = round(replay_ms(game, logs), 3)
    print(f"replay of a player's log with games: {results['replay_ms']:.3f} ms of CPU (this process, one core)")
    answers: dict = {}
    t0 = time.monotonic()
    for number in range(args.rounds):
        # The project first in odd rounds (the first gives the floor the project's answers to serve).
        order = ("project", "floor") if number % 2 == 0 else ("floor", "project")
        print(f"round {number + 1} of {args.rounds} ({' then '.join(order)}; load {_stack.loadavg()})", flush=True)
        for side in order:
            results[side].append(project_round(args, answers) if side == "project" else floor_round(args, answers))
    results["elapsed_s"] = round(time.monotonic() - t0, 1)

    ok = all(r["write"]["ok"] for side in ("project", "floor") for r in results[side])
    summary = {}
    for kind in ("write", "top", "around"):
        project, floor = per_request(results["project"], kind), per_request(results["floor"], kind)
        ratio = project["ms"] / floor["ms"]
        rounds = [
            round(p[kind]["stack_cpu_ms_per_request"] / f[kind]["stack_cpu_ms_per_request"], 2)
            for p, f in zip(results["project"], results["floor"])
        ]
        summary[kind] = {
            "project": project,
            "floor": floor,
            "ratio": round(ratio, 2),
            "ratio_by_round": rounds,
            "target": TARGETS[kind],
            "met": ratio <= TARGETS[kind],
        }
    summary["write"]["project_to_replay"] = round(summary["write"]["project"]["ms"] / results["replay_ms"], 1)
    summary["write"]["floor_to_replay"] = round(summary["write"]["floor"]["ms"] / results["replay_ms"], 1)
    results["summary"], results["checks_ok"] = summary, ok

    names = {"write": "verified submission", "top": "top page", "around": "around=me"}
    print(
        f"\nstack CPU per request, {args.rounds} round(s), project and floor in turns "
        f"(every process of the stack, exited ones included; not the client):"
    )
    for kind, s in summary.items():
        print(
            f"  {names[kind]:20s} project {s['project']['ms']:6.2f} ms  floor {s['floor']['ms']:6.2f} ms  "
            f"ratio {s['ratio']:.2f} (by round {s['ratio_by_round']})  target <= {s['target']:g}: "
            f"{'met' if s['met'] else 'MISSED by ' + format(s['ratio'] / s['target'], '.2f') + 'x'}"
        )
        for side in ("project", "floor"):
            print(
                f"  {'':20s} {side + ':':8s} {_parts(s[side]['by_part'])} (live processes alone: "
                f"{s[side]['live_only_ms']:.2f})"
            )
    w = summary["write"]
    print(
        f"  a verified submission is {w['project_to_replay']}x the replay of its log alone "
        f"({results['replay_ms']:.2f} ms); the floor {w['floor_to_replay']}x"
    )
    print(f"checks of the work: {'ok' if ok else 'FAILED'}; {results['elapsed_s']} s")
    _stack.save_results("floor-quick" if args.quick else "floor", results)
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
