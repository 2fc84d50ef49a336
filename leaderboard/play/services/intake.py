"""Intake: a submitted log is checked, stored in PostgreSQL first (it is never lost), and its
verification queued after commit. The hot path of every submission: plain SQL, no ORM compile.

The verification is queued by the task's name (``VERIFY_TASK``), not by importing
``leaderboard.tasks``: tasks import the services, never the other way round.
"""

import logging
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

import games
from games import canonical, compact

from ...core import days, sql
from ...core.errors import Conflict, Forbidden, Invalid, TooLarge
from ...record.models import Attempt, Submission, is_guest
from ...record.players import DayHints
from .. import tempo
from . import attempts

log = logging.getLogger(__name__)

#: The Celery task that verifies a submission (leaderboard.tasks.verify_submission is registered
#: under this name).
VERIFY_TASK = "leaderboard.tasks.verify_submission"

_SUBMISSIONS, _ATTEMPTS, _DAY_HINTS = Submission._meta.db_table, Attempt._meta.db_table, DayHints._meta.db_table
_INSERTED = (
    "attempt_id",
    "attempt_started_at",
    "player_id",
    "deal_number",
    "daily_date",
    "actions",
    "times",
    "submitted_at",
    "status",
    "deliveries",
    "hints",
    "error",
    "hidden",
    "flagged",
    "practice",
    "log_hash",
    "guest",
)
_INSERTED_SQL = ", ".join(f'"{name}"' for name in _INSERTED)


def submission_create(*, attempt: Attempt, player, actions, times=None, received_at=None) -> Submission:
    """Store the log first (it is never lost), then queue its verification after commit.
    ``times``: the browser's time of each action (ms since the attempt started), required for
    a daily attempt; a numbered deal's result without them is kept off the boards
    (``tempo.NO_TIMES``). Evidence for staff review, never ranked. ``received_at``: when the
    server got the log, if not now (a draft submitted once its day is final: ``drafts``)."""
    submitted_at = received_at or timezone.now()
    _check_submission(attempt, player, actions, submitted_at)
    _check_times(attempt, times, len(actions), submitted_at)
    submission = Submission(
        attempt=attempt,
        attempt_started_at=attempt.started_at,
        player=player,
        deal_number=attempt.deal_number,
        daily_date=attempt.daily_date,
        actions=actions,
        times=times,
        practice=attempt.practice,
        log_hash=log_hash(actions),
        submitted_at=submitted_at,
        guest=is_guest(player),
    )
    _store(submission)
    transaction.on_commit(lambda: enqueue_verification(submission.pk))
    return submission


def _check_submission(attempt: Attempt, player, actions, submitted_at: datetime) -> None:
    """Refuse, in this order: another player's attempt, a day that has closed, a log that is not
    a list, an empty one, one too long, and the first action that is not of the notation."""
    if attempt.player_id != player.pk:
        raise Forbidden(_("Only the player who started this attempt may submit to it."))
    if attempt.daily_date is not None and submitted_at > days.day_accepts_until(attempt.daily_date):
        raise Conflict(
            _("The day of this deal has closed: its games can no longer be ranked."),
            detail=days.day_times(attempt.daily_date),
            code="day_closed",
        )
    log_checked(actions)


def log_checked(actions) -> None:
    """Refuse, in this order, a log that is not a list, an empty one, one too long, and the first
    action that is not of the notation (a submission's log, a draft's: ``drafts``)."""
    if not isinstance(actions, list):
        raise Invalid(_("actions must be a list of action strings."), code="invalid_log")
    if not actions:
        raise Invalid(_("The log is empty: play at least one action."), code="empty_log")
    if len(actions) > settings.SUBMISSION_MAX_ACTIONS:
        raise TooLarge(
            _("A log may hold at most %(limit)s actions.")
            % {"limit": number_format(settings.SUBMISSION_MAX_ACTIONS, force_grouping=True)}
        )
    bad = first_malformed(actions)
    if bad:
        position, reason = bad
        raise Invalid(reason, detail={"index": position}, code="malformed_action")


def first_malformed(actions) -> tuple[int, str] | None:
    """The index and reason of the first action that is not of the notation at all."""
    # Nearly every log is all actions: one pass in C (its texts are the notation's, exactly what
    # parse_action accepts); an unhashable element or any other text goes to the loop, which names it.
    try:
        if games.ACTIONS.keys() >= set(actions):
            return None
    except TypeError:
        pass
    for position, text in enumerate(actions):
        try:
            games.parse_action(text)
        except games.MalformedAction as exc:
            return position, games.render(exc.refusal, _)
    return None


def _check_times(attempt: Attempt, times, actions_count: int, submitted_at: datetime) -> None:
    """The times' shape (leaderboard.tempo.check_times), against the server's duration so far."""
    if times is None:
        if attempt.daily_date is not None:
            raise Invalid(_("A game of the day is sent with the time of each action."), code="times_required")
        return
    duration_ms = int((submitted_at - attempt.started_at).total_seconds() * 1000)
    found = tempo.check_times(times, duration_ms, actions_count, settings.TIMES_SLACK_MS)
    if found:
        position, problem = found
        raise Invalid(_(problem.message), detail={"index": position, "problem": problem.code}, code="invalid_times")


def log_hash(actions: list) -> str:
    """sha256 of the log's canonical line (games.canonical: aliases written one way, undone
    actions out): two logs of one game hash the same, and copies are found by it."""
    return canonical.line_hash(actions)


def _store(submission: Submission) -> None:
    """Insert the row with its hints, under the player's hints lock (``attempts.hints_lock``):
    what the result carries is read in the transaction that stores it, and a hint asked once
    it is stored is refused. A second submission to the attempt is a conflict (its unique
    index, ``one_submission_per_attempt``: the attempt and its start, the month partition's key)."""
    try:
        with transaction.atomic():  # a savepoint in a caller's: a conflict leaves it usable
            attempts.hints_lock(submission.player_id)
            _submission_insert(submission)
    except IntegrityError:
        raise Conflict(
            _("This attempt already has a submission: start a new attempt."), code="already_submitted"
        ) from None


def _hints_sql(attempt: Attempt) -> tuple[str, list]:
    """The hints a result carries, read as it is stored: its attempt's (its month written out,
    ``sql.within``), and for a ranked try those of the player's day (``DayHints``: asked on any
    attempt of the day's number), whichever is more. The SQL and its parameters."""
    month = sql.within('a."started_at"', days.month_range(attempt.started_at))
    hints = f'(SELECT a."hints" FROM "{_ATTEMPTS}" a WHERE a."id" = %s AND a."started_at" = %s AND {month})'
    args = [attempt.pk, attempt.started_at]
    if attempt.ranked and attempt.daily_date is not None:
        day = f'(SELECT h."hints" FROM "{_DAY_HINTS}" h WHERE h."player_id" = %s AND h."date" = %s)'
        return f"GREATEST({hints}, COALESCE({day}, 0))", [*args, attempt.player_id, attempt.daily_date]
    return hints, args


_HINTS_AT = _INSERTED.index("hints")


def _submission_insert(submission: Submission) -> None:
    """The new row in one plain INSERT (no ORM compile), its hints read by it; the log and its
    times in the compact encoding of their fields (leaderboard.fields)."""
    values = [getattr(submission, name) for name in _INSERTED]
    values[_INSERTED.index("actions")] = compact.encode_log(submission.actions)
    values[_INSERTED.index("times")] = None if submission.times is None else compact.encode_times(submission.times)
    placeholders = ["%s"] * len(values)
    placeholders[_HINTS_AT], values[_HINTS_AT : _HINTS_AT + 1] = _hints_sql(submission.attempt)
    [(submission.pk, submission.hints)] = sql.run(
        f'INSERT INTO "{_SUBMISSIONS}" ({_INSERTED_SQL}) VALUES ({", ".join(placeholders)}) RETURNING "id", "hints"',
        values,
    )
    submission._state.adding = False


def enqueue_verification(submission_id: int) -> None:
    """Queue the task; a broker that is down only delays it (beat re-queues pending rows)."""
    try:
        current_app.send_task(VERIFY_TASK, (submission_id,), ignore_result=True, retry=False)
    except Exception:  # the row is safe in the database; requeue_stale picks it up
        log.warning("could not queue submission %s; it stays pending", submission_id, exc_info=True)
