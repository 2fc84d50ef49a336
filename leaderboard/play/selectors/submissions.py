"""Reads of attempts and submissions, as a given viewer may see them."""

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from ...core import days, sql
from ...core.errors import Forbidden, NotFound
from ...record.models import Attempt, Submission


def attempt_for(viewer, attempt_id, *, others_not_found: bool = False) -> Attempt:
    """The viewer's own attempt: another player's is a 403, or with ``others_not_found`` a 404
    (as if it did not exist: its id tells nothing)."""
    attempt = _attempt(attempt_id)
    if attempt is None or (others_not_found and attempt.player_id != viewer.pk):
        raise NotFound(_("No such attempt."))
    if attempt.player_id != viewer.pk:
        raise Forbidden(_("This attempt belongs to another player."))
    return attempt


_ATTEMPT_FIELDS = Attempt._meta.concrete_fields


def _attempt(attempt_id) -> Attempt | None:
    """The attempt, whole, in one plain statement: every submission reads one, and compiling
    the ORM query cost more than running it. This month's partition first (nearly every attempt
    read is of one started this month), then every partition."""
    return _attempt_in(attempt_id, days.month_range(timezone.now())) or _attempt_in(attempt_id, None)


_ATTEMPT_COLUMNS = ", ".join(f'"{field.column}"' for field in _ATTEMPT_FIELDS)
_STARTED_AT = '"started_at"'
_ATTEMPT_SQL = f'SELECT {_ATTEMPT_COLUMNS} FROM "{Attempt._meta.db_table}" WHERE "id" = %s'


def _attempt_in(attempt_id, months: tuple | None) -> Attempt | None:
    """The attempt if it started in ``months`` (a range of times: one partition planned), or in
    any month when None."""
    if months is None:
        rows = sql.run(_ATTEMPT_SQL, [attempt_id])
    else:
        rows = sql.run(f"{_ATTEMPT_SQL} AND {sql.within(_STARTED_AT, months)}", [attempt_id])
    return Attempt.from_db(connection.alias, [field.attname for field in _ATTEMPT_FIELDS], rows[0]) if rows else None


def submission_for(viewer, submission_id: int) -> tuple[Submission, bool]:
    """The submission and whether ``viewer`` may see its log. The owner and staff see all of
    it. Anyone else sees a result only while it is on a board (else 404, as if it did not
    exist), and its log once the day is final (a daily deal: close plus grace) or, for a
    numbered deal, once the UTC day it was played on has closed."""
    submission = Submission.objects.select_related("attempt", "player").filter(pk=submission_id).first()
    if submission is None:
        raise NotFound(_("No such submission."))
    if viewer.is_staff or (viewer.is_authenticated and viewer.pk == submission.player_id):
        return submission, True
    if not submission.board_entries.exists():
        raise NotFound(_("No such submission."))
    if submission.daily_date is not None:
        return submission, days.day_final(submission.daily_date)
    return submission, days.day_closed(days.day_of(submission.attempt.started_at))
