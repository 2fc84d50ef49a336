#!/usr/bin/env python
"""A year at a million players a day, simulated: N days of M players through the service's own
code, on a clock moved on a day at a time, with the freeze and the idle eviction run as beat
runs them; what Redis and PostgreSQL hold after each day, and what a year of a million needs.

Each simulated day, in order:

1. beat, at the day's first run after the day before became final (its close plus the grace,
   plus beat's 10 minutes): ``freeze.days_freeze(now=...)`` (the task ``freeze_days``: the day
   before frozen into PostgreSQL, its Redis index dropped) and ``idle.idle_boards_evict(now=...)``
   (the task ``evict_idle_boards``), both given the simulated clock; then the day before's top
   page, a deep page and some players' ``around=me`` are read again from PostgreSQL and must
   be the bytes they were while the day was open;
2. the day's play: M players (the same ones every day) each a verified result of the day's
   deal, bulk-loaded by ``_seed.verified_results``, and the day's Redis index loaded by the
   service's own ``entries.board_rebuild`` (as bench_leaderboard.py does); then a share of
   the players practise a numbered deal (``--numbered``): half of those plays go to the deals
   of recent days (the deal of k days ago drawn with weight 2^-k: the boards of the last week
   or two stay busy), half to a deal drawn from all 999,999 (a board touched once, then idle).
   Each play is a copy of the player's daily result (``_seed.numbered_plays``) put on its
   board as the service does after a verification (``entries.boards_refresh_verified``, the
   index written after commit), and its board read as the board's view prepares it
   (``entries.index_ensure``: an evicted board is rebuilt from PostgreSQL). The index stamps a
   board's last write by the real clock: the simulation moves the stamps of the day's boards
   to the simulated time of the plays (noon), the only state it sets by hand;
3. the figures: Redis (``INFO memory`` of the whole server, and the bytes and keys of this
   Redis db by kind, ``MEMORY USAGE`` of every key: other people's dbs on the same server do
   not count), PostgreSQL (``pg_total_relation_size`` of the main tables, partitions included;
   rows), the freeze's time.

Checked, and the exit status is 1 when one fails: after each day Redis holds the open day's
index and no other day's, and exactly the numbered boards played in the last BOARD_IDLE_DAYS
(simulated) days; a frozen day reads as it did open; this db's Redis bytes are flat: the open
day's index the same size every day, from day 3 on no day above the steady state (the median
of the last third of the days) by more than 10%, and the last third within 10% of it. (The
numbered boards fill their window over the first days: a board stays while played, then
BOARD_IDLE_DAYS more, so that part grows to its ceiling, below the steady state, not past it.)

What the simulation cannot move: Redis' own expiry runs on the real clock, so a numbered
board's rows (kept ``index.ROWS_SECONDS`` after its last write) and the cached pages never
expire within a run: Redis here holds at least what the service would.

    .venv/bin/python benchmarks/bench_year.py --quick    # 5 days x 5,000 players, BOARD_IDLE_DAYS=2
    .venv/bin/python benchmarks/bench_year.py            # 30 days x 100,000 players
    .venv/bin/python benchmarks/bench_year.py --days 10 --players 20000 --idle-days 3

Its own database and Redis db (``eh_bench_year``, db 11) unless BENCH_DATABASE_URL /
BENCH_REDIS_URL say otherwise.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from datetime import timedelta

os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/eh_bench_year")
os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")

import _stack  # noqa: E402  (reads the two variables above)

TABLES = [
    "leaderboard_submission",
    "leaderboard_attempt",
    "leaderboard_boardentry",
    "leaderboard_frozenboard",
    "leaderboard_dailydeal",
    "auth_user",
    "authtoken_token",
]
MAIN = TABLES[:3]
YEAR_DAYS, YEAR_PLAYERS = 365, 1_000_000
REDIS_GOAL = 2 * 2**30
SAMPLE_PLAYERS = 5  # whose around=me is compared before and after each freeze
FLAT = 0.10


def redis_client():
    import redis

    return redis.Redis.from_url(_stack.REDIS_URL)


# -- the figures ---------------------------------------------------------------------------------


def key_kind(key: str, prefix: str) -> tuple[str, str | None]:
    """``(kind, board)`` of a key of this Redis db."""
    found = re.match(rf"{re.escape(prefix)}:((daily|deal):[^:]+):", key)
    if found:
        return ("daily index" if found.group(2) == "daily" else "deal index"), found.group(1)
    if key == f"{prefix}:touched":
        return "touched", None
    if ":board-version:" in key or ":board-top-version:" in key:
        return "board versions", None
    if ":board:" in key:
        return "cached pages", None
    return "other", None


def redis_figures(client) -> dict:
    """This db's keys and bytes by kind (``MEMORY USAGE``, exact: SAMPLES 0), the boards whose
    index is in it, and the whole server's ``used_memory`` (shared with other dbs)."""
    from leaderboard.boards import index

    while client.info("memory").get("lazyfree_pending_objects", 0):
        time.sleep(0.05)  # a dropped board is freed in the background (UNLINK)
    keys = sorted({key.decode() for key in client.scan_iter(count=5000)})  # SCAN may repeat a key
    sizes = []
    for start in range(0, len(keys), 2000):
        pipe = client.pipeline(transaction=False)
        for key in keys[start : start + 2000]:
            pipe.memory_usage(key, samples=0)
        sizes += pipe.execute()
    kinds: dict = defaultdict(lambda: {"keys": 0, "bytes": 0})
    boards: dict = {"daily": set(), "deal": set()}
    for key, size in zip(keys, sizes):
        kind, board = key_kind(key, index.KEY_PREFIX)
        kinds[kind]["keys"] += 1
        kinds[kind]["bytes"] += size or 0
        if board:  # any key of a board's index: a partial index counts too
            boards[board.split(":")[0]].add(board)
    memory = client.info("memory")
    return {
        "db_bytes": sum(size or 0 for size in sizes),
        "db_keys": len(keys),
        "kinds": dict(kinds),
        "daily_indexes": sorted(boards["daily"]),
        "deal_indexes": len(boards["deal"]),
        "deal_boards": boards["deal"],
        "server_used_memory": memory["used_memory"],
    }


def postgres_figures() -> dict:
    """Bytes (table, indexes, TOAST; every partition of a partitioned table) and rows of the main
    tables, and the database's size."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            """
            SELECT t, sum(pg_total_relation_size(p.relid))::bigint, coalesce(sum(s.n_live_tup), 0)::bigint
            FROM unnest(%s::text[]) AS t
            CROSS JOIN LATERAL (SELECT t::regclass AS relid UNION SELECT relid FROM pg_partition_tree(t::regclass)) p
            LEFT JOIN pg_stat_user_tables s ON s.relid = p.relid
            GROUP BY t""",
            [TABLES],
        )
        tables = {name: {"bytes": size, "rows": rows} for name, size, rows in cursor.fetchall()}
        cursor.execute("SELECT pg_database_size(current_database())")
        database = cursor.fetchone()[0]
    return {"tables": tables, "main_bytes": sum(tables[name]["bytes"] for name in MAIN), "database_bytes": database}


# -- the simulation ------------------------------------------------------------------------------


class Year:
    def __init__(self, args, days_list, games):
        from leaderboard.boards import order

        self.args, self.days, self.games = args, days_list, games
        self.client = redis_client()
        self.next_id = 1
        self.deal_numbers: dict = {}  # day -> its deal's number
        self.played: dict[str, float] = {}  # numbered board -> its last play, simulated unix time
        self.last_beat = None
        self.snapshots: dict = {}  # board -> reads while open
        self.problems: list[str] = []
        self.results = {"daily": 0, "numbered": 0}
        self.order = order

    # the clock: beat's first run after ``day``'s eve became final
    @staticmethod
    def beat_time(day):
        from leaderboard.core import days

        return days.day_accepts_until(day - timedelta(days=1)) + timedelta(minutes=10)

    def beat(self, day) -> dict:
        """The freeze and the eviction, as beat's tasks call them, at the simulated clock."""
        from leaderboard.boards import freeze
        from leaderboard.boards.services import idle

        now = self.last_beat = self.beat_time(day)
        t = time.perf_counter()
        frozen = freeze.days_freeze(now=now)
        freeze_s = time.perf_counter() - t
        t = time.perf_counter()
        evicted = idle.idle_boards_evict(now=now.timestamp())
        evict_s = time.perf_counter() - t
        compared = sum(self.check_reads(board) for board in frozen)
        return {
            "frozen": frozen,
            "reads_compared": compared,
            "freeze_s": round(freeze_s, 2),
            "evicted": len(evicted),
            "evict_s": round(evict_s, 2),
        }

    def play(self, k: int, day) -> dict:
        """Day ``k``'s daily results (bulk) and index (the service's rebuild), then its numbered plays."""
        import _seed

        from leaderboard.boards.services import entries
        from tests.leaderboard_fixtures.timing import human_times

        players = self.args.players
        game = self.games[(k - 1) % len(self.games)]
        timings = {}
        t = time.perf_counter()
        _seed.daily_deal(day, game)
        from leaderboard.models import DailyDeal

        self.deal_numbers[day] = DailyDeal.objects.get(date=day).number
        daily_first = self.next_id
        # every row stores the game's log and a person's times for it, as intake stores them
        times = human_times(game["deal"], game["actions"], k)
        _seed.verified_results(players, day, game, seed=(k % 1000) / 1000, times=times, first_id=daily_first)
        self.next_id += players
        self.results["daily"] += players
        timings["seed_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        board = self.order.daily_board(day)
        assert entries.board_rebuild(board) == players
        timings["index_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        timings["numbered_plays"] = self.numbered(k, day, daily_first)
        timings["numbered_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        _seed.analyze()
        self.snapshot(board)
        timings["analyze_s"] = round(time.perf_counter() - t, 1)
        return timings

    def numbered(self, k: int, day, daily_first: int) -> int:
        """The day's plays of numbered deals, ranked as after a verification, their boards read."""
        import _seed
        from django.db import transaction

        from games.deal import MAX_DEAL
        from leaderboard.boards import index
        from leaderboard.boards.services import entries
        from leaderboard.models import Submission

        rng = random.Random(f"numbered-{k}")
        count = round(self.args.players * self.args.numbered)
        if not count:
            return 0
        players = rng.sample(range(1, self.args.players + 1), count)
        recent = [d for d in self.days[: k - 1]]  # the days before this one, oldest first
        numbers = []
        for _ in players:
            if recent and rng.random() < 0.5:  # a recent day's deal: j days ago with weight 2^-j
                back = min(int(rng.expovariate(math.log(2))) + 1, len(recent))
                numbers.append(self.deal_numbers[recent[-back]])
            else:
                numbers.append(rng.randint(1, MAX_DEAL))
        ids = _seed.numbered_plays([daily_first + p - 1 for p in players], numbers, self.next_id)
        self.next_id += len(ids)
        self.results["numbered"] += len(ids)
        boards = set()
        for submission in list(Submission.objects.filter(pk__in=ids).defer("actions", "times", "tempo")):
            with transaction.atomic():
                entries.boards_refresh_verified(submission)  # the index written after commit
            board = self.order.deal_board(submission.deal_number)
            entries.index_ensure(board)  # the board's view, read after playing
            boards.add(board)
        # The index stamps a write by the real clock; these writes happened at noon of ``day``.
        played = (self.beat_time(day) + timedelta(hours=11, minutes=35)).timestamp()
        self.client.zadd(index.TOUCHED, {board: played for board in boards}, xx=True)
        self.played.update(dict.fromkeys(boards, played))
        return len(ids)

    # -- a closed day reads as it did open ----------------------------------------------------

    def _reads(self, board: str) -> dict:
        from django.contrib.auth import get_user_model

        from leaderboard.boards.selectors import pages as reads

        players = self.args.players
        rng = random.Random(board)
        sample = get_user_model().objects.filter(pk__in=rng.sample(range(1, players + 1), SAMPLE_PLAYERS))
        deep = max(players // 200, 2)
        return {
            "top": reads.board_page(board, 1, 100),
            f"page {deep}": reads.board_page(board, deep, 100),
            **{f"around {p.pk}": reads.board_around(board, p, 25) for p in sample},
        }

    def snapshot(self, board: str) -> None:
        self.snapshots[board] = self._reads(board)

    def check_reads(self, board: str) -> int:
        """The frozen ``board`` reads what it read open; the number of reads compared."""
        before = self.snapshots.pop(board, None)
        if before is None:
            return 0
        after = self._reads(board)
        differ = [name for name in before if before[name] != after[name]]
        if differ:
            self.problems.append(f"{board} frozen reads differently from open: {differ}")
        return len(after)

    # -- what Redis must hold ---------------------------------------------------------------

    def check_redis(self, day, figures: dict) -> list[str]:
        """The open day's index and no other day's; the numbered boards played in the
        BOARD_IDLE_DAYS (simulated) days before the last eviction, and since, exactly."""
        problems = []
        if figures["daily_indexes"] != [self.order.daily_board(day)]:
            problems.append(f"daily indexes in Redis: {figures['daily_indexes']}")
        since = self.last_beat.timestamp() - self.args.idle_days * 86400
        expected = {board for board, played in self.played.items() if played > since}
        if figures["deal_boards"] != expected:
            problems.append(
                f"numbered boards in Redis: {len(figures['deal_boards'])}, expected {len(expected)} "
                f"(extra {len(figures['deal_boards'] - expected)}, "
                f"missing {len(expected - figures['deal_boards'])})"
            )
        return problems


# -- report ------------------------------------------------------------------------------------


def mb(value: float) -> str:
    return f"{value / 2**20:,.1f}"


def print_row(row: dict, header: bool = False) -> None:
    columns = [
        "day",
        "date",
        "results",
        "freeze s",
        "evicted",
        "deal boards",
        "Redis db MiB",
        "open day MiB",
        "numbered MiB",
        "versions MiB",
        "server MiB",
        "PG main MiB",
        "PG db MiB",
        "entries",
    ]
    if header:
        print(" | ".join(columns), flush=True)
        return
    kinds = row["redis"]["kinds"]
    values = [
        row["day"],
        row["date"],
        f"{row['results']:,}",
        row["beat"]["freeze_s"],
        row["beat"]["evicted"],
        row["redis"]["deal_indexes"],
        mb(row["redis"]["db_bytes"]),
        mb(kinds.get("daily index", {}).get("bytes", 0)),
        mb(kinds.get("deal index", {}).get("bytes", 0) + kinds.get("touched", {}).get("bytes", 0)),
        mb(kinds.get("board versions", {}).get("bytes", 0)),
        mb(row["redis"]["server_used_memory"]),
        mb(row["postgres"]["main_bytes"]),
        mb(row["postgres"]["database_bytes"]),
        f"{row['postgres']['tables']['leaderboard_boardentry']['rows']:,}",
    ]
    print(" | ".join(str(v) for v in values), flush=True)


def flatness(rows: list[dict]) -> tuple[dict, list[str]]:
    """This db's Redis bytes: the steady state (the median of the last third of the days, at
    least 3), and what breaks flatness: from day 3 on no day above the steady state by more than
    10% (nothing grows past it), the last third within 10% of it, and the open day's index the
    same size (within 10%) every day."""
    if len(rows) < 3:
        return {}, ["too few days to see a steady state: run at least 3"]
    tail = rows[-max(3, len(rows) // 3) :]
    steady = statistics.median(row["redis"]["db_bytes"] for row in tail)
    open_days = [row["redis"]["kinds"].get("daily index", {}).get("bytes", 0) for row in rows]
    open_day = statistics.median(open_days)
    problems = []
    for row in rows:
        size = row["redis"]["db_bytes"]
        if row in tail and abs(size - steady) > FLAT * steady:
            problems.append(f"day {row['day']}: {mb(size)} MiB, more than 10% from the steady {mb(steady)} MiB")
        elif row["day"] >= 3 and size > (1 + FLAT) * steady:
            problems.append(f"day {row['day']}: {mb(size)} MiB, above the steady {mb(steady)} MiB by more than 10%")
    for row, size in zip(rows, open_days):
        if abs(size - open_day) > FLAT * open_day:
            problems.append(f"day {row['day']}: the open day's index {mb(size)} MiB, not {mb(open_day)} MiB")
    spread = [row["redis"]["db_bytes"] for row in rows if row["day"] >= 3]
    return {
        "steady_db_bytes": steady,
        "steady_days": [row["day"] for row in tail],
        "from_day_3_min": min(spread),
        "from_day_3_max": max(spread),
        "open_day_bytes": open_day,
    }, problems


def extrapolate(rows: list[dict], args, boards_ever: int) -> dict:
    """A year of a million players a day from the simulated days: Redis at its steady state,
    PostgreSQL bytes per result, the disk a year needs."""
    last = rows[-1]
    scale = YEAR_PLAYERS / args.players
    steady_rows = rows[-max(3, len(rows) // 3) :]

    def kind(row, name):
        return row["redis"]["kinds"].get(name, {}).get("bytes", 0)

    def mean(name):
        return statistics.mean(kind(row, name) for row in steady_rows)

    open_day = mean("daily index") * scale  # the open day's index: one day of a million
    numbered = (mean("deal index") + mean("touched")) * scale  # plays scale with the players
    pages = mean("cached pages")  # the pages this script read (5 minutes' cache): not players' doing
    # A board's page versions never expire (leaderboard.cache): they grow by the boards ever
    # changed, up to every numbered deal (999,999) once the random plays have drawn them all.
    from games.deal import MAX_DEAL

    per_board = kind(last, "board versions") / boards_ever
    random_plays = YEAR_DAYS * YEAR_PLAYERS * args.numbered / 2
    boards_a_year = MAX_DEAL * (1 - math.exp(-random_plays / MAX_DEAL)) + 2 * YEAR_DAYS
    versions_year = per_board * boards_a_year
    baseline = 1_000_000  # an empty Redis server's own memory (used_memory_startup, about 0.9 MB)
    # The peak of a day: its eve's index is frozen and dropped within beat's 10 minutes after its
    # grace, plus the freeze's time; meanwhile both days are in Redis, today's barely started.
    steady = open_day + numbered + pages + baseline
    first_pg = rows[0]["postgres"]
    grown = last["postgres"]["main_bytes"] - first_pg["main_bytes"]
    results = last["results"] - rows[0]["results"]
    per_result = grown / results if results else float("nan")
    db_per_result = (last["postgres"]["database_bytes"] - first_pg["database_bytes"]) / results if results else 0
    year_results = YEAR_DAYS * YEAR_PLAYERS * (1 + args.numbered)
    freeze = [row["beat"]["freeze_s"] for row in rows if row["beat"]["frozen"]]
    return {
        "redis_steady_bytes": round(steady),
        "redis_open_day_bytes": round(open_day),
        "redis_numbered_bytes": round(numbered),
        "redis_cached_pages_bytes": round(pages),
        "redis_versions_after_a_year_bytes": round(versions_year),
        "boards_after_a_year": round(boards_a_year),
        "redis_steady_plus_versions_bytes": round(steady + versions_year),
        "redis_goal_bytes": REDIS_GOAL,
        "redis_goal_met": steady + versions_year < REDIS_GOAL,
        "postgres_bytes_per_result": round(per_result),
        "postgres_db_bytes_per_result": round(db_per_result),
        "results_a_year": round(year_results),
        "postgres_bytes_a_year": round(per_result * year_results),
        "freeze_s_mean": round(statistics.mean(freeze), 2) if freeze else None,
        "freeze_s_at_a_million": round(statistics.mean(freeze) * scale, 1) if freeze else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="5 days x 5,000 players, BOARD_IDLE_DAYS 2")
    parser.add_argument("--days", type=int)
    parser.add_argument("--players", type=int)
    parser.add_argument(
        "--numbered",
        type=float,
        default=0.05,
        help="plays of numbered deals a day, as a share of the players (default 0.05)",
    )
    parser.add_argument("--idle-days", type=int, help="BOARD_IDLE_DAYS (default: the setting's, 7)")
    args = parser.parse_args()
    args.days = args.days or (5 if args.quick else 30)
    args.players = args.players or (5_000 if args.quick else 100_000)
    if args.idle_days is None and args.quick:
        args.idle_days = 2
    if args.idle_days is not None:
        os.environ["BOARD_IDLE_DAYS"] = str(args.idle_days)  # read by config/settings.py

    _stack.django_setup()
    _stack.migrate()
    import _seed
    from django.conf import settings

    from leaderboard.core import days

    args.idle_days = settings.BOARD_IDLE_DAYS
    # The simulated days end two days before the real today: each of them, and its grace, is
    # past by the real clock too, so reads outside the simulated clock (the views' own) find
    # the frozen days frozen and the open one open.
    first = days.today() - timedelta(days=args.days + 2)
    days_list = [first + timedelta(days=k) for k in range(args.days)]
    results = {
        "machine": _stack.machine(),
        "days": args.days,
        "players": args.players,
        "numbered_share": args.numbered,
        "board_idle_days": args.idle_days,
        "first_day": days_list[0].isoformat(),
        "rows": [],
    }
    print(
        f"{args.days} days x {args.players:,} players, numbered plays {args.numbered:.0%} of the players a day, "
        f"BOARD_IDLE_DAYS {args.idle_days}, days {days_list[0]} .. {days_list[-1]} "
        f"(load {_stack.loadavg()})",
        flush=True,
    )
    client = redis_client()
    _seed.reset(client)
    _seed.players(args.players, tokens_every=args.players)
    year = Year(args, days_list, _stack.won_games())
    problems: list[str] = []
    started = time.perf_counter()
    print_row({}, header=True)
    for k, day in enumerate(days_list, 1):
        beat = year.beat(day)
        timings = year.play(k, day)
        redis_now = redis_figures(client)
        problems += [f"day {k}: {p}" for p in year.check_redis(day, redis_now)]
        row = {
            "day": k,
            "date": day.isoformat(),
            "results": year.results["daily"] + year.results["numbered"],
            "numbered_results": year.results["numbered"],
            "beat": beat,
            "timings": timings,
            "redis": {key: value for key, value in redis_now.items() if key != "deal_boards"},
            "postgres": postgres_figures(),
            "loadavg": _stack.loadavg(),
        }
        results["rows"].append(row)
        print_row(row)
    results["wall_s"] = round(time.perf_counter() - started)
    flat, flat_problems = flatness(results["rows"])
    problems += flat_problems
    results["flatness"] = flat
    results["boards_ever"] = len(year.played) + len(days_list)
    results["extrapolation"] = extrapolate(results["rows"], args, results["boards_ever"])
    problems += year.problems
    if len(days_list) > 1 and not sum(row["beat"]["reads_compared"] for row in results["rows"]):
        problems.append("no frozen day was read against its open reads")
    results["problems"] = problems
    x = results["extrapolation"]
    print(
        f"\nsteady state of this Redis db: {mb(flat.get('steady_db_bytes', 0))} MiB "
        f"(from day 3: {mb(flat.get('from_day_3_min', 0))} .. {mb(flat.get('from_day_3_max', 0))} MiB)"
    )
    print(
        f"a year of {YEAR_PLAYERS:,} players a day: Redis steady {mb(x['redis_steady_bytes'])} MiB "
        f"(the open day {mb(x['redis_open_day_bytes'])}, numbered boards {mb(x['redis_numbered_bytes'])}, "
        f"cached pages {mb(x['redis_cached_pages_bytes'])}) + board versions after a year "
        f"{mb(x['redis_versions_after_a_year_bytes'])} MiB: goal < 2 GB "
        f"{'met' if x['redis_goal_met'] else 'MISSED'}"
    )
    print(
        f"PostgreSQL {x['postgres_bytes_per_result']:,} bytes per result (main tables; "
        f"{x['postgres_db_bytes_per_result']:,} for the whole database), "
        f"{x['results_a_year']:,} results a year: {x['postgres_bytes_a_year'] / 2**30:,.0f} GiB a year; "
        f"the freeze {x['freeze_s_mean']} s a day here, ~{x['freeze_s_at_a_million']} s at a million"
    )
    _stack.save_results("year-quick" if args.quick else "year", results)
    if problems:
        print("\nFAILED:\n  " + "\n  ".join(problems))
        return 1
    print(
        "\nchecks passed: Redis holds the open day and the recent numbered boards only; its bytes flat at "
        "the end and never above that from day 3"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
