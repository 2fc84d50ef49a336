"""The calendar: a month of deals of the day, and what the viewer did on each day. A read: it
never writes (no deal is stored here, no index rebuilt), and a month is one statement whatever
its number of days or the viewer's games.

A day is available from the service's first deal of the day until today; a day before it, a
day after today, and a past day with no deal stored are not. Each available day tells whether
it is final (its close plus the grace, ``days.day_final``: then its deal's code is public, its
games can be replayed and it can be played again as a numbered deal) and, to a signed-in
viewer, their result there:

- ``won`` / ``lost``: their ranked result of the day stands on its board (verified, not
  hidden, flagged or a copy), and one won or none did: exactly the days the streaks count;
- ``practice``: no ranked result there, but they played its deal later: a practice try of the
  day, or its deal played as a numbered deal (its D code after the day, or its number);
- ``none``: nothing of theirs verified.
"""

from datetime import date, timedelta

from games import format_code

from ..core import days, sql
from ..record.models import DailyDeal, Submission, on_boards_sql

WON, LOST, PRACTICE, NONE = "won", "lost", "practice", "none"
#: The months a calendar can show (first days): any month has a next one.
MONTHS = (date(2000, 1, 1), date(9998, 12, 1))

_DEALS, _SUBMISSIONS = DailyDeal._meta.db_table, Submission._meta.db_table

# The service's first deal (one row even when the month has no deal), each deal of the month,
# and per deal the viewer's verified results of it (by the player's daily and deal indexes):
# the ranked ones (best first, as the board orders them) and the practice ones (latest first).
_MONTH = f"""
SELECT f."first", d."date", d."number", r."ranked", r."won", r."best", r."best_moves", r."practice", r."latest"
FROM (SELECT min("date") AS "first" FROM "{_DEALS}") f
LEFT JOIN "{_DEALS}" d ON d."date" BETWEEN %(start)s AND %(end)s
LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE s."ranked") AS "ranked",
           coalesce(bool_or(s."won") FILTER (WHERE s."ranked"), false) AS "won",
           (array_agg(s."id" ORDER BY s."rank_key", s."submitted_at", s."id") FILTER (WHERE s."ranked"))[1] AS "best",
           (array_agg(s."moves" ORDER BY s."rank_key", s."submitted_at", s."id") FILTER (WHERE s."ranked"))[1]
               AS "best_moves",
           count(*) FILTER (WHERE s."practice") AS "practice",
           (array_agg(s."id" ORDER BY s."submitted_at" DESC, s."id" DESC) FILTER (WHERE s."practice"))[1] AS "latest"
    FROM (
        SELECT s."id", s."won", s."moves", s."rank_key", s."submitted_at",
               s."daily_date" IS NOT NULL AND {on_boards_sql("s")} AS "ranked",
               s."practice" OR s."daily_date" IS NULL AS "practice"
        FROM "{_SUBMISSIONS}" s
        WHERE s."player_id" = %(player)s AND s."status" = %(verified)s AND NOT s."hidden"
          AND (s."daily_date" = d."date" OR (s."daily_date" IS NULL AND s."deal_number" = d."number"))
    ) s
) r ON d."date" IS NOT NULL
ORDER BY d."date"
"""


def month_of(day: date) -> date:
    """The first day of ``day``'s month: a month's name in this module."""
    return day.replace(day=1)


def next_month(month: date) -> date:
    return (month + timedelta(days=31)).replace(day=1)


def previous_month(month: date) -> date:
    return (month - timedelta(days=1)).replace(day=1)


def month_days(month: date) -> list[date]:
    """Every day of ``month``, in order (a month before December 9999: ``MONTHS``)."""
    return [month + timedelta(days=i) for i in range((next_month(month) - month).days)]


def month_calendar(month: date, viewer) -> dict:
    """The days of ``month`` (its first day) as the calendar shows them to ``viewer``, and the
    neighbouring months that have something to show (null at either end)."""
    today = days.today()
    player = viewer.pk if viewer.is_authenticated else None
    shown = month_days(month)
    found = sql.run(
        _MONTH, {"start": shown[0], "end": shown[-1], "player": player, "verified": Submission.Status.VERIFIED}
    )
    # No deal stored yet, or only tomorrow's (stored ahead): the service starts today.
    first = min(found[0][0] or today, today)
    deals = {row[1]: row[2:] for row in found if row[1] is not None}
    return {
        "month": month.strftime("%Y-%m"),
        "today": today,
        "first_day": first,
        "previous": previous_month(month).strftime("%Y-%m") if month > month_of(first) else None,
        "next": next_month(month).strftime("%Y-%m") if month < month_of(today) else None,
        "days": [_day(day, today, first, deals.get(day), player is not None) for day in shown],
    }


def _day(day: date, today: date, first: date, deal, signed_in: bool) -> dict:
    """One day of the calendar. Today is available as soon as the service is, its deal stored
    or not yet (the first reader of today's deal stores it)."""
    available = first <= day <= today and (deal is not None or day == today)
    final = available and days.day_final(day)
    answer = {
        "date": day,
        "available": available,
        "final": final,
        "code": format_code(deal[0], "D") if final and deal else None,
        "result": None,
        "submission": None,
        "moves": None,
    }
    if available and signed_in:
        answer.update(_result(deal))
    return answer


def _result(deal) -> dict:
    """The viewer's result of a day from the month's statement's columns."""
    if deal is None:  # today's deal not stored yet: nobody has played it
        return {"result": NONE}
    _number, ranked, won, best, best_moves, practice, latest = deal
    if ranked:
        return {"result": WON if won else LOST, "submission": best, "moves": best_moves}
    if practice:
        return {"result": PRACTICE, "submission": latest}
    return {"result": NONE}
