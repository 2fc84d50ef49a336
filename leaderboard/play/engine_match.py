"""Engine match: a won daily result that plays like the server's own solver, held for review.

The solver's line of the day is stored with the deal (``DailyDeal.solution``, its move count in
``solution_moves``). Three rules read it (thresholds in settings, reasons in docs/fair-play.md):

- ``solver_line``: the result's canonical line plays at least ``ENGINE_MATCH_SHARE`` of the
  solver line's runs of three card moves in a row (``games.canonical.shared_moves``: stock taps
  left out, so tapping the stock more often does not hide the line);
- ``far_fewer_moves``: fewer moves than ``ENGINE_MOVES_FACTOR`` times the solver's, or, once the
  day has ``ENGINE_DAY_MIN_WINS`` ranked wins, fewer than ``ENGINE_DAY_MEDIAN_SHARE`` of their
  median;
- ``near_solver_often``: across days, at least ``ENGINE_STREAK_WINS`` of the player's last
  ``ENGINE_STREAK_DAYS`` ranked daily wins (this one included) within ``ENGINE_STREAK_FACTOR``
  times that day's solver count, each day alone passing or not.
"""

from datetime import date, timedelta

from django.conf import settings
from django.core.cache import cache

from games import canonical

from ..core import sql
from ..record.models import DailyDeal, Submission, on_boards_sql

SOLVER_LINE, FAR_FEWER_MOVES, NEAR_SOLVER_OFTEN = "solver_line", "far_fewer_moves", "near_solver_often"
_SUBMISSIONS = Submission._meta.db_table
#: How long a day's median of won moves is reused before it is counted again.
_MEDIAN_SECONDS = 300


def engine_signals(submission: Submission, line: list[str], moves: int, won: bool) -> tuple[dict, list[str]]:
    """What the engine match measured (for staff) and the codes of its rules that fire: only for
    a won ranked daily result whose day has a stored solver line."""
    if not won or submission.daily_date is None or submission.practice:
        return {}, []
    day = submission.daily_date
    held = cache.get_many([_solution_key(day), _moves_key(day)])  # both cached values: one round trip
    solution = solver_line(day, held)
    if not solution:
        return {}, []
    solver_moves = len(solution)
    share = round(canonical.shared_moves(line, solution), 3)
    wins, median = day_won_moves(day, held)
    bound = settings.ENGINE_MOVES_FACTOR * solver_moves
    if wins >= settings.ENGINE_DAY_MIN_WINS and median is not None:
        bound = max(bound, settings.ENGINE_DAY_MEDIAN_SHARE * median)
    near_days = near_solver_days(submission, moves, solver_moves)
    signals = {
        "solver_moves": solver_moves,
        "solver_share": share,
        "moves_bound": round(bound),
        "day_wins": wins,
        "day_median_moves": median,
        "near_solver_days": near_days,
    }
    reasons = []
    if share >= settings.ENGINE_MATCH_SHARE:
        reasons.append(SOLVER_LINE)
    if moves < bound:
        reasons.append(FAR_FEWER_MOVES)
    if near_days >= settings.ENGINE_STREAK_WINS:
        reasons.append(NEAR_SOLVER_OFTEN)
    return signals, reasons


def _moves_key(day: date) -> str:
    return f"engine:day-moves:{day.isoformat()}"


def _solution_key(day: date) -> str:
    return f"engine:solution:{day.isoformat()}"


def day_won_moves(day: date, held: dict | None = None) -> tuple[int, float | None]:
    """The day's wins on the board (``ON_BOARDS``: flagged ones and copies left out) and the
    median of their moves: counted by PostgreSQL at most once every few minutes (a cached
    value, or the one in ``held``, read from the cache already), never once a submission."""
    key = _moves_key(day)
    found = held.get(key) if held is not None else cache.get(key)
    if found is None:
        [(wins, median)] = sql.run(
            f'SELECT count(*), percentile_disc(0.5) WITHIN GROUP (ORDER BY "moves") FROM "{_SUBMISSIONS}" '
            f'WHERE "daily_date" = %s AND "won" AND {on_boards_sql()}',
            [day],
        )
        found = (wins, None if median is None else float(median))
        cache.set(key, found, _MEDIAN_SECONDS)
    return found[0], found[1]


def solver_line(day: date, held: dict | None = None) -> list[str] | None:
    """The solver's line of ``day``'s deal (None: no deal stored), from the cache (or ``held``,
    read from it already): a stored deal never changes, so the record is read once a day, not
    once a submission."""
    key = _solution_key(day)
    line = held.get(key) if held is not None else cache.get(key)
    if line is None:
        line = DailyDeal.objects.filter(date=day).values_list("solution", flat=True).first()
        if line is None:
            return None
        cache.set(key, line, 2 * 86400)
    return line


def near_solver_days(submission: Submission, moves: int, solver_moves: int) -> int:
    """Of the player's last ENGINE_STREAK_DAYS ranked daily wins (this one included), how many
    took at most ENGINE_STREAK_FACTOR times their day's solver count: 0 when this one did not
    (the rule is about this result), else one statement over the player's recent wins."""
    factor = settings.ENGINE_STREAK_FACTOR
    if moves > factor * solver_moves:
        return 0
    days = settings.ENGINE_STREAK_DAYS
    [(near,)] = sql.run(
        'SELECT count(*) FROM (SELECT s."moves", '
        'coalesce(d."solution_moves", jsonb_array_length(d."solution")) AS "solver" '
        f'FROM "{_SUBMISSIONS}" s '
        f'JOIN "{DailyDeal._meta.db_table}" d ON d."date" = s."daily_date" '
        f'WHERE s."player_id" = %s AND s."daily_date" >= %s AND s."daily_date" < %s '
        f'AND s."status" = %s AND s."won" AND NOT s."practice" '
        f'ORDER BY s."daily_date" DESC LIMIT %s) t WHERE t."moves" <= %s * t."solver"',
        [
            submission.player_id,
            submission.daily_date - timedelta(days=2 * days),
            submission.daily_date,
            Submission.Status.VERIFIED,
            days - 1,
            factor,
        ],
    )
    return near + 1
