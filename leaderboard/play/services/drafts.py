"""An unfinished ranked daily: what becomes of it when the day closes.

While a ranked try at today's deal is played, the page saves its log as it stands
(``draft_save``): the server keeps only the last one per attempt (``AttemptDraft``), with the
server's clock at its arrival, and only until the day stops taking submissions. Once the day
is final (its close plus the grace, ``days.day_final``), beat submits each draft whose attempt
was never sent (``drafts_submit``) as its result, through the intake like any submission, as
received when it was saved: the worker verifies it, and it ranks as the game stood (a loss,
unless it was won), counting for the streak of days played. A try with nothing saved leaves no
result. The draft is deleted either way.
"""

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ...core import days
from ...core.errors import Conflict, Forbidden, Invalid, ServiceError
from ...record.models import Attempt, Submission
from .. import tempo
from ..models import AttemptDraft
from . import intake

log = logging.getLogger(__name__)


def draft_save(*, attempt: Attempt, player, actions, times) -> AttemptDraft:
    """Keep ``actions`` (with the browser's ``times``) as the attempt's last log, replacing the
    one before. Only the player's own ranked try at a day's deal, before it was submitted and
    while its day takes submissions; the log and times are checked as the intake checks them."""
    if attempt.player_id != player.pk:
        raise Forbidden(_("Only the player who started this attempt may submit to it."))
    if attempt.daily_date is None or not attempt.ranked:
        raise Conflict(_("Only a ranked try at the deal of the day is saved as it is played."), code="not_ranked")
    now = timezone.now()
    if now > days.day_accepts_until(attempt.daily_date):
        raise Conflict(
            _("The day of this deal has closed: its games can no longer be ranked."),
            detail=days.day_times(attempt.daily_date),
            code="day_closed",
        )
    if Submission.objects.filter(attempt_id=attempt.pk, attempt_started_at=attempt.started_at).exists():
        raise Conflict(_("This attempt already has a submission: start a new attempt."), code="already_submitted")
    _check_log(actions, times, int((now - attempt.started_at).total_seconds() * 1000))
    draft, _created = AttemptDraft.objects.update_or_create(
        attempt_id=attempt.pk,
        defaults={
            "player_id": player.pk,
            "daily_date": attempt.daily_date,
            "actions": actions,
            "times": times,
            "saved_at": now,
        },
    )
    return draft


def _check_log(actions, times, duration_ms: int) -> None:
    intake.log_checked(actions)
    if times is None:
        raise Invalid(_("A game of the day is sent with the time of each action."), code="times_required")
    found = tempo.check_times(times, duration_ms, len(actions), settings.TIMES_SLACK_MS)
    if found:
        position, problem = found
        raise Invalid(_(problem.message), detail={"index": position, "problem": problem.code}, code="invalid_times")


def drafts_submit(now=None) -> int:
    """Submit the last log of every ranked try of a final day that was never sent, as received
    when it was saved (the intake queues its verification); drop every draft of those days.
    How many were submitted."""
    now = now or timezone.now()
    final = [
        day for day in AttemptDraft.objects.values_list("daily_date", flat=True).distinct() if days.day_final(day, now)
    ]
    submitted = 0
    for draft in AttemptDraft.objects.filter(daily_date__in=final).select_related("attempt", "player").iterator():
        with transaction.atomic():
            attempt = draft.attempt
            if not Submission.objects.filter(attempt_id=attempt.pk, attempt_started_at=attempt.started_at).exists():
                try:
                    intake.submission_create(
                        attempt=attempt,
                        player=draft.player,
                        actions=draft.actions,
                        times=draft.times,
                        received_at=draft.saved_at,
                    )
                    submitted += 1
                except ServiceError:  # checked at each save: only a change of the rules since
                    log.warning("the draft of attempt %s was not taken", attempt.pk, exc_info=True)
            AttemptDraft.objects.filter(pk=draft.pk).delete()
    return submitted
