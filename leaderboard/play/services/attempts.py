"""Attempts: starting a deal (the server's clock starts then) and the hints asked on it."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from games import solver

from ...core import days, sql
from ...core.errors import Conflict, Invalid, refusal_words
from ...record.models import Attempt, Submission
from . import deal as daily

#: What a player sends to start today's deal without knowing its code.
DAILY = "daily"

# The tables of the plain-SQL statements below (leaderboard.sql).
_SUBMISSIONS, _ATTEMPTS = Submission._meta.db_table, Attempt._meta.db_table


def attempt_start(*, player, deal_code: str) -> Attempt:
    """Start playing a deal now. "daily" (or the code of today's deal) starts today's deal
    of the day: ranked for the player's first DAILY_RANKED_ATTEMPTS of the day, practice
    after. A D code of another day is played like a numbered deal."""
    today = days.today()
    todays = None
    if deal_code.strip().lower() == DAILY:
        todays = daily.daily_deal_ensure(today)
        code = games.DealCode(mode="D", number=todays.number)
    else:
        code = _deal_code(deal_code)
        if code.mode == "D":
            todays = daily.daily_deal_ensure(today)
    if todays is None or todays.number != code.number:
        return Attempt.objects.create(
            player=player, deal_code=str(code), deal_number=code.number, started_at=timezone.now()
        )
    with transaction.atomic():
        # Two starts at once must not both see "no ranked attempt yet".
        sql.run(
            "SELECT pg_advisory_xact_lock(hashtext('daily-attempt'), hashtext(%s))",
            [f"{player.pk}:{today.isoformat()}"],
        )
        earlier = Attempt.objects.filter(player=player, daily_date=today).count()
        return Attempt.objects.create(
            player=player,
            deal_code=str(code),
            deal_number=code.number,
            daily_date=today,
            ranked=earlier < settings.DAILY_RANKED_ATTEMPTS,
            started_at=timezone.now(),
        )


def _deal_code(text: str) -> games.DealCode:
    try:
        return games.parse_code(text)
    except games.InvalidCode as exc:
        raise Invalid(games.render(exc.refusal, _), code="invalid_deal") from None


def hint_for(*, attempt: Attempt, actions) -> tuple[str | None, int]:
    """The solver's next action for the attempt's game so far (None once it is won), and the
    attempt's hints so far: each answered hint is counted on the attempt, which its result
    then carries (never the client's count)."""
    game = games.Game.new(attempt.deal_number)
    result = games.replay_onto(game, actions) if isinstance(actions, list) else None
    if result is None or not result.ok:
        raise Invalid(
            refusal_words(result.error, result.refusal) if result else _("actions must be a list of action strings."),
            detail={"index": result.index if result else None},
            code="invalid_log",
        )
    action = solver.hint(game, node_limit=settings.HINT_SOLVER_NODES)
    if action is None:
        return None, attempt.hints
    # Counted only while nothing was submitted: a later hint cannot help the log already sent.
    counted = sql.run(
        f'UPDATE "{_ATTEMPTS}" a SET "hints" = a."hints" + 1 WHERE a."id" = %s AND NOT EXISTS '
        f'(SELECT 1 FROM "{_SUBMISSIONS}" s WHERE s."attempt_id" = a."id" '
        f'AND s."attempt_started_at" = a."started_at") RETURNING a."hints"',
        [attempt.pk],
    )
    if not counted:
        raise Conflict(_("This attempt already has a submission: start a new attempt."), code="already_submitted")
    attempt.hints = counted[0][0]
    return action, attempt.hints
