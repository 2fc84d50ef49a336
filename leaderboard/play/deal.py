"""The deal of the day: stored ahead by ``daily_deal_ensure`` (beat, or the view of today's
deal, before it reads), read by ``daily_deal``. Which day it is, and when it closes: ``days``.
"""

import hashlib
import hmac
from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games import format_code, solver
from games.deal import MAX_DEAL

from ..boards import order
from ..boards.selectors import pages as reads
from ..core.days import day_final, day_times, today
from ..core.errors import NotFound, Unavailable
from ..record.models import Attempt, DailyDeal


def daily_candidates(day: date, secret: str | None = None):
    """Deal numbers for ``day``, in order: an HMAC of the date under the server secret, so
    nobody can compute tomorrow's deal without it."""
    key = (secret or settings.DAILY_DEAL_SECRET).encode()
    for attempt in range(1000):
        digest = hmac.new(key, f"{day.isoformat()}/{attempt}".encode(), hashlib.sha256).digest()
        yield int.from_bytes(digest[:8], "big") % MAX_DEAL + 1


def daily_deal_ensure(day: date) -> DailyDeal:
    """The stored deal of ``day``; the first call picks the first candidate the solver
    wins within its node budget and stores the winning line as the proof."""
    existing = DailyDeal.objects.filter(date=day).first()
    if existing:
        return existing
    for tried, number in enumerate(daily_candidates(day), 1):
        found = solver.solve(number, node_limit=settings.DAILY_SOLVER_NODES)
        if found.won:
            break
    else:  # pragma: no cover - a thousand unsolved candidates means the solver is broken
        raise RuntimeError(f"no winnable daily deal found for {day}")
    try:
        with transaction.atomic():
            return DailyDeal.objects.create(
                date=day, number=number, solution=found.actions, candidates_tried=tried
            )
    except IntegrityError:  # another process stored it first: theirs stands
        return DailyDeal.objects.get(date=day)


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
        "date": day, "proven_winnable": bool(deal.solution), "players": _daily_players(day),
        **day_times(day), "final": final,
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
    attempt = (Attempt.objects.filter(player=player, daily_date=day).order_by("-started_at")
               .values("id", "deal_code", "ranked", "started_at", "submission__id").first())
    if attempt is None:
        return None
    return {"id": attempt["id"], "code": attempt["deal_code"], "ranked": attempt["ranked"],
            "started_at": attempt["started_at"], "submission": attempt["submission__id"]}
