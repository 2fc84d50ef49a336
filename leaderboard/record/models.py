"""The record of play: daily deals, attempts, submissions, the boards' best results, the
players' stats and the archived months. Every other folder reads and writes these; they import
nothing of the app but ``core``.

PostgreSQL is the record. The Redis ranking index (leaderboard.boards.index) is derived from
``BoardEntry`` and can always be rebuilt from it.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q, Value
from django.utils.translation import gettext_lazy as _

from ..core.fields import CompactLogField, CompactTimesField


class DailyDeal(models.Model):
    """The deal of one UTC date, stored the first time it is needed so that a later
    change of DAILY_DEAL_SECRET never rewrites history."""

    date = models.DateField(primary_key=True)
    number = models.PositiveIntegerField()
    #: The solver's winning line: proof that the deal can be won, public once the day ends.
    solution = models.JSONField()
    #: The solver line's move count (``len(solution)``: it has no undo), the engine match's yardstick.
    solution_moves = models.PositiveIntegerField(null=True, blank=True)
    candidates_tried = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=999_999), name="daily_number_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.date} #{self.number}"


class Attempt(models.Model):
    """A player starting a deal. The server's clock is the only clock. Partitioned by the UTC
    month of ``started_at`` (``leaderboard.partitions``; its key in PostgreSQL: id, started_at)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts")
    deal_code = models.CharField(max_length=13)
    deal_number = models.PositiveIntegerField()
    #: Set when this attempt plays the deal of the day it was started on.
    daily_date = models.DateField(null=True, blank=True)
    started_at = models.DateTimeField()
    #: The player's ranked try at the day's deal (the first DAILY_RANKED_ATTEMPTS of the day).
    ranked = models.BooleanField(default=False)
    #: Hints answered for this attempt, counted by the server (never taken from the client).
    hints = models.PositiveIntegerField(default=0)
    #: Who is behind it (``play.services.origin``): keyed hashes of the client's address block
    #: and of the browser's device cookie, cleared after ORIGIN_KEEP_DAYS.
    address_hash = models.CharField(max_length=32, null=True, blank=True)
    device_hash = models.CharField(max_length=32, null=True, blank=True)
    #: Another account whose ranked try of the day began shortly before from the same device or
    #: address, unsubmitted or lost (a peek): the result is held for review. ``linked_by``: how.
    linked_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    linked_by = models.CharField(max_length=16, blank=True, db_default="", default="")

    class Meta:
        indexes = [
            models.Index(fields=["player", "-started_at"], name="attempt_player_recent"),
            models.Index(fields=["daily_date", "device_hash"], name="attempt_day_device"),
            models.Index(fields=["daily_date", "address_hash"], name="attempt_day_address"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.deal_code} {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def practice(self) -> bool:
        """A later try at a day's deal: verified and kept, never on a board or in a streak."""
        return self.daily_date is not None and not self.ranked


class SubmissionStatus(models.TextChoices):
    """A submission's life cycle: intake stores it ``PENDING``; a worker's claim makes it
    ``VERIFYING`` (back to pending when the claim goes stale, or staff verify it again); the
    replay ends it ``VERIFIED`` or ``REJECTED``. The plain SQL of every module names these."""

    PENDING = "pending"
    VERIFYING = "verifying"
    VERIFIED = "verified"
    REJECTED = "rejected"


#: Not verified yet: stored, or claimed by a worker.
UNFINISHED = (SubmissionStatus.PENDING, SubmissionStatus.VERIFYING)

#: "On the boards", the one definition: a verified result that staff did not hide, that is not
#: flagged, not a practice game, no copy and not a guest's (an unclaimed guest's, or one claimed
#: only after its day was final: ``accounts.guests``). It ranks, and counts for the stats and
#: streaks.
#: ``Submission.on_boards`` (a row), ``Submission.objects.on_boards()`` (a queryset) and
#: ``on_boards_sql`` (plain SQL) are made of it.
ON_BOARDS = {
    "status": SubmissionStatus.VERIFIED,
    "hidden": False,
    "flagged": False,
    "practice": False,
    "copy_of_id": None,
    "guest": False,
}

#: The name a guest player carries until it keeps its result (``accounts.guests``): "~" is not
#: a character of a username (Django's validator), so no sign-up can take or imitate it.
GUEST_PREFIX = "~guest-"


def is_guest(player) -> bool:
    """A guest player: a player with no name or password yet, bound to one browser."""
    return player.username.startswith(GUEST_PREFIX)


def on_boards_sql(alias: str = "") -> str:
    """``ON_BOARDS`` as a condition of plain SQL over the submissions table (as ``alias``)."""
    column = f'{alias}."{{}}"' if alias else '"{}"'
    terms = []
    for name, value in ON_BOARDS.items():
        if value is None:
            terms.append(f"{column.format(name)} IS NULL")
        elif isinstance(value, bool):
            terms.append(column.format(name) if value else f"NOT {column.format(name)}")
        else:
            terms.append(f"{column.format(name)} = '{value}'")
    return " AND ".join(terms)


class SubmissionQuerySet(models.QuerySet):
    def on_boards(self) -> "SubmissionQuerySet":
        """The results on the boards (``ON_BOARDS``)."""
        return self.filter(**ON_BOARDS)


class Submission(models.Model):
    """The move log of one attempt, and what the verifier made of it. Partitioned by the UTC
    month of its attempt's start, ``attempt_started_at`` (``history.services.partitions``)."""

    Status = SubmissionStatus
    objects = SubmissionQuerySet.as_manager()

    # No Django constraint: Attempt is partitioned, its key in PostgreSQL is (id, started_at). The
    # database holds the composite key (attempt_id, attempt_started_at) instead (docs/partitions.md).
    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="submission", db_constraint=False)
    #: The attempt's ``started_at``, copied at intake: the month partition of the submission, so
    #: that it lives in the same month as its attempt (kept equal by the database's foreign key).
    attempt_started_at = models.DateTimeField(editable=False)
    # Copied from the attempt so the boards' queries need no join.
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions")
    deal_number = models.PositiveIntegerField()
    daily_date = models.DateField(null=True, blank=True)

    #: The move log: a list of action texts, stored compact (leaderboard.fields, docs/compact-logs.md).
    actions = CompactLogField()
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    claim = models.UUIDField(null=True, blank=True, help_text="Set by the worker that claimed it.")
    claimed_at = models.DateTimeField(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    deliveries = models.PositiveIntegerField(default=0, help_text="Times a worker claimed it.")

    won = models.BooleanField(null=True)
    score = models.PositiveIntegerField(null=True)
    moves = models.PositiveIntegerField(null=True)
    foundation = models.PositiveSmallIntegerField(null=True)
    undos = models.PositiveIntegerField(null=True)
    take_backs = models.PositiveIntegerField(null=True)
    stock_passes = models.PositiveIntegerField(null=True)
    waste_to_column = models.PositiveIntegerField(null=True)
    duration_ms = models.PositiveBigIntegerField(null=True)
    hints = models.PositiveIntegerField(default=0, help_text="Hints the player asked for.")
    clean = models.BooleanField(null=True, help_text="No undo in the log and no hint asked.")
    error_index = models.PositiveIntegerField(null=True)
    error = models.TextField(blank=True)
    #: The engine's reason for ``error`` as data, ``{"code", "args"}`` (games.refusals): the API
    #: writes it in the reader's language. None for an older row or words outside the catalogue.
    refusal = models.JSONField(null=True, blank=True)

    #: The ranking order packed in one number (leaderboard.boards.order.rank_key); lower is better.
    rank_key = models.BigIntegerField(null=True)
    hidden = models.BooleanField(default=False, help_text="Hidden by staff: off every board.")
    flagged = models.BooleanField(default=False, help_text="Implausible: off the boards until reviewed.")
    #: The reasons of the flag: tempo rules (leaderboard.tempo.RULES) and "too_fast_server_clock".
    flag_reasons = models.JSONField(default=list, db_default=Value([], models.JSONField()), blank=True)
    #: The browser's time of each action, ms since the attempt started: evidence, never ranked.
    #: Stored compact, as ``actions``.
    times = CompactTimesField(null=True, blank=True)
    #: The tempo profile of ``times`` (leaderboard.tempo.TempoProfile as a dict).
    tempo = models.JSONField(null=True, blank=True)
    #: Copied from the attempt: a later try at a day's deal, verified but never ranked.
    practice = models.BooleanField(default=False, db_default=False)
    #: The earlier submission of another player on the same deal with the identical log.
    #: No database constraint (a partitioned table's key includes its partition column): it may
    #: name a submission of an archived month (docs/partitions.md).
    copy_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="copies", db_constraint=False
    )
    #: sha256 of the log's canonical line (games.canonical.line_hash): finds copies by index.
    log_hash = models.CharField(max_length=64, blank=True, db_default="")
    #: Played by a guest that has not kept it (``accounts.guests``): off the boards; kept before
    #: its day is final, it is cleared and the result ranks.
    guest = models.BooleanField(default=False, db_default=False)
    #: The earlier submission of another player whose canonical line this one's is very close to
    #: (leaderboard.play.copies). No database constraint, as ``copy_of``.
    near_copy_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="near_copies",
        db_constraint=False,
        db_index=False,
    )
    #: What the copy and engine-match checks measured, for staff (leaderboard.play.signals).
    signals = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "submitted_at"], name="submission_status_age"),
            models.Index(fields=["player", "deal_number"], name="submission_player_deal"),
            models.Index(fields=["player", "daily_date"], name="submission_player_daily"),
            # The copy check's probe: equal logs on a deal, in submission order
            # (submissions.verification._claim).
            models.Index(fields=["deal_number", "log_hash", "submitted_at", "id"], name="submission_deal_log"),
        ]
        constraints = [
            # One submission per attempt: attempt_started_at is a function of attempt_id, and a
            # unique constraint of a partitioned table must hold its partition column.
            models.UniqueConstraint(fields=["attempt", "attempt_started_at"], name="one_submission_per_attempt"),
            models.CheckConstraint(
                condition=~Q(status="verified") | Q(won__isnull=False, rank_key__isnull=False),
                name="verified_has_result",
            ),
            models.CheckConstraint(
                condition=~Q(status="rejected") | Q(error_index__isnull=False),
                name="rejected_has_index",
            ),
        ]

    def __str__(self) -> str:
        return f"submission {self.pk} ({self.status})"

    def save(self, *args, **kwargs):
        if self.attempt_started_at is None:  # the ORM's creations (intake sets it in its INSERT)
            self.attempt_started_at = self.attempt.started_at
        super().save(*args, **kwargs)

    @property
    def archived(self) -> bool:
        """Its month was archived: a result kept for the boards without its log (intake never
        stores an empty log), which is in the month's archive file (docs/partitions.md)."""
        return not self.actions

    @property
    def on_boards(self) -> bool:
        """This result is on the boards (``ON_BOARDS``)."""
        return all(getattr(self, name) == value for name, value in ON_BOARDS.items())


class BoardEntry(models.Model):
    """A player's best standing result on one board ("daily:2026-11-29" or "deal:12345")."""

    board = models.CharField(max_length=24)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_entries")
    # No database constraint: submissions are partitioned (docs/partitions.md); Django cascades.
    submission = models.ForeignKey(
        Submission, on_delete=models.CASCADE, related_name="board_entries", db_constraint=False
    )
    rank_key = models.BigIntegerField()
    submitted_at = models.DateTimeField()
    #: The 1-based final rank on a frozen board (``boards.freeze``); null while the board is open.
    rank = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["board", "player"], name="one_entry_per_player")]
        indexes = [
            models.Index(fields=["board", "rank_key", "submitted_at", "submission"], name="board_order"),
            models.Index(fields=["board", "rank"], name="frozen_rank", condition=Q(rank__isnull=False)),
        ]


class ArchivedMonth(models.Model):
    """A UTC month whose attempts and submissions went to an archive file and out of their
    partitions (``leaderboard.archive``, docs/partitions.md): it is never archived twice."""

    #: The month's first day.
    month = models.DateField(primary_key=True)
    path = models.CharField(max_length=500)
    #: sha256 of the archive file, as written and checked.
    sha256 = models.CharField(max_length=64)
    submissions = models.PositiveIntegerField()
    attempts = models.PositiveIntegerField()
    #: The results on the boards kept in the month's new partition, without their logs.
    kept = models.PositiveIntegerField()
    #: The detached partitions were dropped (else kept as plain tables, ``..._archived``).
    dropped = models.BooleanField()
    archived_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.month:%Y-%m}"


class ArchiveErasure(models.Model):
    """A deleted account still to be erased from the archived months (``history.services.erasure``).
    Its id is all it holds (every archive line names its player by id) and the row goes once
    every month is rewritten: afterwards nothing here identifies the person."""

    #: The deleted account's id (no foreign key: the account is gone).
    player_id = models.BigIntegerField(primary_key=True)
    #: When its task was last queued (beat queues it again after ``erasure.REQUEUE_AFTER``).
    queued_at = models.DateTimeField()


class FlaggedSubmission(Submission):
    """The admin's moderation queue (leaderboard.admin.FlaggedSubmissionAdmin): flagged results
    awaiting staff review. A proxy, so that the queue has its own admin page and permissions."""

    class Meta:
        proxy = True
        verbose_name = _("flagged result")
        verbose_name_plural = _("flagged results")
