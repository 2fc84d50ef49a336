#!/usr/bin/env python
"""Intake: POST /api/attempts/<id>/submission under load (gunicorn on 127.0.0.1, wrk).

Every request is a different player's first submission to their own attempt (a won game of
the deal of the day, tests/data/won_games.jsonl), with token auth: wrk walks a file of
(token, attempt, body) lines, so no request repeats one (a repeat would be a 409). Each body is
the player's own distinct log of that game with a person's action times (_stack.PlayerGames: no
copies, no tempo flag). Attempts are bulk-loaded and backdated past the longest game's last
action time (a human pace: nothing gets flagged, the times fit the server's duration);
throttles are set high for the server (one client, many players).

Runs: closed-loop (8 connections: the most it takes) and paced at the target (250/s, 32
connections each pausing after an answer), first with no Celery
worker running (intake alone: verification waits in the broker), then, in the full mode,
with the worker running beside it on the same two cores. The target (250/s, p95 < 50 ms) is
intake's alone; the runs beside the worker are information (``_verdict``). After each run:
every 202 is a row in PostgreSQL and (without a worker) exactly one message in the broker queue.

    .venv/bin/python benchmarks/bench_intake.py --quick    # 8 s runs
    .venv/bin/python benchmarks/bench_intake.py            # 20 s runs, plus runs with the worker
"""

from __future__ import annotations

import argparse

import _stack

TARGET_RPS, TARGET_P95_MS = 250, 50.0
PAIRS_PER_SECOND = 450  # more than any run here reaches: pairs are never reused


def lua(pairs_file: str) -> str:
    return f"""
local pairs_ = {{}}
for line in io.lines({_stack.lua_quote(pairs_file)}) do
  local token, attempt, body = line:match("(%S+) (%S+) (.*)")
  pairs_[#pairs_ + 1] = {{token, attempt, body}}
end
local i = 0
request = function()
  i = i + 1
  if i > #pairs_ then i = #pairs_ end  -- out of fresh pairs: the repeat answers 409 and shows as an error
  local p = pairs_[i]
  return wrk.format("POST", "/api/attempts/" .. p[2] .. "/submission",
                    {{["Authorization"] = "Token " .. p[1], ["Content-Type"] = "application/json"}}, p[3])
end
"""


def _verdict(mode: str, r: dict) -> str:
    """The target is intake's alone. Beside the worker, the two share two cores: 250 accepted a
    second would also be 250 verified, two and a half times what bench_pipeline.py targets, so
    those runs are information (how the two load each other), not a target."""
    if mode != "alone":
        r["met"] = None
        return "information (shares the cores with the worker: no target)"
    r["met"] = r["rps"] >= TARGET_RPS and r["p95_ms"] < TARGET_P95_MS and r["errors"] == 0
    return f"target >= {TARGET_RPS}/s, p95 < {TARGET_P95_MS} ms: {'met' if r['met'] else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="8 s runs, no runs with the worker")
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument(
        "--with-worker",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also run with the Celery worker verifying beside it (default: full mode only)",
    )
    args = parser.parse_args()
    seconds = args.seconds or (8 if args.quick else 20)
    with_worker = (not args.quick) if args.with_worker is None else args.with_worker

    _stack.django_setup()
    _stack.migrate()
    import _seed
    import redis

    from games import format_code, parse_code
    from leaderboard.core import days
    from leaderboard.models import Attempt, Submission

    game = _stack.won_games()[0]
    number = parse_code(game["deal"]).number
    today = days.today()
    client = redis.Redis.from_url(_stack.REDIS_URL)
    plans = [("alone", None), ("alone", TARGET_RPS)] + (
        [("with worker", None), ("with worker", TARGET_RPS)] if with_worker else []
    )
    per_run = PAIRS_PER_SECOND * (seconds + 3)
    total = per_run * len(plans)
    logs = _stack.PlayerGames(game)
    earliest = logs.longest_ms // 60000 + 2  # + TIMES_SLACK_MS, and the runs' own minutes
    _seed.reset(client)
    _seed.daily_deal(today, game)
    _seed.players(total)
    _seed.attempts(total, format_code(number, "D"), number, today, minutes_ago=(earliest, earliest + 25))
    owner = list(Attempt.objects.order_by("player_id").values_list("player_id", "id"))
    body_bytes = round(sum(len(logs.body(index)) for index in range(0, total, 100)) / len(range(0, total, 100)))
    print(f"seeded {total:,} players with one attempt each; bodies about {body_bytes:,} bytes")

    results = {
        "machine": _stack.machine(),
        "seconds": seconds,
        "body_bytes": body_bytes,
        "game": {
            "deal": game["deal"],
            "actions": len(game["actions"]) + 4,
            "longest_game_min": round(logs.longest_ms / 60000, 1),
        },
    }
    web = _stack.Gunicorn(args.workers, args.worker_class, args.threads).start()
    results["gunicorn"] = web.config
    worker = None
    try:
        for run, (mode, rate) in enumerate(plans):
            if mode == "with worker" and worker is None:
                client.delete("celery")  # what the runs without a worker queued: not this run's work
                worker = _stack.CeleryWorker(2).start()
            first = run * per_run
            pairs_file = _stack.LOG_DIR / f"pairs-{run}.txt"
            with pairs_file.open("wb") as lines:
                for index, (pid, aid) in enumerate(owner[first : first + per_run], start=first):
                    lines.write(f"{_seed.token_key(pid)} {aid} ".encode() + logs.body(index) + b"\n")
            rows_before = Submission.objects.count()
            queue_before = client.llen("celery")
            meter = _stack.CpuMeter(*(p for p in (web, worker) if p)).start()
            max_run = results.get(f"intake {mode} max")
            r = _stack.wrk(
                web.url,
                lua(str(pairs_file)),
                seconds=seconds,
                connections=args.connections * (4 if rate else 1),
                rate=rate * 1.05 if rate else None,
                expected_ms=max_run["p50_ms"] if rate and max_run else 0,
            )
            r["cpu"] = meter.stop()
            r.update(_stack.cpu_summary(r["cpu"], r["requests"]))
            rows = Submission.objects.count() - rows_before
            r["rows_stored"] = rows
            if worker is None:
                r["messages_queued"] = client.llen("celery") - queue_before
            r["loadavg"] = _stack.loadavg()
            label = f"intake {mode} {'paced' if rate else 'max'}"
            results[label] = r
            print(f"{label:28s} {_stack.fmt_wrk(r)}  {_verdict(mode, r)}", flush=True)
            print(
                f"{'':28s} stored {rows} rows for {r['requests']} answers"
                + (f", {r['messages_queued']} queued" if worker is None else "")
                + f"; stack CPU {r['stack_cpu_ms_per_request']:.2f} ms/req -> ~{r['capacity_on_idle_cores_rps']}"
                f" req/s on 2 idle cores; other people's work used {r['cpu']['others_cores']} cores "
                f"(load {r['loadavg']})",
                flush=True,
            )
    finally:
        if worker:
            worker.stop()
        web.stop()
        client.delete("celery")
    _stack.save_results("intake-quick" if args.quick else "intake", results)


if __name__ == "__main__":
    main()
