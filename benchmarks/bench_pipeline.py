#!/usr/bin/env python
"""The verification pipeline end to end: N submissions through the API to ranked.

    POST /api/attempts/<id>/submission  ->  gunicorn (Django, the project's settings)
      -> PostgreSQL row (pending) -> Redis broker -> Celery worker (prefork, as docker-compose)
      -> replay, result, board entries (PostgreSQL) -> Redis ranking index

Setup (not timed): N players with API tokens and one ranked attempt each on today's deal of
the day (a won game from tests/data/won_games.jsonl), bulk-loaded into the benchmark database.
Each player sends a distinct log of that game with a person's action times (_stack.PlayerGames:
no copies, no tempo flag). The attempts are backdated by the server's clock past the longest
game's last action time, up to 25 minutes more (the players took that long to play), so the
times fit the server's duration and the plausibility rule (MAX_ACTIONS_PER_SECOND) stays at the
project's setting: no result is flagged. Throttles are set high for the server (one client,
many players).

Timed: the client sends the N submissions at a fixed rate (open loop: each one's clock starts
at its scheduled time, so a slow server cannot slow the client down and hide latency), while a
poller reads the board's Redis hash every 10 ms to see when each player becomes ranked.

Checked after: every submission verified exactly once (deliveries == 1), none flagged,
rejected or a copy, BoardEntry count == players on each board a daily result ranks on
(entries.boards_of) and none on the other, Redis index size == BoardEntry count on both, the
first ranks the same in Redis and PostgreSQL. Then the resident
memory (VmRSS from /proc) of every Celery worker process.

    .venv/bin/python benchmarks/bench_pipeline.py --quick          # 1,000 submissions at 110/s
    .venv/bin/python benchmarks/bench_pipeline.py                  # 10,000 submissions at 110/s
    .venv/bin/python benchmarks/bench_pipeline.py --rate 0         # as fast as 32 senders go
    .venv/bin/python benchmarks/bench_pipeline.py --drain 10000    # worker alone: memory after 10,000

The --drain mode measures the worker alone: N pending submissions are bulk-loaded and their
verification tasks queued (verify_submission.apply_async, as submission_create does after
commit) before the worker starts; it then verifies them all while the resident memory of
every worker process (VmRSS in /proc) is sampled after each 10% of the verifications.
"""

from __future__ import annotations

import argparse
import http.client
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import _stack


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def post(port: int, path: str, body: bytes, token: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body, {"Content-Type": "application/json", "Authorization": f"Token {token}"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


class Poller(threading.Thread):
    """Reads the board's player -> member hash for the players not seen yet, every ``interval``."""

    def __init__(self, board: str, interval: float = 0.01):
        import redis

        from leaderboard.boards.index import BoardIndex

        super().__init__(daemon=True)
        self.client = redis.Redis.from_url(_stack.REDIS_URL)
        self.hash_key = BoardIndex._keys(board)[1]
        self.interval = interval
        self.waiting: set[int] = set()
        self.seen: dict[int, float] = {}
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.max_queue = 0

    def expect(self, player_id: int) -> None:
        with self.lock:
            self.waiting.add(player_id)

    def run(self):
        while not self.stop_event.is_set():
            with self.lock:
                waiting = list(self.waiting)
            if waiting:
                found = self.client.hmget(self.hash_key, waiting)
                now = time.monotonic()
                with self.lock:
                    for player_id, member in zip(waiting, found):
                        if member is not None:
                            self.seen[player_id] = now
                            self.waiting.discard(player_id)
            self.max_queue = max(self.max_queue, self.client.llen("celery"))
            # 10 ms while few are waiting; slower under a backlog, to keep the poller's cost small
            self.stop_event.wait(self.interval + 0.0001 * len(waiting))


def seed_day(count: int, results: dict, tokens: bool):
    """An empty database and Redis db, today's deal from a won game, ``count`` players with
    an attempt each (API tokens only when the API is used), started before their games' times
    allow. Returns what the run needs, and each player's game (_stack.PlayerGames)."""
    import _seed
    import redis

    from games import format_code, parse_code
    from leaderboard.core import days

    game = _stack.won_games()[0]
    logs = _stack.PlayerGames(game)
    results["game"] = {
        "deal": game["deal"],
        "actions": len(game["actions"]) + 4,
        "longest_game_min": round(logs.longest_ms / 60000, 1),
    }
    number = parse_code(game["deal"]).number
    today = days.today()
    client = redis.Redis.from_url(_stack.REDIS_URL)
    _seed.reset(client)
    _seed.daily_deal(today, game)
    if tokens:
        _seed.players(count)
    else:
        _seed.players(count, tokens_every=count + 1)
    earliest = logs.longest_ms // 60000 + 2  # + TIMES_SLACK_MS and the time it takes to send them all
    attempts = _seed.attempts(count, format_code(number, "D"), number, today, minutes_ago=(earliest, earliest + 25))
    return game, number, today, client, attempts, logs


def expected_boards(today, number) -> dict[str, bool]:
    """Which of the day's board and its deal's board a daily result ranks on (entries.boards_of)."""
    from leaderboard.boards import order
    from leaderboard.boards.services import entries
    from leaderboard.models import Submission

    on = entries.boards_of(Submission(deal_number=number, daily_date=today))
    return {board: board in on for board in (order.daily_board(today), order.deal_board(number))}


def drain(count: int, concurrency: int, timeout: float) -> None:
    """Worker alone: bulk-load ``count`` pending submissions, queue them, verify, sample RSS."""
    _stack.django_setup()
    _stack.migrate()
    from django.db import connection
    from django.db.models import Count

    from leaderboard.boards import index, order
    from leaderboard.models import Attempt, BoardEntry, Submission
    from leaderboard.tasks import verify_submission

    results = {
        "machine": _stack.machine(),
        "mode": "drain",
        "count": count,
        "celery": f"prefork --concurrency={concurrency}",
    }
    game, number, today, client, _, logs = seed_day(count, results, tokens=False)
    from games import compact
    from leaderboard.play.services import intake

    attempts = list(
        Attempt.objects.order_by("player_id").values_list("id", "player_id", "deal_number", "daily_date", "started_at")
    )
    rows = []
    for i, (attempt_id, player_id, deal_number, daily_date, started_at) in enumerate(attempts):
        actions, times = logs.variant(i)
        rows.append(
            [
                deal_number,
                daily_date,
                compact.encode_log(actions),
                compact.encode_times(times),
                intake.log_hash(actions),
                attempt_id,
                started_at,
                player_id,
            ]
        )
    with connection.cursor() as cursor:
        cursor.executemany(
            """
            INSERT INTO leaderboard_submission (deal_number, daily_date, actions, times, log_hash, submitted_at,
                                                status, deliveries, hints, error, hidden, flagged, practice,
                                                attempt_id, attempt_started_at, player_id)
            VALUES (%s, %s, %s, %s, %s, clock_timestamp(), 'pending', 0, 0, '', false, false, false, %s, %s,
                    %s)""",
            rows,
        )
    ids = list(Submission.objects.order_by("id").values_list("id", flat=True))
    t = time.monotonic()
    for sid in ids:
        verify_submission.apply_async((sid,), retry=False)
    print(f"queued {count:,} verifications in {time.monotonic() - t:.1f} s")
    worker = _stack.CeleryWorker(concurrency).start()
    samples = [{"verified": 0, "rss_mb": {p: round(_stack.rss_mb(p), 1) for p in worker.pids()}}]
    meter = _stack.CpuMeter(worker).start()
    t0 = time.monotonic()
    deadline = t0 + timeout
    step = max(count // 10, 1)
    done = 0
    try:
        while time.monotonic() < deadline:
            done = Submission.objects.filter(status__in=["verified", "rejected"]).count()
            if done >= samples[-1]["verified"] + step or done == count:
                samples.append(
                    {
                        "verified": done,
                        "at_s": round(time.monotonic() - t0, 1),
                        "rss_mb": {p: round(_stack.rss_mb(p), 1) for p in worker.pids()},
                    }
                )
                print(
                    f"  {done:6,} verified at {samples[-1]['at_s']:7.1f} s, RSS MB {samples[-1]['rss_mb']}", flush=True
                )
            if done == count:
                break
            time.sleep(0.5)
        elapsed = time.monotonic() - t0
        cpu = meter.stop()
    finally:
        worker.stop()
    deliveries = dict(Submission.objects.values_list("deliveries").annotate(n=Count("id")))
    daily = order.daily_board(today)
    deal = order.deal_board(number)
    from leaderboard.models import PlayerStats

    pg_first = list(
        BoardEntry.objects.filter(board=daily)
        .order_by("rank_key", "submitted_at", "submission_id")
        .values_list("submission_id", flat=True)[:200]
    )
    checks = {
        "verified": Submission.objects.filter(status="verified").count(),
        "deliveries": deliveries,
        "daily BoardEntry": BoardEntry.objects.filter(board=daily).count(),
        "daily Redis index": index.board_index().size(daily),
        "deal BoardEntry": BoardEntry.objects.filter(board=deal).count(),
        "deal Redis index": index.board_index().size(deal),
        "first 200 ranks equal": index.board_index().page(daily, 0, 200) == pg_first,
        "players with 1 daily win": PlayerStats.objects.filter(daily_wins=1, best_streak=1).count(),
    }
    final_rss = samples[-1]["rss_mb"]
    results.update(
        {
            "verified": done,
            "elapsed_s": round(elapsed, 1),
            "verified_per_s": round(done / elapsed, 1),
            "checks": checks,
            "rss_samples": samples,
            "max_rss_mb": max(final_rss.values()),
            "cpu": cpu,
            **_stack.cpu_summary(cpu, done),
        }
    )
    results["stack_cpu_ms_per_verified"] = results.pop("stack_cpu_ms_per_request")
    results["capacity_on_idle_cores_per_s"] = results.pop("capacity_on_idle_cores_rps")
    results.pop("client_cpu_ms_per_request")
    print(json.dumps({k: v for k, v in results.items() if k not in ("machine", "rss_samples")}, indent=1))
    print(
        f"\nworker alone: {results['verified_per_s']}/s; max worker RSS {results['max_rss_mb']} MB after "
        f"{done:,} verifications (target < 150 MB after 10,000: "
        f"{'met' if done >= 10_000 and results['max_rss_mb'] < 150 else 'see count' if done < 10_000 else 'MISSED'})"
        f"; others used {cpu['others_cores']} cores"
    )
    _stack.save_results(f"pipeline-drain-{count}", results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1,000 submissions")
    parser.add_argument("--count", type=int, help="submissions (players); default 10,000, quick 1,000")
    parser.add_argument("--rate", type=float, default=110.0, help="submissions per second; 0: as fast as possible")
    parser.add_argument("--senders", type=int, default=32, help="client threads")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker-compose: 3)")
    parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes (docker-compose: 2)")
    parser.add_argument("--drain-timeout", type=float, default=120.0)
    parser.add_argument("--drain", type=int, metavar="N", help="worker alone: verify N bulk-loaded submissions")
    args = parser.parse_args()
    if args.drain:
        return drain(args.drain, args.concurrency, timeout=max(args.drain_timeout, 900.0))
    count = args.count or (1_000 if args.quick else 10_000)

    _stack.django_setup()
    _stack.migrate()
    import _seed
    from django.db.models import Count

    from games import format_code
    from leaderboard.boards import index, order
    from leaderboard.models import Attempt, BoardEntry, Submission

    results = {"machine": _stack.machine(), "count": count, "rate": args.rate}
    game, number, today, client, attempts, logs = seed_day(count, results, tokens=True)
    owner = {str(a): p for a, p in Attempt.objects.values_list("id", "player_id")}
    jobs = [(a, owner[a], logs.body(i)) for i, a in enumerate(attempts)]
    daily, deal = order.daily_board(today), order.deal_board(number)
    boards = expected_boards(today, number)
    results["body_bytes"] = round(sum(len(job[2]) for job in jobs) / count)
    print(
        f"seeded {count:,} players and attempts on {format_code(number, 'D')} "
        f"({len(game['actions']) + 4} actions and their times, {results['body_bytes']:,} bytes a submission; "
        f"boards a result ranks on: {[b for b, on in boards.items() if on]})"
    )

    web = _stack.Gunicorn(args.workers).start()
    worker = _stack.CeleryWorker(args.concurrency).start()
    results["gunicorn"], results["celery"] = web.config, f"prefork --concurrency={args.concurrency}"
    poller = Poller(daily)
    poller.start()
    sent: dict[int, dict] = {}

    def send(attempt_id: str, player_id: int, body: bytes, scheduled: float) -> None:
        start = time.monotonic()
        status, answer = post(web.port, f"/api/attempts/{attempt_id}/submission", body, _seed.token_key(player_id))
        done = time.monotonic()
        if status == 202:
            poller.expect(player_id)
        sent[player_id] = {
            "scheduled": scheduled,
            "start": start,
            "done": done,
            "status": status,
            "answer": answer[:200] if status != 202 else b"",
        }

    try:
        meter = _stack.CpuMeter(web, worker).start()
        t0 = time.monotonic()
        with ThreadPoolExecutor(args.senders) as pool:
            for i, (attempt_id, player_id, body) in enumerate(jobs):
                scheduled = t0 + i / args.rate if args.rate else time.monotonic()
                wait = scheduled - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                pool.submit(send, attempt_id, player_id, body, scheduled)
        t_sent = time.monotonic()
        deadline = t_sent + args.drain_timeout
        while time.monotonic() < deadline:
            with poller.lock:
                if not poller.waiting and len(sent) == count:
                    break
            time.sleep(0.05)
        t_end = time.monotonic()
        cpu = meter.stop()
        poller.stop_event.set()
        poller.join()
        time.sleep(0.5)
        rss = {pid: round(_stack.rss_mb(pid), 1) for pid in worker.pids()}
        web_rss = {pid: round(_stack.rss_mb(pid), 1) for pid in _stack.tree(web.proc.pid)}
    finally:
        worker.stop()
        web.stop()

    accepted = [s for s in sent.values() if s["status"] == 202]
    refused = [s for s in sent.values() if s["status"] != 202]
    ranked = {pid: t for pid, t in poller.seen.items()}
    to_ranked = [ranked[pid] - s["scheduled"] for pid, s in sent.items() if pid in ranked]
    intake = [s["done"] - s["scheduled"] for s in sent.values()]
    last_ranked = max(ranked.values()) if ranked else t_end
    statuses = dict(Submission.objects.values_list("status").annotate(n=Count("id")))
    deliveries = dict(Submission.objects.values_list("deliveries").annotate(n=Count("id")))
    checks = {
        "submissions": Submission.objects.count(),
        "statuses": statuses,
        "deliveries": deliveries,
        "flagged": Submission.objects.filter(flagged=True).count(),
        "copies": Submission.objects.filter(copy_of__isnull=False).count(),
        "daily BoardEntry": BoardEntry.objects.filter(board=daily).count(),
        "deal BoardEntry": BoardEntry.objects.filter(board=deal).count(),
        "daily Redis index": index.board_index().size(daily),
        "deal Redis index": index.board_index().size(deal),
    }
    pg_first = list(
        BoardEntry.objects.filter(board=daily)
        .order_by("rank_key", "submitted_at", "submission_id")
        .values_list("submission_id", flat=True)[:200]
    )
    checks["first 200 ranks equal"] = index.board_index().page(daily, 0, 200) == pg_first
    on_deal = count if boards[deal] else 0
    ok = (
        checks["submissions"] == count
        and statuses == {"verified": count}
        and deliveries == {1: count}
        and checks["flagged"] == 0
        and checks["copies"] == 0
        and checks["daily BoardEntry"] == count == checks["daily Redis index"]
        and checks["deal BoardEntry"] == on_deal == checks["deal Redis index"]
        and checks["first 200 ranks equal"]
        and not refused
    )
    span = last_ranked - t0
    results.update(
        {
            "sending_s": round(t_sent - t0, 2),
            "offered_rate": round(count / (t_sent - t0), 1),
            "accepted": len(accepted),
            "refused": len(refused),
            "refused_examples": [r["answer"].decode(errors="replace") for r in refused[:3]],
            "ranked": len(ranked),
            "verified_per_s": round(len(ranked) / span, 1) if span > 0 else None,
            "to_ranked_ms": {f"p{p}": round(1000 * percentile(to_ranked, p), 1) for p in (50, 90, 95, 99, 100)},
            "intake_ms": {f"p{p}": round(1000 * percentile(intake, p), 1) for p in (50, 95, 99)},
            "max_broker_queue": poller.max_queue,
            "checks": checks,
            "exactly_once_and_consistent": ok,
            "cpu": cpu,
            **_stack.cpu_summary(cpu, count),
            "worker_rss_mb": rss,
            "gunicorn_rss_mb": web_rss,
            "loadavg_at_end": _stack.loadavg(),
        }
    )
    results["stack_cpu_ms_per_verified"] = results.pop("stack_cpu_ms_per_request")
    results["capacity_on_idle_cores_per_s"] = results.pop("capacity_on_idle_cores_rps")
    results.pop("client_cpu_ms_per_request")
    print(json.dumps({k: v for k, v in results.items() if k != "machine"}, indent=1, default=str))
    met_rate = (results["verified_per_s"] or 0) >= 100
    met_p95 = results["to_ranked_ms"]["p95"] < 500
    met_rss = max(rss.values()) < 150
    print(
        f"\nverified {results['verified_per_s']}/s (target >= 100: {'met' if met_rate else 'MISSED'}); "
        f"p95 submission -> ranked {results['to_ranked_ms']['p95']} ms (< 500: {'met' if met_p95 else 'MISSED'}); "
        f"exactly once and consistent: {ok}; worker RSS max {max(rss.values())} MB after {count:,} "
        f"(< 150: {'met' if met_rss else 'MISSED'}); others used {cpu['others_cores']} cores"
    )
    _stack.save_results("pipeline-quick" if args.quick else f"pipeline-{count}", results)


if __name__ == "__main__":
    main()
