"""Verification, in the worker: claim a pending submission, replay its log with the engine,
store the result (with the fair-play flags) and rank it; and re-queue what a down broker or a
dead worker left behind."""

import uuid
from dataclasses import asdict
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

import games
from games import compact

from ...boards import order
from ...boards.services import entries
from ...core import days, sql
from ...record.models import Attempt, Submission
from .. import signals, tempo
from . import origin
from .intake import enqueue_verification

Status = Submission.Status

#: The flag reason of a game played faster than MAX_ACTIONS_PER_SECOND by the server's clock.
TOO_FAST = "too_fast_server_clock"

# The tables of the plain-SQL statements below (leaderboard.sql).
_SUBMISSIONS, _ATTEMPTS = Submission._meta.db_table, Attempt._meta.db_table
_CLAIMED = (
    "id",
    "attempt_id",
    "player_id",
    "deal_number",
    "daily_date",
    "actions",
    "times",
    "submitted_at",
    "hints",
    "hidden",
    "deliveries",
    "practice",
    "log_hash",
)
_CLAIMED_SQL = ", ".join(f's."{name}"' for name in _CLAIMED)
# The earliest submission of another player with the same log on the same deal (not rejected),
# submitted before this one: this one is its copy. One probe of the (deal_number, log_hash) index
# of each month up to now.
_ORIGINAL_SQL = (
    f'(SELECT o."id" FROM "{_SUBMISSIONS}" o WHERE o."deal_number" = s."deal_number" '
    f'AND o."log_hash" = s."log_hash" AND s."log_hash" <> \'\' AND o."player_id" <> s."player_id" '
    f'AND o."status" <> \'{Status.REJECTED}\' AND (o."submitted_at", o."id") < (s."submitted_at", s."id") '
    f'AND o."attempt_started_at" < %s ORDER BY o."submitted_at", o."id" LIMIT 1)'
)
# An original's attempt started before it was submitted, so before now: the bound (a constant)
# keeps the months created ahead out of the plan. The slack covers another host's clock.
_CLOCK_SLACK = timedelta(hours=1)
_S_STARTED_AT, _A_STARTED_AT, _STARTED_AT = 's."attempt_started_at"', 'a."started_at"', '"attempt_started_at"'


def submission_verify(submission_id: int) -> Submission | None:
    """Claim (pending -> verifying), replay, store the result. A duplicate delivery, or a
    submission another worker holds, changes nothing and returns None."""
    claim = uuid.uuid4()
    submission = _claim(submission_id, claim)
    if submission is None:
        return None
    result = games.replay(submission.attempt.deal_code, submission.actions)
    # What the moves tell (near-copies, engine match): reads, before the transaction that stores.
    found = signals.review(submission, result.won, result.moves) if result.ok else signals.Review()
    with transaction.atomic():
        fields = _result_fields(submission, result, found)
        if not _result_store(submission, claim, fields):
            return None  # re-claimed after we took too long: the other worker finishes it
        for name, value in fields.items():
            setattr(submission, name, value)
        if submission.status == Status.VERIFIED:
            entries.boards_refresh_verified(submission)
    return submission


def _claim(submission_id: int, claim: uuid.UUID) -> Submission | None:
    """Pending -> verifying under ``claim``; the submission (what verifying it needs, with the
    original it copies in ``copy_of_id``) and its attempt, or None when it is not pending:
    one UPDATE ... RETURNING, in this month's partition first (nearly every submission's
    attempt started this month), then, when it is not there, in every partition."""
    now = timezone.now()
    return _claim_in(submission_id, claim, now, days.month_range(now)) or _claim_in(submission_id, claim, now, None)


def _claim_in(submission_id: int, claim: uuid.UUID, now, months: tuple | None) -> Submission | None:
    """The claim among the submissions whose attempt started in ``months`` (a range of times:
    PostgreSQL plans one partition of each table), or among all of them when None."""
    within = ""
    if months is not None:
        within = f"AND {sql.within(_S_STARTED_AT, months)} AND {sql.within(_A_STARTED_AT, months)} "
    rows = sql.run(
        f'UPDATE "{_SUBMISSIONS}" s SET "status" = %s, "claim" = %s, "claimed_at" = %s, '
        f'"deliveries" = s."deliveries" + 1 FROM "{_ATTEMPTS}" a '
        f'WHERE s."id" = %s AND s."status" = %s AND a."id" = s."attempt_id" '
        f'AND a."started_at" = s."attempt_started_at" {within}'
        f'RETURNING {_CLAIMED_SQL}, {_ORIGINAL_SQL}, a."deal_code", a."started_at", a."linked_by"',
        [Status.VERIFYING, claim, now, submission_id, Status.PENDING, now + _CLOCK_SLACK],
    )
    if not rows:
        return None
    row = rows[0]
    values = dict(zip(_CLAIMED, row))
    values["actions"] = compact.decode_log(values["actions"])  # bytea: the fields' encoding
    if values["times"] is not None:
        values["times"] = compact.decode_times(values["times"])
    values["copy_of_id"], deal_code, started_at, linked_by = row[len(_CLAIMED) :]
    submission = Submission(
        **values, attempt_started_at=started_at, status=Status.VERIFYING, claim=claim, claimed_at=now
    )
    submission.attempt = Attempt(
        pk=values["attempt_id"],
        player_id=values["player_id"],
        deal_code=deal_code,
        deal_number=values["deal_number"],
        daily_date=values["daily_date"],
        started_at=started_at,
        linked_by=linked_by,
    )
    return submission


def _result_store(submission: Submission, claim: uuid.UUID, fields: dict) -> bool:
    """Store the result, if the claim is still ours (by the id and its partition's key, its
    month written out: ``sql.within``)."""
    months = days.month_range(submission.attempt_started_at)
    columns = ", ".join(f'"{name}" = %s' for name in fields)
    values = [Jsonb(value) if isinstance(value, (dict, list)) else value for value in fields.values()]
    return (
        sql.run(
            f'UPDATE "{_SUBMISSIONS}" SET {columns} '
            f'WHERE "id" = %s AND "attempt_started_at" = %s AND {sql.within(_STARTED_AT, months)} '
            f'AND "status" = %s AND "claim" = %s',
            [*values, submission.pk, submission.attempt_started_at, Status.VERIFYING, claim],
        )
        == 1
    )


def _result_fields(submission: Submission, result: games.ReplayResult, found: signals.Review) -> dict:
    """The columns of the result: the rejection and its first bad action, or the verified game
    with its duration by the server's clock, its rank key and its fair-play flags."""
    now = timezone.now()
    if not result.ok:
        refusal = result.refusal and {"code": result.refusal.code, "args": dict(result.refusal.args)}
        return {
            "status": Status.REJECTED,
            "verified_at": now,
            "error_index": result.index,
            "error": result.error,
            "refusal": refusal,
        }
    duration_ms = int((submission.submitted_at - submission.attempt.started_at).total_seconds() * 1000)
    profile = tempo.profile(submission.times) if submission.times is not None else None
    reasons = _flag_reasons(profile, len(submission.actions), duration_ms)
    if profile is None and submission.daily_date is None:  # intake refuses a daily game without times
        reasons.insert(0, tempo.NO_TIMES)
    reasons += origin.linked_reasons(submission.attempt.linked_by)
    reasons += found.reasons
    rank_key = order.rank_key(
        result.won, result.moves, result.score, duration_ms, foundation=result.foundation, hints=submission.hints
    )
    if found.rank_key_floor is not None:  # a near-copy ranks after its original, even once cleared
        rank_key = max(rank_key, found.rank_key_floor)
    return {
        "status": Status.VERIFIED,
        "verified_at": now,
        "won": result.won,
        "score": result.score,
        "moves": result.moves,
        "foundation": result.foundation,
        "undos": result.undos,
        "take_backs": result.take_backs,
        "stock_passes": result.stock_passes,
        "waste_to_column": result.waste_to_column,
        "duration_ms": duration_ms,
        "clean": result.undos == 0 and submission.hints == 0,
        "rank_key": rank_key,
        "tempo": asdict(profile) if profile else None,
        "flag_reasons": reasons,
        "flagged": bool(reasons),
        "copy_of_id": submission.copy_of_id,
        "near_copy_of_id": found.near_copy_of_id,
        "signals": found.signals or None,
    }


def _flag_reasons(profile: tempo.TempoProfile | None, actions: int, duration_ms: int) -> list[str]:
    """Why staff must review the result before it ranks: the tempo rules' reasons, then TOO_FAST."""
    reasons = tempo.flags(profile, tempo_rules()) if profile else []
    if not plausible(actions, duration_ms):
        reasons.append(TOO_FAST)
    return reasons


def tempo_rules() -> tempo.TempoRules:
    """The tempo rules' thresholds, from settings (TEMPO_*)."""
    return tempo.TempoRules(
        min_actions=settings.TEMPO_MIN_ACTIONS,
        min_median_ms=settings.TEMPO_MIN_MEDIAN_MS,
        max_fast_share=settings.TEMPO_MAX_FAST_SHARE,
        min_spread=settings.TEMPO_MIN_SPREAD,
        pause_min_actions=settings.TEMPO_PAUSE_MIN_ACTIONS,
        min_pauses_per_100=settings.TEMPO_MIN_PAUSES_PER_100,
    )


def plausible(actions: int, duration_ms: int) -> bool:
    """A person cannot play faster than MAX_ACTIONS_PER_SECOND, measured by the server's clock."""
    return actions <= settings.MAX_ACTIONS_PER_SECOND * max(duration_ms, 0) / 1000 + 5


def requeue_stale() -> int:
    """Queue again what a down broker or a dead worker left behind: pending rows older than
    STALE_PENDING_SECONDS, and verifying rows whose claim is older than STALE_VERIFYING_SECONDS."""
    now = timezone.now()
    Submission.objects.filter(
        status=Status.VERIFYING, claimed_at__lt=now - timedelta(seconds=settings.STALE_VERIFYING_SECONDS)
    ).update(status=Status.PENDING, claim=None)
    stale = list(
        Submission.objects.filter(
            status=Status.PENDING, submitted_at__lt=now - timedelta(seconds=settings.STALE_PENDING_SECONDS)
        ).values_list("pk", flat=True)[:5000]
    )
    for submission_id in stale:
        enqueue_verification(submission_id)
    return len(stale)
