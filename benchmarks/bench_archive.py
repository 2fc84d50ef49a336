"""manage.py archive_month on a month of N seeded results (docs/partitions.md): the time to
write, check and detach it, the archive's bytes per result, and the month's partitions' bytes
before and after (the results on the boards stay, without their logs).

    .venv/bin/python benchmarks/bench_archive.py [--quick | --players N]

One day of the month holds every result (``_seed.verified_results``, on its frozen board);
each seeded row stores the same real log, given that log's real result here, since the
archive's check replays every log against its result. So the file compresses far better than
a month of different games would: its bytes per result are a floor, not an estimate.
"""

import argparse
import os
import tempfile
import time
from datetime import date

import _seed
import _stack

DAY = date(2026, 9, 5)


def sizes(month: date) -> dict:
    from django.db import connection

    from leaderboard.history.services import partitions

    with connection.cursor() as cursor:
        found = {}
        for table in partitions.TABLES:
            cursor.execute(
                "SELECT pg_total_relation_size(%s::regclass)", [f'"{partitions.partition_name(table, month)}"']
            )
            found[table] = cursor.fetchone()[0]
        return found


def seed(players: int) -> None:
    import redis
    from django.db import connection

    from games import replay
    from leaderboard.boards import freeze
    from leaderboard.history.services import partitions

    month = partitions.month_of(DAY)
    _seed.reset(redis.Redis.from_url(_stack.REDIS_URL))
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE leaderboard_frozenboard, leaderboard_archivedmonth")
        for table in partitions.TABLES:  # a previous run's kept partitions
            cursor.execute(f'DROP TABLE IF EXISTS "{partitions.partition_name(table, month)}_archived"')
    game = _stack.won_games()[0]
    _seed.players(players)
    _seed.daily_deal(DAY, game)
    partitions.month_ensure(month)
    _seed.verified_results(players, DAY, game, times=list(range(0, 1000 * len(game["actions"]), 1000)))
    result = replay(game["deal"], game["actions"])
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE leaderboard_submission SET won = %s, score = %s, moves = %s, foundation = %s, undos = %s, "
            "take_backs = %s, stock_passes = %s, waste_to_column = %s",
            [
                result.won,
                result.score,
                result.moves,
                result.foundation,
                result.undos,
                result.take_backs,
                result.stock_passes,
                result.waste_to_column,
            ],
        )
        cursor.execute(f'VACUUM FULL "{partitions.partition_name("leaderboard_submission", month)}"')
    _seed.analyze()
    freeze.days_freeze(DAY)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5,000 results")
    parser.add_argument("--players", type=int, help="results in the month; default 100,000, quick 5,000")
    args = parser.parse_args()
    players = args.players or (5_000 if args.quick else 100_000)

    _stack.django_setup()
    _stack.migrate()
    from django.core.management import call_command

    from leaderboard.history.services import archive, partitions

    month = partitions.month_of(DAY)
    results = {"machine": _stack.machine(), "players": players, "month": f"{month:%Y-%m}"}
    seed(players)
    results["bytes before"] = sizes(month)
    folder = tempfile.mkdtemp(prefix="eh-archive-")
    wall, cpu = time.perf_counter(), time.process_time()
    record = archive.month_archive(month, directory=folder)
    results["archive_month s"] = round(time.perf_counter() - wall, 2)
    results["archive_month cpu s"] = round(time.process_time() - cpu, 2)
    results["bytes after"] = sizes(month)
    results["file bytes per result"] = round(os.path.getsize(record.path) / max(record.submissions, 1))
    results["kept"] = record.kept
    wall = time.perf_counter()
    call_command("replay", "--archive", record.path)
    results["replay --archive s"] = round(time.perf_counter() - wall, 2)
    results["loadavg"] = _stack.loadavg()
    per = {table: round(results["bytes before"][table] / players) for table in partitions.TABLES}
    kept = {table: round(results["bytes after"][table] / max(record.kept, 1)) for table in partitions.TABLES}
    print(
        f"{players:,} results: archive_month {results['archive_month s']} s "
        f"({1000 * results['archive_month s'] / players:.2f} ms a result, {results['archive_month cpu s']} s CPU "
        f"in this process), replay --archive {results['replay --archive s']} s; "
        f"file {results['file bytes per result']} bytes a result (one log repeated: a floor)"
    )
    print(f"partition bytes a result before {per}, a kept result after {kept} (load {results['loadavg']})")
    _stack.save_results("archive-quick" if args.quick else "archive", results)


if __name__ == "__main__":
    main()
