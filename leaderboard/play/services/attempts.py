"""Attempts: starting a deal (the server's clock starts then) and the hints asked on it."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from games import solver

from ...core import days, sql
from ...core.errors import Conflict, Invalid, refusal_words
from ...record.models import Attempt, DailyDeal, Submission
from ...record.players import DayHints
from . import deal as daily
from . import origin as origin_

#: What a player sends to start today's deal without knowing its code.
DAILY = "daily"

# The tables of the plain-SQL statements below (leaderboard.sql).
_SUBMISSIONS, _ATTEMPTS = Submission._meta.db_table, Attempt._meta.db_table


def attempt_start(*, player, deal_code: str, origin: origin_.Origin | None = None) -> Attempt:
    """Start playing a deal now. "daily" (or the code of today's deal) starts today's deal
    of the day: ranked for the player's first DAILY_RANKED_ATTEMPTS of the day, practice
    after. A D code of another day is played like a numbered deal. ``origin``: who is behind
    the request (its hashes are kept on the attempt; a ranked try is linked by them)."""
    today = days.today()
    origin = origin or origin_.Origin()
    todays = None
    if deal_code.strip().lower() == DAILY:
        todays = daily.daily_deal_ensure(today)
        code = games.DealCode(mode="D", number=todays.number)
    else:
        code = _deal_code(deal_code)
        if code.mode == "D":
            todays = daily.daily_deal_ensure(today)
    hashes = {"address_hash": origin.address_hash, "device_hash": origin.device_hash}
    if todays is None or todays.number != code.number:
        return Attempt.objects.create(
            player=player, deal_code=str(code), deal_number=code.number, started_at=timezone.now(), **hashes
        )
    with transaction.atomic():
        # Two starts at once must not both see "no ranked attempt yet".
        sql.run(
            "SELECT pg_advisory_xact_lock(hashtext('daily-attempt'), hashtext(%s))",
            [f"{player.pk}:{today.isoformat()}"],
        )
        earlier = Attempt.objects.filter(player=player, daily_date=today).count()
        ranked, now = earlier < settings.DAILY_RANKED_ATTEMPTS, timezone.now()
        linked_player_id, linked_by = (
            origin_.linked_try(player_id=player.pk, day=today, origin=origin, now=now) if ranked else (None, "")
        )
        return Attempt.objects.create(
            player=player,
            deal_code=str(code),
            deal_number=code.number,
            daily_date=today,
            ranked=ranked,
            started_at=now,
            linked_player_id=linked_player_id,
            linked_by=linked_by,
            **hashes,
        )


def _deal_code(text: str) -> games.DealCode:
    try:
        return games.parse_code(text)
    except games.InvalidCode as exc:
        raise Invalid(games.render(exc.refusal, _), code="invalid_deal") from None


def hint_for(*, attempt: Attempt, actions) -> tuple[str | None, int]:
    """The solver's next action for the attempt's game so far (None once it is won), and the
    attempt's hints so far: each answered hint is counted on the attempt, which its result
    then carries (never the client's count), and on the player's day when the attempt plays
    an open day's deal (any attempt of its number), which the day's ranked result carries."""
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
    return action, _hint_count(attempt)


#: The advisory lock that orders a player's hints and submissions (``hints_lock``).
_HINTS_LOCK = "SELECT pg_advisory_xact_lock(hashtext('player-hints'), hashtext(%s))"
_DAY_HINTS = DayHints._meta.db_table
# One more hint on each open day whose deal is this number (none for any other number: the
# same statement runs for every hint, so a numbered attempt of today's number is answered as
# any other).
_DAY_HINTS_SQL = (
    f'INSERT INTO "{_DAY_HINTS}" ("player_id", "date", "hints") '
    f'SELECT %s, d."date", 1 FROM "{DailyDeal._meta.db_table}" d WHERE d."number" = %s AND d."date" = ANY(%s) '
    f'ON CONFLICT ("player_id", "date") DO UPDATE SET "hints" = "{_DAY_HINTS}"."hints" + 1'
)


def hints_lock(player_id: int) -> None:
    """Take the player's hints lock until the transaction ends: a hint and a submission of one
    player never interleave, so a result carries every hint answered before it was stored."""
    sql.run(_HINTS_LOCK, [str(player_id)])


def _hint_count(attempt: Attempt) -> int:
    """Count the hint on the attempt and on the player's day of its deal, if that day is open
    (today, or yesterday until its grace ends). Refused once the attempt has a submission: a
    later hint cannot help the log already sent."""
    now = timezone.now()
    today = days.today()
    open_days = [
        today,
        *([today - timedelta(days=1)] if now <= days.day_accepts_until(today - timedelta(days=1)) else []),
    ]
    with transaction.atomic():
        hints_lock(attempt.player_id)
        counted = sql.run(
            f'UPDATE "{_ATTEMPTS}" a SET "hints" = a."hints" + 1 WHERE a."id" = %s AND a."started_at" = %s '
            f'AND NOT EXISTS (SELECT 1 FROM "{_SUBMISSIONS}" s WHERE s."attempt_id" = a."id" '
            f'AND s."attempt_started_at" = a."started_at") RETURNING a."hints"',
            [attempt.pk, attempt.started_at],
        )
        if not counted:
            raise Conflict(_("This attempt already has a submission: start a new attempt."), code="already_submitted")
        sql.run(_DAY_HINTS_SQL, [attempt.player_id, attempt.deal_number, open_days])
    attempt.hints = counted[0][0]
    return attempt.hints
