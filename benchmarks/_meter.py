#!/usr/bin/env python
"""The CPU of every process of the stack over a measured window, the ones that exited included.

A process's ``/proc/PID/stat`` holds its own CPU (utime + stime, all its threads) and, in
cutime + cstime, the CPU of its children that exited and that it reaped (wait), theirs
included. So for a tree of processes whose root lives through the window, the sum over its
live processes of own + children's CPU, taken at stop less the same sum at start, is all the
CPU the tree spent in the window: a child that exits is reaped by its parent, and its whole
CPU moves into the parent's cutime (what it had spent before the start is in the start's sum
too, and cancels). No sampling, no gaps: gunicorn's master reaps its workers, Celery's main
process its pool, Redis its save forks.

PostgreSQL's postmaster reaps every backend of every database, other people's included (the
server is shared), so its cutime cannot say which database spent what. There a thread samples
the postmaster's children every ``interval`` s: a backend (or autovacuum worker) of one of the
measured databases, or a parallel worker of such a backend, counts its CPU since the start,
up to its last sample if it exited (what it spent in its last ``interval`` is missed). The
postmaster's reaped CPU checks the sampler: ``postgres_reaped_unseen_s`` is what exited
children spent that the samples did not see (other databases' short connections and the
tails of every exit; on a quiet server, a measure of what the sampler misses). The server's
own processes (checkpointer, WAL writer, background writer, ...) serve every database; they
are listed apart (``postgres_server_s``) and not counted: on a shared server their CPU is mostly
other databases' writes and checkpoints that fall in the window by chance (a backend writes and
flushes its own WAL at commit).

    .venv/bin/python benchmarks/_meter.py --check     # the experiment behind the claims above
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def stat(pid: int) -> tuple[int, int, int] | None:
    """(parent pid, own CPU ticks, reaped children's CPU ticks) of a process, None when gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def children(pid: int) -> list[int]:
    found = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def tree(pid: int) -> list[int]:
    """A process and all its descendants."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children(current)
    return found


def tree_ticks(root: int) -> tuple[int, dict[int, int]]:
    """Own + reaped children's CPU ticks over a tree's live processes, and each one's own ticks."""
    total, own = 0, {}
    for pid in tree(root):
        found = stat(pid)
        if found:
            total += found[1] + found[2]
            own[pid] = found[1]
    return total, own


def busy_ticks() -> int:
    """All CPUs' busy time (everything but idle and iowait) since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return sum(values) - values[3] - values[4]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


class PostgresSampler(threading.Thread):
    """Samples the postmaster's children: each one's CPU ticks when first and last seen, and
    what it is (a backend of database X, a parallel worker of backend N, a server process)."""

    def __init__(self, postmaster: int, databases: set[str], interval: float = 0.05):
        super().__init__(daemon=True)
        self.postmaster, self.databases, self.interval = postmaster, databases, interval
        self.first: dict[int, int] = {}  # pid -> ticks when first seen (0 when born in the window)
        self.last: dict[int, int] = {}  # pid -> ticks when last seen
        self.kind: dict[int, str] = {}  # pid -> "ours", "server", "other", "new" or "parallel:<leader pid>"
        self.names: dict[int, str] = {}
        self.stop_event = threading.Event()
        self.samples = 0

    def _classify(self, pid: int) -> str:
        text = cmdline(pid)
        if not text.startswith("postgres:"):
            return "new"  # just forked: still the postmaster's command line, its title not set yet
        leader = re.search(r"parallel worker for PID (\d+)", text)
        if leader:
            return f"parallel:{leader.group(1)}"
        # "postgres: [<cluster>:] <user> <database> <host(port)> <state>" for a backend,
        # "postgres: [<cluster>:] autovacuum worker <database>" for autovacuum on a database
        words = text.split()[1:]
        if words and words[0].endswith(":"):
            words = words[1:]
        if words[:2] == ["autovacuum", "worker"] and len(words) > 2:
            return "ours" if words[2] in self.databases else "other"
        if len(words) > 2 and re.fullmatch(r".*\(\d+\)|\[local\]", words[2]):
            return "ours" if words[1] in self.databases else "other"
        return "server"

    def sample(self, first: bool = False) -> None:
        for pid in children(self.postmaster):
            found = stat(pid)
            if not found:
                continue
            if pid not in self.kind:
                self.first[pid] = found[1] if first else 0
            if self.kind.get(pid, "new") == "new":
                self.kind[pid] = self._classify(pid)
                self.names[pid] = cmdline(pid)[-60:]
            self.last[pid] = found[1]
        self.samples += 1

    def run(self) -> None:
        while not self.stop_event.wait(self.interval):
            self.sample()

    def finish(self) -> dict[str, float]:
        self.stop_event.set()
        self.join()
        self.sample()
        ours_pids = {pid for pid, kind in self.kind.items() if kind == "ours"}
        used = {"ours": 0, "server": 0, "other": 0}
        exited = {"pids": 0, "ticks": 0}
        live = set(children(self.postmaster))
        live_ours = 0  # what a meter that reads only the backends alive at the stop sees
        for pid, kind in self.kind.items():
            if kind.startswith("parallel:"):
                kind = "ours" if int(kind.split(":")[1]) in ours_pids else "other"
            elif kind == "new":
                kind = "other"  # came and went between two samples, before it named its database
            ticks = self.last[pid] - self.first[pid]
            used[kind] += ticks
            if pid not in live:
                exited["pids"] += 1
                exited["ticks"] += self.last[pid]
            elif kind == "ours":
                live_ours += ticks
        busiest = sorted(ours_pids, key=lambda pid: self.first[pid] - self.last[pid])[:4]
        return {
            "busiest": {
                f"{pid} {self.names.get(pid, '')}": (self.last[pid] - self.first[pid]) / TICK for pid in busiest
            },
            "used": used,
            "exited_seen_ticks": exited["ticks"],
            "exited_seen": exited["pids"],
            "exited_ours": sum(1 for pid in ours_pids if pid not in live),
            "live_ours": live_ours,
        }


class CpuMeter:
    """CPU seconds used between start() and stop() by each part of the stack: each server's
    process tree (``servers``: objects with ``name`` and ``proc.pid``, the root living through
    the window), PostgreSQL's processes for ``databases`` and its server processes, the Redis
    server (``redis_pid``; shared with other users of that Redis), this process and its
    children (the load client: not the stack), and everything else on the machine (other
    people's work: the noise in the latency figures)."""

    def __init__(
        self,
        *servers,
        postmaster: int | None = None,
        databases: set[str] = frozenset(),
        redis_pid: int | None = None,
        interval: float = 0.05,
    ):
        self.servers, self.postmaster, self.databases = servers, postmaster, set(databases)
        self.redis_pid, self.interval = redis_pid, interval

    def _roots(self) -> dict[str, int]:
        roots = {s.name: s.proc.pid for s in self.servers}
        if self.redis_pid:
            roots["redis"] = self.redis_pid
        return roots

    def _sample(self) -> dict:
        import resource

        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        sample = {name: tree_ticks(pid) for name, pid in self._roots().items()}
        if self.postmaster:
            sample["_postmaster_reaped"] = (stat(self.postmaster) or (0, 0, 0))[2]
        sample["_client"] = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
        sample["_busy"] = busy_ticks()
        sample["_wall"] = time.monotonic()
        return sample

    def start(self) -> CpuMeter:
        self.sampler = None
        if self.postmaster:
            self.sampler = PostgresSampler(self.postmaster, self.databases, self.interval)
            self.sampler.sample(first=True)
        self.before = self._sample()
        if self.sampler:
            self.sampler.start()
        return self

    def stop(self) -> dict:
        after = self._sample()
        before = self.before
        roots = self._roots()
        used = {name: (after[name][0] - before[name][0]) / TICK for name in roots}
        # The same window as a meter that reads only the processes alive at the stop would see it.
        live_only = {
            name: sum(t - before[name][1].get(pid, 0) for pid, t in after[name][1].items()) / TICK for name in roots
        }
        extra = {}
        if self.sampler:
            pg = self.sampler.finish()
            used["postgres"] = pg["used"]["ours"] / TICK
            live_only["postgres"] = pg["live_ours"] / TICK
            reaped = (after["_postmaster_reaped"] - before["_postmaster_reaped"]) / TICK
            extra = {
                "postgres_server_s": round(pg["used"]["server"] / TICK, 2),
                "postgres_other_databases_s": round(pg["used"]["other"] / TICK, 2),
                "postgres_reaped_s": round(reaped, 2),
                "postgres_reaped_unseen_s": round(max(reaped - pg["exited_seen_ticks"] / TICK, 0), 2),
                "postgres_exited_backends": pg["exited_ours"],
                "postgres_samples": self.sampler.samples,
                "postgres_busiest_s": pg["busiest"],
            }
        wall = after["_wall"] - before["_wall"]
        busy = (after["_busy"] - before["_busy"]) / TICK
        client = after["_client"] - before["_client"]
        stack = sum(used.values())
        return {
            "cpu_s": {**{k: round(v, 2) for k, v in used.items()}, "client": round(client, 2)},
            "stack_s": round(stack, 2),
            "live_only_stack_s": round(sum(live_only.values()), 2),
            "wall_s": round(wall, 2),
            "machine_busy_cores": round(busy / wall, 2),
            "others_cores": round(max(busy - stack - client, 0) / wall, 2),
            **extra,
            "counted": "every process of each server's tree, exited ones included (reaped CPU); the "
            "PostgreSQL backends of " + ", ".join(sorted(self.databases) or ["-"]) + " sampled "
            f"every {self.interval * 1000:.0f} ms, exited ones to their last sample (the server's "
            "own processes, shared by every database, apart); Redis whole; not the load client",
        }


# -- the experiment ----------------------------------------------------------------------------


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def check(database_url: str | None = None) -> int:
    """Children that burn known CPU and exit inside the window are counted by the tree's sums;
    PostgreSQL backends that burn CPU and disconnect are counted by the postmaster's reaped CPU
    and (to their last sample) by the sampler. Prints the figures; 1 when a claim fails."""
    import subprocess

    failures = 0
    # 1. A parent that forks 3 children one after the other; each burns 0.3 s and exits.
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import os, sys, time\n"
                "sys.stdin.readline()\n"
                "for _ in range(3):\n"
                "    pid = os.fork()\n"
                "    if pid == 0:\n"
                "        end = time.process_time() + 0.3\n"
                "        while time.process_time() < end: pass\n"
                "        os._exit(0)\n"
                "    os.waitpid(pid, 0)\n"
                "print('done', flush=True)\n"
                "sys.stdin.readline()\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )

    class Server:
        name, proc = "parent", parent

    time.sleep(0.3)
    meter = CpuMeter(Server).start()
    live_only = sum((stat(p) or (0, 0, 0))[1] for p in tree(parent.pid))
    parent.stdin.write("go\n")
    parent.stdin.flush()
    parent.stdout.readline()
    live_after = sum((stat(p) or (0, 0, 0))[1] for p in tree(parent.pid))
    cpu = meter.stop()
    parent.stdin.write("end\n")
    parent.stdin.flush()
    parent.wait(10)
    counted = cpu["cpu_s"]["parent"]
    ok = 0.85 <= counted <= 1.1
    failures += not ok
    print(
        f"forked children (3 x 0.3 s, exited and reaped in the window): counted {counted:.2f} s by own + "
        f"reaped CPU; live processes' own CPU alone saw {(live_after - live_only) / TICK:.2f} s: "
        f"{'ok' if ok else 'FAILED'}"
    )

    # 2. PostgreSQL: 4 connections, each burns CPU in its backend and disconnects in the window.
    if database_url:
        import psycopg

        with psycopg.connect(database_url, autocommit=True) as conn:
            postmaster = stat(conn.execute("SELECT pg_backend_pid()").fetchone()[0])[0]
            name = conn.execute("SELECT current_database()").fetchone()[0]
        meter = CpuMeter(postmaster=postmaster, databases={name}).start()
        backend_cpu = 0
        for _ in range(4):
            with psycopg.connect(database_url, autocommit=True) as conn:
                conn.execute("SET max_parallel_workers_per_gather = 0")
                time.sleep(0.12)  # seen by the sampler at least once
                conn.execute("SELECT count(*) FROM generate_series(1, 4000000)")
                backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
                backend_cpu += stat(backend)[1]
        time.sleep(0.3)  # the last backend exits and is reaped
        cpu = meter.stop()
        reaped, seen = cpu["postgres_reaped_s"], cpu["cpu_s"]["postgres"]
        ok = reaped >= backend_cpu / TICK * 0.95 and seen >= backend_cpu / TICK * 0.8
        failures += not ok
        print(
            f"PostgreSQL: 4 backends burnt {backend_cpu / TICK:.2f} s and disconnected: the postmaster reaped "
            f"{reaped:.2f} s (every database; other databases' live backends {cpu['postgres_other_databases_s']}"
            f" s), the sampler counted {seen:.2f} s for {name} ({cpu['postgres_exited_backends']} exited; "
            f"unseen reaped {cpu['postgres_reaped_unseen_s']} s; the backends alive at the stop alone: "
            f"{cpu['live_only_stack_s']:.2f} s): {'ok' if ok else 'FAILED'}"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    if "--check" not in sys.argv:
        raise SystemExit(__doc__)
    sys.exit(check(os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/eh_bench")))
