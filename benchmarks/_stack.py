"""The real stack on loopback for the benchmarks: PostgreSQL, Redis, gunicorn, a Celery worker.

Every benchmark uses its own database and Redis db (never the defaults of ``make test`` or of
other engineers): BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/eh_bench) and
BENCH_REDIS_URL (default redis://127.0.0.1:6379/13). Servers are started here with the
project's own settings module, in production mode (DJANGO_DEBUG=0, persistent database
connections as docker-compose sets them), bound to 127.0.0.1 on a free port, and stopped when
the benchmark ends. Load only ever goes to 127.0.0.1, bounded in count and time.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _meter

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # a benchmark runs as a script from benchmarks/
    sys.path.insert(0, str(ROOT))

from tools.stack import commands  # noqa: E402 (ROOT on the path first)
from tools.stack.process import Child, descendants, free_port, http_ok  # noqa: E402

BENCH = ROOT / "benchmarks"
PYTHON = sys.executable
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/eh_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
LOG_DIR = Path(os.environ.get("BENCH_LOG_DIR") or tempfile.mkdtemp(prefix="eh-bench-"))

# The project's settings, production-shaped, with the benchmark's database and Redis db.
SERVER_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "benchmark-only-secret-key-not-for-production-0123456789",
    "DAILY_DEAL_SECRET": "benchmark-only-daily-secret",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    # Plain HTTP on loopback: no TLS proxy in front, so no HTTPS redirect and no secure cookies.
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_SECURE_COOKIES": "0",
    "DATABASE_URL": DATABASE_URL,
    "DATABASE_CONN_MAX_AGE": "60",  # as docker-compose.yml
    "REDIS_URL": REDIS_URL,
    "DJANGO_LOG_LEVEL": "WARNING",
    # One benchmark client sends for many players from one address: no throttling here.
    "THROTTLE_SUBMISSION": "1000000/s",
    "SIGNUPS_PER_HOUR": "100000000",
    "SIGNUPS_PER_DAY": "100000000",
    "THROTTLE_LOGIN": "1000000/s",
    "THROTTLE_HINT": "1000000/s",
    # MOVE_RULES_OFF: the players' logs are variants of one won game (PlayerGames), near-copies of
    # each other by design; the near-copy index's cost is bench_near_copies.py's.
    "NEAR_COPY_MIN_ACTIONS": str(10**9),
    "ENGINE_MATCH_SHARE": "2.0",
    "ENGINE_MOVES_FACTOR": "0.0",
    "ENGINE_DAY_MIN_WINS": str(10**9),
    "ENGINE_STREAK_WINS": str(10**9),
}


def guard_targets() -> None:
    """Refuse anything but loopback, and the default Redis db 0 (someone else's)."""
    for url in (DATABASE_URL, REDIS_URL):
        host = re.sub(r"^\w+://(?:[^@/]*@)?", "", url).split("/")[0].rsplit(":", 1)[0]
        if host not in ("127.0.0.1", "localhost", "[::1]"):
            raise SystemExit(f"benchmarks run on loopback only, not {url}")
    if REDIS_URL.rstrip("/").endswith(":6379") or REDIS_URL.endswith("/0"):
        raise SystemExit("set BENCH_REDIS_URL to a Redis db of your own (not db 0)")


def django_setup() -> None:
    """Configure Django in this process against the benchmark database and Redis db."""
    guard_targets()
    os.environ.update({k: v for k, v in SERVER_ENV.items()})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def migrate() -> None:
    """Create the benchmark database when missing and bring its schema up to date."""
    name = DATABASE_URL.rsplit("/", 1)[1]
    admin_url = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env={**os.environ, **SERVER_ENV}, check=True
    )


def machine() -> dict:
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem_kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
    pg = subprocess.run(["psql", DATABASE_URL, "-Atc", "SHOW server_version"], capture_output=True, text=True)
    redis_v = subprocess.run(["redis-cli", "-u", REDIS_URL, "INFO", "server"], capture_output=True, text=True)
    rv = re.search(r"redis_version:(\S+)", redis_v.stdout)
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(mem_kb / 2**20, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "postgresql": pg.stdout.strip(),
        "redis": rv.group(1) if rv else "?",
        "loadavg_at_start": Path("/proc/loadavg").read_text().split()[:3],
    }


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Process(Child):
    """A server process in its own process group (tools/stack's Child), logging to a file
    under LOG_DIR."""

    def __init__(self, name: str, argv: list[str], env: dict | None = None, ready_text: str | None = None):
        super().__init__(
            name, argv, env={**SERVER_ENV, **(env or {})}, log_path=LOG_DIR / f"{name}.log", ready_text=ready_text
        )

    @property
    def proc(self):
        return self.process

    def stop(self, timeout: float = 20) -> None:
        super().stop(timeout)


class Gunicorn(Process):
    """gunicorn as docker-compose runs it (config.wsgi, access log on), on a free loopback port."""

    def __init__(self, workers: int = 3, worker_class: str = "sync", threads: int = 1, env: dict | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        argv = commands.gunicorn(
            f"127.0.0.1:{self.port}",
            workers,
            worker_class=worker_class,
            threads=threads,
            access_log=LOG_DIR / "access.log",
            extra=("--backlog", "2048"),
        )
        super().__init__("gunicorn", argv, env)
        self.config = f"{workers} x {worker_class}" + (f" x {threads} threads" if threads > 1 else "")

    def start(self, timeout: float = 30) -> Gunicorn:
        super().start()
        self.wait_ready(lambda: http_ok(self.url + "/healthz"), "gunicorn answered", timeout=timeout)
        return self


class CeleryWorker(Process):
    """``celery -A config worker`` as docker-compose runs it (prefork, --concurrency)."""

    def __init__(self, concurrency: int = 2, env: dict | None = None, name: str = "worker"):
        argv = commands.celery_worker(concurrency=concurrency, node=f"bench-{name}-{os.getpid()}@%h")
        super().__init__(name, argv, env, ready_text=commands.WORKER_READY)
        self.concurrency = concurrency

    def start(self, timeout: float = 60) -> CeleryWorker:
        super().start()
        self.wait_ready(self.said_ready, "the worker was ready", timeout=timeout)
        return self

    def pids(self) -> list[int]:
        """The worker's main process and its pool children."""
        return descendants(self.process.pid)


def rss_mb(pid: int) -> float:
    """Resident set size of one process, from /proc/<pid>/status (VmRSS)."""
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", text).group(1)) / 1024


# -- CPU accounting: what the stack spent per request, and what everyone else used meanwhile ----

TICK = os.sysconf("SC_CLK_TCK")


#: A process and all its descendants (the supervisor's own walk of /proc).
tree = descendants


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except OSError:
        return 0


def busy_ticks() -> int:
    """All CPUs' busy time (everything but idle and iowait) since boot."""
    return _meter.busy_ticks()


def postmaster_pid() -> int | None:
    """The PostgreSQL server's main process (the parent of every backend), None when not local."""
    import psycopg

    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    found = _meter.stat(backend)
    return found[0] if found else None


def redis_pid() -> int | None:
    out = subprocess.run(["redis-cli", "-u", REDIS_URL, "INFO", "server"], capture_output=True, text=True)
    found = re.search(r"process_id:(\d+)", out.stdout)
    return int(found.group(1)) if found else None


class CpuMeter(_meter.CpuMeter):
    """The stack's CPU between start() and stop(), every process counted, exited ones included
    (``_meter.CpuMeter``): the ``servers``' process trees, the PostgreSQL processes of the
    benchmark database (or of ``databases``) and the server's own, and the Redis server; the
    load client (this process and wrk) and everyone else's work apart."""

    def __init__(self, *servers: Process, databases: set[str] | None = None):
        super().__init__(
            *servers,
            postmaster=postmaster_pid(),
            redis_pid=redis_pid(),
            databases=databases or {DATABASE_URL.rsplit("/", 1)[1]},
        )


def cpu_summary(cpu: dict, requests: int) -> dict:
    """CPU milliseconds per request of the stack (servers, PostgreSQL, Redis; each part too) and
    of the load generator, and the rate 2 otherwise idle cores could sustain at that cost."""
    parts = {k: v for k, v in cpu["cpu_s"].items() if k != "client"}
    per = 1000 * sum(parts.values()) / max(requests, 1)
    client = 1000 * cpu["cpu_s"]["client"] / max(requests, 1)
    cores = os.cpu_count() or 2
    return {
        "stack_cpu_ms_per_request": round(per, 3),
        "client_cpu_ms_per_request": round(client, 3),
        "stack_cpu_ms_by_part": {k: round(1000 * v / max(requests, 1), 3) for k, v in parts.items()},
        "capacity_on_idle_cores_rps": round(cores * 1000 / (per + client)) if per + client else None,
    }


# -- wrk ---------------------------------------------------------------------------------------

WRK_REPORT = r"""
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRKJSON {\"requests\": %d, \"duration_us\": %d, \"p50_us\": %d, \"p90_us\": %d, \"p95_us\": %d, " ..
    "\"p99_us\": %d, \"max_us\": %d, \"mean_us\": %.1f, \"connect_errors\": %d, \"read_errors\": %d, " ..
    "\"write_errors\": %d, \"status_errors\": %d, \"timeouts\": %d}\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(95), latency:percentile(99), latency.max, latency.mean,
    e.connect, e.read, e.write, e.status, e.timeout))
  if extra_report then io.write("WRKEXTRA " .. extra_report() .. "\n") end
end
"""


def wrk(
    url: str,
    script: str,
    *,
    seconds: int,
    connections: int,
    threads: int = 1,
    rate: float | None = None,
    env: dict | None = None,
    timeout_s: int = 10,
    expected_ms: float = 0.0,
) -> dict:
    """Run wrk against a loopback ``url`` with a Lua ``script`` (text; a global ``extra_report()``
    returning JSON text adds ``extra`` to the result). ``rate``: pace each
    connection with a fixed delay after each answer, ``connections / rate`` less the
    ``expected_ms`` an answer takes, so the total is about ``rate`` requests per second (the
    rate reached is measured and reported); None runs closed-loop (each connection sends its
    next request as soon as the answer arrives)."""
    if not url.startswith("http://127.0.0.1:"):
        raise SystemExit("wrk only ever targets 127.0.0.1")
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    pace = ""
    if rate:
        pace = f"\ndelay = function() return {max(1000.0 * connections / rate - expected_ms, 0):.3f} end\n"
    path = LOG_DIR / f"wrk-{time.time_ns()}.lua"
    path.write_text(script + pace + WRK_REPORT)
    argv = [
        "wrk",
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{seconds}s",
        "--timeout",
        f"{timeout_s}s",
        "-s",
        str(path),
        url,
    ]
    out = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=seconds + 60)
    found = re.search(r"^WRKJSON (.*)$", out.stdout, re.M)
    if not found:
        raise RuntimeError(f"wrk failed:\n{out.stdout}\n{out.stderr}")
    result = json.loads(found.group(1))
    extra = re.search(r"^WRKEXTRA (.*)$", out.stdout, re.M)  # a script's own extra_report(), JSON
    if extra:
        result["extra"] = json.loads(extra.group(1))
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    for key in ("p50", "p90", "p95", "p99", "max"):
        result[f"{key}_ms"] = result.pop(f"{key}_us") / 1000
    result["mean_ms"] = result.pop("mean_us") / 1000
    result["connections"] = connections
    result["paced_at"] = rate
    result["errors"] = sum(
        result[k] for k in ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")
    )
    return result


def target_run(
    server,
    url: str,
    script: str,
    label: str,
    *,
    rate: float,
    p95: float,
    seconds: int,
    connections: int,
    paced: float | None,
    expected_ms: float = 0.0,
    adjust=None,
    width: int = 14,
) -> dict:
    """One measured wrk run against a target (at least ``rate`` requests/s, p95 under ``p95``
    ms): closed loop, or ``paced`` at that rate with 4x the connections, each waiting so the
    total is the rate (``expected_ms``: an answer's time, from the closed-loop run). The stack's
    CPU is metered over the run; ``adjust(r)`` may move work off the client's share first.
    Prints the figures and returns them, ``met`` included."""
    meter = CpuMeter(server).start()
    r = wrk(
        url,
        script,
        seconds=seconds,
        connections=connections * (4 if paced else 1),
        rate=paced * 1.05 if paced else None,
        expected_ms=expected_ms if paced else 0,
    )
    r["cpu"] = meter.stop()
    if adjust:
        adjust(r)
    r.update(cpu_summary(r["cpu"], r["requests"]))
    r["loadavg"] = loadavg()
    r["met"] = r["rps"] >= rate and r["p95_ms"] < p95 and r["errors"] == 0
    print(
        f"{label:{width}s} {fmt_wrk(r)}  target >= {rate}/s, p95 < {p95} ms: {'met' if r['met'] else 'MISSED'}",
        flush=True,
    )
    parts = ", ".join(f"{k} {v:.2f}" for k, v in r["stack_cpu_ms_by_part"].items())
    print(
        f"{'':{width}s} stack CPU {r['stack_cpu_ms_per_request']:.2f} ms/req ({parts}; every process, "
        f"exited ones included), wrk "
        f"{r['client_cpu_ms_per_request']:.2f} ms/req -> ~{r['capacity_on_idle_cores_rps']} "
        f"req/s on 2 idle cores; other people's work used {r['cpu']['others_cores']} cores "
        f"(load {r['loadavg']})",
        flush=True,
    )
    return r


def fmt_wrk(r: dict) -> str:
    return (
        f"{r['rps']:.0f} req/s, p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, "
        f"p99 {r['p99_ms']:.1f} ms, errors {r['errors']} "
        f"({r['connections']} conns{', paced' if r['paced_at'] else ', closed loop'})"
    )


def lua_quote(text: str) -> str:
    return "[==[" + text + "]==]"


def won_games() -> list[dict]:
    """Won games from tests/data/won_games.jsonl; when that file is missing or empty (it may
    be being regenerated), the solver finds a few."""
    path = ROOT / "tests" / "data" / "won_games.jsonl"
    games_found = []
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                try:
                    games_found.append(json.loads(line))
                except ValueError:
                    pass
    if games_found:
        return games_found
    sys.path.insert(0, str(ROOT))
    from games import format_code, solver

    for number in range(1, 40):
        found = solver.solve(number)
        if found.won:
            games_found.append({"deal": format_code(number), "actions": found.actions})
        if len(games_found) >= 3:
            break
    if not games_found:
        raise SystemExit("no won game: tests/data/won_games.jsonl is empty and the solver found none")
    return games_found


class PlayerGames:
    """One distinct won log of ``game``'s deal per player, with a person's time for each action.

    Players who play the same canonical line on the same deal are copies (off the boards; an undone
    action is no part of the line), so player ``i`` plays ``game`` with a whole turn of the stock
    (every card of stock and waste drawn, and the waste turned over: the table as it was) inserted
    at three places between two moves where the stock holds a card, the ``i``-th such choice
    (about 120,000 distinct lines for a 659-action game). Each variant is still won, with about
    a hundred more taps. Variants of one game are near-copies of each other by design: the stacks of the
    benchmarks run with the move rules off (``MOVE_RULES_OFF``), whose cost per submission
    ``bench_near_copies.py`` measures on its own.

    The times come from the person model of tests/leaderboard_fixtures/timing.py (log-normal think times,
    planning pauses), drawn for ``pool`` seeds of the base log (about 0.3 s each: too slow for one
    per player); the inserted taps take think times picked from the same player's own taps. The
    tempo rules flag none of them (checked here for every pool entry and every 50th variant)."""

    def __init__(self, game: dict, pool: int = 16):
        sys.path.insert(0, str(ROOT))
        from tests.leaderboard_fixtures.timing import human_times

        self.game, self.actions = game, game["actions"]
        self.turns = self._turns()  # (place, taps) where a whole turn of the stock fits
        self.gaps = []
        for seed in range(pool):
            times = human_times(game["deal"], self.actions, seed)
            self.gaps.append([later - earlier for earlier, later in zip([0] + times, times)])
        # The longest any variant can take: its pool entry's time plus four of its longest gaps.
        # An inserted tap takes the think time of one of the player's own taps of the stock (its
        # quicker nine tenths: a turn of the stock is tapped through).
        self.tap_gaps = []
        for gaps in self.gaps:
            taps = sorted(gap for gap, text in zip(gaps, self.actions) if text == "s")
            self.tap_gaps.append(taps[: max(1, len(taps) * 9 // 10)])
        most_taps = 3 * max(taps for _, taps in self.turns)
        self.longest_ms = max(sum(gaps) + most_taps * max(taps) for gaps, taps in zip(self.gaps, self.tap_gaps))
        for seed in range(pool):
            self._check(self.variant(seed)[1])

    def variant(self, index: int) -> tuple[list[str], list[int]]:
        """Player ``index``'s log and times (deterministic)."""
        import itertools
        import random

        if not hasattr(self, "_places"):  # three places, one repeated or not: ~120,000 lines from 89
            self._places = list(itertools.combinations_with_replacement(range(len(self.turns)), 3))
        places = self._places[index]  # none after the win
        gaps, tap_gaps = self.gaps[index % len(self.gaps)], self.tap_gaps[index % len(self.gaps)]
        rng = random.Random(index)
        actions, chosen = list(self.actions), list(gaps)
        for at, taps in [self.turns[place] for place in reversed(places)]:  # the later first: earlier stay valid
            actions[at:at] = ["s"] * taps
            chosen[at:at] = [rng.choice(tap_gaps) for _ in range(taps)]
        times = list(itertools.accumulate(chosen))
        if index % 50 == 0:
            self._check(times)
        return actions, times

    def _turns(self) -> list[tuple[int, int]]:
        """Each place before an action of the base log where the stock holds a card, with the taps
        of a whole turn there: the stock's and the waste's cards, and the turn-over."""
        import games

        game = games.Game.new(games.parse_code(self.game["deal"]).number)
        turns = []
        for at, text in enumerate(self.actions):
            # Between two actions that are not taps: a turn inserted at one such place is a
            # different line from one at any other. 200 places: 20,100 pairs, more than any run asks.
            between_moves = at > 0 and self.actions[at - 1] != "s" and text != "s"
            if game.stock and between_moves and len(turns) < 200:
                turns.append((at, len(game.stock) + len(game.waste) + 1))
            game.play(games.parse_action(text))
        return turns

    def body(self, index: int) -> bytes:
        actions, times = self.variant(index)
        return json.dumps({"actions": actions, "times": times}, separators=(",", ":")).encode()

    @staticmethod
    def _check(times: list[int]) -> None:
        from leaderboard.play import tempo
        from leaderboard.play.services import verification

        found = tempo.flags(tempo.profile(times), verification.tempo_rules())
        if found:
            raise SystemExit(f"the benchmark's person model is flagged by the tempo rules: {found}")


def save_results(name: str, results: dict) -> Path:
    """Write the results as JSON under benchmarks/results/ (ignored by git) and print them."""
    out = BENCH / "results"
    out.mkdir(exist_ok=True)
    path = out / f"{name}.json"
    path.write_text(json.dumps(results, indent=2, default=str) + "\n")
    print(f"results: {path}  (server logs: {LOG_DIR})")
    return path
