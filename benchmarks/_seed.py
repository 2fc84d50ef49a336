"""Bulk loading of the benchmark database: players, tokens, attempts and verified results.

Everything is generated inside PostgreSQL (INSERT ... SELECT over generate_series, with a fixed
random seed), which loads a million rows of each table in a few minutes. Only the benchmark
database (BENCH_DATABASE_URL) is ever touched. Call ``_stack.django_setup()`` first.
"""

from __future__ import annotations

import json
import time
from datetime import date

TABLES = [
    "authtoken_token",
    "leaderboard_boardentry",
    "leaderboard_playerstats",
    "leaderboard_submission",
    "leaderboard_attempt",
    "leaderboard_dailydeal",
    "leaderboard_frozenboard",
    "django_session",
    "auth_user",
]

# boards.order.rank_key in SQL (checked against the Python function by check_rank_keys).
# leaderboard.boards.order.rank_key of a seeded result: no hints; a loss has moves % 100 cards home.
RANK_KEY_SQL = """CASE WHEN won THEN
    (LEAST(moves, 65535)::bigint << 35) | ((65535 - LEAST(score, 65535))::bigint << 19)
    | LEAST(duration_ms / 1000, 524287)::bigint
  ELSE (1::bigint << 51) | ((104 - mod(moves, 100))::bigint << 44) | (LEAST(moves, 65535)::bigint << 28)
    | ((65535 - LEAST(score, 65535))::bigint << 12) | LEAST(duration_ms / 1000, 4095)::bigint END"""


def token_key(i: int) -> str:
    """The token of player ``i`` (the same formula as the SQL below)."""
    import hashlib

    head = hashlib.md5(f"tok-{i}".encode()).hexdigest()
    return head + hashlib.md5(f"tok2-{i}".encode()).hexdigest()[:8]


TOKEN_SQL = "md5('tok-' || i) || substr(md5('tok2-' || i), 1, 8)"


def reset(redis_client) -> None:
    """Empty the benchmark database's tables and the benchmark Redis db."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
    redis_client.flushdb()


def daily_deal(day: date, game: dict) -> None:
    from django.db import connection

    from games import parse_code

    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO leaderboard_dailydeal (date, number, solution, candidates_tried, created_at) "
            "VALUES (%s, %s, %s, 1, now()) ON CONFLICT (date) DO NOTHING",
            [day, parse_code(game["deal"]).number, json.dumps(game["actions"])],
        )


def players(n: int, first: int = 1, tokens_every: int = 1) -> None:
    """Players ``first`` .. ``first + n - 1`` named p0000001..., with an unusable password;
    every ``tokens_every``-th one gets an API token (``token_key(i)``)."""
    from django.db import connection

    last = first + n - 1
    with connection.cursor() as cursor:
        cursor.execute(f"""
            INSERT INTO auth_user (id, password, is_superuser, username, first_name, last_name, email,
                                   is_staff, is_active, date_joined)
            SELECT i, '!', false, 'p' || lpad(i::text, 7, '0'), '', '', '', false, true,
                   now() - interval '30 days'
            FROM generate_series({first}, {last}) AS i""")
        cursor.execute(f"""
            INSERT INTO authtoken_token (key, created, user_id)
            SELECT {TOKEN_SQL}, now(), i FROM generate_series({first}, {last}) AS i
            WHERE i % {tokens_every} = 0""")
        cursor.execute("SELECT setval(pg_get_serial_sequence('auth_user', 'id'), (SELECT max(id) FROM auth_user))")


def attempts(n: int, code: str, number: int, day: date | None, minutes_ago=(5, 30), first: int = 1) -> list[str]:
    """One attempt per player ``first`` .. ``first + n - 1`` on deal ``code``, started a random
    5 to 30 minutes ago (``minutes_ago``) by the server's clock: the players took that long to
    play, so their results are plausible (MAX_ACTIONS_PER_SECOND stays at the project's setting)
    and their action times fit (``minutes_ago`` must start past the longest game's last time).
    A daily attempt is each player's first of the day: ranked, no hints."""
    from django.db import connection

    low, high = minutes_ago
    last = first + n - 1
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO leaderboard_attempt (id, deal_code, deal_number, daily_date, started_at, player_id,
                                             ranked, hints)
            SELECT md5('attempt-' || i || '-' || %s)::uuid, %s, %s, %s,
                   now() - make_interval(secs => 60 * ({low} + random() * {high - low})), i, %s, 0
            FROM generate_series({first}, {last}) AS i
            RETURNING id""",
            [time.time_ns(), code, number, day, day is not None],
        )
        return [str(row[0]) for row in cursor.fetchall()]


def verified_results(
    n: int,
    day: date,
    game: dict,
    *,
    won_share: float = 0.7,
    seed: float = 0.42,
    times: list[int] | None = None,
    first_id: int = 1,
) -> None:
    """``n`` players (1..n) who each played the deal of ``day`` once, verified, on the daily
    board: users, attempts (ranked, no hints), submissions and board entries. Player ``i``'s
    submission and entry get the id ``first_id + i - 1``: several days of the same players
    take a ``first_id`` past the ids of the days before.

    Each seeded result stands for a different game (its moves, score and duration are drawn at
    random), but every row stores the same real move log, for its size (in the compact encoding
    of the Submission fields, games.compact, as intake stores it): so ``log_hash`` is a
    distinct placeholder per row (sha256 of ``seed-log-<id>``), not the log's hash, and no seeded
    row is a copy of another (the copy check finds none) or the original of a live submission
    (its attempt, claim and log hash are made from the submission's id).
    ``times``: the action times stored on every row (compact), for the row's size; by default
    none (``times`` NULL, as before they were required): reads never look at them."""
    from django.db import connection

    from games import compact, format_code, parse_code

    number = parse_code(game["deal"]).number
    code = format_code(number, "D")
    actions = compact.encode_log(game["actions"])
    stored_times = None if times is None else compact.encode_times(times)
    board = f"daily:{day.isoformat()}"
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_seed")
        cursor.execute("SELECT setseed(%s)", [seed])
        cursor.execute(
            """
            CREATE UNLOGGED TABLE bench_seed AS
            SELECT i, i + %s - 1 AS sid, won, moves, score, duration_ms, started_at,
                   started_at + make_interval(secs => duration_ms / 1000.0) AS submitted_at
            FROM (
              SELECT i, won,
                     CASE WHEN won THEN 900 + (random() * 2100)::int ELSE 50 + (random() * 1500)::int END AS moves,
                     CASE WHEN won THEN 1040 + (random() * 400)::int ELSE (random() * 1000)::int END AS score,
                     (120000 + random() * 3480000)::bigint AS duration_ms,
                     %s::date + make_interval(secs => random() * 80000) AS started_at
              FROM (SELECT i, random() < %s AS won FROM generate_series(1, %s) AS i) AS base
            ) AS shaped""",
            [first_id, day, won_share, n],
        )
        cursor.execute("ALTER TABLE bench_seed ADD COLUMN rank_key bigint")
        cursor.execute(f"UPDATE bench_seed SET rank_key = {RANK_KEY_SQL}")
        cursor.execute(
            """
            INSERT INTO leaderboard_attempt (id, deal_code, deal_number, daily_date, started_at, player_id,
                                             ranked, hints)
            SELECT md5('seed-attempt-' || sid)::uuid, %s, %s, %s, started_at, i, true, 0 FROM bench_seed""",
            [code, number, day],
        )
        cursor.execute(
            """
            INSERT INTO leaderboard_submission (
                id, deal_number, daily_date, actions, times, submitted_at, status, claim, claimed_at, verified_at,
                deliveries, won, score, moves, foundation, undos, take_backs, stock_passes, waste_to_column,
                duration_ms, hints, clean, error_index, error, rank_key, hidden, flagged, attempt_id, player_id,
                practice, flag_reasons, log_hash, attempt_started_at)
            SELECT sid, %s, %s, %s::bytea, %s::bytea, submitted_at, 'verified', md5('seed-claim-' || sid)::uuid,
                   submitted_at + interval '50 ms', submitted_at + interval '100 ms', 1,
                   won, score, moves, CASE WHEN won THEN 104 ELSE moves %% 100 END, 0, 0, 20, 10,
                   duration_ms, 0, true, NULL, '', rank_key, false, false, md5('seed-attempt-' || sid)::uuid, i,
                   false, '[]'::jsonb, encode(sha256(convert_to('seed-log-' || sid, 'UTF8')), 'hex'), started_at
            FROM bench_seed""",
            [number, day, actions, stored_times],
        )
        cursor.execute(
            """
            INSERT INTO leaderboard_boardentry (id, board, rank_key, submitted_at, player_id, submission_id)
            SELECT sid, %s, rank_key, submitted_at, i, sid FROM bench_seed""",
            [board],
        )
        for table in ("leaderboard_submission", "leaderboard_boardentry"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        cursor.execute("DROP TABLE bench_seed")


def check_rank_keys(sample: int = 1000) -> int:
    """The SQL rank keys equal leaderboard.boards.order.rank_key on a sample; returns rows checked."""
    from leaderboard.boards import order
    from leaderboard.models import Submission

    rows = Submission.objects.order_by("?").values_list(
        "won", "moves", "score", "duration_ms", "foundation", "hints", "rank_key"
    )[:sample]
    for won, moves, score, duration_ms, foundation, hints, key in rows:
        if order.rank_key(won, moves, score, duration_ms, foundation, hints) != key:
            raise AssertionError(f"SQL rank key differs from order.rank_key for {won, moves, score, duration_ms}")
    return len(rows)


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _columns(cursor, table: str) -> list[str]:
    cursor.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = %s ORDER BY ordinal_position",
        [table],
    )
    return [name for (name,) in cursor.fetchall()]


def _quoted(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def numbered_plays(sources: list[int], numbers: list[int], first_id: int) -> list[int]:
    """Plays of numbered deals (N codes, no day), each a copy of a seeded result: source
    submission ``sources[k]`` played again as deal ``numbers[k]``, by the same player, with the
    same log and result, in its own attempt; submission ids ``first_id`` onwards (returned).
    Verified, and on no board yet: the caller ranks them as the service does after a
    verification. Every other column is copied as it is, so a column added to the attempts or
    submissions is carried over."""
    from django.db import connection

    from games import format_code

    ids = list(range(first_id, first_id + len(sources)))
    codes = [format_code(number, "N") for number in numbers]
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_plays")
        cursor.execute(
            "CREATE TEMP TABLE bench_plays AS SELECT sid, source, number, code, "
            "md5('seed-play-' || sid)::uuid AS attempt "
            "FROM unnest(%s::bigint[], %s::bigint[], %s::int[], %s::text[]) AS p(sid, source, number, code)",
            [ids, sources, numbers, codes],
        )
        attempt_set = {
            "id": "p.attempt",
            "deal_code": "p.code",
            "deal_number": "p.number",
            "daily_date": "NULL",
            "ranked": "false",
            "hints": "0",
        }
        columns = _columns(cursor, "leaderboard_attempt")
        cursor.execute(
            f"INSERT INTO leaderboard_attempt ({', '.join(map(_quoted, columns))}) "
            f"SELECT {', '.join(attempt_set.get(c, 'a.' + _quoted(c)) for c in columns)} FROM bench_plays p "
            f"JOIN leaderboard_submission s ON s.id = p.source JOIN leaderboard_attempt a ON a.id = s.attempt_id"
        )
        submission_set = {
            "id": "p.sid",
            "attempt_id": "p.attempt",
            "deal_number": "p.number",
            "daily_date": "NULL",
            "claim": "md5('seed-claim-' || p.sid)::uuid",
            "practice": "false",
            "copy_of_id": "NULL",
            "log_hash": "encode(sha256(convert_to('seed-log-' || p.sid, 'UTF8')), 'hex')",
        }
        columns = _columns(cursor, "leaderboard_submission")
        cursor.execute(
            f"INSERT INTO leaderboard_submission ({', '.join(map(_quoted, columns))}) "
            f"SELECT {', '.join(submission_set.get(c, 's.' + _quoted(c)) for c in columns)} FROM bench_plays p "
            f"JOIN leaderboard_submission s ON s.id = p.source"
        )
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('leaderboard_submission', 'id'), "
            "(SELECT max(id) FROM leaderboard_submission))"
        )
        cursor.execute("DROP TABLE bench_plays")
    return ids
