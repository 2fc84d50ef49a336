"""The deal of the day, the read: what a viewer may see of a day's deal (stored by
``play.services.deal``)."""

from datetime import date

from django.utils.translation import gettext

from games import format_code

from ...boards import order
from ...boards.selectors import pages as reads
from ...core.days import day_final, day_times, today
from ...core.errors import NotFound, Unavailable
from ...record.models import Attempt, DailyDeal


def daily_deal(day: date, viewer) -> dict:
    """The deal of ``day`` as ``viewer`` may see it: its cards (code, number, solution) only once
    the day is final; until then the facts around it, and the viewer's own latest attempt at it
    (they have seen its cards). A future day does not exist yet, and a past day has the deal
    stored then or none (today's is stored by ``daily_deal_ensure`` first, which a reader
    never calls: it may make the server solve a deal)."""
    if day > today():
        raise NotFound(gettext("There is no deal of the day for %(day)s yet.") % {"day": day.isoformat()})
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is None:
        raise NotFound(gettext("There was no deal of the day on %(day)s.") % {"day": day.isoformat()})
    final = day_final(day)
    return {
        "date": day,
        "proven_winnable": bool(deal.solution),
        "players": _daily_players(day),
        **day_times(day),
        "final": final,
        "code": format_code(deal.number, "D") if final else None,
        "number": deal.number if final else None,
        "solution": deal.solution if final else None,
        "attempt": _daily_attempt(viewer, day) if viewer.is_authenticated else None,
    }


def _daily_players(day: date) -> int | None:
    """The size of the day's board (its ranked results so far); None while a big board's index
    is away."""
    try:
        return reads.board_size(order.daily_board(day))
    except Unavailable:
        return None


def _daily_attempt(player, day: date) -> dict | None:
    """The player's most recent attempt at ``day``'s deal, so the game resumes on any device."""
    attempt = (
        Attempt.objects.filter(player=player, daily_date=day)
        .order_by("-started_at")
        .values("id", "deal_code", "ranked", "started_at", "submission__id")
        .first()
    )
    if attempt is None:
        return None
    return {
        "id": attempt["id"],
        "code": attempt["deal_code"],
        "ranked": attempt["ranked"],
        "started_at": attempt["started_at"],
        "submission": attempt["submission__id"],
    }
