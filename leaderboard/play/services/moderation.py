"""Moderation, by staff in the admin: verify a result again, hide it, or clear (or set) its
flag. Each change recomputes the player's entries and stats in the same transaction."""

from django.db import transaction

from ...boards.services import entries
from ...record.models import Submission
from .intake import enqueue_verification

Status = Submission.Status

#: What the verifier wrote of a result, forgotten before it verifies the log again: a result
#: verified again as rejected must not keep the numbers or the tempo profile of the first time.
_UNVERIFIED = {
    "verified_at": None,
    "won": None,
    "score": None,
    "moves": None,
    "foundation": None,
    "undos": None,
    "take_backs": None,
    "stock_passes": None,
    "waste_to_column": None,
    "duration_ms": None,
    "clean": None,
    "rank_key": None,
    "error_index": None,
    "error": "",
    "refusal": None,
    "tempo": None,
    "signals": None,
    "near_copy_of": None,
}


def submission_reverify(submission: Submission) -> None:
    """Staff: verify again from scratch (after a fix, or a doubt)."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(status=Status.PENDING, claim=None, **_UNVERIFIED)
        submission.refresh_from_db()
        entries.boards_refresh(submission)
        transaction.on_commit(lambda: enqueue_verification(submission.pk))


def submission_set_hidden(submission: Submission, hidden: bool) -> None:
    """Staff: take a result off every board, or put it back."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(hidden=hidden)
        submission.hidden = hidden
        entries.boards_refresh(submission)


def submission_set_flagged(submission: Submission, flagged: bool) -> None:
    """Staff review of an implausible result: clearing the flag puts it on the boards."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(flagged=flagged)
        submission.flagged = flagged
        entries.boards_refresh(submission)
