"""The deal of the day, the write: stored ahead by ``daily_deal_ensure`` (beat, or the view of
today's deal, before it reads); read by ``play.selectors.deal``. Which day it is, and when it
closes: ``core.days``.
"""

import hashlib
import hmac
from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction

from games import solver
from games.deal import MAX_DEAL

from ...record.models import DailyDeal


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
    for tried, number in enumerate(daily_candidates(day), 1):  # noqa: B007 (stored after the loop)
        found = solver.solve(number, node_limit=settings.DAILY_SOLVER_NODES)
        if found.won:
            break
    else:  # pragma: no cover - a thousand unsolved candidates means the solver is broken
        raise RuntimeError(f"no winnable daily deal found for {day}")
    try:
        with transaction.atomic():
            return DailyDeal.objects.create(
                date=day,
                number=number,
                solution=found.actions,
                solution_moves=len(found.actions),
                candidates_tried=tried,
            )
    except IntegrityError:  # another process stored it first: theirs stands
        return DailyDeal.objects.get(date=day)
